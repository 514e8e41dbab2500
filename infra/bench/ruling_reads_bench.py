"""Reads of now right after a retroactive ruling in a long match, one by one (prints numbers).

    .venv/bin/python infra/bench/ruling_reads_bench.py [--events 10000] [--reads 40]

A real ``serve`` process (PostgreSQL when ``DATABASE_URL`` is set: a scratch database, dropped
afterwards; else SQLite), a Zoom match of ``--events`` host-entered buzzes
(``service.long_match_at``), then a host's void of the buzz in the middle, then ``--reads``
``GET /state`` (now, as the host) one after the other. The first read re-folds the match (the
ruling reshapes its past); the next ones share the server with its background thread, which
stores the checkpoints and the head the ruling changed (``projections.stored_checkpoints``);
then the reads are steady. Printed: each of the first ten reads, the median of the first five
(what ``run.py --only state`` times as "state now"), and the median of the last half.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from infra.bench.service import auth, long_match_at, serve  # noqa: E402
from infra.bench.zoom_bench import scratch_store  # noqa: E402


def reads_after_a_ruling(url: str, events: int, reads: int) -> list[float]:
    """Milliseconds of each ``GET /state`` after the void (see the module's docstring)."""
    with serve(url) as server, httpx.Client(base_url=server.base, timeout=300) as client:
        match = long_match_at(client, url, events)
        host = auth(match.token("host"))
        void = {"type": "void", "target_seq": 4 + events // 2, "reason": "bench"}
        path = f"/matches/{match.match_id}"
        client.post(f"{path}/rulings", json=void, headers=host).raise_for_status()
        took = []
        for _ in range(reads):
            began = time.perf_counter()
            client.get(f"{path}/state", headers=host).raise_for_status()
            took.append((time.perf_counter() - began) * 1000)
        return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--reads", type=int, default=40)
    args = parser.parse_args()
    with scratch_store("bench.sqlite3") as url:
        took = reads_after_a_ruling(url, args.events, max(args.reads, 10))
    store = "PostgreSQL" if os.environ.get("DATABASE_URL") else "SQLite"
    print(f"{args.events:,}-event match ({store}), GET /state now after a void in its middle:")
    print("  reads 1-10 (ms):", ", ".join(f"{ms:.1f}" for ms in took[:10]))
    print(f"  median of the first five: {statistics.median(took[:5]):.1f} ms")
    half = took[len(took) // 2 :]
    print(f"  median of the last {len(half)}: {statistics.median(half):.1f} ms")


if __name__ == "__main__":
    main()
