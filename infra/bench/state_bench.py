"""State at any (at, known) of a long match: checkpoints against a full re-fold (prints numbers).

    .venv/bin/python infra/bench/state_bench.py [--events 10000] [--reps 5] [--peer-python PY]

A Zoom match of ``--events`` events (a round start, buzzes 10 ms apart, and last a ruling that
voids an early buzz) is appended through ``EventStore`` on SQLite, and on PostgreSQL when
``DATABASE_URL`` is set (a scratch database is created there and dropped afterwards). Then, as
the routes ask them (a host's token), each timed on a fresh service (the first query: nothing
cached) and then again (median of ``--reps``: the cache warm):

* the fold at ``at`` in the middle as known before the ruling (``known_at``): the service's
  ``snapshot``, then the route (the fold rendered by the game's view: for Zoom, every buzz);
* the same at now as known now (the live fold);
* the timeline as known now; the diff at ``at`` in the middle, before/after the ruling;
* the old path for the first: read every event and fold from scratch (``views.snapshot``);
  and the first with a knowledge cutoff (``known_seq``) or an ``at`` not asked before.

Ratios are printed against the ``eventsourcing`` library's rebuild of a 10,000-event aggregate
without a snapshot: measured in the same run when ``--peer-python`` (or ``PEER_PYTHON``) names
an interpreter with ``eventsourcing`` installed (see ``../shared/bench/README.md``), otherwise
against the 250-350 ms recorded there (the midpoint, 300 ms).
"""

from __future__ import annotations

import argparse
import itertools
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from starlette.requests import Request  # noqa: E402

from adjudicator.games.zoom import ZoomGame  # noqa: E402
from adjudicator.kernel.payloads import plain  # noqa: E402
from api.http.responses import SharedBodies  # noqa: E402
from api.http.routes.matches import diff_known, get_state, get_timeline  # noqa: E402
from api.service.matches import MatchService  # noqa: E402
from events import EventStore, NewEvent, TokenGrant  # noqa: E402
from events.migrate import upgrade  # noqa: E402
from infra.bench.zoom_bench import long_match, scratch_postgres  # noqa: E402
from projections.views import Known, snapshot  # noqa: E402

MATCH = "bench"
HOST = TokenGrant(MATCH, "host", None)
REFERENCE_MS = 300.0  # eventsourcing, 10,000 events, no snapshot: 250-350 ms on this machine
PEER = """
import statistics, sqlite3, sys, tempfile, time, os
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event
class Match(Aggregate):
    def __init__(self, name): self.points = 0
    @event("PointAwarded")
    def award_point(self, kind, by, seq, set, note): self.points += 1
with tempfile.TemporaryDirectory() as tmp:
    env = {"PERSISTENCE_MODULE": "eventsourcing.sqlite",
           "SQLITE_DBNAME": os.path.join(tmp, "es.sqlite")}
    app = Application(env=env)
    agg = Match("big"); app.save(agg)
    for i in range(1, int(sys.argv[1])):
        agg.award_point(kind="point", by="alpha", seq=i, set=1, note="x" * 40)
        if i % 100 == 0: app.save(agg)
    app.save(agg)
    runs = []
    for _ in range(5):
        t = time.perf_counter(); app.repository.get(agg.id); runs.append(time.perf_counter() - t)
    print(statistics.median(runs) * 1000)
"""


def build(url: str, events: int) -> tuple[datetime, datetime, datetime]:
    """The match: ``events - 1`` game events, then a void of seq 50. Returns the middle game
    time, the record time just before the ruling and the last game time."""
    upgrade(url)
    store = EventStore.from_url(url)
    setup, facts = long_match(events - 1)
    match_setup = {"seats": list(setup.seats), "config": dict(setup.config), "seed": 5}
    store.create_match(MATCH, "zoom", ZoomGame.rules_version, match_setup, [], facts[0].at)
    batch = [NewEvent(f.type, f.actor, f.at, plain(f.payload)) for f in facts]
    for i in range(0, len(batch), 1000):
        store.append(MATCH, i, batch[i : i + 1000])
    before = store.read(MATCH)[-1].recorded_at
    time.sleep(0.01)
    void = {"target_seq": 50, "reason": "bench"}
    store.append(MATCH, len(batch), [NewEvent("ruling.void", "host", facts[-1].at, void)])
    store.dispose()
    return facts[len(facts) // 2].at, before, facts[-1].at


def timed(
    make: Callable[[], MatchService], query: Callable[[MatchService], Any], reps: int, ref: float
) -> str:
    service = make()
    started = time.perf_counter()
    query(service)
    first = time.perf_counter() - started
    runs = []
    for _ in range(reps):
        started = time.perf_counter()
        query(service)
        runs.append(time.perf_counter() - started)
    warm = statistics.median(runs) * 1000
    return f"first {first * 1000:7.1f} ms, warm {warm:7.2f} ms ({warm / ref:.3f}x)"


def bench(label: str, url: str, events: int, reps: int, ref: float) -> None:
    middle, before, last = build(url, events)
    store = EventStore.from_url(url)
    game = ZoomGame()

    def make() -> MatchService:
        return MatchService(store, {"zoom": game}, lambda: last + timedelta(seconds=1))

    past = Known(before, None)
    cutoffs, shifts = itertools.count(events - 2, -1), itertools.count(1)

    def fresh() -> Known:  # a knowledge cutoff not asked before: its timeline is computed
        return Known(None, next(cutoffs))

    def later() -> timedelta:  # a game time not asked before: replay from a checkpoint
        return timedelta(milliseconds=1370 * next(shifts))

    def old(service: MatchService) -> Any:
        match = service.match(MATCH)
        events = store.read(MATCH, recorded_by=before)
        return snapshot(game, match, events, middle, past)

    queries: list[tuple[str, Callable[[MatchService], Any]]] = [
        ("fold (at middle, known before ruling)", lambda s: s.snapshot(MATCH, middle, past)),
        ("  same, full read + fold (old path)", old),
        ("  a new known_seq each time (no memo)", lambda s: s.snapshot(MATCH, middle, fresh())),
        ("  a new at each time", lambda s: s.snapshot(MATCH, middle + later(), past)),
        (
            "  route: fold + the host's view",
            lambda s: get_state(GZIP, s, MATCH, HOST, middle, past),
        ),
        ("fold (at now, known now)", lambda s: s.snapshot(MATCH)),
        (
            "  route: fold + the host's view",
            lambda s: get_state(GZIP, s, MATCH, HOST, None, Known()),
        ),
        ("timeline route (known now, gzip)", lambda s: get_timeline(GZIP, s, MATCH, HOST, Known())),
        (
            "diff route (at middle, before/after ruling)",
            lambda s: diff_known(GZIP, s, MATCH, HOST, middle, before=before, after=None),
        ),
    ]
    print(f"{label}, {events} events:")
    for name, query in queries:
        print(f"  {name:44} {timed(make, query, reps, ref)}")
    store.dispose()


GZIP = Request(
    {
        "type": "http",
        "headers": [(b"accept-encoding", b"gzip")],
        "app": SimpleNamespace(state=SimpleNamespace(bodies=SharedBodies(), standby=None)),
    }
)
"""A request that takes gzip, to an app holding only the timeline's cache of bodies (and no
standby: every read is the primary's)."""


def peer_reference(python: str | None, events: int) -> float:
    """The eventsourcing rebuild in ms: measured with ``python``, or the recorded figure."""
    if not python:
        print(f"eventsourcing rebuild: not run (--peer-python), taking {REFERENCE_MS:.0f} ms")
        return REFERENCE_MS
    out = subprocess.run(
        [python, "-c", PEER, str(events)], capture_output=True, text=True, check=True
    )
    measured = float(out.stdout.strip().splitlines()[-1])
    print(f"eventsourcing rebuild of {events} events, no snapshot: {measured:.1f} ms")
    return measured


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--peer-python", default=os.environ.get("PEER_PYTHON"))
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus; ratios: warm / eventsourcing")
    ref = peer_reference(args.peer_python, args.events)
    with tempfile.TemporaryDirectory() as tmp:
        bench("SQLite", f"sqlite:///{Path(tmp) / 'state.sqlite3'}", args.events, args.reps, ref)
    if os.environ.get("DATABASE_URL"):
        with scratch_postgres(os.environ["DATABASE_URL"]) as url:
            bench("PostgreSQL", url, args.events, args.reps, ref)
    else:
        print("PostgreSQL: skipped (set DATABASE_URL to a server to include it)")


if __name__ == "__main__":
    main()
