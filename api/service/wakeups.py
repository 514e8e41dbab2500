"""Live fan-out: at most one store read per append per match, shared by every stream of that
match in this process, and none for the appends this process makes.

This process's store hands each append's events to :meth:`Wakeups.appended`: the match's
:class:`MatchHub`, if some stream is open on it, adds them to its window when they follow its
head, with no read. Appends made elsewhere are announced without data: by the PostgreSQL
listener (:meth:`Wakeups.notified`, whose NOTIFY payload names the match and its last seq, so
one the hub already holds is ignored) or by a poll; the hub then reads the store's tail once, in
a thread of its own. Either way the hub keeps the events in a window of the last ``WINDOW`` and
wakes every subscriber; each subscriber takes the events after its own seq from that window,
redacted for its viewer (each rendering is made once per viewer and shared by the streams of
that viewer). A subscriber behind the window (a replay from an old seq, or a slow client) reads
the store in ``PAGE``-aligned pages, each whole page read once for all the match's replaying
streams (:meth:`MatchHub.page`). The wake-ups of one event loop's streams go
through that loop's :class:`api.service.fanout.Sweep`: a few at a time, after the loop's other
requests in flight.

Memory bound: per match with open streams, at most ``WINDOW`` events in the window,
``PAGES_KEPT`` pages of ``PAGE`` events and ``RENDERED`` rendered texts; per stream, at most one
page of ``PAGE`` events in hand. A hub is
dropped with its last subscriber. Wake-ups carry no data and readers catch up by seq, so a lost
one only delays an update until the next poll: each hub keeps one ticker per event loop that,
every poll interval, asks for a read (made only if the window is older than that) and lets
every stream of that loop look once (and send its keep-alive when due). One timer per loop, not
one per stream and wait.
"""

from __future__ import annotations

import asyncio
import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from functools import partial
from itertools import islice

import structlog

from api.service.fanout import Quiet, Sweep
from events import StoredEvent

PAGE = 500
PAGES_KEPT = 8
"""Whole pages of the store kept per hub for replays (``MatchHub.page``): the first
``PAGES_KEPT * PAGE`` events a crowd of replaying streams asks for are read once for all."""
WINDOW = 500
RENDERED = 4 * WINDOW
LINGER = 30.0
"""Seconds other replicas' appends are still heard after this process's last stream closed."""
Reader = Callable[..., list[StoredEvent]]  # EventStore.read(match_id, after_seq=, to_seq=)
log = structlog.get_logger("api.live")


class Drains:
    """The hubs' reading threads in flight, so that the app's end can wait for them: a read cut
    off by the store's disposal would strand its connection outside any pool."""

    def __init__(self) -> None:
        self._threads: set[threading.Thread] = set()
        self._lock = threading.Lock()

    def start(self, target: Callable[[], None]) -> None:
        """Run ``target`` in a thread of its own (a daemon: it never holds up an exit)."""
        thread = threading.Thread(target=self._run, args=(target,), name="live-hub", daemon=True)
        with self._lock:  # started under the lock: ``settle`` never joins one not yet started
            self._threads.add(thread)
            thread.start()

    def _run(self, target: Callable[[], None]) -> None:
        try:
            target()
        finally:
            with self._lock:
                self._threads.discard(threading.current_thread())

    def settle(self, timeout: float) -> bool:
        """Wait up to ``timeout`` seconds for every thread in flight; whether none is left."""
        deadline = time.monotonic() + timeout
        while True:
            with self._lock:
                threads = list(self._threads)
            if not threads:
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            threads[0].join(remaining)


class MatchHub:
    """One match's shared tail in this process: a window of recent events, read once for all."""

    def __init__(
        self,
        match_id: str,
        reader: Reader,
        quiet: Quiet | None = None,
        drains: Drains | None = None,
    ) -> None:
        self.match_id = match_id
        self.reader = reader
        self.quiet = quiet
        self.drains = drains or Drains()
        self.subscribers: set[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = set()
        self.window: deque[StoredEvent] = deque(maxlen=WINDOW)
        self.head: int | None = None  # the tail is read up to seq ``head`` (None: not yet)
        self.reads = 0  # store reads made for the whole hub (shared by every subscriber)
        self._read_at = 0.0
        self._stale = False
        self._reading = False
        self._lock = threading.Lock()
        self._rendered: OrderedDict[tuple[int, Hashable], bytes] = OrderedDict()
        self._pages: OrderedDict[int, list[StoredEvent]] = OrderedDict()
        self._reading_pages: dict[int, threading.Event] = {}
        self._tickers: dict[asyncio.AbstractEventLoop, asyncio.Task[None]] = {}
        self._sweeps: dict[asyncio.AbstractEventLoop, Sweep] = {}

    def take(self, seq: int) -> list[StoredEvent] | None:
        """The window's events after ``seq``; None when the window does not reach back to
        ``seq + 1`` (the caller reads the store itself)."""
        with self._lock:
            if self.head is None:
                return None
            if seq >= self.head:
                return []
            first = self.window[0].seq if self.window else self.head + 1
            if first > seq + 1:
                return None
            return list(islice(self.window, seq + 1 - first, None))  # seqs are contiguous

    def kept_page(self, seq: int) -> list[StoredEvent] | None:
        """:meth:`page`'s answer when its whole page is kept (no I/O), else None."""
        start = seq - seq % PAGE
        with self._lock:
            kept = self._pages.get(start)
            if kept is None:
                return None
            self._pages.move_to_end(start)
            return kept[seq - start :]

    def page(self, seq: int) -> list[StoredEvent]:
        """The store's events after ``seq``, up to the end of the ``PAGE``-aligned page that
        holds ``seq + 1`` (blocking). A whole page is read once for every stream of the match
        that replays it (the others asking meanwhile wait for that read) and the last
        ``PAGES_KEPT`` whole pages are kept: events never change, and a whole page never
        grows. A page still filling (the tail) is read by each asker."""
        start = seq - seq % PAGE
        with self._lock:
            kept = self._pages.get(start)
            if kept is not None:
                self._pages.move_to_end(start)
                return kept[seq - start :]
            pending = self._reading_pages.get(start)
            if pending is None:
                self._reading_pages[start] = threading.Event()
        if pending is not None:  # another stream reads this page: wait for it
            pending.wait(timeout=60)
            with self._lock:
                kept = self._pages.get(start)
            if kept is not None:
                return kept[seq - start :]
            return self.reader(self.match_id, after_seq=seq, to_seq=start + PAGE)
        try:
            read = self.reader(self.match_id, after_seq=start, to_seq=start + PAGE)
            if len(read) == PAGE:
                with self._lock:
                    self._pages[start] = read
                    while len(self._pages) > PAGES_KEPT:
                        self._pages.popitem(last=False)
            return read[seq - start :]
        finally:
            with self._lock:
                self._reading_pages.pop(start).set()

    def rendered(self, event: StoredEvent, viewer: Hashable, render: Callable[[], bytes]) -> bytes:
        """``render()`` of ``event`` for ``viewer``, computed once for every stream of the same
        viewer (the last ``RENDERED`` renderings are kept)."""
        key = (event.seq, viewer)
        with self._lock:
            text = self._rendered.get(key)
        if text is None:
            text = render()
            with self._lock:
                self._rendered[key] = text
                while len(self._rendered) > RENDERED:
                    self._rendered.popitem(last=False)
        return text

    def caught_up(self, seq: int) -> None:
        """A subscriber read the store up to ``seq``: an empty window may start from there."""
        with self._lock:
            if not self.window and (self.head is None or seq > self.head):
                self.head = seq

    def offer(self, stored: Sequence[StoredEvent]) -> None:
        """Thread-safe: events this process just appended. Taken into the window, with no read,
        when they follow its head; already held, ignored; else (an earlier append's offer has
        not come yet, or nobody has caught up) the tail is read as for any wake-up."""
        with self._lock:
            head = self.head
            follows = head is not None and bool(stored) and stored[0].seq == head + 1
            if follows:
                self.window.extend(stored)
                self.head = stored[-1].seq
        if follows:
            self._notify()
        elif head is None or not stored or stored[-1].seq > head:
            self.wake()

    def heard(self, seq: int | None) -> None:
        """Thread-safe: an append up to ``seq`` was announced (None: an unknown seq); read the
        tail unless the window holds it already."""
        with self._lock:
            held = seq is not None and self.head is not None and seq <= self.head
        if not held:
            self.wake()

    def wake(self, max_age: float | None = None) -> None:
        """Thread-safe: read the tail (in a thread of its own) and wake every subscriber; with
        ``max_age``, only if the last read is older than that (a poll)."""
        with self._lock:
            if max_age is not None and time.monotonic() - self._read_at < max_age:
                return
            self._stale = True
            if self._reading:
                return
            self._reading = True
        self.drains.start(self._drain)

    def _drain(self) -> None:
        try:
            while self._read_once():
                self._notify()
        except Exception:  # the store is unreachable: the next wake or poll tries again
            log.exception("live_read_failed", match_id=self.match_id)
        finally:
            with self._lock:
                self._reading = False

    def _read_once(self) -> bool:
        """One page of the tail into the window; False when nothing was stale."""
        with self._lock:
            if not self._stale:
                return False
            self._stale, head = False, self.head
        if head is None:  # no subscriber has caught up yet: each reads the store itself
            return True
        page = self.reader(self.match_id, after_seq=head, to_seq=head + PAGE)
        self.reads += 1
        with self._lock:
            self._read_at = time.monotonic()
            known = self.head if self.head is not None else head
            fresh = [event for event in page if event.seq > known]
            self.window.extend(fresh)
            self.head = fresh[-1].seq if fresh else known
            self._stale = self._stale or len(page) == PAGE
        return True

    def _notify(self) -> None:
        """Wake every subscriber: one call into each event loop (not one per stream), since
        each such call writes to the loop's wake-up pipe; there the loop's :class:`Sweep`
        wakes its streams a few at a time, after the loop's other requests."""
        with self._lock:
            sweeps = list(self._sweeps.items())
        for loop, sweep in sweeps:
            if not loop.is_closed():
                loop.call_soon_threadsafe(sweep.kick)

    def _of_loop(self, loop: asyncio.AbstractEventLoop) -> list[asyncio.Event]:
        with self._lock:
            return [event for other, event in self.subscribers if other is loop]

    def join(self, entry: tuple[asyncio.AbstractEventLoop, asyncio.Event], poll: float) -> None:
        """Add a subscriber (call from its loop, holding the lock); the first of a loop starts
        that loop's ticker."""
        self.subscribers.add(entry)
        loop = entry[0]
        if loop not in self._tickers:
            self._tickers[loop] = loop.create_task(self._tick(loop, poll))
            self._sweeps[loop] = Sweep(partial(self._of_loop, loop), self.quiet)

    def leave(self, entry: tuple[asyncio.AbstractEventLoop, asyncio.Event]) -> None:
        """Remove a subscriber (holding the lock); the last of a loop stops its ticker."""
        self.subscribers.discard(entry)
        loop = entry[0]
        if not any(other is loop for other, _ in self.subscribers):
            ticker = self._tickers.pop(loop, None)
            if ticker is not None:
                ticker.cancel()
            sweep = self._sweeps.pop(loop, None)
            if sweep is not None:
                sweep.cancel()

    async def _tick(self, loop: asyncio.AbstractEventLoop, poll: float) -> None:
        """Every ``poll`` seconds: a read if the window is older than that (appends another
        replica made that no wake-up announced), then every stream of this loop looks once
        (and sends its keep-alive when due). One timer per loop, not one per stream."""
        while True:
            await asyncio.sleep(poll)
            self.wake(max_age=poll)
            with self._lock:
                quiet = [event for other, event in self.subscribers if other is loop]
            _set_all(quiet)


def _set_all(events: list[asyncio.Event]) -> None:
    for event in events:
        event.set()


class Subscription:
    """One stream's hold on its match's hub (used from the stream's coroutine)."""

    def __init__(self, hub: MatchHub, woken: asyncio.Event) -> None:
        self.hub = hub
        self.woken = woken
        self.joined = False  # the first batch always comes from the store: fresh at connect

    def next_batch(self, seq: int) -> list[StoredEvent]:
        """The events after ``seq`` the stream should send next (blocking: run it in a thread
        when the window does not cover ``seq``): from the shared window, or one page of the
        store."""
        shared = self.shared(seq)
        if shared is not None:
            return shared
        return self._replayed(seq, self.hub.page(seq))

    def kept(self, seq: int) -> list[StoredEvent] | None:
        """A replay's next page when the hub keeps it (no I/O), else None (:meth:`next_batch`,
        in a thread)."""
        page = None if self.joined else self.hub.kept_page(seq)
        return None if page is None else self._replayed(seq, page)

    def _replayed(self, seq: int, page: list[StoredEvent]) -> list[StoredEvent]:
        if page and page[-1].seq % PAGE == 0:  # a whole page: the next may follow at once
            return page
        self.hub.caught_up(page[-1].seq if page else seq)
        self.joined = True
        return page

    def shared(self, seq: int) -> list[StoredEvent] | None:
        """The shared window's events after ``seq`` (no I/O), or None when the stream must
        read the store (:meth:`next_batch`, in a thread)."""
        return self.hub.take(seq) if self.joined else None

    async def wait(self) -> None:
        """Until the hub has new events, or its ticker's next beat (every poll interval)."""
        await self.woken.wait()
        self.woken.clear()


class Wakeups:
    """The hubs of this process, one per match with open streams."""

    def __init__(
        self, origin: str | None = None, quiet: Quiet | None = None, linger: float = LINGER
    ) -> None:
        self._hubs: dict[str, MatchHub] = {}
        self._lock = threading.Lock()
        self.origin = origin  # this process's store (``EventStore.origin``): its own appends
        self.quiet = quiet  # the requests in flight, which the streams' wake-ups let go first
        self.linger = linger
        self._emptied_at = -math.inf  # when the last hub went (monotonic)
        self.on_first_hub: Callable[[], None] = lambda: None  # the listener's ``poke``
        self.drains = Drains()  # every hub's reads in flight (awaited at the app's end)

    def wants_notices(self) -> bool:
        """Whether other replicas' appends should be heard (``events.notify.Listener``): while
        a stream is open here, and for ``linger`` seconds after the last one closed (so a
        spectator who reconnects finds the listener still there)."""
        with self._lock:
            return bool(self._hubs) or time.monotonic() - self._emptied_at < self.linger

    def wake_all(self) -> None:
        """Every hub reads its tail once (the listener has just begun: what came before)."""
        with self._lock:
            hubs = list(self._hubs.values())
        for hub in hubs:
            hub.wake()

    @contextmanager
    def subscription(
        self, match_id: str, reader: Reader, poll: float = 2.0
    ) -> Iterator[Subscription]:
        """Join ``match_id``'s hub (created on first use) for the life of a stream (call from a
        coroutine); ``reader`` reads the store (``EventStore.read``); the stream looks at least
        every ``poll`` seconds."""
        entry = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            first = not self._hubs
            hub = self._hubs.get(match_id) or MatchHub(match_id, reader, self.quiet, self.drains)
            self._hubs[match_id] = hub
            with hub._lock:
                hub.join(entry, poll)
        if first:
            self.on_first_hub()
        try:
            yield Subscription(hub, entry[1])
        finally:
            with self._lock, hub._lock:
                hub.leave(entry)
                if not hub.subscribers:
                    self._hubs.pop(match_id, None)
                    if not self._hubs:
                        self._emptied_at = time.monotonic()

    def hub(self, match_id: str) -> MatchHub | None:
        with self._lock:
            return self._hubs.get(match_id)

    def appended(self, match_id: str, stored: Sequence[StoredEvent]) -> None:
        """Thread-safe and cheap (never reads in the caller's thread): this process appended
        ``stored`` to ``match_id``; its streams get them without a read."""
        hub = self.hub(match_id)
        if hub is not None:
            hub.offer(stored)

    def notified(self, payload: str) -> None:
        """Thread-safe: a NOTIFY payload, ``<match id>:<last seq>:<origin>`` (or without the
        origin, or a bare match id, as sent before these were added): the match's streams see
        that append after at most one shared read, none when their hub holds it already or
        when this process's own store made it (:meth:`appended` hands those over with their
        events: the notification may overtake that hand-over, and reading the tail then
        would be a store read per append for nothing)."""
        match_id, _, rest = payload.partition(":")
        seq, _, origin = rest.partition(":")
        if origin and origin == self.origin:
            return
        hub = self.hub(match_id)
        if hub is not None:
            hub.heard(int(seq) if seq.isdigit() else None)

    def wake(self, match_id: str) -> None:
        """Thread-safe and cheap (never reads in the caller's thread): every stream of
        ``match_id`` in this process will see the new events after one shared read."""
        hub = self.hub(match_id)
        if hub is not None:
            hub.wake()
