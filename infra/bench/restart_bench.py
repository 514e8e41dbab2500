"""The first read and the first command after a restart, with and without the fold's checkpoints
stored beside the events (``projections.stored_checkpoints`` and ``projections.stored_heads``).
Prints numbers.

    .venv/bin/python infra/bench/restart_bench.py [--events 10000] [--reps 3] [--no-peer]

A Zoom match of ``--events`` host-entered buzzes (and a 100-event one, the baseline of the first
command) is entered over HTTP into a real ``serve`` process, on PostgreSQL when
``DATABASE_URL`` is set (a scratch database, dropped afterwards), else on SQLite. The server
takes and stores the checkpoints in the background as the match grows. Then, ``--reps`` times,
interleaved, for each variant:

* ``stored``: the server restarted (a new process: nothing in memory), the stored checkpoints
  kept;
* ``none``: the same after deleting the stored checkpoints and heads (the service before they
  existed: the first read re-folds the whole match);

a fresh server answers one first request of each kind (each after its own restart): ``GET
/state`` at a game time in the middle, ``GET /state`` now (the end), and one host-entered buzz.
Wall time (client side) and the server's CPU time for that request are printed, medians over
the repetitions, and the ratio of the first read to ``eventsourcing``'s rebuild of a
10,000-event aggregate without a snapshot (``../shared/bench/peers``, run as ``run.py`` runs
it; with ``--no-peer`` or without the peers: the 384 ms of issue 24's run, marked so), and
the wall time of the same request sent again at once ("again": a read then shares the server
with the background read of the match's log). The machine is shared and busy: read CPU
beside wall.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, func, select
from sqlalchemy.pool import NullPool

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from events.migrate import upgrade  # noqa: E402
from events.tables import fold_checkpoints, fold_heads, fold_pages  # noqa: E402
from infra.bench import peers  # noqa: E402
from infra.bench.service import Match, auth, buzz, create_match, serve  # noqa: E402
from infra.bench.table import Row  # noqa: E402
from infra.bench.zoom_bench import scratch_store  # noqa: E402

RECORDED_REBUILD_MS = 384.0  # issue 24's run: eventsourcing, 10,000 events, no snapshot
STEP = timedelta(milliseconds=5)


def enter(client: httpx.Client, events: int) -> tuple[Match, datetime, datetime]:
    """A match of a round started an hour ago and ``events`` host-entered buzzes 5 ms apart,
    over HTTP; returns it, a game time in its middle and its last buzz's."""
    match = create_match(client)
    url, host = f"/matches/{match.match_id}/commands", auth(match.token("host"))
    start = datetime.now(UTC) - timedelta(hours=1)
    body = {"type": "start_round", "occurred_at": start.isoformat()}
    client.post(url, json=body, headers=host).raise_for_status()
    for i in range(1, events + 1):
        entered = {"occurred_at": (start + STEP * i).isoformat()}
        client.post(url, json=buzz(("alpha", "beta")[i % 2]) | entered, headers=host)
    return match, start + STEP * (events // 2), start + STEP * events


def stored_rows(url: str, match_id: str | None = None, delete: bool = False) -> int:
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.begin() as conn:
            t = fold_checkpoints
            where = [] if match_id is None else [t.c.match_id == match_id]
            count = int(
                conn.execute(select(func.count()).select_from(t).where(*where)).scalar_one()
            )
            if delete:
                conn.execute(t.delete().where(*where))
            return count
    finally:
        engine.dispose()


DERIVED = (fold_checkpoints, fold_heads, fold_pages)
"""The tables of stored fold states (checkpoints, heads and their pages), saved and put back
together."""


def saved(url: str) -> dict[str, list[dict[str, Any]]]:
    """Every stored checkpoint and head row (to put back before each run of ``stored``)."""
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.connect() as conn:
            return {
                t.name: [dict(row._mapping) for row in conn.execute(select(t))] for t in DERIVED
            }
    finally:
        engine.dispose()


def restore(url: str, rows: dict[str, list[dict[str, Any]]]) -> None:
    engine = create_engine(url, poolclass=NullPool)
    try:
        with engine.begin() as conn:
            for t in DERIVED:
                conn.execute(t.delete())
                if rows.get(t.name):
                    conn.execute(t.insert(), rows[t.name])
    finally:
        engine.dispose()


def settle(url: str, match_id: str) -> int:
    """Wait until the server's background writer stops adding rows; the rows stored."""
    last, same = -1, 0
    while same < 3:
        time.sleep(1.0)
        now = stored_rows(url, match_id)
        same, last = (same + 1 if now == last else 0), now
    return last


def first(
    url: str, request: Callable[[httpx.Client], httpx.Response], warm: Match
) -> tuple[float, float, float]:
    """A fresh server's answer to ``request``: wall ms, server CPU ms, and the wall ms of the
    same request sent again at once (while the server reads the match's log into memory in
    the background). The server first answers a read and a command of another, tiny match
    (``warm``), so that what is timed is the match's first fold, not the process's first
    request (imports, connections, the app's caches)."""
    with serve(url) as server, httpx.Client(base_url=server.base, timeout=600) as client:
        path, host = f"/matches/{warm.match_id}", auth(warm.token("host"))
        client.get(f"{path}/state", headers=host).raise_for_status()
        client.post(f"{path}/commands", json=buzz("beta"), headers=host)  # may be refused
        cpu = server.cpu_s()
        began = time.perf_counter()
        response = request(client)
        wall = time.perf_counter() - began
        cpu = server.cpu_s() - cpu
        began = time.perf_counter()
        again = request(client)
        second = time.perf_counter() - began
        for answer in (response, again):
            if answer.status_code >= 300:
                raise RuntimeError(f"{answer.status_code}: {answer.text[:300]}")
        return wall * 1000, cpu * 1000, second * 1000


def requests(match: Match, middle: datetime, last: list[datetime]) -> dict[str, Any]:
    path, host = f"/matches/{match.match_id}", auth(match.token("host"))

    def command(client: httpx.Client) -> httpx.Response:
        last[0] += STEP
        entered = {"occurred_at": last[0].isoformat()}
        return client.post(f"{path}/commands", json=buzz("alpha") | entered, headers=host)

    return {
        "first GET /state at the middle": lambda c: c.get(
            f"{path}/state", params={"at": middle.isoformat()}, headers=host
        ),
        "first GET /state now (the end)": lambda c: c.get(f"{path}/state", headers=host),
        "first host-entered command": command,
    }


Results = dict[tuple[str, str], tuple[float, float, float]]
"""(variant, request) -> median (wall ms, server CPU ms, wall ms of the same again at once)."""
SMALL = "first command, 100 events"


def measure(url: str, events: int, reps: int, say: Callable[[str], None] = print) -> Results:
    """A match of ``events`` host-entered buzzes (and a 100-event one) entered over HTTP into a
    migrated store at ``url``; then ``reps`` times, interleaved, each first request answered by
    a freshly restarted server, with its stored checkpoints (``stored``) and without (``none``).
    Medians of wall and server CPU milliseconds."""
    with serve(url) as srv, httpx.Client(base_url=srv.base, timeout=600) as client:
        began = time.perf_counter()
        big, middle, end = enter(client, events)
        took = time.perf_counter() - began
        small, _, small_end = enter(client, 100)
        warm, _, _ = enter(client, 5)
        rows = settle(url, big.match_id)
    say(f"entered {events:,} buzzes over HTTP in {took:.1f} s; {rows} checkpoints stored for"
        f" the match ({stored_rows(url)} in all)")  # fmt: skip
    kept = saved(url)
    results: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    last, small_last = [end], [small_end]
    for _ in range(reps):
        for variant in ("stored", "none"):
            for name, call in requests(big, middle, last).items():
                restore(url, kept if variant == "stored" else {})
                results.setdefault((variant, name), []).append(first(url, call, warm))
            base = requests(small, small_end, small_last)["first host-entered command"]
            restore(url, kept if variant == "stored" else {})
            results.setdefault((variant, SMALL), []).append(first(url, base, warm))
    return {
        key: (
            statistics.median(r[0] for r in runs),
            statistics.median(r[1] for r in runs),
            statistics.median(r[2] for r in runs),
        )
        for key, runs in results.items()
    }


def figure(bench: Any) -> list[Row]:
    """``run.py``'s ``restart`` figure: the first read and the first command after a restart
    (a new server process, the stored checkpoints kept), against the peer's rebuild of 10,000
    events without a snapshot and against the first command of a 100-event match."""
    from infra.bench.figures_store import rebuild_yardstick

    events, reps = (1_000, 1) if bench.quick else (10_000, 3)
    url = bench.pg_url or bench.sqlite_url
    upgrade(url)
    got = measure(url, events, reps, say=lambda text: print(text, file=sys.stderr))
    label = "eventsourcing: rebuild 10,000 events, no snapshot"
    rebuild, peer = rebuild_yardstick(bench, events, label)
    backend = "PostgreSQL" if bench.pg_url else "SQLite"
    rows = []
    for name in ("first GET /state at the middle", "first GET /state now (the end)"):
        rows.append(Row(f"{name} after a restart, {events:,} events, {backend}",
                        got[("stored", name)][0], "ms", rebuild, peer))  # fmt: skip
    command = got[("stored", "first host-entered command")][0]
    small = got[("stored", SMALL)][0]
    label = f"first host-entered command after a restart, {events:,} events, {backend}"
    rows.append(Row(label, command, "ms", small, "the same at 100 events"))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--no-peer", action="store_true", help="use the recorded peer figure")
    args = parser.parse_args(argv)
    server = os.environ.get("DATABASE_URL")
    with ExitStack() as stack:
        url = stack.enter_context(scratch_store("restart.sqlite3"))
        backend = "PostgreSQL" if server else "SQLite"
        rebuild, source = RECORDED_REBUILD_MS, "recorded in issue 24"
        if not args.no_peer and peers.available():
            try:
                if server:
                    peers.ensure_bench_database(server)
                got = peers.run_peer(
                    "eventsourcing_pg" if server else "eventsourcing_sqlite", False
                )
                rebuild = got.get(
                    "iii_get10k_nosnap_ms", got.get("full_iii_get10k_nosnap_ms", rebuild)
                )
                source = "measured in this run"
            except Exception as error:  # the peers' set-up failed: say so, keep the figure
                print(f"peer not run ({error!r}); using the recorded figure", file=sys.stderr)
        print(f"{backend}:", end=" ")
        medians = measure(url, args.events, args.reps)
        print(f"eventsourcing rebuild, 10,000 events, no snapshot: {rebuild:.0f} ms ({source})")
        print(f"{'request after a restart':42} {'checkpoints':>11} {'wall ms':>9} {'cpu ms':>8}"
              f" {'wall/rebuild':>12} {'again ms':>9}")  # fmt: skip
        for (variant, name), (wall, cpu_ms, again) in medians.items():
            print(f"{name:42} {variant:>11} {wall:9.1f} {cpu_ms:8.1f} {wall / rebuild:12.3f}"
                  f" {again:9.1f}")  # fmt: skip
        for variant in ("stored", "none"):
            ratio = (
                medians[(variant, "first host-entered command")][0] / medians[(variant, SMALL)][0]
            )
            print(f"first command at {args.events:,} events / at 100 events ({variant}):"
                  f" {ratio:.1f}x")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
