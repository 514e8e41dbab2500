"""No, Not That!'s fold: the golden 16-round match folded whole, and at every instant of it.

Run from the repository root: ``.venv/bin/python infra/bench/nnt_bench.py [--runs 7]``.

The record ``tests/golden/no_not_that/nnt-16-rounds.match.jsonl`` (260 events: every kind of
action, claim, challenge, item and host judgement) is parsed once, its events made facts once;
then, timed in this process's CPU time (``time.process_time``), the best of ``--runs``:

* the whole fold at the record's last game time, 200 times over (per fold);
* a fold at each event's game time in turn (what a timeline of the match asks of a fold
  without checkpoints: the match's history replayed at every instant).

Give another worktree's checkout as ``--root`` to time its code on the same record (the
record is read from this checkout), e.g. the commit before a change to the rules.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[2]
RECORD = HERE / "tests" / "golden" / "no_not_that" / "nnt-16-rounds.match.jsonl"


def best(runs: int, work: object) -> float:
    times = []
    for _ in range(runs):
        started = time.process_time()
        work()  # type: ignore[operator]
        times.append(time.process_time() - started)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--root", type=Path, default=HERE, help="the checkout whose code runs")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root.resolve()))
    from adjudicator.kernel.fold import fold
    from api.cli.audit import all_games
    from events.record import loads
    from projections.facts import to_facts
    from projections.record import setup_from_events

    record = loads(RECORD.read_text(encoding="utf-8"))
    setup = setup_from_events(record.events).setup
    facts = to_facts(record.events)
    game = all_games()["no_not_that"]
    last = facts[-1].at
    instants = [f.at for f in facts]

    def whole() -> None:
        for _ in range(200):
            fold(game, setup, facts, last)

    def every_instant() -> None:
        for at in instants:
            fold(game, setup, facts, at)

    per_fold = best(args.runs, whole) / 200 * 1000
    replayed = best(args.runs, every_instant) * 1000
    code = args.root.resolve().name
    print(f"code: {code}; record: {len(facts)} events (CPU time, best of {args.runs})")
    print(f"whole fold:                 {per_fold:7.2f} ms")
    print(f"a fold at each of {len(instants)} instants: {replayed:7.1f} ms")


if __name__ == "__main__":
    main()
