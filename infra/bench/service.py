"""The service under measurement: real ``serve`` processes, HTTP clients, and long matches built
fast by writing host-entered events through ``EventStore`` directly (one batch per 1,000)."""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import signal
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from api.cli.demo import free_port  # noqa: E402
from events import EventStore, NewEvent  # noqa: E402
from infra.bench.zoom_bench import GRID, OPERATOR, TARGETS  # noqa: E402

BATCH = 1000
SEATS = ("alpha", "beta")


@dataclass
class Server:
    base: str
    proc: subprocess.Popen[bytes]

    def cpu_s(self) -> float:
        """CPU seconds used so far by the server process and its workers."""
        return sum(_cpu_s(pid) for pid in [self.proc.pid, *_children(self.proc.pid)])

    def idle(self, window: float = 0.5, limit: float = 60.0) -> float:
        """Wait until the server uses almost no CPU over ``window`` seconds (its background
        thread done with what the last requests left it: stored checkpoints, a closed match's
        head), at most ``limit`` seconds; the seconds waited."""
        began = time.monotonic()
        used = self.cpu_s()
        while time.monotonic() - began < limit:
            time.sleep(window)
            now = self.cpu_s()
            if now - used < window / 20:  # under 5% of a core
                break
            used = now
        return time.monotonic() - began

    def rss_mb(self) -> float:
        """Resident memory of the server process (its workers included), in MB."""
        pids = [self.proc.pid, *_children(self.proc.pid)]
        return sum(_rss_kb(pid) for pid in pids) / 1024


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(p) for p in text.split()]


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds of ``pid`` (0 once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def postgres_cpu_s() -> float | None:
    """CPU seconds used so far by the PostgreSQL server processes of this machine (None when
    there are none to see: the server is elsewhere)."""
    total, seen = 0.0, False
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if not (entry / "cmdline").read_bytes().startswith(b"postgres"):
                continue
        except OSError:
            continue
        seen = True
        total += _cpu_s(int(entry.name))
    return total if seen else None


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


@contextmanager
def serve(
    database_url: str,
    workers: int = 1,
    poll: float = 2.0,
    settings: Mapping[str, str] | None = None,
) -> Iterator[Server]:
    """A real ``serve --workers N`` process on ``database_url`` until the block ends;
    ``settings``: more of its environment (``ADJUDICATOR_…`` variables)."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "ADJUDICATOR_OPERATOR_TOKEN": OPERATOR,
        "ADJUDICATOR_LOG_LEVEL": "warning",
        "ADJUDICATOR_STREAM_POLL_SECONDS": str(poll),
        **(settings or {}),
    }
    cmd = [sys.executable, "-m", "api.cli.main", "serve", "--port", str(port)]
    cmd += ["--workers", str(workers)] if workers > 1 else []
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, start_new_session=True
    )
    server = Server(f"http://127.0.0.1:{port}", proc)
    try:
        _wait_ready(server)
        yield server
    finally:
        stop(proc)


def stop(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM the server and its workers (its own process group); SIGKILL after 30 s."""
    with suppress(ProcessLookupError):  # already gone
        os.killpg(proc.pid, signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _wait_ready(server: Server) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"{server.base}/ready").status_code == 200:
                return
        except httpx.TransportError:
            pass
        if server.proc.poll() is not None:
            raise RuntimeError("the server exited at start")
        time.sleep(0.1)
    raise RuntimeError("the server did not become ready")


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Match:
    match_id: str
    tokens: dict[str, Any]
    middle: datetime = field(default_factory=lambda: datetime.now(UTC))  # a game time inside

    def token(self, who: str) -> str:
        return str(self.tokens[who] if who in ("host", "auditor") else self.tokens["seats"][who])


def create_match(client: httpx.Client, rounds: int = 1) -> Match:
    config: dict[str, Any] = {
        "rounds": rounds,
        "supplied_rounds": {"1": {"grid": GRID, "targets": TARGETS}},
    }
    if rounds > 1:
        config["supplied_rounds"]["2"] = {"grid": GRID, "targets": TARGETS}
    body = {"game": "zoom", "seats": ["alpha", "beta"], "config": config}
    made = client.post("/matches", json=body, headers=auth(OPERATOR))
    made.raise_for_status()
    data = made.json()
    return Match(data["match_id"], data["tokens"])


def buzz(seat: str) -> dict[str, Any]:
    """A wrong buzz (recorded and graded ``incorrect``; the round stays open)."""
    return {"type": "buzz", **buzzed(seat)}


def buzzed(seat: str) -> dict[str, Any]:
    """The payload of the ``zoom.buzzed`` event a wrong buzz records."""
    return {"seat": seat, "pairs": [{"target": "A", "at": "a1"}]}


def long_match(client: httpx.Client, store: EventStore, events: int) -> Match:
    """A two-round match whose first round holds ``events`` host-entered buzzes an hour ago
    (written through the store in batches), its second round started live: ready for live
    and host-entered commands now."""
    match = create_match(client, rounds=2)
    start = datetime.now(UTC) - timedelta(hours=1)
    body = {"type": "start_round", "occurred_at": start.isoformat()}
    url, host = f"/matches/{match.match_id}/commands", auth(match.token("host"))
    client.post(url, json=body, headers=host).raise_for_status()
    step = timedelta(seconds=100) / max(1, events)
    seq = 3
    for first in range(0, events, BATCH):
        batch = [
            NewEvent("zoom.buzzed", "host", start + step * (i + 1), buzzed(SEATS[i % 2]))
            for i in range(first, min(events, first + BATCH))
        ]
        seq = store.append(match.match_id, seq, batch)[-1].seq
    match.middle = start + timedelta(seconds=50)
    client.post(url, json={"type": "start_round"}, headers=host).raise_for_status()
    return match


def long_match_at(client: httpx.Client, url: str, events: int) -> Match:
    """:func:`long_match`, its buzzes written through a store opened at ``url`` for it."""
    store = EventStore.from_url(url)
    try:
        return long_match(client, store, events)
    finally:
        store.dispose()


def timed(call: Any, repeats: int) -> list[float]:
    """Seconds per call of ``call()`` (which must return an httpx response that succeeded)."""
    runs = []
    for _ in range(repeats):
        began = time.perf_counter()
        response = call()
        runs.append(time.perf_counter() - began)
        if response.status_code >= 300:
            raise RuntimeError(f"{response.status_code}: {response.text[:300]}")
    return runs


def median_ms(runs: list[float]) -> float:
    return statistics.median(runs) * 1000


def pct_ms(runs: list[float], p: float) -> float:
    ordered = sorted(runs)
    return ordered[max(0, min(len(ordered) - 1, round(p / 100 * len(ordered) + 0.5) - 1))] * 1000


def _client_run(base: str, commands: int, barrier: Any, results: Any) -> None:
    """One client process: its own match, created and warmed first, then ``commands`` live
    buzzes over one kept-alive ``http.client`` connection (a lean client: its CPU shares the
    machine with the server's). Puts (latencies, refused, first start, last end)."""
    with httpx.Client(base_url=base, timeout=60) as client:
        match = create_match(client)
        url = f"/matches/{match.match_id}/commands"
        client.post(url, json={"type": "start_round"}, headers=auth(match.token("host")))
    parsed = urlsplit(base)
    conn = http.client.HTTPConnection(parsed.hostname or "127.0.0.1", parsed.port, timeout=60)
    bodies = {seat: json.dumps(buzz(seat)).encode() for seat in SEATS}
    headers = {
        seat: {**auth(match.token(seat)), "Content-Type": "application/json"} for seat in SEATS
    }

    def post(seat: str) -> int:
        conn.request("POST", url, bodies[seat], headers[seat])
        answer = conn.getresponse()
        answer.read()
        return answer.status

    for seat in SEATS:  # warm: each seat's token once
        post(seat)
    barrier.wait(timeout=120)
    latencies, refused = [], 0
    cpu = time.process_time()
    first = time.perf_counter()
    for i in range(commands):
        seat = SEATS[i % 2]
        began = time.perf_counter()
        status = post(seat)
        latencies.append(time.perf_counter() - began)
        refused += status != 201
    last = time.perf_counter()
    results.put((latencies, refused, first, last, time.process_time() - cpu))
    conn.close()


Client = Callable[[str, int, Any, Any], None]
"""A client process's work, as :func:`_client_run`: (base URL, commands, barrier, results)."""


def http_load(
    server: Server, clients: int, commands: int, client: Client | None = None
) -> dict[str, float]:
    """``clients`` processes (as the peers' 8 processes: no client waits for another's GIL),
    each on its own match, ``commands`` live buzzes each; throughput over the span from the
    first command to the last answer (``perf_counter`` is the system's monotonic clock, one
    for every process), and the CPU per command of the server, of PostgreSQL (when it runs
    here) and of the clients: what the machine's cores are spent on. ``client``: what each
    process runs (default :func:`_client_run`; ``floor_bench`` sends its own commands)."""
    base = server.base
    context = multiprocessing.get_context("fork")
    barrier, results = context.Barrier(clients + 1), context.Queue()  # and this process
    procs = [
        context.Process(target=client or _client_run, args=(base, commands, barrier, results))
        for _ in range(clients)
    ]
    for proc in procs:
        proc.start()
    barrier.wait(timeout=120)  # every client is set up: measured from here
    server_cpu_at_start, postgres_cpu_at_start = server.cpu_s(), postgres_cpu_s()
    runs = [results.get(timeout=600) for _ in procs]
    server_cpu, postgres_cpu = server.cpu_s(), postgres_cpu_s()
    for proc in procs:
        proc.join()
    latencies = [latency for run in runs for latency in run[0]]
    elapsed = max(run[3] for run in runs) - min(run[2] for run in runs)
    done = len(latencies)
    got = {
        "cmds_per_s": done / elapsed,
        "p50_ms": pct_ms(latencies, 50),
        "p99_ms": pct_ms(latencies, 99),
        "errors": float(sum(run[1] for run in runs)),
        "server_cpu_ms": (server_cpu - server_cpu_at_start) * 1000 / done,
        "client_cpu_ms": sum(run[4] for run in runs) * 1000 / done,
    }
    if postgres_cpu is not None and postgres_cpu_at_start is not None:
        got["postgres_cpu_ms"] = (postgres_cpu - postgres_cpu_at_start) * 1000 / done
    return got
