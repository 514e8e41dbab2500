"""Zoom benchmarks (prints numbers; not a test).

    .venv/bin/python infra/bench/zoom_bench.py [--clients 8] [--commands 150] [--events 10000]

1. HTTP: commands per second and p50/p99 latency with N concurrent clients, each on its own
   match, against a real server process (uvicorn) on SQLite, and on PostgreSQL when
   ``DATABASE_URL`` is set (a scratch database is created there and dropped afterwards).
2. Time to compute the state at a timestamp of a 10,000-event match: the pure fold, and read +
   fold through the store.
3. Time to generate an 11-round match of 60x60 grids.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url
from sqlalchemy.pool import NullPool

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from adjudicator.games.zoom import ZoomGame  # noqa: E402
from adjudicator.games.zoom.grid import Shape, generate  # noqa: E402
from adjudicator.kernel.decider import Fact, Setup  # noqa: E402
from adjudicator.kernel.fold import fold  # noqa: E402
from adjudicator.kernel.payloads import plain  # noqa: E402
from adjudicator.registry import decode  # noqa: E402
from api.cli.demo import free_port  # noqa: E402
from events.migrate import upgrade  # noqa: E402

OPERATOR = "op_bench_token"
GRID = ["RGBRGB", "GBRGBR", "BRGYYY", "KKKWRG"]
TARGETS = {"A": ["YYY"], "B": ["KKK"], "C": ["W"], "D": ["RG"]}


@contextmanager
def server(database_url: str) -> Iterator[str]:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "ADJUDICATOR_OPERATOR_TOKEN": OPERATOR,
        "ADJUDICATOR_LOG_LEVEL": "warning",
    }
    cmd = [sys.executable, "-m", "api.cli.main", "serve", "--port", str(port)]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"{base}/health").status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def client_run(base: str, commands: int, latencies: list[float], errors: list[str]) -> None:
    with httpx.Client(base_url=base, timeout=30) as client:
        config = {"rounds": 1, "supplied_rounds": {"1": {"grid": GRID, "targets": TARGETS}}}
        body = {"game": "zoom", "seats": ["alpha", "beta"], "config": config}
        made = client.post("/matches", json=body, headers=_auth(OPERATOR)).json()
        url = f"/matches/{made['match_id']}/commands"
        client.post(url, json={"type": "start_round"}, headers=_auth(made["tokens"]["host"]))
        for i in range(commands):
            seat = ("alpha", "beta")[i % 2]
            buzz = {"type": "buzz", "seat": seat, "pairs": [{"target": "A", "at": "a1"}]}
            started = time.perf_counter()
            answer = client.post(url, json=buzz, headers=_auth(made["tokens"]["seats"][seat]))
            latencies.append(time.perf_counter() - started)
            if answer.status_code != 201:
                errors.append(answer.text)


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def http_bench(label: str, database_url: str, clients: int, commands: int) -> None:
    latencies: list[float] = []
    errors: list[str] = []
    with server(database_url) as base:
        threads = [
            threading.Thread(target=client_run, args=(base, commands, latencies, errors))
            for _ in range(clients)
        ]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
    ordered = sorted(latencies)
    p50 = statistics.median(ordered) * 1000
    p99 = ordered[int(len(ordered) * 0.99) - 1] * 1000
    print(
        f"HTTP {label:<10} {clients} clients x {commands} buzzes: "
        f"{len(latencies) / elapsed:7.1f} commands/s, p50 {p50:6.1f} ms, p99 {p99:6.1f} ms, "
        f"errors {len(errors)}"
    )


@contextmanager
def scratch_store(name: str) -> Iterator[str]:
    """A store for a benchmark, migrated: a scratch PostgreSQL database when ``DATABASE_URL``
    names a server (dropped afterwards), else a SQLite file ``name`` in a temporary folder."""
    server = os.environ.get("DATABASE_URL")
    with tempfile.TemporaryDirectory() as tmp:
        if server:
            with scratch_postgres(server) as url:
                upgrade(url)
                yield url
        else:
            url = f"sqlite:///{Path(tmp) / name}"
            upgrade(url)
            yield url


@contextmanager
def scratch_postgres(server_url: str) -> Iterator[str]:
    name = f"adj_bench_{uuid.uuid4().hex[:12]}"
    url = make_url(server_url).set(drivername="postgresql+psycopg")
    admin = create_engine(url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE DATABASE "{name}"')
    try:
        yield url.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                f"WHERE datname = '{name}' AND pid <> pg_backend_pid()"
            )
            conn.exec_driver_sql(f'DROP DATABASE IF EXISTS "{name}"')
        admin.dispose()


def long_match(events: int) -> tuple[Setup, list[Fact]]:
    """One round, then ``events`` buzzes 10 ms apart (all wrong, so the round stays open)."""
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    setup = Setup("bench", ("alpha", "beta"), {"rounds": 1}, seed=5)
    start = {
        "round": 1,
        "grid": [list(r) for r in GRID],
        "targets": {k: [list(r) for r in v] for k, v in TARGETS.items()},
    }
    facts = [Fact(1, "zoom.round_started", "host", t0, decode("zoom.round_started", start))]
    for i in range(events - 1):
        seat = ("alpha", "beta")[i % 2]
        buzz = decode("zoom.buzzed", {"seat": seat, "pairs": [{"target": "A", "at": "a1"}]})
        at = t0 + timedelta(milliseconds=10 * (i + 1))
        facts.append(Fact(i + 2, "zoom.buzzed", f"seat:{seat}", at, buzz))
    return setup, facts


def fold_bench(events: int) -> None:
    setup, facts = long_match(events)
    at = facts[-1].at
    game = ZoomGame()
    runs = []
    for _ in range(5):
        started = time.perf_counter()
        fold(game, setup, facts, at)
        runs.append(time.perf_counter() - started)
    print(
        f"state at T, {events} events, pure fold:        best {min(runs) * 1000:7.1f} ms, "
        f"median {statistics.median(runs) * 1000:7.1f} ms"
    )
    store_fold_bench(setup, facts)


def store_fold_bench(setup: Setup, facts: list[Fact]) -> None:
    from events import EventStore, NewEvent
    from projections.views import snapshot

    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'fold.sqlite3'}"
        upgrade(url)
        store = EventStore.from_url(url)
        match_setup = {"seats": list(setup.seats), "config": dict(setup.config), "seed": 5}
        match = store.create_match("bench", "zoom", "zoom/1", match_setup, [], facts[0].at)
        batch = [NewEvent(f.type, f.actor, f.at, plain(f.payload)) for f in facts]
        for i in range(0, len(batch), 1000):
            store.append("bench", i, batch[i : i + 1000])
        match = store.get_match("bench") or match
        runs = []
        for _ in range(5):
            started = time.perf_counter()
            snapshot(ZoomGame(), match, store.read("bench"), facts[len(facts) // 2].at)
            runs.append(time.perf_counter() - started)
        store.dispose()
    print(
        f"state at T, {len(facts)} events, SQLite read+fold: best {min(runs) * 1000:7.1f} ms, "
        f"median {statistics.median(runs) * 1000:7.1f} ms"
    )


def generation_bench() -> None:
    shape = Shape(60, 60, 3, 3, 5, ("R", "G", "B", "Y", "K", "W"))
    runs = []
    for seed in range(5):
        started = time.perf_counter()
        for number in range(1, 12):
            generate(seed, number, shape)
        runs.append(time.perf_counter() - started)
    print(
        f"generate 11 rounds of 60x60 (5 targets 3x3):  best {min(runs) * 1000:7.1f} ms, "
        f"median {statistics.median(runs) * 1000:7.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--commands", type=int, default=150)
    parser.add_argument("--events", type=int, default=10_000)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus")
    generation_bench()
    fold_bench(args.events)
    with tempfile.TemporaryDirectory() as tmp:
        http_bench(
            "SQLite", f"sqlite:///{Path(tmp) / 'bench.sqlite3'}", args.clients, args.commands
        )
    if os.environ.get("DATABASE_URL"):
        with scratch_postgres(os.environ["DATABASE_URL"]) as url:
            http_bench("PostgreSQL", url, args.clients, args.commands)
    else:
        print("HTTP PostgreSQL: skipped (set DATABASE_URL to a server to include it)")


if __name__ == "__main__":
    main()
