"""A crowd of slow live streams against the commands: issue 25's "500 open streams" probe.
Prints numbers.

    [DATABASE_URL=postgresql+psycopg://...] .venv/bin/python infra/bench/stream_crowd_bench.py \\
        [--streams 500] [--events 2000] [--per-client 1000]

A real ``serve`` process (on PostgreSQL when ``DATABASE_URL`` is set, in a scratch database;
else SQLite) holds a Zoom match of ``--events`` host-entered buzzes. First, with no stream
open: the p50 and p99 of ``GET /state`` and of a host-entered command (40 each, one at a
time). Then ``--streams`` unauthenticated ``GET /matches/M/stream?after_seq=0`` are opened
from one address, each reading 4 KiB every 50 ms (a slow client), and the same requests are
timed while they replay. The server's per-client bound is ``--per-client`` (the default here
lets every stream in; ``--per-client 50``, the service's default, shows the refusals). Printed:
the answers the streams got (200 or a refusal), both sets of figures, and the ratio of the
command's p50 with the crowd to without (the issue's goal: at most 2).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from datetime import datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from infra.bench.restart_bench import STEP, enter  # noqa: E402
from infra.bench.service import Match, auth, buzz, serve  # noqa: E402
from infra.bench.zoom_bench import scratch_store  # noqa: E402

TIMED = 40


class Crowd(threading.Thread):
    """``count`` slow stream readers on an event loop of their own."""

    def __init__(self, base: str, match_id: str, count: int) -> None:
        super().__init__(daemon=True)
        self.base, self.match_id, self.count = base, match_id, count
        self.statuses: Counter[str] = Counter()
        self.received = 0
        self.halt = threading.Event()
        self.opened = threading.Event()

    def run(self) -> None:
        asyncio.run(self._all())

    async def _all(self) -> None:
        readers = [asyncio.create_task(self._one()) for _ in range(self.count)]
        while sum(self.statuses.values()) < self.count and not self.halt.is_set():
            await asyncio.sleep(0.05)
        self.opened.set()
        while not self.halt.is_set():
            await asyncio.sleep(0.1)
        for reader in readers:
            reader.cancel()
        await asyncio.gather(*readers, return_exceptions=True)

    async def _one(self) -> None:
        where = urlsplit(self.base)
        reader, writer = await asyncio.open_connection(where.hostname, where.port)
        path = f"/matches/{self.match_id}/stream?after_seq=0"
        writer.write(f"GET {path} HTTP/1.1\r\nHost: bench\r\n\r\n".encode())
        await writer.drain()
        status = (await reader.readline()).decode().split(" ")[1:2]
        self.statuses[status[0] if status else "none"] += 1
        try:
            while chunk := await reader.read(4096):
                self.received += len(chunk)
                await asyncio.sleep(0.05)
        finally:
            writer.close()


def timed(call: Callable[[], httpx.Response], n: int = TIMED) -> tuple[float, float]:
    """p50 and p99 in ms of ``n`` calls one at a time."""
    times = []
    for _ in range(n):
        began = time.perf_counter()
        call().raise_for_status()
        times.append((time.perf_counter() - began) * 1000)
    cuts = statistics.quantiles(times, n=100)
    return cuts[49], cuts[98]


def requests(
    client: httpx.Client, match: Match, last: list[datetime]
) -> dict[str, Callable[[], httpx.Response]]:
    path, host = f"/matches/{match.match_id}", auth(match.token("host"))

    def command() -> httpx.Response:
        last[0] += STEP
        body = buzz("alpha") | {"occurred_at": last[0].isoformat()}
        return client.post(f"{path}/commands", json=body, headers=host)

    return {
        "GET /state": lambda: client.get(f"{path}/state", headers=host),
        "host-entered command": command,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--streams", type=int, default=500)
    parser.add_argument("--events", type=int, default=2000)
    parser.add_argument("--per-client", type=int, default=1000)
    args = parser.parse_args(argv)
    os.environ["ADJUDICATOR_MAX_STREAMS_PER_CLIENT"] = str(args.per_client)
    server = os.environ.get("DATABASE_URL")
    with ExitStack() as stack:
        url = stack.enter_context(scratch_store("crowd.sqlite3"))
        srv = stack.enter_context(serve(url))
        client = stack.enter_context(httpx.Client(base_url=srv.base, timeout=120))
        match, _, end = enter(client, args.events)
        last = [end + timedelta(seconds=1)]
        calls = requests(client, match, last)
        backend = "PostgreSQL" if server else "SQLite"
        print(f"{backend}, {args.events:,} events, load average {os.getloadavg()[0]:.1f}")
        before = {name: timed(call) for name, call in calls.items()}
        crowd = Crowd(srv.base, match.match_id, args.streams)
        crowd.start()
        crowd.opened.wait(120)
        during = {name: timed(call) for name, call in calls.items()}
        received = crowd.received
        crowd.halt.set()
        crowd.join(30)
        print(f"{args.streams} streams (per-client bound {args.per_client}): answers"
              f" {dict(crowd.statuses)}, {received / 1e6:.1f} MB received while timed")  # fmt: skip
        for name in calls:
            (p50, p99), (c50, c99) = before[name], during[name]
            print(f"{name:22} none: p50 {p50:6.1f} ms p99 {p99:6.1f} ms;"
                  f" with the crowd: p50 {c50:7.1f} ms p99 {c99:7.1f} ms;"
                  f" p50 ratio {c50 / p50:5.2f}x")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
