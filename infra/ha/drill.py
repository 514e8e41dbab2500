"""A failover drill on the ``infra/ha`` cluster, shared by ``tests/ha/test_failover.py`` and
``infra/ha/failover_bench.py``: real ``serve`` replicas on the cluster's multi-host URL,
clients sending commands with idempotency keys through them (a refused or unanswered command is
sent again with its key, to the other replica, until it is acknowledged), a live stream kept
open through it all, and the checks of what was recorded once the cluster is whole again."""

from __future__ import annotations

import os
import random
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx

ROOT = Path(__file__).resolve().parents[2]
OPERATOR = "op_failover_drill_token"
GRID = ["RGBRGB", "GBRGBR", "BRGYYY", "KKKWRG"]
TARGETS = {"A": ["YYY"], "B": ["KKK"], "C": ["W"], "D": ["RG"]}
T = TypeVar("T")
TIMEOUT = 60.0
"""A command's answer may wait while the cluster fails over (its commit waits for the standby
that is being dropped from the synchronous set); never this long."""


def free_ports(count: int) -> int:
    """The first of ``count`` consecutive free ports (for the cluster's monitor and nodes)."""
    rng = random.Random()
    for _ in range(200):
        first = rng.randrange(20_000, 40_000)
        try:
            for port in range(first, first + count):
                with socket.socket() as sock:
                    sock.bind(("127.0.0.1", port))
        except OSError:
            continue
        return first
    raise RuntimeError("no free ports")


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def replicas(url: str, count: int = 2, log_dir: Path | None = None) -> Iterator[list[str]]:
    """``count`` ``serve`` processes on the database at ``url``, ready; stopped at the end."""
    started: list[tuple[subprocess.Popen[bytes], str]] = []
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "ADJUDICATOR_OPERATOR_TOKEN": OPERATOR,
        "ADJUDICATOR_UPGRADE_ON_START": "false",
        "ADJUDICATOR_LOG_LEVEL": "warning",
    }
    try:
        for number in range(count):
            port = _free_port()
            cmd = [sys.executable, "-m", "api.cli.main", "serve", "--port", str(port)]
            err = (log_dir / f"serve{number}.log").open("wb") if log_dir else None
            proc = subprocess.Popen(
                cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                stderr=err or subprocess.DEVNULL,
            )  # fmt: skip
            if err is not None:
                err.close()  # the child has its own copy
            started.append((proc, f"http://127.0.0.1:{port}"))
        for proc, base in started:
            _wait_ready(base, proc)
        yield [base for _, base in started]
    finally:
        for proc, _ in started:
            proc.terminate()
        for proc, _ in started:
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def _wait_ready(base: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 180  # a machine loaded by others starts them slowly
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError("a replica exited at start")
        with suppress(httpx.TransportError):
            if httpx.get(f"{base}/ready").status_code == 200:
                return
        time.sleep(0.1)
    raise RuntimeError("a replica did not become ready")


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create_match(base: str) -> dict[str, Any]:
    """A zoom match with its round started: buzzes are taken from then on."""
    return start_round(base, new_match(base))


def new_match(base: str) -> dict[str, Any]:
    """A zoom match of one round, not started."""
    config = {"rounds": 1, "supplied_rounds": {"1": {"grid": GRID, "targets": TARGETS}}}
    body = {"game": "zoom", "seats": ["alpha", "beta"], "config": config}
    made = httpx.post(f"{base}/matches", json=body, headers=auth(OPERATOR), timeout=TIMEOUT)
    made.raise_for_status()
    match: dict[str, Any] = made.json()
    return match


def start_round(base: str, match: dict[str, Any]) -> dict[str, Any]:
    """Start the match's round (with an idempotency key: sent again, it is started once);
    returns the match."""
    url = f"{base}/matches/{match['match_id']}/commands"
    headers = auth(match["tokens"]["host"]) | {"Idempotency-Key": "drill-start"}
    started = httpx.post(url, json={"type": "start_round"}, headers=headers, timeout=TIMEOUT)
    started.raise_for_status()
    return match


def feed_end(base: str) -> int:
    """The last global position (0: none yet): the events after it are the drill's."""
    feed = feed_of(base)
    position: int = feed[-1]["position"] if feed else 0
    return position


@dataclass
class Answer:
    key: str
    match_id: str
    status: int | None  # None: no answer (the connection failed or timed out)
    body: dict[str, Any] | None
    sent: float
    received: float

    @property
    def retryable(self) -> bool:
        """Refused with nothing written, worth sending again with the same key: no answer,
        503 (no primary), or 409 ``version_conflict`` (the service's own retries all lost to
        other writers of the match; it happens under this load without any failover)."""
        return self.status in (None, 503) or self.conflict

    @property
    def conflict(self) -> bool:
        return self.status == 409 and (self.body or {}).get("code") == "version_conflict"

    @property
    def round_over(self) -> bool:
        """Refused because the match's one round is over (Zoom's round clock is 120 s): the
        load moves on to a fresh match."""
        return self.status == 409 and (self.body or {}).get("code") == "no_round_in_progress"


@dataclass
class Record:
    """Every answer of the drill, in the order received (thread-safe)."""

    answers: list[Answer] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, answer: Answer) -> None:
        with self.lock:
            self.answers.append(answer)

    def acknowledged(self) -> dict[str, list[Answer]]:
        """The 2xx answers, by idempotency key."""
        by_key: dict[str, list[Answer]] = {}
        for answer in self.answers:
            if answer.status is not None and 200 <= answer.status < 300:
                by_key.setdefault(answer.key, []).append(answer)
        return by_key

    def statuses(self, since: float = 0.0, until: float = float("inf")) -> Counter[int | None]:
        return Counter(a.status for a in self.answers if since <= a.sent < until)

    def first_ack_after(self, moment: float) -> float | None:
        """When the first command sent after ``moment`` was acknowledged (None: none was)."""
        times = [
            a.received
            for a in self.answers
            if a.sent >= moment and a.status is not None and 200 <= a.status < 300
        ]
        return min(times) if times else None


class Load:
    """``clients`` threads sending buzzes with idempotency keys over ``bases`` until
    :meth:`stop`. A key refused with 503 or unanswered is sent again (to the other replica)
    until acknowledged; one acknowledged key in four is sent again to the other replica, whose
    answer must be the first one. A match whose round is over is replaced by a fresh one
    (``matches`` holds those in play, ``every_match`` all of them)."""

    def __init__(self, bases: list[str], matches: list[dict[str, Any]], clients: int = 8) -> None:
        self.bases, self.matches, self.record = bases, list(matches), Record()
        self.every_match = list(matches)
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._threads = [
            threading.Thread(target=self._client, args=(n,), daemon=True) for n in range(clients)
        ]

    def start(self) -> None:
        for thread in self._threads:
            thread.start()

    def stop(self) -> None:
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=TIMEOUT * 3)
        if any(thread.is_alive() for thread in self._threads):
            raise RuntimeError("a client did not finish")

    def _client(self, number: int) -> None:
        rng = random.Random(number)
        seat = ("alpha", "beta")[number % 2]
        with httpx.Client(timeout=TIMEOUT) as client:
            i = 0
            while not self._stop.is_set():
                match = rng.choice(self.matches)
                key = f"c{number}-{i}"
                i += 1
                replica = rng.randrange(len(self.bases))
                while True:  # until acknowledged: a key is never given up
                    answer = self._post(client, self.bases[replica], match, seat, key)
                    replica = (replica + 1) % len(self.bases)
                    if not answer.retryable:
                        break
                    time.sleep(0.05 if answer.status is None else 0.2)
                if answer.status is not None and 200 <= answer.status < 300 and i % 4 == 0:
                    self._post(client, self.bases[replica], match, seat, key)
                if answer.round_over:
                    self._replace(match)

    def _replace(self, match: dict[str, Any]) -> None:
        """A fresh match in place of ``match`` (once, whichever client finds it over first).
        Once created it is the drill's, so its log is checked whether or not its round starts
        (a creation whose answer was lost leaves a match the checks allow, see :func:`problems`)."""
        with self._lock:
            if match not in self.matches:
                return
            fresh = self._until_answered(lambda: new_match(random.choice(self.bases)))
            if fresh is None:
                return
            self.every_match.append(fresh)
            started = self._until_answered(lambda: start_round(random.choice(self.bases), fresh))
            if started is not None:  # None: stopped before the round started
                self.matches[self.matches.index(match)] = started

    def _until_answered(self, call: Callable[[], T]) -> T | None:
        """``call()`` again until it is answered (None: the load was stopped first)."""
        while not self._stop.is_set():
            try:
                return call()
            except (httpx.HTTPError, ValueError):
                time.sleep(0.2)  # no primary now: try again
        return None

    def _post(
        self, client: httpx.Client, base: str, match: dict[str, Any], seat: str, key: str
    ) -> Answer:
        url = f"{base}/matches/{match['match_id']}/commands"
        body = {"type": "buzz", "seat": seat, "pairs": [{"target": "A", "at": "a1"}]}
        headers = auth(match["tokens"]["seats"][seat]) | {"Idempotency-Key": key}
        sent = time.monotonic()
        try:
            response = client.post(url, json=body, headers=headers)
            status: int | None = response.status_code
            data: dict[str, Any] | None = response.json()
        except (httpx.TransportError, ValueError):
            status, data = None, None
        answer = Answer(key, match["match_id"], status, data, sent, time.monotonic())
        self.record.add(answer)
        return answer


class Stream:
    """A live stream of one match on one replica, read in a thread from seq 0 until
    :meth:`stop`; resumed with ``Last-Event-ID`` when its connection breaks, as an SSE client
    does. ``seqs`` holds every seq it received, in order."""

    def __init__(self, base: str, match: dict[str, Any]) -> None:
        self.url = f"{base}/matches/{match['match_id']}/stream"
        self.headers = auth(match["tokens"]["host"])
        self.seqs: list[int] = []
        self.resumed = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._read, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, settle: float = 5.0) -> None:
        time.sleep(settle)  # the last appends reach it
        self._stop.set()
        self._thread.join(timeout=30)

    def _read(self) -> None:
        while not self._stop.is_set():
            headers = dict(self.headers)
            if self.seqs:
                headers["Last-Event-ID"] = str(self.seqs[-1])
            try:
                timeout = httpx.Timeout(5.0, read=2.0)
                with httpx.stream("GET", self.url, headers=headers, timeout=timeout) as answer:
                    for line in answer.iter_lines():
                        if line.startswith("id: "):
                            self.seqs.append(int(line[4:]))
                        if self._stop.is_set():
                            return
            except httpx.ReadTimeout:
                continue  # quiet for a while (keep-alives are rarer): read on
            except httpx.HTTPError:
                self.resumed += 1
                time.sleep(0.5)


def log_of(base: str, match: dict[str, Any]) -> list[dict[str, Any]]:
    url = f"{base}/matches/{match['match_id']}/events"
    answer = httpx.get(url, headers=auth(match["tokens"]["host"]), timeout=TIMEOUT)
    answer.raise_for_status()
    events: list[dict[str, Any]] = answer.json()
    return events


def feed_of(base: str) -> list[dict[str, Any]]:
    everything: list[dict[str, Any]] = []
    while True:
        params = {"after_position": everything[-1]["position"] if everything else 0, "limit": 1000}
        answer = httpx.get(f"{base}/feed", params=params, headers=auth(OPERATOR), timeout=TIMEOUT)
        answer.raise_for_status()
        page: list[dict[str, Any]] = answer.json()
        if not page:
            return everything
        everything += page


def verify(base: str, match: dict[str, Any]) -> dict[str, Any]:
    url = f"{base}/matches/{match['match_id']}/verify"
    answer = httpx.get(url, headers=auth(match["tokens"]["host"]), timeout=TIMEOUT)
    answer.raise_for_status()
    report: dict[str, Any] = answer.json()
    return report


def problems(
    bases: list[str], matches: list[dict[str, Any]], record: Record, after_position: int = 0
) -> list[str]:
    """What the drill recorded wrongly (empty: nothing): every acknowledged key in its match's
    log exactly once, with the events its answers gave; every answer to a key the same; no 500,
    no status but 2xx, 503, 409 ``version_conflict`` and ``no_round_in_progress``; seqs and
    global positions gap-free; the feed after ``after_position`` (where the drill began: the
    store may hold other matches before it) exactly the drill's logs; every chain verifies."""
    found: list[str] = []
    logs = {m["match_id"]: log_of(bases[0], m) for m in matches}
    for match_id, events in logs.items():
        if [e["seq"] for e in events] != list(range(1, len(events) + 1)):
            found.append(f"{match_id}: seqs not gap-free")
    stored: dict[str, list[dict[str, Any]]] = {}
    for events in logs.values():
        for event in events:
            if event["idempotency_key"] is not None:
                stored.setdefault(event["idempotency_key"].split("/", 1)[1], []).append(event)
    for key, answers in record.acknowledged().items():
        events = stored.get(key, [])
        if len(events) != 1:
            found.append(f"{key}: acknowledged, {len(events)} times in the log")
            continue
        first = answers[0].body or {}
        if any((a.body or {}).get("events") != first.get("events") for a in answers[1:]):
            found.append(f"{key}: answered differently on a retry")
        given = first.get("events") or [{}]
        if given[0].get("hash") != events[0]["hash"] or given[0].get("seq") != events[0]["seq"]:
            found.append(f"{key}: its answer is not what the log holds")
    unexpected = [
        a
        for a in record.answers
        if a.status is not None and a.status >= 300 and not (a.retryable or a.round_over)
    ]
    if unexpected:
        statuses = Counter(a.status for a in unexpected)
        found.append(f"answers other than 2xx, 503, 409 version_conflict: {dict(statuses)},"
                     f" such as {unexpected[0].body}")  # fmt: skip
    found += feed_problems(feed_of(bases[-1]), logs, after_position)
    for match in matches:
        report = verify(bases[-1], match)
        if not report["ok"]:
            found.append(f"{match['match_id']}: does not verify ({report['first_bad_seq']})")
    return found


def feed_problems(
    feed: list[dict[str, Any]], logs: dict[str, list[dict[str, Any]]], after_position: int
) -> list[str]:
    """The feed's positions gap-free; after ``after_position``, each of the drill's matches
    with exactly its log's events, in its order, and no other match's events but a lone
    ``match.created`` (a creation whose answer was lost: the drill never knew its tokens)."""
    found: list[str] = []
    if [e["position"] for e in feed] != list(range(1, len(feed) + 1)):
        found.append("global positions not gap-free")
    fed: dict[str, list[tuple[int, str]]] = {}
    strays: dict[str, list[str]] = {}
    for event in feed:
        if event["position"] <= after_position:
            continue
        if event["match_id"] in logs:
            fed.setdefault(event["match_id"], []).append((event["seq"], event["hash"]))
        else:
            strays.setdefault(event["match_id"], []).append(event["type"])
    for match_id, events in logs.items():
        if fed.get(match_id, []) != [(e["seq"], e["hash"]) for e in events]:
            found.append(f"{match_id}: the feed holds other events than its log")
    for match_id, types in strays.items():
        if types != ["match.created"]:
            found.append(f"{match_id}: in the feed with {types}, not a match of the drill")
    return found
