"""In-process wake-ups for live streams: a stream waits on its match's event, and any thread
that learns of an append (this process's store, or the PostgreSQL listener for appends made by
other replicas) wakes every stream of that match."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class Wakeups:
    def __init__(self) -> None:
        self._waiting: dict[str, set[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = {}
        self._lock = threading.Lock()

    @contextmanager
    def subscription(self, match_id: str) -> Iterator[asyncio.Event]:
        """An event set whenever ``match_id`` may have new events (call from a coroutine)."""
        entry = (asyncio.get_running_loop(), asyncio.Event())
        with self._lock:
            self._waiting.setdefault(match_id, set()).add(entry)
        try:
            yield entry[1]
        finally:
            with self._lock:
                waiting = self._waiting.get(match_id, set())
                waiting.discard(entry)
                if not waiting:
                    self._waiting.pop(match_id, None)

    def wake(self, match_id: str) -> None:
        """Thread-safe: wake every stream waiting on ``match_id``."""
        with self._lock:
            entries = list(self._waiting.get(match_id, ()))
        for loop, event in entries:
            if not loop.is_closed():
                loop.call_soon_threadsafe(event.set)
