"""Figures over long matches (built through the store, read over HTTP): state at a time, as
known before a ruling, timeline and diff; the growth table; verify + re-fold; Zombego."""

from __future__ import annotations

import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx

from adjudicator import registry
from api.cli.audit import cores, verified_files
from api.service.audit import verify_text
from api.service.wordlists import load_words
from events import EventStore
from infra.bench.figures_http import Bench, command_p50
from infra.bench.service import Match, auth, buzz, long_match_at, median_ms, serve, timed
from infra.bench.table import Row
from infra.bench.verify_bench import GOAL, cpu
from infra.bench.zombego_bench import CONFIGS, bench_playouts
from projections.collector import collector_paused
from projections.verify import chain_check

REPEATS = 5


def _built(client: httpx.Client, url: str, events: int) -> tuple[Match, float]:
    began = time.perf_counter()
    match = long_match_at(client, url, events)
    return match, time.perf_counter() - began


def _get(client: httpx.Client, path: str, match: Match, **params: str) -> httpx.Response:
    return client.get(f"/matches/{match.match_id}/{path}", params=params,
                      headers=auth(match.token("host")))  # fmt: skip


def state(bench: Bench) -> list[Row]:
    """A 10,000-event match (PostgreSQL when set): state now and at a game time in the middle,
    as known before a ruling, the timeline and the diff across the ruling. The reads of now
    come first, right after the ruling: the first re-folds the match, and the next share the
    server with the background thread that stores the checkpoints the ruling changed
    (``ruling_reads_bench.py`` times them one by one)."""
    events = 2_000 if bench.quick else 10_000
    url = bench.pg_url or bench.sqlite_url
    rebuild, peer = rebuild_yardstick(bench, events, "eventsourcing rebuild 10k, no snapshot")
    with serve(url) as server, httpx.Client(base_url=server.base, timeout=300) as client:
        match, took = _built(client, url, events)
        before = datetime.now(UTC)
        time.sleep(0.01)
        ruling = {"type": "void", "target_seq": 4 + events // 2, "reason": "bench"}
        client.post(f"/matches/{match.match_id}/rulings", json=ruling,
                    headers=auth(match.token("host"))).raise_for_status()  # fmt: skip
        at, known = match.middle.isoformat(), before.isoformat()
        calls = {
            "state now (live fold), right after the ruling": lambda: _get(client, "state", match),
            "state at the middle": lambda: _get(client, "state", match, at=at),
            "state at the middle, known_at before a ruling": lambda: _get(
                client, "state", match, at=at, known_at=known
            ),
            "timeline": lambda: _get(client, "timeline", match),
            "diff across the ruling": lambda: _get(client, "diff", match, before=known, at=at),
        }
        times = {name: median_ms(timed(call, REPEATS)) for name, call in calls.items()}
    store = "PostgreSQL" if bench.pg_url else "SQLite"
    rows = [Row(f"build a {events:,}-event match through the store", took * 1000, "ms")]
    for name, ms in times.items():
        rows.append(Row(f"{events:,} events ({store}): {name}", ms, "ms", rebuild, peer))
    return rows


def _rebuild_ms(bench: Bench) -> float | None:
    """``eventsourcing``'s rebuild of a 10,000-event aggregate without a snapshot, in ms, on
    the store the figures use (None without the peers)."""
    peer = bench.peer("eventsourcing_pg" if bench.pg_url else "eventsourcing_sqlite")
    return peer.get("iii_get10k_nosnap_ms", peer.get("full_iii_get10k_nosnap_ms"))


REBUILD = 10_000
"""The events of the peer's rebuild (``_rebuild_ms``)."""


def rebuild_yardstick(bench: Bench, events: int, label: str) -> tuple[float | None, str]:
    """The peer's rebuild and its label as a row's yardstick for a match of ``events``; no
    ratio when the match is not the rebuild's size (``--quick`` builds smaller ones: a ratio
    of a smaller match to the 10,000-event rebuild would flatter the service)."""
    if events != REBUILD:
        return None, f"{label} (no ratio: this match has {events:,} events, --quick)"
    return _rebuild_ms(bench), label


def _host_entered_p50(client: httpx.Client, match: Match, n: int) -> float:
    """Host-entered buzzes with game times 1 ms apart after the match's last play."""
    base = _last_play(client, match)
    while datetime.now(UTC) < base + timedelta(milliseconds=50):
        time.sleep(0.01)  # never ahead of now: each command takes more than 1 ms
    url, host = f"/matches/{match.match_id}/commands", auth(match.token("host"))
    counter = iter(range(1, 10**9))

    def post() -> httpx.Response:
        i = next(counter)
        entered = (base + timedelta(milliseconds=i)).isoformat()
        body = buzz(("alpha", "beta")[i % 2]) | {"occurred_at": entered}
        return client.post(url, json=body, headers=host)

    return median_ms(timed(post, n))


def _last_play(client: httpx.Client, match: Match) -> datetime:
    last = client.get(f"/matches/{match.match_id}").json()["last_seq"]
    tail = _get(client, "events", match, after_seq=str(last - 1)).json()
    return datetime.fromisoformat(tail[-1]["occurred_at"])


def growth(bench: Bench) -> list[Row]:
    """Command and state latency at 100 ... 50,000 events, live and host-entered."""
    sizes = [100, 1_000] if bench.quick else [100, 1_000, 10_000]
    sizes += [50_000] if bench.big else []
    n = 5 if bench.quick else 10
    url = bench.pg_url or bench.sqlite_url
    found: dict[int, dict[str, float]] = {}
    with serve(url) as server, httpx.Client(base_url=server.base, timeout=300) as client:
        for size in sizes:
            match, _ = _built(client, url, size)
            at = match.middle.isoformat()
            found[size] = {
                "host-entered command p50": _host_entered_p50(client, match, n),
                "live command p50": command_p50(client, match, n),
                "state now p50": median_ms(timed(lambda m=match: _get(client, "state", m), n)),
                "state at the middle p50": median_ms(
                    timed(lambda m=match, t=at: _get(client, "state", m, at=t), n)
                ),
            }
    rows = []
    for size, measured in found.items():
        for name, ms in measured.items():
            rows.append(Row(f"{size:>6,} events: {name}", ms, "ms", found[sizes[0]][name],
                            f"at {sizes[0]} events"))  # fmt: skip
    return rows


def verify(bench: Bench) -> list[Row]:
    """A long match, closed (so the re-fold runs: an open match has no result to compare),
    then the server left to finish what the close gives its background thread (the head and
    checkpoints of the whole match, stored: ``Server.idle``), as a match is verified after it
    is played, not during its close: ``GET /verify`` (the stored events read, chain,
    commitments, re-fold; the best of 5), and ``verify_text``
    of its export in this process (parse, chain, commitments, header, re-fold; CPU time), in
    events per second; against the goal of 100,000 /s, the raw read of 10,000 rows by psycopg
    alone (``raw_pg``), a floor the HTTP figure cannot pass, and ``eventsourcing``'s rebuild of
    a 10,000-event aggregate without a snapshot (a fold that checks no hash); then copies of
    the export verified side by side, one job per core (:func:`_side_by_side`)."""
    events = 2_000 if bench.quick else 10_000
    url = bench.pg_url or bench.sqlite_url
    with serve(url) as server, httpx.Client(base_url=server.base, timeout=300) as client:
        match, _ = _built(client, url, events)
        closed = client.post(f"/matches/{match.match_id}/close", headers=auth(match.token("host")))
        closed.raise_for_status()
        server.idle()
        seconds = min(timed(lambda: _get(client, "verify", match), 5))
        assert _get(client, "verify", match).json()["ok"] is True
        record = _get(client, "export", match).text
    floor = _read_and_hashed_s(url, match.match_id)
    total = len(record.splitlines()) - 1
    games = registry.games(load_words())
    offline = cpu(3, lambda: verify_text(record, games))
    raw = bench.peer("raw_pg").get("iv_read10k_rows_per_s") if bench.pg_url else None
    rebuild = _rebuild_ms(bench)
    label = f"{total:,}-event match (closed)"
    return [
        Row(f"verify + re-fold over HTTP, {label}", total / seconds, "events/s", GOAL, "goal"),
        Row(f"verify + re-fold over HTTP, {label}", total / seconds, "events/s", raw,
            "raw_pg: read 10,000 rows, nothing checked"),
        Row(f"verify + re-fold over HTTP, {label}", total / seconds, "events/s",
            None if rebuild is None else 10_000 / (rebuild / 1000),
            "eventsourcing: rebuild 10,000 events, no snapshot, nothing checked"),
        Row(f"floor: the store's read of its events + the chain's hashes, {label}",
            total / floor, "events/s", None if rebuild is None else 10_000 / (rebuild / 1000),
            "eventsourcing: rebuild 10,000 events, no snapshot, nothing checked"),
        Row(f"verify + re-fold offline (verify_text of its export, CPU), {label}",
            total / offline, "events/s", GOAL, "goal"),
        *_side_by_side(record, total, 2 if bench.quick else RECORDS),
    ]  # fmt: skip


def _read_and_hashed_s(url: str, match_id: str) -> float:
    """The least a verify of the match does, in this process (best of ``REPEATS``, seconds):
    its events read from the store as every read reads them, and each one's hash recomputed
    and linked (``chain_check``); no commitment, no fold, no transparency-log leaf. Against
    the peer's rebuild it shows how much of the goal of twice the rebuild's speed the read and
    the hashes alone leave to the rest."""
    store = EventStore.from_url(url)
    try:
        runs = []
        for _ in range(REPEATS):
            began = time.perf_counter()
            with collector_paused:
                checked = chain_check(store.read(match_id))
            runs.append(time.perf_counter() - began)
            assert checked.ok, checked.detail
        return min(runs)
    finally:
        store.dispose()


RECORDS = 4
"""Copies of the long match's export that ``verify`` checks at once, in the verify figure."""


def _side_by_side(record: str, total: int, copies: int) -> list[Row]:
    """``adjudicator verify`` of ``copies`` record files (the export, copied) with one job per
    core, against one job: events per second of wall-clock time (best of 3), the workers'
    start included. A record is one core's work: this is how a tournament's records verify,
    not how fast one record does."""
    jobs = cores()
    with tempfile.TemporaryDirectory() as folder:
        files = [str(Path(folder, f"record-{i}.jsonl")) for i in range(copies)]
        for file in files:
            Path(file).write_text(record, encoding="utf-8")

        def verified(jobs: int) -> float:
            began = time.perf_counter()
            reports = [report for _, report, _ in verified_files(files, jobs)]
            assert all(report is not None and report.ok for report in reports)
            return time.perf_counter() - began

        one, side = (min(verified(n) for _ in range(3)) for n in (1, jobs))
    rate, label = total * copies / side, f"{copies} records of {total:,} events"
    figure = f"verify + re-fold offline, {label}, verify --jobs {jobs} (wall clock)"
    return [
        Row(figure, rate, "events/s", GOAL, "goal"),
        Row(figure, rate, "events/s", total * copies / one, "verify --jobs 1"),
    ]


def zombego(bench: Bench) -> list[Row]:
    """Random play-outs per CPU second on both configurations, against Ludii 1.3.14's rate
    (recorded earlier on this kind of machine; Ludii does not run here)."""
    seconds = 2.0 if bench.quick else 10.0
    rows = []
    for config in CONFIGS:
        rate, _, plies, _ = bench_playouts(config.rules, seconds)
        rows.append(Row(f"Zombego play-outs/s, {config.label}", rate, "/s", config.ludii,
                        "Ludii 1.3.14, recorded"))  # fmt: skip
        rows.append(Row(f"Zombego plies per play-out, {config.label}", plies, ""))
    return rows
