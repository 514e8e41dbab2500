"""The stack's floor: what a FastAPI service does under the commands figure's load when it does
(almost) nothing, so that the service's p99 can be read against what its stack allows.

    .venv/bin/python infra/bench/floor_bench.py [--database-url URL] [--commands 150] [--reps 3]
    .venv/bin/python infra/bench/run.py --only floor      (the same rows, beside the peers)

Two apps, each served by uvicorn in a process of its own with the service's settings (uvloop,
httptools, no access log), under the load of ``http_pg`` (``service.http_load``): 8 client
processes, each ``--commands`` POSTs of a buzz's JSON body with a bearer token over one
kept-alive ``http.client`` connection:

- ``bare``: the route reads the bearer token and validates the body with a pydantic model of a
  buzz (``type``, ``seat``, ``pairs``), answers 201 with a small JSON object. No store.
- ``insert`` (with ``--database-url``, PostgreSQL): the same, plus one ``INSERT`` of the body
  into a table of its own, on psycopg's async pool (the service's appends go the same way,
  ``events/pg_async.py``), in autocommit: one statement, one round trip, committed (and so
  flushed to the WAL) before the answer: the least a service that stores each command can do.

Printed per app: commands/s, p50 and p99 latency, and the CPU per command of the server, of
PostgreSQL and of the clients (the medians of ``--reps`` runs). The service does far more per
command (a token's grant looked up, the match's state folded and decided, a hash-chained event
appended under the match's version, its checkpoint kept); these are the costs it cannot go under.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from functools import partial
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from api.cli.demo import free_port  # noqa: E402
from infra.bench.service import Server, buzz, http_load, stop  # noqa: E402
from infra.bench.table import Row, median_of, repeated  # noqa: E402

TOKEN = "floor-token"


class Pair(BaseModel):
    target: str = Field(max_length=64)
    at: str = Field(max_length=16)


class Buzz(BaseModel):
    """A buzz's body, as the service's command schema takes it."""

    type: Literal["buzz"]
    seat: str = Field(max_length=64)
    pairs: list[Pair] = Field(max_length=16)


TABLE = "floor_bench_commands"


def app(database_url: str | None) -> Any:
    """The bare app; with ``database_url``, each command inserted into ``TABLE`` first."""
    from fastapi import FastAPI, Header, HTTPException

    pool = None
    if database_url is not None:
        from psycopg_pool import AsyncConnectionPool

        pool = AsyncConnectionPool(
            database_url, min_size=4, max_size=8, open=False, kwargs={"autocommit": True}
        )

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if pool is not None:
            await pool.open()
        yield

    service = FastAPI(lifespan=lifespan)

    @service.get("/ready")
    async def ready() -> dict[str, str]:
        return {"status": "ready"}

    @service.post("/commands", status_code=201)
    async def command(body: Buzz, authorization: str = Header("")) -> dict[str, object]:
        if authorization != f"Bearer {TOKEN}":
            raise HTTPException(401, "not the token")
        if pool is not None:
            async with pool.connection() as conn:
                await conn.execute(
                    f"INSERT INTO {TABLE} (body) VALUES (%s)",
                    (body.model_dump_json(),),
                )
        return {"ok": True, "seat": body.seat}

    return service


def _serve(port: int, database_url: str | None) -> None:
    import uvicorn

    from api.cli.main import UVICORN

    uvicorn.run(app(database_url), host="127.0.0.1", port=port, **UVICORN)


@contextmanager
def served(database_url: str | None) -> Iterator[Server]:
    """The app in a process of its own (its own session, stopped as the service's is)."""
    port = free_port()
    cmd = [sys.executable, __file__, "--serve", str(port)]
    cmd += ["--serve-database", database_url] if database_url else []
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, start_new_session=True)
    server = Server(f"http://127.0.0.1:{port}", proc)
    try:
        _ready(server)
        yield server
    finally:
        stop(proc)


def _ready(server: Server) -> None:
    parsed = urlsplit(server.base)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            conn = http.client.HTTPConnection(parsed.hostname or "", parsed.port, timeout=5)
            conn.request("GET", "/ready")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        if server.proc.poll() is not None:
            raise RuntimeError("the floor app exited at start")
        time.sleep(0.1)
    raise RuntimeError("the floor app did not become ready")


def _client(base: str, commands: int, barrier: Any, results: Any) -> None:
    """One client process, as ``service._client_run`` (one connection, its seats alternated)."""
    parsed = urlsplit(base)
    conn = http.client.HTTPConnection(parsed.hostname or "", parsed.port, timeout=60)
    headers = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}
    bodies = [json.dumps(buzz(seat)).encode() for seat in ("alpha", "beta")]

    def post(i: int) -> int:
        """The answer's status; 0 when the connection fails (a broken app: counted refused,
        never left for the parent to wait on)."""
        try:
            conn.request("POST", "/commands", bodies[i % 2], headers)
            answer = conn.getresponse()
            answer.read()
        except (OSError, http.client.HTTPException):
            return 0
        return answer.status

    post(0)
    post(1)
    barrier.wait(timeout=120)
    latencies, refused = [], 0
    cpu, first = time.process_time(), time.perf_counter()
    for i in range(commands):
        began = time.perf_counter()
        refused += post(i) != 201
        latencies.append(time.perf_counter() - began)
    results.put((latencies, refused, first, time.perf_counter(), time.process_time() - cpu))
    conn.close()


def load(server: Server, clients: int, commands: int) -> dict[str, float]:
    """``service.http_load``'s figures for the floor app (a refused command fails the run)."""
    got = http_load(server, clients, commands, _client)
    if got["errors"]:
        raise RuntimeError("the floor app refused a command")
    return got


def _table(database_url: str) -> None:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f"CREATE TABLE IF NOT EXISTS {TABLE} (id bigserial PRIMARY KEY, body text)")


def _stored(database_url: str) -> int:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        row = conn.execute(f"SELECT count(*) FROM {TABLE}").fetchone()
        return 0 if row is None else int(row[0])


def _dropped(database_url: str) -> None:
    import psycopg

    with psycopg.connect(database_url, autocommit=True) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {TABLE}")


def figures(
    database_url: str | None, clients: int = 8, commands: int = 150, reps: int = 3
) -> dict[str, dict[str, float]]:
    """Each app's medians over ``reps`` runs (``insert`` only with ``database_url``, a
    libpq connection string or URL without SQLAlchemy's ``+psycopg``), and with a database
    the rows its table holds after the app's runs (``stored``: the bare app adds none)."""
    apps: dict[str, str | None] = {"bare": None}
    if database_url is not None:
        _table(database_url)
        apps["insert"] = database_url
    out = {}
    try:
        for name, url in apps.items():
            with served(url) as server:
                runs = repeated(reps, partial(load, server, clients, commands))
            out[name] = {key: median_of(runs, key) for key in runs[0]}
            if database_url is not None:
                out[name]["stored"] = _stored(database_url)
    finally:
        if database_url is not None:
            _dropped(database_url)
    return out


def figure(bench: Any) -> list[Row]:
    """``run.py``'s ``floor`` figure (``bench``: its ``Bench``): each app's throughput, p50
    and p99 (beside ``eventsourcing``'s 8 processes, the yardstick of the service's p99 in
    ``http_pg``), and its server's CPU per command."""
    got = figures(libpq_url(bench.pg_url), bench.clients, bench.commands, bench.reps)
    peer = bench.peer("eventsourcing_pg") if bench.pg_url else {}
    out = []
    for name, figure in got.items():
        label = f"floor: FastAPI {name}, {bench.clients} clients"
        out += [
            Row(f"{label}: commands/s", figure["cmds_per_s"], "/s",
                peer.get("ii_8procs_cmds_per_s"), "eventsourcing_pg 8 procs"),
            Row(f"{label}: p50", figure["p50_ms"], "ms", peer.get("ii_8procs_p50_ms"),
                "eventsourcing_pg"),
            Row(f"{label}: p99", figure["p99_ms"], "ms", peer.get("ii_8procs_p99_ms"),
                "eventsourcing_pg"),
            Row(f"{label}: server CPU per command", figure["server_cpu_ms"], "ms", None, ""),
        ]  # fmt: skip
    return out


def libpq_url(url: str | None) -> str | None:
    """A SQLAlchemy URL of PostgreSQL (``postgresql+psycopg://``) as psycopg takes it; None
    for anything else (a SQLite ``DATABASE_URL``: the bare app only)."""
    if url is None or not url.startswith("postgresql"):
        return None
    return url.replace("postgresql+psycopg://", "postgresql://", 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--database-url", default=os.environ.get("DATABASE_URL"))
    parser.add_argument("--commands", type=int, default=150)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--serve-database", help=argparse.SUPPRESS)  # never DATABASE_URL's
    args = parser.parse_args()
    if args.serve is not None:
        _serve(args.serve, args.serve_database)
        return
    url = libpq_url(args.database_url)
    for name, figure in figures(url, args.clients, args.commands, args.reps).items():
        parts = ", ".join(f"{key} {value:,.2f}" for key, value in figure.items())
        print(f"{name}: {parts}")


if __name__ == "__main__":
    main()
