"""Offline verification speed: ``verify_text`` on a closed Zoom record of N events, and where
its time goes (parse, chain, commitments, header, re-fold), against the goal of 100,000 events/s.

    .venv/bin/python infra/bench/verify_bench.py [--events 10000] [--runs 5]

The record is the golden Zoom match's setup and first round, then buzzes 10 ms apart, each
graded wrong (target A at b1; A is at a1), so each locks its seat out of A and releases the
other's lockout, and the round stays open; closed with the result the rules fold from them.
(Until this was checked, the buzzes named a1: the first found A and every later one was refused
as already found, a cheaper path through the fold than grading, so older figures are higher.)

Times are this process's CPU time (``time.process_time``, the median of ``--runs``), which
other work on a shared machine disturbs less than wall-clock time (it still slows it: caches
and cores are shared). ``verify_text`` pauses the cyclic garbage collector while it works (see
``api.service.audit``); the parts are timed under the same pause, and one more line shows
``loads`` + ``verify_parsed`` with the collector running, what the pause saves. The chain is
checked on the parsed events, which carry their times' canonical text and whether their hashed
fields are plain JSON (``plain_json``) from the parse, as in ``verify_text``. "before" is the
way parse and chain were done before they were made faster, kept here as a reference:
``json.loads`` + ``model_validate`` per line; canonical JSON by the stdlib ``json``, ``iso``
through ``astimezone`` and a copy of each event to drop its salt. Both ways are run on the same
record in the same process, so the ratio holds even when the machine is loaded.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from adjudicator.games.zoom import ZoomGame  # noqa: E402
from adjudicator.kernel.canonical import sha256_hex, stdlib_canonical_json  # noqa: E402
from adjudicator.kernel.fold import fold  # noqa: E402
from api.service.audit import verify_parsed, verify_text  # noqa: E402
from events import NewEvent, StoredEvent  # noqa: E402
from events.appending import seal  # noqa: E402
from events.envelope import GENESIS_HASH  # noqa: E402
from events.record import (  # noqa: E402
    Envelope,
    _validated,
    dumps,
    loads,
    make_header,
)
from projections import verify  # noqa: E402
from projections.collector import collector_paused  # noqa: E402
from projections.facts import to_facts  # noqa: E402
from projections.record import setup_from_events  # noqa: E402

GOLDEN = ROOT / "tests" / "golden" / "zoom" / "zoom-11-rounds.match.jsonl"
GAMES: dict[str, Any] = {"zoom": ZoomGame()}
WRONG = "b1"  # target A is at a1 in the golden round 1
GOAL = 100_000.0  # events/s (issue 9)


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
        payload = {"seat": seat, "pairs": [{"target": "A", "at": WRONG}]}
        news.append(NewEvent("zoom.buzzed", f"seat:{seat}", at, payload))
    played = sealed(news, match_id)
    game = GAMES["zoom"]
    setup = setup_from_events(played).setup
    state = fold(game, setup, to_facts(played), news[-1].occurred_at).state
    verdicts = {pair.verdict for buzz in state.outcomes for pair in buzz.pairs}
    assert verdicts == {"incorrect"}, verdicts  # each buzz graded: a lockout, a new round
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
    return dumps(header, events)


def baseline_loads(text: str) -> list[StoredEvent]:
    """The envelopes as parsed before: ``json`` then ``model_validate``, line by line."""
    lines = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    return [_validated(Envelope, n, line).stored() for n, line in lines[1:]]


def baseline_iso(moment: datetime) -> str:
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def baseline_hash(e: StoredEvent) -> str:
    """``envelope_hash`` as it was: the stdlib's canonical JSON, ``iso`` via ``astimezone``."""
    envelope = {
        "match_id": e.match_id,
        "seq": e.seq,
        "type": e.type,
        "actor": e.actor,
        "occurred_at": baseline_iso(e.occurred_at),
        "recorded_at": baseline_iso(e.recorded_at),
        "visibility": "public" if e.private_to is None else "private",
        "private_to": None if e.private_to is None else list(e.private_to),
        "commitment": e.commitment,
        "idempotency_key": e.idempotency_key,
        "prev_hash": e.prev_hash,
        "payload": e.payload if e.private_to is None else None,
    }
    if e.source is not None:
        envelope["source"] = e.source
    return sha256_hex(stdlib_canonical_json(envelope))


def baseline_chain(events: list[StoredEvent]) -> bool:
    """The chain check as it was: a salt-free copy of each event, then links and hashes."""
    prev = GENESIS_HASH
    for event in [replace(e, salt=None) for e in events]:
        if event.prev_hash != prev or baseline_hash(event) != event.hash:
            return False
        prev = event.hash
    return True


def cpu(runs: int, work: Callable[[], object]) -> float:
    """The median CPU time of ``runs`` calls of ``work``, in seconds."""
    times = []
    for _ in range(runs):
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
    return statistics.median(times)


def paused(work: Callable[[], object]) -> Callable[[], object]:
    """``work`` with the garbage collector paused, as ``verify_text`` runs its parts."""

    def run() -> object:
        with collector_paused:
            return work()

    return run


def line(name: str, spent: float, count: int, total: float, before: float | None = None) -> str:
    text = f"  {name:<14} {spent * 1000:8.1f} ms {count / spent:11,.0f} events/s"
    text += f" {spent / total:6.1%}"
    if before is not None:
        text += f"   before {before * 1000:8.1f} ms {count / before:9,.0f}/s  x{before / spent:.2f}"
    return text


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
    assert baseline_loads(text) == events and baseline_chain(events)
    count = args.events
    print(f"python {sys.version.split()[0]}; record: {count} events, {len(text)} bytes; CPU time")
    total = cpu(args.runs, lambda: verify_text(text, GAMES))
    running = cpu(args.runs, lambda: verify_parsed(loads(text), GAMES))
    parts: list[tuple[str, Callable[[], object], Callable[[], object] | None]] = [
        ("parse (loads)", lambda: loads(text), lambda: baseline_loads(text)),
        ("chain", lambda: verify.chain_check(events), lambda: baseline_chain(events)),
        ("commitments", lambda: verify.commitment_check(events), None),
        ("header", lambda: verify.header_check(record.header, events), None),
        ("refold", lambda: verify.refold_check(events, GAMES, record.withheld), None),
    ]
    spent = {name: cpu(args.runs, paused(work)) for name, work, _ in parts}
    before = {name: cpu(args.runs, paused(old)) for name, _, old in parts if old is not None}
    was = total + sum(before[name] - spent[name] for name in before)
    rate = count / total
    print(
        f"verify_text (parse + every check): {total * 1000:8.1f} ms = {rate:9,.0f} events/s"
        f"  (goal {GOAL:,.0f}: x{rate / GOAL:.2f}); before ~{was * 1000:.1f} ms"
        f" = {count / was:,.0f} events/s, x{was / total:.2f} faster now"
    )
    print(
        f"  the same with the garbage collector running: {running * 1000:8.1f} ms"
        f" = {count / running:9,.0f} events/s"
    )
    for name, _, _ in parts:
        print(line(name, spent[name], count, total, before.get(name)))


if __name__ == "__main__":
    main()
