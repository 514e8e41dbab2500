"""The live hub's window, fed by this process's appends (no store read when they follow its
head) and by announced appends (a read unless the window holds them)."""

from __future__ import annotations

import threading
from datetime import UTC, datetime
from typing import Any

from api.service.wakeups import MatchHub, Wakeups
from events import StoredEvent
from tests.support.loops import run

AT = datetime(2024, 5, 1, tzinfo=UTC)


def stored(seq: int) -> StoredEvent:
    return StoredEvent(
        match_id="m", seq=seq, position=seq, type="zoom.buzzed", actor="host", occurred_at=AT,
        recorded_at=AT, payload={"n": seq}, private_to=None, salt=None, commitment=None,
        idempotency_key=None, prev_hash="0" * 64, hash=f"{seq:064d}", source=None,
    )  # fmt: skip


class Reads:
    """A store reader counting its calls (returns nothing: the tests feed the window)."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, match_id: str, **_: Any) -> list[StoredEvent]:
        self.calls += 1
        return []


def hub_at(head: int) -> tuple[MatchHub, list[str]]:
    """A hub caught up to ``head``, whose wake-ups are recorded instead of reading."""
    hub = MatchHub("m", Reads())
    hub.caught_up(head)
    woken: list[str] = []
    hub.wake = lambda max_age=None: woken.append("read")  # type: ignore[method-assign]
    return hub, woken


def test_events_that_follow_the_head_join_the_window_without_a_read() -> None:
    hub, woken = hub_at(3)
    hub.offer([stored(4), stored(5)])
    assert hub.take(3) == [stored(4), stored(5)]
    assert hub.head == 5
    assert woken == []


def test_an_offer_out_of_order_falls_back_to_a_read_and_a_late_one_is_ignored() -> None:
    hub, woken = hub_at(3)
    hub.offer([stored(5)])  # seq 4's offer has not come yet
    assert hub.take(3) == [] and hub.head == 3
    assert woken == ["read"]
    hub.offer([stored(4)])
    hub.offer([stored(4)])  # held already: nothing to do
    assert hub.take(3) == [stored(4)]
    assert woken == ["read"]


def test_a_hub_nobody_has_caught_up_reads_instead() -> None:
    hub = MatchHub("m", Reads())
    woken: list[str] = []
    hub.wake = lambda max_age=None: woken.append("read")  # type: ignore[method-assign]
    hub.offer([stored(1)])
    assert hub.take(0) is None
    assert woken == ["read"]


def test_an_announced_append_the_window_holds_is_not_read_again() -> None:
    hub, woken = hub_at(3)
    hub.offer([stored(4)])
    hub.heard(4)
    hub.heard(3)
    assert woken == []
    hub.heard(5)
    hub.heard(None)  # a payload without a seq (sent by an older replica)
    assert woken == ["read", "read"]


def test_notify_payloads_name_the_match_and_its_last_seq() -> None:
    wakeups = Wakeups()
    hub, woken = hub_at(3)
    wakeups._hubs["m"] = hub
    wakeups.notified("m:3")
    wakeups.notified("other:9")  # no stream open on it here
    assert woken == []
    wakeups.notified("m:4")
    wakeups.notified("m")
    assert woken == ["read", "read"]


def test_a_notification_of_this_process_own_append_is_left_to_its_hand_over() -> None:
    wakeups = Wakeups(origin="ours")
    hub, woken = hub_at(3)
    wakeups._hubs["m"] = hub
    wakeups.notified("m:4:ours")  # overtook the hand-over (offer), which brings the events
    assert woken == []
    wakeups.notified("m:4:theirs")  # another replica's append: read once
    assert woken == ["read"]
    wakeups.appended("m", [stored(4)])
    assert hub.take(3) == [stored(4)] and woken == ["read"]


def test_other_replicas_appends_are_wanted_only_while_streams_are_open_and_a_while_after() -> None:
    wakeups = Wakeups(linger=60.0)
    firsts: list[int] = []
    wakeups.on_first_hub = lambda: firsts.append(1)
    assert wakeups.wants_notices() is False  # no stream has been open

    async def streams() -> None:
        with wakeups.subscription("m", Reads()):
            assert wakeups.wants_notices()
            with wakeups.subscription("n", Reads()):
                assert wakeups.wants_notices()

    run(streams())  # on a loop of its own thread (a test may hold one in this thread)
    assert firsts == [1]  # the listener is poked once, by the first stream
    assert wakeups.wants_notices()  # lingering: a spectator may come back at once
    wakeups.linger = 0.0
    assert not wakeups.wants_notices()  # the last stream closed longer ago than that


def test_when_the_listener_begins_every_hub_reads_its_tail_once() -> None:
    wakeups = Wakeups()
    hub, woken = hub_at(3)
    other, woken_other = hub_at(5)
    wakeups._hubs.update({"m": hub, "n": other})
    wakeups.wake_all()
    assert (woken, woken_other) == (["read"], ["read"])


class BlockingReads:
    """A store reader that holds each read until released (a slow store)."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.done = 0

    def __call__(self, match_id: str, **_: Any) -> list[StoredEvent]:
        self.entered.set()
        self.release.wait(10)
        self.done += 1
        return []


def test_settle_waits_for_a_hub_read_in_flight_and_reports_one_it_could_not_wait_out() -> None:
    reads = BlockingReads()
    wakeups = Wakeups()
    hub = MatchHub("m", reads, drains=wakeups.drains)
    hub.caught_up(3)
    hub.wake()
    assert reads.entered.wait(5)
    assert wakeups.drains.settle(0.05) is False  # still reading
    threading.Timer(0.1, reads.release.set).start()
    assert wakeups.drains.settle(5) is True
    assert reads.done == 1
    assert wakeups.drains.settle(0) is True  # nothing in flight: at once


class Log:
    """A store of ``length`` events whose reads are counted and take a while (so that streams
    asking at once overlap)."""

    def __init__(self, length: int) -> None:
        self.length, self._lock = length, threading.Lock()
        self.spans: list[tuple[int, int]] = []

    def __call__(self, match_id: str, *, after_seq: int, to_seq: int) -> list[StoredEvent]:
        with self._lock:
            self.spans.append((after_seq, to_seq))
        threading.Event().wait(0.05)
        return [stored(s) for s in range(after_seq + 1, min(to_seq, self.length) + 1)]


def test_a_crowd_replaying_a_match_reads_each_whole_page_once() -> None:
    from api.service.wakeups import PAGE

    log = Log(2 * PAGE + 40)
    hub = MatchHub("m", log)
    got: list[list[int]] = []

    def replay(start: int) -> None:
        seqs, seq = [], start
        while page := hub.page(seq):
            seqs += [e.seq for e in page]
            seq = page[-1].seq
        got.append(seqs)

    crowd = [threading.Thread(target=replay, args=(s,)) for s in [0] * 20 + [7, PAGE + 3]]
    for stream in crowd:
        stream.start()
    for stream in crowd:
        stream.join()
    for seqs in got:  # each replay: every seq after its start, once, in order
        assert seqs == list(range(seqs[0], log.length + 1))
    whole = [span for span in log.spans if span[1] <= 2 * PAGE]
    assert sorted(set(whole)) == [(0, PAGE), (PAGE, 2 * PAGE)]
    assert len(whole) == 2  # the two whole pages: one read each, for 22 streams
