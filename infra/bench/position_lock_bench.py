"""What the one global-position counter costs: appends from N client processes, each on a match
of its own, so the only row they share is the ``positions`` counter. Prints numbers.

    DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        .venv/bin/python infra/bench/position_lock_bench.py [--clients 8 32] [--seconds 10]

For each client count, in a scratch database (dropped afterwards): every client process appends
one event at a time through the store (``EventStore.append``: PostgreSQL's one-statement append
of ``events/pg_append.py``) for ``--seconds``, while a sampler reads ``pg_stat_activity`` and
``pg_locks`` every 5 ms. Printed: appends per second, append latency (p50, p99), and of the
samples, the mean number of client backends that are running a statement, the mean number
waiting on a heavyweight lock (with distinct matches, only the counter row can make one wait:
an ``UPDATE`` of a row another open transaction has updated waits on that transaction), the
share of samples with at least one such waiter, and the wait events seen most often.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import threading
import time
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from uuid import uuid4

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from events import (
    EventStore,
    NewEvent,
    TokenRecord,
)
from events.engine import libpq_url, normalise_url
from events.migrate import upgrade
from infra.bench.zoom_bench import scratch_postgres

T0 = datetime(2026, 1, 1, tzinfo=UTC)
SAMPLE_EVERY = 0.005
ACTIVITY = """
SELECT a.pid, a.state, a.wait_event_type, a.wait_event,
       EXISTS (SELECT 1 FROM pg_locks l WHERE l.pid = a.pid AND NOT l.granted) AS blocked
FROM pg_stat_activity a
WHERE a.datname = current_database() AND a.backend_type = 'client backend'
  AND a.pid <> pg_backend_pid() AND a.application_name = 'position-bench'
"""


def new_match(store: EventStore) -> str:
    match_id = str(uuid4())
    tokens = [TokenRecord("host", uuid4().hex)]
    store.create_match(match_id, "zoom", "1.0", {"seats": ["alpha", "beta"]}, tokens, T0)
    return match_id


def event(n: int) -> NewEvent:
    return NewEvent("zoom.buzzed", "seat:alpha", T0 + timedelta(seconds=n), {"n": n})


def client(url: str, seconds: float, start: float, results: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    store = EventStore.from_url(url, pool_size=1)
    match_id, seq, latencies = new_match(store), 0, []
    while time.time() < start:
        time.sleep(0.001)
    end = start + seconds
    while (now := time.perf_counter()) and time.time() < end:
        store.append(match_id, seq, [event(seq + 1)])
        latencies.append(time.perf_counter() - now)
        seq += 1
    store.dispose()
    results.put(latencies)


class Sampler(threading.Thread):
    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url, self.halt = url, threading.Event()
        self.samples: list[list[tuple[Any, ...]]] = []

    def run(self) -> None:
        with psycopg.connect(self.url, autocommit=True) as conn:
            while not self.halt.is_set():
                self.samples.append(conn.execute(ACTIVITY).fetchall())
                time.sleep(SAMPLE_EVERY)


def measure(url: str, clients: int, seconds: float) -> str:
    results: multiprocessing.Queue = multiprocessing.Queue()  # type: ignore[type-arg]
    start = time.time() + 2.0  # every process connected and its match made by then
    named = normalise_url(url).update_query_dict({"application_name": "position-bench"})
    text = named.render_as_string(hide_password=False)
    procs = [
        multiprocessing.Process(target=client, args=(text, seconds, start, results))
        for _ in range(clients)
    ]
    for proc in procs:
        proc.start()
    sampler = Sampler(libpq_url(normalise_url(url)))
    while time.time() < start:
        time.sleep(0.01)
    sampler.start()
    latencies = [lat for _ in procs for lat in results.get()]
    sampler.halt.set()
    sampler.join()
    for proc in procs:
        proc.join()
    samples = sampler.samples
    active = statistics.mean(sum(r[1] == "active" for r in s) for s in samples)
    waiting = [sum(bool(r[4]) for r in s) for s in samples]
    events = Counter(f"{r[2]}:{r[3]}" for s in samples for r in s if r[1] == "active" and r[2])
    common = ", ".join(f"{name} {n / len(samples):.2f}" for name, n in events.most_common(4))
    cuts = statistics.quantiles(latencies, n=100)
    return (
        f"{clients:>3} clients: {len(latencies) / seconds:7.0f} appends/s,"
        f" p50 {cuts[49] * 1000:5.2f} ms, p99 {cuts[98] * 1000:6.2f} ms;"
        f" per sample: {active:5.2f} running, {statistics.mean(waiting):5.2f} waiting on a lock"
        f" ({sum(w > 0 for w in waiting) / len(samples):.0%} of {len(samples)} samples);"
        f" wait events per sample: {common}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[8, 32])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    server = os.environ.get("DATABASE_URL")
    if not server or not server.startswith("postgres"):
        sys.exit("set DATABASE_URL to a PostgreSQL server (a scratch database is made there)")
    print(f"load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores")
    for clients in args.clients:
        with scratch_postgres(server) as url:
            upgrade(url)
            print(measure(url, clients, args.seconds), flush=True)


if __name__ == "__main__":
    main()
