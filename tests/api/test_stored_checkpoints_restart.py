"""The service's stored checkpoints end to end: a match played live stores its checkpoints in the
background (``Checkpoints.appended``), and a restarted service (a fresh ``MatchService`` on the
same store: nothing in memory) resumes its live fold and its reads at past (at, known) from
them, equal to the full fold, also after a ruling that voids an early buzz."""

from __future__ import annotations

import gc
import json
import threading
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from typing import Any

import msgspec
import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from adjudicator.kernel.decider import Role, Viewer
from adjudicator.kernel.fold import Running
from api.service import prewarm
from api.service.matches import MatchService
from events.tables import fold_checkpoints, fold_heads, fold_pages
from projections import checkpoints, stored_checkpoints
from projections.checkpoints import Checkpoints
from projections.facts import setup_of, to_facts
from projections.stored_checkpoints import FoldStore
from projections.views import Known, snapshot, state_view
from tests.api.conftest import Api, make_app
from tests.api.test_zoom_over_http import buzz, supplied_match

HOST = Viewer(Role.HOST)


FOUND: list[int] = []


class Counted(FoldStore):
    """Counts the stored checkpoints found (``k`` of each)."""

    def read(self, *args: Any) -> Any:
        found = super().read(*args)
        if found is not None:
            FOUND.append(found[0])
        return found


Restart = Callable[[MatchService], MatchService]


@pytest.fixture
def restart(app: Any) -> Iterator[Restart]:
    r"""Makes restarted services (fresh ``MatchService``\ s on the app's store, nothing in
    memory, small checkpoints) and closes them after the test, before the store goes: their
    background threads must not write to a disposed store."""
    made: list[MatchService] = []

    def restarted(service: MatchService) -> MatchService:
        fresh = MatchService(service.store, service.games, service.clock)
        small_checkpoints(fresh)
        made.append(fresh)
        return fresh

    yield restarted
    for service in made:
        service.close()


def small_checkpoints(service: MatchService) -> None:
    """Checkpoints every 2 facts, every other one stored, histories in pages of 2 buzzes (the
    defaults: 200, 1,000 and 512)."""
    stored = Counted(service.store, stride=4, page=2)
    service.checkpoints = Checkpoints(
        service.store, every=2, stored=stored, resolve=service._resolve
    )
    service.live.start = service.checkpoints.running
    service.store._callbacks = [service.checkpoints.appended]


CELLS = ["a1", "b2", "c3", "d3", "a4", "b4", "c1", "d1", "a2", "b3", "c4", "d2"]


def played(api: Api, buzzes: int) -> None:
    """A supplied match, its round started, then ``buzzes`` buzzes 3 s apart (seats in turn)."""
    supplied_match(api)
    for i, cell in enumerate(CELLS[:buzzes]):
        api.clock.advance(3)
        api.ok(("alpha", "beta")[i % 2], buzz(("alpha", "beta")[i % 2], "ABCD"[i % 4], cell))


def rendered(service: MatchService, match_id: str, at: Any, known: Known) -> Any:
    snap = service.snapshot(match_id, at, known)
    view = state_view(service.game(snap.match.game), snap, HOST)
    return json.loads(json.dumps({k: view[k] for k in ("state", "voided", "last_seq")}))


def full(service: MatchService, match_id: str, at: Any, known_at: Any) -> Any:
    match = service.match(match_id)
    game = service.game(match.game)
    events = service.store.read(match_id, recorded_by=known_at)
    view = state_view(game, snapshot(game, match, events, at, Known(known_at)), HOST)
    return json.loads(json.dumps({k: view[k] for k in ("state", "voided", "last_seq")}))


def stored(service: MatchService, match_id: str) -> int:
    with service.store.engine.connect() as conn:
        query = select(func.count()).where(fold_checkpoints.c.match_id == match_id)
        return int(conn.execute(query).scalar_one())


def played_and_stored(app: Any, api: Api) -> tuple[MatchService, datetime]:
    """The app's service with small checkpoints, a match of 12 buzzes played on it and its
    checkpoints and head stored; and the game time the match began."""
    service: MatchService = app.state.service
    small_checkpoints(service)
    t0 = api.clock.now
    played(api, 12)
    assert service.checkpoints.stored is not None
    service.checkpoints.stored.flush()
    return service, t0


def test_a_restarted_service_resumes_from_stored_checkpoints(
    app: Any, api: Api, restart: Restart
) -> None:
    service, t0 = played_and_stored(app, api)
    assert stored(service, api.match_id) >= 2
    before = api.clock.advance(5)
    api.clock.advance(5)
    ruling = api.rule({"type": "void", "target_seq": 4, "reason": "misprint"})
    assert ruling.status_code == 201, ruling.text
    FOUND.clear()
    moments = [t0 + timedelta(seconds=s) for s in (1, 8, 20, 40, 100)]
    for known_at in (before, None):
        for at in moments:
            restarted = restart(service)
            got = rendered(restarted, api.match_id, at, Known(known_at))
            assert got == full(service, api.match_id, at, known_at)
    restarted = restart(service)
    now = api.clock.now
    at_now = rendered(restarted, api.match_id, now, Known())  # a game time given: checkpoints
    assert at_now == full(service, api.match_id, now, None)
    assert FOUND and max(FOUND) >= 8  # resumed from the store, not from the start
    assert restarted.live.peek(api.match_id) is None  # the live fold was not needed
    assert rendered(restarted, api.match_id, None, Known()) == at_now  # now: the live fold
    live = restarted.live.peek(api.match_id)
    assert live is not None and live.running.seq == service.store.last_seq(api.match_id)


def test_a_match_played_live_has_its_checkpoints_taken_without_its_log_read_back(
    app: Any, api: Api, restart: Restart
) -> None:
    """Each append joins the match's log in memory (``Checkpoints.appended``), so the background
    jobs that take and store its checkpoints and head at every stride read no more than the
    event of an append in progress (they read every event since the last job again: about 60%
    of a job at 1,000 events); what they store still gives, after a restart, the states of the
    full fold."""
    service: MatchService = app.state.service
    small_checkpoints(service)
    reads: list[tuple[int, int]] = []
    read = service.store.read

    def noted(match_id: str, **kw: Any) -> Any:
        events = read(match_id, **kw)
        reads.append((kw.get("after_seq", 0), len(events)))
        return events

    service.store.read = noted  # type: ignore[method-assign]
    t0 = api.clock.now
    played(api, 12)
    assert service.checkpoints.stored is not None
    service.checkpoints.stored.flush()
    jobs = [count for after, count in reads if after > 0]  # a job at 4, 8 and 12 events
    assert len(jobs) >= 3 and max(jobs) <= 1, reads  # 1: an append it ran between (its
    # commit, then its callback: the job may read that event first)
    assert stored(service, api.match_id) >= 2
    restarted = restart(service)
    for at in (t0 + timedelta(seconds=s) for s in (8, 20, 40)):
        assert rendered(restarted, api.match_id, at, Known()) == full(
            service, api.match_id, at, None
        )
    live = restarted.live.current(restarted.game("zoom"), restarted.match(api.match_id))
    assert live.seq == service.store.last_seq(api.match_id)


def test_an_append_whose_events_cannot_join_the_log_in_memory_still_answers(
    app: Any, api: Api, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``Checkpoints.appended`` never raises: when following an append in memory fails, the
    command still answers as recorded, and the checkpoints' job reads the events instead."""
    service: MatchService = app.state.service
    small_checkpoints(service)

    def broken(self: Any, events: Any) -> bool:
        raise RuntimeError("not followed")

    monkeypatch.setattr(checkpoints.MatchFolds, "follow", broken)
    t0 = api.clock.now
    played(api, 6)  # each command answers 201 (``api.ok``)
    assert service.checkpoints.stored is not None
    service.checkpoints.stored.flush()
    assert stored(service, api.match_id) >= 1
    at = t0 + timedelta(seconds=20)
    assert rendered(service, api.match_id, at, Known()) == full(service, api.match_id, at, None)


def test_the_stored_states_of_a_match_share_the_pages_of_its_history(
    app: Any, api: Api, restart: Restart
) -> None:
    """Every stored checkpoint and head of a match names its history's pages (``fold_pages``),
    each stored once: the states of one timeline, and the timeline of a ruling before the
    buzz it voids, name the same pages; the buzzes written in pages are fewer than those
    the stored states hold (each of which held its whole history before). (A head rewritten
    after a ruling may leave the pages only it named: at most a stride's buzzes a ruling.)"""
    service: MatchService = app.state.service
    small_checkpoints(service)
    played(api, 12)
    api.clock.advance(5)
    ruling = api.rule({"type": "void", "target_seq": 10, "reason": "misprint"})
    assert ruling.status_code == 201, ruling.text
    restarted = restart(service)
    rendered(restarted, api.match_id, api.clock.now, Known())  # the new timeline's checkpoints
    for folds in (service.checkpoints.stored, restarted.checkpoints.stored):
        assert folds is not None
        folds.flush()
    with service.store.engine.connect() as conn:
        rows = [
            *conn.execute(select(fold_checkpoints.c.state)).scalars(),
            *conn.execute(select(fold_heads.c.state)).scalars(),
        ]
        pages = dict(conn.execute(select(fold_pages.c.digest, fold_pages.c.entries)).all())
    named = [msgspec.msgpack.decode(bytes(row))[2] for row in rows]
    assert len(rows) >= 4
    assert {digest for names in named for digest in names} <= set(pages)  # none missing
    held = sum(2 * len(names) for names in named)  # the buzzes the rows' pages hold
    written = sum(len(msgspec.msgpack.decode(bytes(blob))) for blob in pages.values())
    assert written == 2 * len(pages) < held
    assert written <= 2 * 12  # each buzz at most once a timeline (two: before and after)


def reads_after_restart(restart: Restart, service: MatchService) -> tuple[MatchService, list[int]]:
    """A restarted service (nothing in memory) whose store notes the ``after_seq`` of every
    read of a match's events."""
    restarted = restart(service)
    seen: list[int] = []
    read = restarted.store.read

    def noted(match_id: str, **kw: Any) -> Any:
        seen.append(kw.get("after_seq", 0))
        return read(match_id, **kw)

    restarted.store.read = noted  # type: ignore[method-assign]
    return restarted, seen


def test_the_first_read_after_a_restart_reads_only_the_events_after_the_stored_head(
    app: Any, api: Api, restart: Restart
) -> None:
    """A match played live stores the head of its fold in the background; a restarted service
    answers its state now (and a command) from that head and the events after it, equal to
    the full fold, without reading the log from its start; after a ruling recorded since the
    head, it folds the whole log instead (a ruling may reshape the past)."""
    service: MatchService = app.state.service
    small_checkpoints(service)
    played(api, 9)
    assert service.checkpoints.stored is not None
    service.checkpoints.stored.flush()
    last = service.store.last_seq(api.match_id)
    with service.store.engine.connect() as conn:
        head = conn.execute(select(fold_heads.c.seq)).scalar_one()
    assert 4 <= head <= last  # stored after the log passed seq 4 (or 8), as far as it was then
    now = api.clock.now
    want = full(service, api.match_id, now, None)
    restarted, seen = reads_after_restart(restart, service)
    assert rendered(restarted, api.match_id, None, Known()) == want
    del restarted.store.read  # the store's own read again
    assert seen and min(seen) == head - 1  # the head's own event on, never the whole log
    live = restarted.live.peek(api.match_id)
    assert live is not None and live.running.seq == last
    assert live.head is not None and live.head[0] == service.store.read(api.match_id)[-1].hash

    api.clock.advance(2)
    ruling = api.rule({"type": "void", "target_seq": 4, "reason": "misprint"})
    assert ruling.status_code == 201, ruling.text
    now = api.clock.now
    want = full(service, api.match_id, now, None)
    restarted, seen = reads_after_restart(restart, service)
    assert rendered(restarted, api.match_id, None, Known()) == want
    del restarted.store.read
    assert 0 in seen  # the head no longer extends: the whole log was folded


def two_past_moments(app: Any, api: Api) -> tuple[MatchService, list[tuple[datetime, Any]]]:
    """The service of :func:`played_and_stored`, and two past game times of its match, each
    with the full fold's state then (as known now)."""
    service, t0 = played_and_stored(app, api)
    moments = [t0 + timedelta(seconds=25), t0 + timedelta(seconds=28)]
    return service, [(at, full(service, api.match_id, at, None)) for at in moments]


def test_a_read_into_the_past_after_a_restart_reads_the_head_and_the_tail_not_the_log(
    app: Any, api: Api, restart: Restart
) -> None:
    """A restarted service answers the state at a past game time as known now from the stored
    head's timeline index, the deepest stored checkpoint before that time and the events
    between (read by seq), equal to the full fold; the log is then read into memory in the
    background, and the next read answers from memory, equal again."""
    service, [(at, want), (later, want_later)] = two_past_moments(app, api)
    restarted, seen = reads_after_restart(restart, service)
    FOUND.clear()
    got = rendered(restarted, api.match_id, at, Known())
    during = list(seen[:2])  # the background read of the log may follow: not these
    assert got == want
    assert FOUND and max(FOUND) >= 4  # resumed from a stored checkpoint
    assert len(during) == 2 and min(during) > 0  # the head's event on, then the tail: no log
    stored = restarted.checkpoints.stored
    assert stored is not None
    stored.flush()
    assert 0 in seen and restarted.checkpoints.holds(api.match_id)  # then read, once
    assert rendered(restarted, api.match_id, later, Known()) == want_later  # from memory
    assert seen.count(0) == 1


def test_a_started_app_resumes_the_open_matches_with_a_head_in_the_background(
    app: Any, api: Api, database_url: str
) -> None:
    """After a restart, the live fold of an open match with a stored head is resumed before
    anyone asks (``api.service.prewarm``), equal to the fold of its whole log; a closed
    match's is not."""
    service: MatchService = app.state.service
    made = []
    for _ in range(2):
        supplied_match(api)
        for i, cell in enumerate(["a1", "b2", "c3"]):
            api.clock.advance(3)
            seat = ("alpha", "beta")[i % 2]
            api.ok(seat, buzz(seat, "ABCD"[i % 4], cell))
        made.append(api.match_id)
    closed = api.client.post(f"/matches/{made[1]}/close", headers=api.auth(api.token("host")))
    assert closed.status_code == 201, closed.text
    for match_id in made:
        match = service.match(match_id)
        service.checkpoints.store_all(service.game(match.game), match)
    assert service.checkpoints.stored is not None
    service.checkpoints.stored.flush()
    restarted = make_app(database_url, api.clock)
    with TestClient(restarted):
        again: MatchService = restarted.state.service
        assert again.checkpoints.stored is not None
        again.checkpoints.stored.flush()
        live = again.live.peek(made[0])
        assert live is not None
        match = service.match(made[0])
        whole = Running.start(
            again.game(match.game), setup_of(match), to_facts(service.store.read(made[0]))
        )
        assert live.running.seq == whole.seq == service.store.last_seq(made[0])
        assert live.running.state == whole.state
        assert again.live.peek(made[1]) is None
    restarted.state.service.store.dispose()


def test_a_serving_process_resumes_with_the_collector_paused_then_freezes_what_it_resumed(
    app: Any, api: Api, database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In a serving process (``served`` sets ``warmup.freeze``), the start-up resume runs with
    the cyclic collector paused and, once done, freezes the folds it resumed out of its sight:
    no later full collection walks them (one walked about a million objects after a resume of
    100,000 events, 0.4-0.8 s, pausing every request in flight)."""
    supplied_match(api)
    for i, cell in enumerate(["a1", "b2", "c3"]):
        api.clock.advance(3)
        seat = ("alpha", "beta")[i % 2]
        api.ok(seat, buzz(seat, "ABCD"[i % 4], cell))
    service: MatchService = app.state.service
    match = service.match(api.match_id)
    service.checkpoints.store_all(service.game(match.game), match)
    assert service.checkpoints.stored is not None
    service.checkpoints.stored.flush()
    collecting, resumed = [], prewarm.resume

    def watched(service: MatchService, match_id: str) -> None:
        collecting.append(gc.isenabled())
        resumed(service, match_id)

    monkeypatch.setattr(prewarm, "resume", watched)
    restarted = make_app(database_url, api.clock)
    restarted.state.service.warmup.freeze = True
    try:
        with TestClient(restarted) as client:
            again: MatchService = restarted.state.service
            assert again.checkpoints.stored is not None
            again.checkpoints.stored.flush()
            assert client.get("/ready").json() == {"status": "ready"}
            live = again.live.peek(api.match_id)
            assert live is not None
            assert collecting == [False]
            assert gc.isenabled()
            walked = {id(o) for o in gc.get_objects()}
            assert id(live.running.state) not in walked  # frozen
            assert gc.is_tracked(live.running.state)
    finally:
        gc.unfreeze()
        restarted.state.service.store.dispose()


def test_the_log_read_after_a_read_into_the_past_comes_in_parts_and_lets_requests_go_first(
    app: Any, api: Api, restart: Restart, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After the first read into the past, the background reads the match's log in parts (a
    job each, ``READ_PART`` events), each job waiting while a request is in flight
    (``FoldStore.idle``); until the last part is in, the reads into the past still come from
    the stored head, equal to the full fold; then from memory, equal again."""
    monkeypatch.setattr(checkpoints, "READ_PART", 5)
    service, [(at, want), (later, want_later)] = two_past_moments(app, api)
    restarted, seen = reads_after_restart(restart, service)
    stored = restarted.checkpoints.stored
    assert stored is not None
    busy = threading.Event()
    busy.set()  # a request in flight: the background's jobs wait
    stored.idle = lambda: not busy.is_set()
    monkeypatch.setattr(stored_checkpoints, "YIELD", 30.0)

    assert rendered(restarted, api.match_id, at, Known()) == want
    assert rendered(restarted, api.match_id, later, Known()) == want_later  # the head again
    assert 0 not in seen  # the log is not read meanwhile
    before = len(seen)
    busy.clear()
    stored.flush()

    log = restarted.store.last_seq(api.match_id)
    assert seen[before:] == list(range(0, log + 1, 5))  # after seq 0, 5, 10, ...: a part a job
    assert restarted.checkpoints.holds(api.match_id)
    seen.clear()
    assert rendered(restarted, api.match_id, later, Known()) == want_later  # from memory
    assert seen == [] or min(seen) >= log


def test_a_stored_checkpoint_decoded_for_one_read_serves_the_next_without_the_store(
    app: Any, api: Api, restart: Restart
) -> None:
    """After a restart, reads at one past game time need the same stored checkpoint: the first
    (from the stored head) reads and decodes it, the next (again from the head, then from
    memory once the log is read) take the state decoded then (``FoldStore.decoded``), equal."""
    service, [(at, want), _] = two_past_moments(app, api)
    restarted = restart(service)
    FOUND.clear()
    assert rendered(restarted, api.match_id, at, Known()) == want
    assert len(FOUND) == 1  # read and decoded once
    assert rendered(restarted, api.match_id, at, Known()) == want
    stored = restarted.checkpoints.stored
    assert stored is not None
    stored.flush()
    assert restarted.checkpoints.holds(api.match_id)
    assert rendered(restarted, api.match_id, at, Known()) == want  # from memory
    assert len(FOUND) == 1, FOUND


def test_a_whole_log_is_read_with_the_collector_paused_and_a_tail_is_not(
    app: Any, api: Api, restart: Restart
) -> None:
    """After a restart, the first read at a past game time (the checkpoints') and the first
    read now (the live fold's) read the match's whole log with the cyclic collector paused
    (``projections.collector``: a third of such a read's time was the collector's); the
    reads of every moment after (a tail of new events) do not pause it."""
    service: MatchService = app.state.service
    supplied_match(api)
    for i, cell in enumerate(["a1", "b2", "c3"]):
        api.clock.advance(3)
        api.ok(("alpha", "beta")[i % 2], buzz(("alpha", "beta")[i % 2], "ABCD"[i % 4], cell))
    restarted = restart(service)
    paused: list[tuple[int, bool]] = []
    read = restarted.store.read

    def noted(match_id: str, **kw: Any) -> Any:
        paused.append((kw.get("after_seq", 0), not gc.isenabled()))
        return read(match_id, **kw)

    restarted.store.read = noted  # type: ignore[method-assign]
    restarted.snapshot(api.match_id, api.clock.now - timedelta(seconds=4))
    assert paused == [(0, True)]
    restarted.snapshot(api.match_id)
    assert paused[1:] == [(0, True)]  # no stored head here: the whole log
    assert gc.isenabled()
    paused.clear()
    restarted.snapshot(api.match_id)  # the live fold's tail (nothing new): not paused
    assert paused and not any(was_paused for _, was_paused in paused)


@pytest.mark.parametrize("bound", [10.0, 0.0])
def test_ready_waits_for_the_start_up_resume_within_its_bound(
    app: Any, api: Api, database_url: str, monkeypatch: pytest.MonkeyPatch, bound: float
) -> None:
    """A restarted service answers ``/ready`` 503 ``warming_up`` while it resumes the open
    matches' live folds (held here until released), then 200; once ``WARMING_SECONDS`` have
    passed it answers ready whatever the resume is doing."""
    supplied_match(api)
    api.ok("alpha", buzz("alpha", "A", "a1"))
    service: MatchService = app.state.service
    match = service.match(api.match_id)
    service.checkpoints.store_all(service.game(match.game), match)
    assert service.checkpoints.stored is not None
    service.checkpoints.stored.flush()
    release, resumed = threading.Event(), prewarm.resume

    def held(service: MatchService, match_id: str) -> None:
        release.wait(30)
        resumed(service, match_id)

    monkeypatch.setattr(prewarm, "resume", held)
    monkeypatch.setattr(prewarm, "WARMING_SECONDS", bound)
    restarted = make_app(database_url, api.clock)
    with TestClient(restarted) as client:
        answer = client.get("/ready")
        if bound:
            assert answer.status_code == 503, answer.text
            assert answer.json()["code"] == "warming_up"
        else:
            assert answer.json() == {"status": "ready"}
        release.set()
        again: MatchService = restarted.state.service
        assert again.checkpoints.stored is not None
        again.checkpoints.stored.flush()
        assert client.get("/ready").json() == {"status": "ready"}
        assert again.live.peek(api.match_id) is not None
    restarted.state.service.store.dispose()
