"""Figures measured over HTTP against real ``serve`` processes: throughput (PostgreSQL, SQLite,
and with N workers), a command's latency under open live streams, memory of replaying streams."""

from __future__ import annotations

import json
import os
import select
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from infra.bench import peers
from infra.bench.service import (
    Match,
    auth,
    buzz,
    create_match,
    http_load,
    long_match_at,
    median_ms,
    pct_ms,
    serve,
    timed,
)
from infra.bench.table import Row, median_of, repeated

WATCH = Path(__file__).with_name("watch.py")


@dataclass
class Bench:
    quick: bool
    reps: int
    big: bool
    workers: list[int]
    pg_url: str | None
    sqlite_url: str
    _peers: dict[str, dict[str, float]] = field(default_factory=dict)

    def peer(self, script: str) -> dict[str, float]:
        if script not in self._peers:
            self._peers[script] = peers.run_peer(script, self.quick) if peers.available() else {}
        return self._peers[script]

    @property
    def clients(self) -> int:
        return 8

    @property
    def commands(self) -> int:
        return 30 if self.quick else 150


def _throughput(bench: Bench, url: str, workers: int = 1) -> dict[str, float]:
    with serve(url, workers=workers) as server:
        runs = repeated(bench.reps, lambda: http_load(server, bench.clients, bench.commands))
    return {key: median_of(runs, key) for key in runs[0]}


def http_pg(bench: Bench) -> list[Row]:
    if bench.pg_url is None:
        return []
    got = _throughput(bench, bench.pg_url)
    es, raw = bench.peer("eventsourcing_pg"), bench.peer("raw_pg")
    label = f"HTTP PostgreSQL, {bench.clients} clients"
    rows = [
        Row(f"{label}: commands/s", got["cmds_per_s"], "/s",
            es.get("ii_8procs_cmds_per_s"), "eventsourcing_pg 8 procs"),
        Row(f"{label}: commands/s", got["cmds_per_s"], "/s",
            raw.get("ii_lock_8procs_appends_per_s"), "raw_pg 8 procs + LOCK TABLE"),
        Row(f"{label}: p50", got["p50_ms"], "ms", es.get("ii_8procs_p50_ms"), "eventsourcing_pg"),
        Row(f"{label}: p99", got["p99_ms"], "ms", es.get("ii_8procs_p99_ms"), "eventsourcing_pg"),
        Row(f"{label}: refused commands", got["errors"], ""),
        *cpu_rows(label, got),
    ]  # fmt: skip
    if "ii_8procs_appends_per_s" in raw:
        rows.append(
            Row("raw_pg 8 procs: appends/s with the global-order lock",
                raw["ii_lock_8procs_appends_per_s"], "/s",
                raw["ii_8procs_appends_per_s"], "without the lock")
        )  # fmt: skip
    return rows


def http_sqlite(bench: Bench) -> list[Row]:
    got = _throughput(bench, bench.sqlite_url)
    es = bench.peer("eventsourcing_sqlite")
    label = f"HTTP SQLite, {bench.clients} clients"
    return [
        Row(f"{label}: commands/s", got["cmds_per_s"], "/s",
            es.get("full_ii_8threads_cmds_per_s"), "eventsourcing_sqlite 8 threads"),
        Row(f"{label}: p50", got["p50_ms"], "ms",
            es.get("full_ii_8threads_p50_ms"), "eventsourcing_sqlite"),
        Row(f"{label}: p99", got["p99_ms"], "ms",
            es.get("full_ii_8threads_p99_ms"), "eventsourcing_sqlite"),
        Row(f"{label}: refused commands", got["errors"], ""),
        *cpu_rows(label, got, postgres=False),
    ]  # fmt: skip


def cpu_rows(label: str, got: dict[str, float], postgres: bool = True) -> list[Row]:
    """Where the machine's CPU goes per command: the server, PostgreSQL (when it runs on this
    machine), the client processes; with all cores busy, their sum bounds the rate."""
    parts = [("server", "server_cpu_ms")]
    parts += [("PostgreSQL", "postgres_cpu_ms")] if postgres else []
    parts.append(("clients", "client_cpu_ms"))
    rows = [Row(f"{label}: CPU per command, {who}", got[key], "ms") for who, key in parts
            if key in got]  # fmt: skip
    total = sum(got[key] for _, key in parts if key in got)
    cores = os.cpu_count() or 1
    rows.append(Row(f"{label}: CPU per command, all ({cores} cores: at most "
                    f"{cores * 1000 / total:,.0f} commands/s)", total, "ms"))  # fmt: skip
    return rows


def workers(bench: Bench) -> list[Row]:
    """Throughput with N uvicorn workers (each a replica) on PostgreSQL (SQLite without one)."""
    url = bench.pg_url or bench.sqlite_url
    store = "PostgreSQL" if bench.pg_url else "SQLite"
    results = {n: _throughput(bench, url, workers=n) for n in bench.workers}
    first = results[bench.workers[0]]["cmds_per_s"]
    rows = []
    for n, got in results.items():
        label = f"serve --workers {n} ({store}, {bench.clients} clients)"
        rows.append(Row(f"{label}: commands/s", got["cmds_per_s"], "/s", first,
                        f"--workers {bench.workers[0]}"))  # fmt: skip
        rows.append(Row(f"{label}: p50", got["p50_ms"], "ms"))
    return rows


class Streams:
    """Live streams opened by a process of their own (``infra/bench/watch.py``), so reading
    them takes no CPU from the harness's timing thread."""

    def __init__(self, base: str, match_id: str, after: int, count: int, tracked: int = 0) -> None:
        """``tracked``: how many of the streams note when each event came (``result``)."""
        cmd = [sys.executable, str(WATCH), base, match_id, str(after), str(count), str(tracked)]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        self._result: dict[str, Any] | None = None

    def opened(self, timeout: float = 120) -> None:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        if not ready or self.proc.stdout.readline().strip() != "open":
            raise RuntimeError("the streams did not open")

    def alive(self) -> bool:
        return self.proc.poll() is None

    def __enter__(self) -> Streams:
        return self

    def __exit__(self, *_: object) -> None:
        if self.alive():
            self.proc.kill()
            self.proc.wait()

    def received(self, timeout: float = 300) -> int:
        return int(self.result(timeout)["received"])

    def result(self, timeout: float = 300) -> dict[str, Any]:
        """What ``watch.py`` printed at the end: ``received``, and ``arrivals``: per tracked
        stream, seq -> ``time.monotonic()`` when it came."""
        if self._result is None:
            out, _ = self.proc.communicate(timeout=timeout)
            self._result = json.loads(out.strip().splitlines()[-1])
        return self._result


def command_p50(client: httpx.Client, match: Match, n: int) -> float:
    return commands_timed(client, match, n)[0]


def commands_timed(client: httpx.Client, match: Match, n: int) -> tuple[float, dict[int, float]]:
    """The p50 of ``n`` buzzes, and when (``time.monotonic``) each one's answer came, by the
    seq it recorded."""
    url = f"/matches/{match.match_id}/commands"
    counter = iter(range(10**9))
    answered: dict[int, float] = {}

    def post() -> httpx.Response:
        seat = ("alpha", "beta")[next(counter) % 2]
        response = client.post(url, json=buzz(seat), headers=auth(match.token(seat)))
        answered[response.json()["events"][0]["seq"]] = time.monotonic()
        return response

    return median_ms(timed(post, n)), answered


def delivery_ms(answered: dict[int, float], arrivals: list[dict[str, float]]) -> list[float]:
    """Per tracked stream and command: how long after the command's answer its event came."""
    return [
        (came - answered[int(seq)]) * 1000
        for stream in arrivals
        for seq, came in stream.items()
        if int(seq) in answered
    ]


def streams(bench: Bench) -> list[Row]:
    """A command's p50 on a match without streams, then on one with S open live streams.
    One watcher process stands in for S spectators, all from one address, so the server is
    started with a per-client bound of S (``ADJUDICATOR_MAX_STREAMS_PER_CLIENT``, 50 by
    default: the 51st would be answered 429)."""
    count = 60 if bench.quick else 200  # more than the default bound, even in a quick run
    n = 20 if bench.quick else 60
    url = bench.pg_url or bench.sqlite_url
    bound = {"ADJUDICATOR_MAX_STREAMS_PER_CLIENT": str(count)}
    with (
        serve(url, settings=bound) as server,
        httpx.Client(base_url=server.base, timeout=60) as client,
    ):
        quiet = _played(client, create_match(client), n)[0]
        watched = create_match(client)
        with Streams(server.base, watched.match_id, 2, count, tracked=10) as watching:
            watching.opened()
            time.sleep(1.0)
            busy, answered = _played(client, watched, n)
            host = auth(watched.token("host"))
            client.post(f"/matches/{watched.match_id}/close", headers=host).raise_for_status()
            result = watching.result()
    label = f"command p50 with {count} open live streams on its match"
    delays = delivery_ms(answered, result["arrivals"])
    tracked = len(result["arrivals"])
    return [
        Row(label, busy, "ms", quiet, "0 streams"),
        Row(f"events delivered to the {count} streams", result["received"], "",
            (n + 2) * count, "expected"),
        Row(f"an event's delivery after its command's answer, p50 ({tracked} streams)",
            statistics.median(delays), "ms"),
        Row(f"an event's delivery after its command's answer, p99 ({tracked} streams)",
            pct_ms([d / 1000 for d in delays], 99), "ms"),
    ]  # fmt: skip


def _played(client: httpx.Client, match: Match, n: int) -> tuple[float, dict[int, float]]:
    """Start the match's round (its clock runs from now), then ``n`` buzzes: their p50 and
    when each seq's answer came."""
    url = f"/matches/{match.match_id}/commands"
    client.post(url, json={"type": "start_round"}, headers=auth(match.token("host")))
    return commands_timed(client, match, n)


def memory(bench: Bench) -> list[Row]:
    """Resident memory of a server while S streams replay a long closed match from seq 0."""
    count, events = (5, 2_000) if bench.quick else (20, 20_000)
    url = bench.pg_url or bench.sqlite_url
    with serve(url) as server, httpx.Client(base_url=server.base, timeout=300) as client:
        match = long_match_at(client, url, events)
        host = auth(match.token("host"))
        client.post(f"/matches/{match.match_id}/close", headers=host).raise_for_status()
        before = server.rss_mb()
        with Streams(server.base, match.match_id, 0, count) as watching:
            watching.opened()
            peak = before
            while watching.alive():
                peak = max(peak, server.rss_mb())
                time.sleep(0.02)
            received = watching.received()
    total = events + 5
    return [
        Row(f"resident memory, {count} streams replaying a {events:,}-event match", peak, "MB",
            before, "server before the streams"),
        Row("events delivered to those streams", received, "", total * count, "expected"),
    ]  # fmt: skip
