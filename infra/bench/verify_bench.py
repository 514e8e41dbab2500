"""Offline verification speed: ``verify_text`` on a closed Zoom record of N events, and where
its time goes (parse, chain, commitments, header, re-fold).

    .venv/bin/python infra/bench/verify_bench.py [--events 10000] [--runs 5]

The record is the golden Zoom match's setup and first round, then buzzes 10 ms apart (all
wrong, so the round stays open), closed with the result the rules fold from them.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from adjudicator.games.zoom import ZoomGame  # noqa: E402
from adjudicator.kernel.fold import fold  # noqa: E402
from api.audit import verify_text  # noqa: E402
from events import NewEvent, StoredEvent  # noqa: E402
from events.appending import seal  # noqa: E402
from events.envelope import GENESIS_HASH  # noqa: E402
from events.record import dumps, envelope_line, loads, make_header  # noqa: E402
from projections import verify  # noqa: E402
from projections.facts import to_facts  # noqa: E402
from projections.record import setup_from_events  # noqa: E402

GOLDEN = ROOT / "tests" / "golden" / "zoom" / "zoom-11-rounds.match.jsonl"
GAMES: dict[str, Any] = {"zoom": ZoomGame()}


def sealed(news: list[NewEvent], match_id: str) -> list[StoredEvent]:
    events: list[StoredEvent] = []
    prev = GENESIS_HASH
    for seq, new in enumerate(news, start=1):
        event = seal(new, match_id, seq, seq, new.occurred_at, None, prev)
        events.append(event)
        prev = event.hash
    return events


def long_record(count: int) -> str:
    """A closed record of ``count`` events, as ``GET /matches/{id}/export`` writes it."""
    golden = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()[1:4]]
    match_id = golden[0]["match_id"]
    start = loads(GOLDEN.read_text(encoding="utf-8")).events[2].occurred_at
    news = [
        NewEvent(e["type"], e["actor"], start, e["payload"], None if i != 1 else ())
        for i, e in enumerate(golden)
    ]
    for i in range(count - 4):
        seat = ("alpha", "beta")[i % 2]
        at = start + timedelta(milliseconds=10 * (i + 1))
        payload = {"seat": seat, "pairs": [{"target": "A", "at": "a1"}]}
        news.append(NewEvent("zoom.buzzed", f"seat:{seat}", at, payload))
    played = sealed(news, match_id)
    game = GAMES["zoom"]
    setup = setup_from_events(played).setup
    state = fold(game, setup, to_facts(played), news[-1].occurred_at).state
    closing = {"result": game.result(state), "rules_version": game.rules_version}
    news.append(NewEvent("match.closed", "host", news[-1].occurred_at, closing))
    events = sealed(news, match_id)
    header = make_header(
        match_id=match_id,
        game="zoom",
        rules_version=game.rules_version,
        status="closed",
        created_at=start,
        exported_at=events[-1].recorded_at,
        events=events,
    )
    return dumps(header, [envelope_line(e, reveal=True) for e in events])


def best(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times) if runs < 3 else statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    text = long_record(args.events)
    report = verify_text(text, GAMES)
    assert report.ok, report.as_json()
    record = loads(text)
    events = record.events
    total = best(args.runs, lambda: verify_text(text, GAMES))
    print(f"python {sys.version.split()[0]}; record: {args.events} events, {len(text)} bytes")
    rate = args.events / total
    print(
        f"verify_text (parse + every check): {total * 1000:8.1f} ms"
        f"  = {rate:9,.0f} events/s   (goal 100,000: x{rate / 1e5:.2f})"
    )
    parts: list[tuple[str, Callable[[], object]]] = [
        ("parse (loads)", lambda: loads(text)),
        ("chain", lambda: verify.chain_check(events)),
        ("commitments", lambda: verify.commitment_check(events)),
        ("header", lambda: verify.header_check(record.header, events)),
        ("refold", lambda: verify.refold_check(events, GAMES, record.withheld)),
    ]
    for name, work in parts:
        spent = best(args.runs, work)
        print(f"  {name:<16} {spent * 1000:8.1f} ms  {spent / total:6.1%}")


if __name__ == "__main__":
    main()
