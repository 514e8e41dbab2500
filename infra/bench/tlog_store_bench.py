"""The transparency log in the store: what closing a match adds, and proofs from a big log.

    .venv/bin/python infra/bench/tlog_store_bench.py [--url URL] [--matches 200] [--events 100]
        [--leaves 1000000] [--proofs 500]

1. Closing: ``--matches`` matches of ``--events`` events each are closed twice over, on two
   fresh databases: once as the service closes them (the leaf, its nodes and the signed
   checkpoint in the closing transaction) and once by the same append with the log's work
   skipped. The difference of the medians is what the log adds to a close.
2. Proofs: a log of ``--leaves`` leaves is written into the store's tables directly (built in
   memory, bulk-inserted), then ``--proofs`` inclusion proofs at random leaves and consistency
   proofs between random sizes are answered by ``events.log_store.LogStore`` as the routes do
   (one read of the O(log n) nodes a proof needs).

Both on SQLite (a temporary file) and, with ``--url`` (or DATABASE_URL) naming a PostgreSQL
database this script may create databases beside, on PostgreSQL. Wall-clock milliseconds,
median and 99th percentile; the machine's other work shows in the tail.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from sqlalchemy import create_engine, insert, text  # noqa: E402
from sqlalchemy.engine import make_url  # noqa: E402

from events import EventStore, NewEvent, TokenRecord  # noqa: E402
from events import store as store_module  # noqa: E402
from events.log_store import LogStore  # noqa: E402
from events.migrate import upgrade  # noqa: E402
from events.signing import generate  # noqa: E402
from events.tables import tlog_leaves, tlog_nodes  # noqa: E402
from events.transparency.merkle import MemoryTree  # noqa: E402

START = datetime(2026, 1, 1, tzinfo=UTC)


def ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return f"median {statistics.median(ordered) * 1000:7.3f} ms  p99 {p99 * 1000:7.3f} ms"


@contextmanager
def database(base: str | None) -> Iterator[str]:
    """A fresh, migrated database: a temporary SQLite file, or a new PostgreSQL database."""
    if base is None:
        with tempfile.TemporaryDirectory() as folder:
            url = f"sqlite:///{folder}/bench.db"
            upgrade(url)
            yield url
        return
    name = f"tlog_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(make_url(base), isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(base).set(database=name).render_as_string(hide_password=False)
    try:
        upgrade(url)
        yield url
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()


def played(store: EventStore, events: int) -> tuple[str, int]:
    match_id = str(uuid.uuid4())
    tokens = [TokenRecord("host", uuid.uuid4().hex)]
    store.create_match(match_id, "zoom", "zoom/1", {"seats": ["a", "b"]}, tokens, START)
    batch = [
        NewEvent("zoom.buzzed", "seat:a", START + timedelta(seconds=n), {"n": n})
        for n in range(events)
    ]
    for n in range(0, events, 50):
        store.append(match_id, n, batch[n : n + 50])
    return match_id, events


def closes(url: str, matches: int, events: int, with_log: bool) -> list[float]:
    store = EventStore.from_url(url)
    store.signer = generate()
    LogStore(store).start()
    saved = store_module.EventStore._log_close
    if not with_log:
        store_module.EventStore._log_close = lambda *_: None  # type: ignore[method-assign]
    try:
        samples = []
        for _ in range(matches):
            match_id, last = played(store, events)
            closing = [NewEvent("match.closed", "host", START + timedelta(hours=1), {"result": {}})]
            began = time.perf_counter()
            store.append(match_id, last, closing, close=True)
            samples.append(time.perf_counter() - began)
        return samples
    finally:
        store_module.EventStore._log_close = saved  # type: ignore[method-assign]
        store.dispose()


def big_log(url: str, leaves: int) -> None:
    """``leaves`` leaves and their nodes, written straight into the log's tables."""
    tree = MemoryTree()
    engine = create_engine(url)
    rows, nodes = [], []
    for index in range(leaves):
        leaf = f'{{"match_id":"{index:036d}","result":null}}'.encode()
        tree.append(leaf)
        rows.append(
            {
                "idx": index,
                "kind": "match",
                "match_id": f"{index:036d}",
                "leaf": leaf.decode(),
                "leaf_hash": tree.perfect(0, index).hex(),
                "recorded_at": START,
            }
        )
    for level, row in enumerate(tree._levels):  # every complete perfect subtree
        hashes = (row[i : i + 32].hex() for i in range(0, len(row), 32))
        nodes += [{"level": level, "idx": i, "hash": h} for i, h in enumerate(hashes)]
    with engine.begin() as conn:
        for chunk in range(0, len(rows), 50_000):
            conn.execute(insert(tlog_leaves), rows[chunk : chunk + 50_000])
        for chunk in range(0, len(nodes), 50_000):
            conn.execute(insert(tlog_nodes), nodes[chunk : chunk + 50_000])
    engine.dispose()


def timed(call: Callable[[], object], times: int) -> list[float]:
    samples = []
    for _ in range(times):
        began = time.perf_counter()
        call()
        samples.append(time.perf_counter() - began)
    return samples


def proofs(url: str, leaves: int, count: int, seed: int) -> None:
    big_log(url, leaves)
    store = EventStore.from_url(url)
    store.signer = generate()
    log = LogStore(store)
    log.start()
    rng = random.Random(seed)

    def inclusion() -> object:
        return log.inclusion(f"{rng.randrange(leaves):036d}")

    def consistency() -> object:
        first = rng.randrange(1, leaves)
        return log.consistency(first, rng.randrange(first, leaves + 1))

    print(f"  inclusion proof, log of {leaves:,}:   {ms(timed(inclusion, count))}")
    print(f"  consistency proof, log of {leaves:,}: {ms(timed(consistency, count))}")
    print(f"  signed checkpoint (stored):        {ms(timed(log.checkpoint, count))}")
    store.dispose()


def run(base: str | None, args: argparse.Namespace) -> None:
    print(f"== {'PostgreSQL' if base else 'SQLite'}")
    with database(base) as url:
        plain = closes(url, args.matches, args.events, with_log=False)
    with database(base) as url:
        logged = closes(url, args.matches, args.events, with_log=True)
    added = statistics.median(logged) - statistics.median(plain)
    print(f"  close without the log: {ms(plain)}")
    print(f"  close with the log:    {ms(logged)}")
    print(f"  the log adds (median): {added * 1000:.3f} ms  (goal: at most 5 ms)")
    with database(base) as url:
        proofs(url, args.leaves, args.proofs, args.seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--events", type=int, default=100)
    parser.add_argument("--leaves", type=int, default=1_000_000)
    parser.add_argument("--proofs", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    run(None, args)
    if args.url and not args.sqlite_only:
        run(args.url, args)


if __name__ == "__main__":
    main()
