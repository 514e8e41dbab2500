"""Commands first, then the streams: how a live hub wakes the streams of one event loop.

Waking every stream of a match at once makes the next command wait behind all their socket
writes: with 200 streams, one append is 200 sends in a row on the event loop that also runs
the commands. Instead a :class:`Sweep` wakes the streams a few at a time (``CHUNK``), and
before each few it lets the loop's other requests (commands, queries: :class:`Quiet` counts
them) finish first, for at most ``MAX_DEFER`` seconds after the append. A stream woken later
takes every event it missed in one send, so the fan-out costs fewer sends the busier the
server is, and no event is ever dropped: streams catch up by seq (``api.service.wakeups``).

What a stream gives up: under a steady stream of commands its updates come up to ``MAX_DEFER``
later (then the sweep goes on regardless); a quiet server sends at once.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from contextlib import suppress

CHUNK = 8
"""Streams woken between two looks at the loop's other requests."""
MAX_DEFER = 0.025
"""Seconds an append's fan-out waits at most for the loop's other requests."""


class Quiet:
    """How many requests other than streams are in flight, per event loop (a request enters
    and leaves on its own loop); :meth:`wait` returns once none is, or at a deadline."""

    def __init__(self) -> None:
        self._busy: dict[asyncio.AbstractEventLoop, int] = {}
        self._idle: dict[asyncio.AbstractEventLoop, asyncio.Event] = {}

    def enter(self) -> None:
        loop = asyncio.get_running_loop()
        self._busy[loop] = self._busy.get(loop, 0) + 1
        self._event(loop).clear()

    def leave(self) -> None:
        loop = asyncio.get_running_loop()
        left = self._busy.get(loop, 1) - 1
        if left > 0:
            self._busy[loop] = left
            return
        self._busy.pop(loop, None)
        self._idle.pop(loop).set()

    def idle(self) -> bool:
        """Whether no request other than a stream is in flight on any loop (any thread may ask:
        a loop leaves the dict once none of its requests is left)."""
        return not self._busy

    def busy(self) -> int:
        return self._busy.get(asyncio.get_running_loop(), 0)

    async def wait(self, deadline: float) -> None:
        """Until no other request is in flight on this loop, or the loop's time ``deadline``."""
        loop = asyncio.get_running_loop()
        if not self._busy.get(loop):
            return
        with suppress(TimeoutError):
            await asyncio.wait_for(self._event(loop).wait(), deadline - loop.time())

    def _event(self, loop: asyncio.AbstractEventLoop) -> asyncio.Event:
        event = self._idle.get(loop)
        if event is None:
            event = self._idle[loop] = asyncio.Event()
        return event


class Sweep:
    """One hub's wake-ups on one event loop: :meth:`kick` (called on that loop) asks for a
    sweep over the streams ``subscribers()`` gives; kicks during a sweep ask for one more."""

    def __init__(
        self, subscribers: Callable[[], Sequence[asyncio.Event]], quiet: Quiet | None
    ) -> None:
        self.subscribers = subscribers
        self.quiet = quiet
        self._again = False
        self._task: asyncio.Task[None] | None = None

    def kick(self) -> None:
        self._again = True
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        try:
            while self._again:
                self._again = False
                await self._sweep()
        finally:
            self._task = None

    async def _sweep(self) -> None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + MAX_DEFER
        streams = self.subscribers()
        for start in range(0, len(streams), CHUNK):
            if self.quiet is not None:
                await self.quiet.wait(deadline)
            for woken in streams[start : start + CHUNK]:
                woken.set()
            await asyncio.sleep(0)  # the woken streams send before the next few are woken
