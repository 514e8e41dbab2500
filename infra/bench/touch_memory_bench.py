"""Resident memory of a server that has touched many long matches once each: the bound of the
in-memory folds (``projections.live.MAX_EVENTS``, ``projections.checkpoints``) held. Prints
numbers.

    .venv/bin/python infra/bench/touch_memory_bench.py [--matches 1000] [--events 10000]

``--matches`` Zoom matches of ``--events`` host-entered buzzes each are written through the
store (batches of 1,000, as ``infra/bench/service.long_match`` does), on PostgreSQL when
``DATABASE_URL`` is set (a scratch database, dropped afterwards), else on SQLite (a scratch
file). Then a freshly started server answers one ``GET /state`` of each match, in turn; its
resident memory (the process and its workers, from ``/proc``) is sampled as it goes, and the
time of each first read is kept. Without the bound, every fold read would stay in memory
(about 800 bytes an event for Zoom once its buzzes are rendered: 8 GB for 1,000 matches of
10,000 events).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from adjudicator import registry  # noqa: E402
from api.service.matches import MatchService  # noqa: E402
from api.service.wordlists import load_words  # noqa: E402
from events import EventStore  # noqa: E402
from infra.bench.service import Match, auth, long_match, serve  # noqa: E402
from infra.bench.zoom_bench import scratch_store  # noqa: E402


def store_heads(url: str, made: list[Match]) -> None:
    """Store each match's checkpoints and head, as the server that recorded it would have
    (``Checkpoints.store_all``, what its background thread runs after appends)."""
    store = EventStore.from_url(url)
    try:
        service = MatchService(store, registry.games(load_words()), lambda: datetime.now(UTC))
        for match in made:
            record = service.match(match.match_id)
            service.checkpoints.store_all(service.game(record.game), record)
        assert service.checkpoints.stored is not None
        service.checkpoints.stored.flush()
    finally:
        store.dispose()


def build(url: str, matches: int, events: int) -> list[Match]:
    made: list[Match] = []
    began = time.perf_counter()
    with serve(url) as server, httpx.Client(base_url=server.base, timeout=600) as client:
        store = EventStore.from_url(url)
        try:
            for i in range(matches):
                made.append(long_match(client, store, events))
                if (i + 1) % 100 == 0:
                    took = time.perf_counter() - began
                    print(f"  {i + 1} matches written ({took:.0f} s)", file=sys.stderr)
        finally:
            store.dispose()
    return made


def touch(url: str, made: list[Match], every: int) -> None:
    with serve(url) as server, httpx.Client(base_url=server.base, timeout=600) as client:
        client.get("/health").raise_for_status()
        baseline = server.rss_mb()
        print(f"server started: {baseline:.0f} MB resident")
        print(f"{'matches touched':>15} {'resident MB':>12} {'first read p50 ms':>18}")
        times: list[float] = []
        peak = baseline
        for i, match in enumerate(made, start=1):
            began = time.perf_counter()
            path = f"/matches/{match.match_id}/state"
            client.get(path, headers=auth(match.token("host"))).raise_for_status()
            times.append((time.perf_counter() - began) * 1000)
            if i % every == 0 or i == len(made):
                rss = server.rss_mb()
                peak = max(peak, rss)
                print(f"{i:15,} {rss:12.0f} {statistics.median(times[-every:]):18.1f}")
        print(f"peak resident memory {peak:.0f} MB ({peak - baseline:.0f} MB above the start);"
              f" first reads p50 {statistics.median(times):.1f} ms,"
              f" max {max(times):.1f} ms")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--every", type=int, default=100, help="sample memory every N matches")
    parser.add_argument(
        "--heads",
        action="store_true",
        help="store each match's fold head and checkpoints first (as a server that recorded"
        " the match would have): the first reads resume from them",
    )
    args = parser.parse_args(argv)
    with scratch_store("touch.sqlite3") as url:
        backend = "PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite"
        print(f"{backend}: {args.matches:,} matches of {args.events:,} events")
        made = build(url, args.matches, args.events)
        if args.heads:
            began = time.perf_counter()
            store_heads(url, made)
            print(f"heads stored in {time.perf_counter() - began:.0f} s")
        touch(url, made, args.every)
    return 0


if __name__ == "__main__":
    sys.exit(main())
