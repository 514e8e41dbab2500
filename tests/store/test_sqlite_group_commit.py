"""SQLite's appends awaited on the event loop are committed there in groups
(``events.sqlite_async``): every append handed over while the loop ran other callbacks, or while
the write transaction could not begin, in one transaction; each append in a savepoint of its
own, so a refused one writes nothing and leaves the others of its group recorded; a failed
transaction answers every append of the group with its error; each is answered only after the
commit; closing answers every append handed over first. The loop never waits for a lock: while
another thread holds the store's write turn, or another process writes, it goes on serving."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from sqlalchemy import Connection
from sqlalchemy.exc import OperationalError

from events import EventStore, StoredEvent, verify_chain
from events.engine import BUSY_TIMEOUT_MS
from events.migrate import upgrade
from events.sqlite_async import SqliteAppends
from tests.store.support import event, new_match
from tests.store.test_append_async import head, started
from tests.support import loops


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[EventStore]:
    url = f"sqlite:///{tmp_path / 'group.sqlite3'}"
    upgrade(url)
    store = EventStore.from_url(url)
    yield store
    store.dispose()


class Counted:
    """The store's write transactions begun, counted; ``fail`` makes each fail at its end."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.transactions = 0
        self.fail = False

    @contextmanager
    def writer(self, insist: bool) -> Iterator[Connection | None]:
        with self.store._writer_now(insist) as conn:
            if conn is None:
                yield None
                return
            self.transactions += 1
            yield conn
            if self.fail:
                raise OperationalError("COMMIT", None, Exception("disk I/O error"))


def counted(store: EventStore, monkeypatch: pytest.MonkeyPatch) -> Counted:
    gate = Counted(store)
    monkeypatch.setattr(store, "_async", SqliteAppends(gate.writer, store._appended))
    return gate


class Held:
    """The store's write turn held by another thread (as a ruling's transaction would hold
    it) until :meth:`release`: the loop's appends gather meanwhile."""

    def __init__(self, store: EventStore) -> None:
        turn = store._write_turn
        assert turn is not None
        taken, self._go = threading.Event(), threading.Event()

        def hold() -> None:
            with turn:
                taken.set()
                self._go.wait(10)

        self._thread = threading.Thread(target=hold)
        self._thread.start()
        taken.wait(10)

    def release(self) -> None:
        self._go.set()
        self._thread.join()


def test_appends_waiting_together_commit_in_one_transaction_and_each_is_answered(
    sqlite_store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ten matches, one append each, handed over while the writer is held: at most two
    transactions (the first append may have been taken alone before the rest came), every
    append recorded as ``append`` records it, positions gap-free in the order handed over."""
    store = sqlite_store
    started_ = [started(store) for _ in range(10)]
    gate = counted(store, monkeypatch)
    held = Held(store)
    handed: list[str] = []
    store.on_append(lambda match_id, _: handed.append(match_id))

    async def work() -> list[list[StoredEvent] | None]:
        await store.aopen()
        try:
            tasks = [
                asyncio.create_task(
                    store.append_async(m, b[-1].seq, [event(1), event(2)], head=head(b))
                )
                for m, b in started_
            ]
            await asyncio.sleep(0.05)  # every task has handed its append over
            held.release()
            return await asyncio.gather(*tasks)
        finally:
            await store.aclose()

    answers = loops.run(work())

    assert gate.transactions <= 2
    assert all(a is not None and [e.seq for e in a] == [2, 3] for a in answers)
    positions = [e.position for a in answers if a is not None for e in a]
    assert positions == list(range(positions[0], positions[0] + 20))
    for (match_id, _), answer in zip(started_, answers, strict=True):
        read = store.read(match_id)
        assert read[-2:] == answer and verify_chain(read).ok
    assert sorted(handed) == sorted(m for m, _ in started_)


def test_a_refused_append_in_a_group_writes_nothing_and_leaves_the_others_recorded(
    sqlite_store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = sqlite_store
    (a, a0), (b, b0), (c, _) = (started(store) for _ in range(3))
    keyed = store.append(c, 1, [event(1)], idempotency_key="k", request_digest="d")
    store.append(b, 1, [event(1)])  # another writer moved b on

    held = Held(store)

    async def work() -> list[list[StoredEvent] | None]:
        await store.aopen()
        keyed_again = store.append_async(
            c, 2, [event(2)], head=head(keyed), idempotency_key="k", request_digest="d"
        )
        try:
            tasks = [
                asyncio.create_task(store.append_async(a, 1, [event(2)], head=head(a0))),
                asyncio.create_task(store.append_async(b, 1, [event(2)], head=head(b0))),
                asyncio.create_task(keyed_again),
                asyncio.create_task(store.append_async(a, 1, [event(3)], head=head(a0))),
            ]
            await asyncio.sleep(0.05)
            held.release()
            return await asyncio.gather(*tasks)
        finally:
            await store.aclose()

    first_a, stale_b, replayed_c, second_a = loops.run(work())

    assert first_a is not None and [e.payload["n"] for e in store.read(a)] == [0, 2]
    assert stale_b is None and replayed_c is None and second_a is None
    assert [e.payload["n"] for e in store.read(b)] == [0, 1]
    assert [e.payload["n"] for e in store.read(c)] == [0, 1] and store.last_seq(c) == 2
    every = store.read_after(0)
    assert [e.position for e in every] == list(range(1, len(every) + 1))


def test_a_failed_transaction_answers_each_append_of_its_group_and_writes_nothing(
    sqlite_store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = sqlite_store
    (a, a0), (b, b0) = started(store), started(store)
    gate = counted(store, monkeypatch)
    held = Held(store)
    gate.fail = True
    handed: list[str] = []
    store.on_append(lambda match_id, _: handed.append(match_id))

    async def work() -> list[BaseException | list[StoredEvent] | None]:
        await store.aopen()
        try:
            tasks = [
                asyncio.create_task(store.append_async(m, 1, [event(1)], head=head(h)))
                for m, h in ((a, a0), (b, b0))
            ]
            await asyncio.sleep(0.05)
            held.release()
            return await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            await store.aclose()

    answers = loops.run(work())

    assert all(isinstance(answer, OperationalError) for answer in answers)
    assert store.last_seq(a) == 1 and store.last_seq(b) == 1 and handed == []


def test_closing_answers_every_append_handed_over_first(sqlite_store: EventStore) -> None:
    """The append waits for a busy write turn; closing, as soon as the turn is free, commits
    and answers it (the wait for the next try is dropped with the rest)."""
    store = sqlite_store
    match_id, before = started(store)
    held = Held(store)

    async def work() -> list[StoredEvent] | None:
        await store.aopen()
        task = asyncio.create_task(store.append_async(match_id, 1, [event(1)], head=head(before)))
        await asyncio.sleep(0.05)
        assert not task.done()
        held.release()
        await store.aclose()
        return await asyncio.wait_for(task, 5)

    stored = loops.run(work())

    assert stored is not None and store.read(match_id)[-1:] == stored


def test_an_answer_for_a_request_gone_is_still_recorded_and_handed_on(
    sqlite_store: EventStore,
) -> None:
    """A request cancelled while its append waits: the append is recorded (as on PostgreSQL,
    where the statement was sent) and the append callbacks still run, so live streams and
    checkpoints hear of it."""
    store = sqlite_store
    match_id, before = started(store)
    held = Held(store)
    handed: list[int] = []
    store.on_append(lambda _, stored: handed.extend(e.seq for e in stored))

    async def work() -> None:
        await store.aopen()
        try:
            task = asyncio.create_task(
                store.append_async(match_id, 1, [event(1)], head=head(before))
            )
            await asyncio.sleep(0.05)
            task.cancel()
            held.release()
        finally:
            await store.aclose()

    loops.run(work())

    assert store.last_seq(match_id) == 2 and handed == [2]


def test_appends_of_one_match_in_one_group_chain_on_each_other(sqlite_store: EventStore) -> None:
    """Two appends of the same match in one group, the second after the first's seq and
    hash: both recorded, one chain (a savepoint sees what the group wrote before it)."""
    store = sqlite_store
    match_id = new_match(store)
    first = store.append(match_id, 0, [event(0)])
    held = Held(store)

    async def work() -> tuple[list[StoredEvent] | None, list[StoredEvent] | None]:
        await store.aopen()
        try:
            one = asyncio.create_task(store.append_async(match_id, 1, [event(1)], head=head(first)))
            await asyncio.sleep(0.02)
            held.release()
            got = await one
            assert got is not None
            two = await store.append_async(match_id, 2, [event(2)], head=head(got))
            return got, two
        finally:
            await store.aclose()

    one, two = loops.run(work())

    assert one is not None and two is not None
    assert verify_chain(store.read(match_id)).ok and store.last_seq(match_id) == 3


async def _ticks_while(task: asyncio.Task[object], seconds: float) -> int:
    """How many 1 ms sleeps the loop served in ``seconds`` while ``task`` waited."""
    ticks, end = 0, asyncio.get_running_loop().time() + seconds
    while asyncio.get_running_loop().time() < end:
        await asyncio.sleep(0.001)
        ticks += 1
    assert not task.done()
    return ticks


def _appended_meanwhile(
    store: EventStore, match_id: str, before: list[StoredEvent], free: Callable[[], None]
) -> tuple[int, list[StoredEvent] | None]:
    """An append handed over while the write lock is taken elsewhere: how many 1 ms sleeps the
    loop served in 0.2 s while it waited, and its answer once ``free`` let the lock go."""

    async def work() -> tuple[int, list[StoredEvent] | None]:
        await store.aopen()
        try:
            task = asyncio.create_task(
                store.append_async(match_id, 1, [event(1)], head=head(before))
            )
            ticks = await _ticks_while(task, 0.2)
            free()
            return ticks, await asyncio.wait_for(task, 5)
        finally:
            await store.aclose()

    return loops.run(work())


def test_the_loop_goes_on_serving_while_another_thread_holds_the_write_turn(
    sqlite_store: EventStore,
) -> None:
    """A ruling's transaction in the thread pool holds the write turn: the loop's append
    waits for it without blocking the loop, and is recorded once the turn is free."""
    store = sqlite_store
    match_id, before = started(store)
    held = Held(store)

    ticks, stored = _appended_meanwhile(store, match_id, before, held.release)

    assert ticks >= 20  # about 150 on an idle machine; a loop blocked on the lock serves none
    assert stored is not None and store.read(match_id)[-1:] == stored


def test_the_loop_goes_on_serving_while_another_process_writes(
    sqlite_store: EventStore, tmp_path: Path
) -> None:
    """Another process holds SQLite's write lock (here: another connection in ``BEGIN
    IMMEDIATE``): the append does not wait in the busy handler on the loop; it is recorded
    after that writer commits, and the store's connections keep their busy timeout."""
    store = sqlite_store
    match_id, before = started(store)
    other = sqlite3.connect(
        tmp_path / "group.sqlite3", isolation_level=None, check_same_thread=False
    )
    other.execute("BEGIN IMMEDIATE")

    try:
        ticks, stored = _appended_meanwhile(
            store, match_id, before, lambda: other.execute("COMMIT").close()
        )
    finally:
        other.close()

    assert ticks >= 20
    assert stored is not None and store.read(match_id)[-1:] == stored
    with store.engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA busy_timeout").scalar() == BUSY_TIMEOUT_MS


def test_appends_handed_over_in_the_passes_that_follow_join_the_group(
    sqlite_store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three requests reach their appends one pass of the loop after another: the group waits
    for them (it is committed at the first pass that hands over nothing new), one commit."""
    store = sqlite_store
    started_ = [started(store) for _ in range(3)]
    gate = counted(store, monkeypatch)

    async def after_passes(passes: int, match_id: str, before: list[StoredEvent]) -> object:
        for _ in range(passes):
            await asyncio.sleep(0)
        return await store.append_async(match_id, 1, [event(1)], head=head(before))

    async def work() -> list[object]:
        await store.aopen()
        try:
            return await asyncio.gather(
                *(after_passes(i, m, b) for i, (m, b) in enumerate(started_))
            )
        finally:
            await store.aclose()

    answers = loops.run(work())

    assert all(answer is not None for answer in answers)
    assert gate.transactions == 1


def test_writers_of_the_thread_pool_back_to_back_do_not_starve_the_loop(
    sqlite_store: EventStore,
) -> None:
    """A thread takes the store's write turn again the moment it lets it go, for two seconds:
    the loop's append, which never waits for the turn, insists once it has waited a while,
    and is recorded long before that thread stops."""
    store = sqlite_store
    match_id, before = started(store)
    stop = threading.Event()

    def writing() -> None:
        while not stop.is_set():
            with store._writer():
                time.sleep(0.005)

    thread = threading.Thread(target=writing)

    async def work() -> float:
        await store.aopen()
        try:
            thread.start()
            await asyncio.sleep(0.05)
            began = time.perf_counter()
            stored = await asyncio.wait_for(
                store.append_async(match_id, 1, [event(1)], head=head(before)), 2
            )
            assert stored is not None
            return time.perf_counter() - began
        finally:
            stop.set()
            await store.aclose()

    try:
        took = loops.run(work())
    finally:
        stop.set()
        thread.join()

    assert took < 0.5
    assert store.last_seq(match_id) == 2


def test_a_failing_append_callback_leaves_the_group_answered(
    sqlite_store: EventStore,
) -> None:
    store = sqlite_store
    (a, a0), (b, b0) = started(store), started(store)

    def failing(match_id: str, _: list[StoredEvent]) -> None:
        if match_id == a:
            raise RuntimeError("a stream hub broke")

    store.on_append(failing)

    async def work() -> tuple[list[StoredEvent] | None, list[StoredEvent] | None]:
        await store.aopen()
        try:
            return await asyncio.wait_for(
                asyncio.gather(
                    store.append_async(a, 1, [event(1)], head=head(a0)),
                    store.append_async(b, 1, [event(1)], head=head(b0)),
                ),
                5,
            )
        finally:
            await store.aclose()

    answers = loops.run(work())

    assert all(answer is not None for answer in answers)
    assert store.last_seq(a) == 2 and store.last_seq(b) == 2
