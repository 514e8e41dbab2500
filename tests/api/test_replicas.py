"""Three real ``serve`` processes on one PostgreSQL: racing clients spread over them get
exactly-once results, gap-free seqs per match and a gap-free global order."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.cli.demo import free_port
from tests.conftest import PostgresDatabase

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
OPERATOR = "op_replicas_token"
REPLICAS = 3
CLIENTS = 6
MATCHES = 2
COMMANDS = 8  # per client
GRID = ["RGBRGB", "GBRGBR", "BRGYYY", "KKKWRG"]
TARGETS = {"A": ["YYY"], "B": ["KKK"], "C": ["W"], "D": ["RG"]}


def _start(url: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "ADJUDICATOR_OPERATOR_TOKEN": OPERATOR,
        "ADJUDICATOR_UPGRADE_ON_START": "false",
        "ADJUDICATOR_LOG_LEVEL": "warning",
    }
    cmd = [sys.executable, "-m", "api.cli.main", "serve", "--port", str(port)]
    proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.DEVNULL)
    return proc, f"http://127.0.0.1:{port}"


def _wait_ready(base: str, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60  # a loaded machine starts slowly
    while time.monotonic() < deadline:
        assert proc.poll() is None, "a replica exited at start"
        try:
            if httpx.get(f"{base}/ready").status_code == 200:
                return
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    pytest.fail("a replica did not become ready")


@pytest.fixture
def replicas(postgres_database: PostgresDatabase) -> Iterator[list[str]]:
    """Three ``serve`` processes on the session's scratch PostgreSQL database, emptied first."""
    postgres_database.reset()
    started = [_start(postgres_database.url) for _ in range(REPLICAS)]
    try:
        for proc, base in started:
            _wait_ready(base, proc)
        yield [base for _, base in started]
    finally:
        for proc, _ in started:
            proc.terminate()
        for proc, _ in started:
            proc.wait(timeout=10)


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _create(base: str) -> dict[str, Any]:
    config = {"rounds": 1, "supplied_rounds": {"1": {"grid": GRID, "targets": TARGETS}}}
    body = {"game": "zoom", "seats": ["alpha", "beta"], "config": config}
    made = httpx.post(f"{base}/matches", json=body, headers=auth(OPERATOR))
    assert made.status_code == 201, made.text
    match: dict[str, Any] = made.json()
    url = f"{base}/matches/{match['match_id']}/commands"
    started = httpx.post(url, json={"type": "start_round"}, headers=auth(match["tokens"]["host"]))
    assert started.status_code == 201, started.text
    return match


class Record:
    """Every acknowledged answer, by idempotency key (thread-safe)."""

    def __init__(self) -> None:
        self.answers: dict[str, list[dict[str, Any]]] = {}
        self.lock = threading.Lock()

    def add(self, key: str, answer: dict[str, Any]) -> None:
        with self.lock:
            self.answers.setdefault(key, []).append(answer)


def _post(base: str, match: dict[str, Any], seat: str, key: str) -> httpx.Response:
    url = f"{base}/matches/{match['match_id']}/commands"
    body = {"type": "buzz", "seat": seat, "pairs": [{"target": "A", "at": "a1"}]}
    headers = auth(match["tokens"]["seats"][seat]) | {"Idempotency-Key": key}
    return httpx.post(url, json=body, headers=headers, timeout=30)


def _client(
    number: int,
    bases: list[str],
    matches: list[dict[str, Any]],
    start: threading.Barrier,
    record: Record,
) -> None:
    """Buzz on the shared matches through random replicas; retry every key on another one."""
    rng = random.Random(number)
    start.wait(timeout=30)
    for i in range(COMMANDS):
        match, seat = rng.choice(matches), ("alpha", "beta")[number % 2]
        key = f"c{number}-{i}"
        pair = rng.sample(bases, 2)  # a retry always goes to a different replica
        if i % 3 == 0:  # the same key on two replicas at once
            with ThreadPoolExecutor(2) as pool:
                answers = list(pool.map(partial(_post, match=match, seat=seat, key=key), pair))
        else:  # a retry after the answer
            answers = [_post(base, match, seat, key) for base in pair]
        for answer in answers:
            assert answer.status_code == 201, answer.text
            record.add(key, answer.json() | {"match_id": match["match_id"]})


def _race(bases: list[str], matches: list[dict[str, Any]]) -> Record:
    record = Record()
    start = threading.Barrier(CLIENTS)
    threads = [
        threading.Thread(target=_client, args=(n, bases, matches, start, record))
        for n in range(CLIENTS)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=45)
    assert not any(thread.is_alive() for thread in threads)
    return record


def _log(base: str, match: dict[str, Any]) -> list[dict[str, Any]]:
    url = f"{base}/matches/{match['match_id']}/events"
    events: list[dict[str, Any]] = httpx.get(url, headers=auth(match["tokens"]["host"])).json()
    return events


def _feed(base: str) -> list[dict[str, Any]]:
    everything: list[dict[str, Any]] = []
    while True:
        params = {"after_position": everything[-1]["position"] if everything else 0, "limit": 1000}
        page = httpx.get(f"{base}/feed", params=params, headers=auth(OPERATOR)).json()
        if not page:
            return everything
        everything += page


def _raw(stored: str | None) -> str | None:
    """The key a client sent (the store scopes it to the acting seat: ``seat:alpha/<key>``)."""
    return None if stored is None else stored.split("/", 1)[1]


def test_racing_clients_over_three_replicas_get_exactly_once_results(replicas: list[str]) -> None:
    matches = [_create(replicas[n % REPLICAS]) for n in range(MATCHES)]
    record = _race(replicas, matches)
    logs = {m["match_id"]: _log(random.choice(replicas), m) for m in matches}
    for events in logs.values():
        assert [e["seq"] for e in events] == list(range(1, len(events) + 1))  # gap-free
    keyed = Counter(_raw(e["idempotency_key"]) for events in logs.values() for e in events)
    assert set(record.answers) == {k for k in keyed if k is not None}
    by_seq = {(mid, e["seq"]): e for mid, events in logs.items() for e in events}
    for key, answers in record.answers.items():
        first, retry = sorted(answers, key=lambda answer: bool(answer["replayed"]))
        assert keyed[key] == 1  # recorded exactly once
        assert not first["replayed"] and retry["replayed"]
        assert retry["events"] == first["events"]  # the retry returns the first answer
        stored = by_seq[(first["match_id"], first["events"][0]["seq"])]
        assert stored["hash"] == first["events"][0]["hash"]
    feed = _feed(replicas[-1])
    assert [e["position"] for e in feed] == list(range(1, len(feed) + 1))
    assert len(feed) == sum(len(events) for events in logs.values())
