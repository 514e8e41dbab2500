"""The space a long Zoom match's stored fold states take, before and after a ruling (prints
numbers).

    .venv/bin/python infra/bench/checkpoint_storage_bench.py [--events 10000 30000]
        [--reads 10]

For each ``--events``: a real ``serve`` process (PostgreSQL when ``DATABASE_URL`` is set: a
scratch database, dropped afterwards; else SQLite), a Zoom match of that many host-entered
buzzes (``service.long_match_at``), a ``GET /state`` at its middle (the checkpoints up to there
are taken and stored), then a host's void of the buzz in the middle and reads of now and of the
middle again (the new timeline's checkpoints). After each step the rows and bytes of the stored
states are counted once the server's background writer has settled (``fold_checkpoints``,
``fold_heads`` and, where the schema has it, ``fold_pages``: the pages of the states' histories,
``projections.stored_pages``). Then ``--reads`` reads of now, one by one, right after a second
void (the first re-folds the match; the next share the server with the writer storing what the
ruling changed): their median and worst.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import httpx
from sqlalchemy import MetaData, create_engine, func, select
from sqlalchemy.pool import NullPool

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from infra.bench.service import Match, auth, long_match_at, serve  # noqa: E402
from infra.bench.zoom_bench import scratch_store  # noqa: E402

TABLES = ("fold_checkpoints", "fold_heads", "fold_pages")


def stored(url: str) -> tuple[int, int]:
    """Rows and bytes (of their binary columns) in the tables of stored fold states."""
    engine = create_engine(url, poolclass=NullPool)
    try:
        meta = MetaData()
        meta.reflect(engine, only=lambda name, _: name in TABLES)
        rows = size = 0
        with engine.connect() as conn:
            for table in meta.tables.values():
                blobs = [c for c in table.columns if c.name in ("state", "meta", "entries")]
                query = select(func.count(), *(func.coalesce(func.sum(func.length(c)), 0)
                                               for c in blobs)).select_from(table)  # fmt: skip
                count, *sizes = conn.execute(query).one()
                rows, size = rows + int(count), size + sum(int(s) for s in sizes)
        return rows, size
    finally:
        engine.dispose()


def settled(url: str) -> tuple[int, int]:
    """:func:`stored` once it has not changed for a second (the background writer is done)."""
    last, same_since = stored(url), time.monotonic()
    while time.monotonic() - same_since < 1.0:
        time.sleep(0.2)
        now = stored(url)
        if now != last:
            last, same_since = now, time.monotonic()
    return last


def void(client: httpx.Client, match: Match, seq: int) -> None:
    body = {"type": "void", "target_seq": seq, "reason": "bench"}
    client.post(f"/matches/{match.match_id}/rulings", json=body,
                headers=auth(match.token("host"))).raise_for_status()  # fmt: skip


def state(client: httpx.Client, match: Match, **params: str) -> float:
    began = time.perf_counter()
    client.get(f"/matches/{match.match_id}/state", params=params,
               headers=auth(match.token("host"))).raise_for_status()  # fmt: skip
    return (time.perf_counter() - began) * 1000


def run(url: str, events: int, reads: int) -> None:
    with serve(url) as server, httpx.Client(base_url=server.base, timeout=300) as client:
        match = long_match_at(client, url, events)
        middle = match.middle.isoformat()
        state(client, match, at=middle)
        rows, size = settled(url)
        print(f"{events:>7,} buzzes, read at the middle: {rows:3d} rows, {size / 1e6:7.2f} MB")
        void(client, match, 4 + events // 2)
        state(client, match)
        state(client, match, at=middle)
        rows, size = settled(url)
        print(f"{events:>7,} buzzes, after a void:        {rows:3d} rows, {size / 1e6:7.2f} MB")
        void(client, match, 4 + events // 4)
        took = [state(client, match) for _ in range(reads)]
        print(f"{events:>7,} buzzes, {reads} reads of now after a second void: first "
              f"{took[0]:.1f} ms, then median {statistics.median(took[1:]):.1f} ms, worst "
              f"{max(took[1:]):.1f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, nargs="+", default=[10_000, 30_000])
    parser.add_argument("--reads", type=int, default=10)
    args = parser.parse_args()
    for events in args.events:
        with scratch_store("bench.sqlite3") as url:
            run(url, events, max(args.reads, 2))


if __name__ == "__main__":
    main()
