"""Wake-ups across replicas. On PostgreSQL every append sends ``NOTIFY`` on one channel with
``<match id>:<last seq>:<origin>`` as payload, from its own statement (``events.pg_append``),
so it is delivered at commit; ``origin`` is the appending store instance's
:attr:`events.EventStore.origin`, so a process can tell its own appends (which it hands to its
streams with their data, see ``EventStore.on_append``) from other replicas'. A
:class:`Listener` thread per process turns those into callbacks, while the process has streams
open. A wake-up carries no events: readers catch up by seq, so a lost one only delays an update
until the next poll.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import psycopg
from sqlalchemy.engine import URL

CHANNEL = "adjudicator_events"


class Listener:
    """LISTENs on the channel in a daemon thread and calls ``on_wake(payload)`` for each
    notification; reconnects after a lost connection.

    It listens only while ``wanted()`` says so (the process has streams to wake): every
    notification wakes this thread, which then takes the GIL from the event loop, and the server
    spends a delivery on it, for each append of every replica. When it begins to listen it calls
    ``on_listening()``: whatever was appended before its ``LISTEN`` took effect is read then, so
    nothing is missed in between. :meth:`poke` says that ``wanted()`` may have turned true (a
    first stream opened); otherwise it looks every ``timeout`` seconds."""

    def __init__(
        self,
        url: URL,
        on_wake: Callable[[str], None],
        timeout: float = 0.25,
        *,
        wanted: Callable[[], bool] = lambda: True,
        on_listening: Callable[[], None] = lambda: None,
    ) -> None:
        self.conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.on_wake = on_wake
        self.timeout = timeout
        self.wanted = wanted
        self.on_listening = on_listening
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._poked = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pg-listener", daemon=True)

    def start(self) -> None:
        """Start the thread; return once it listens, or is idle for want of streams."""
        self._thread.start()
        self._ready.wait(timeout=10)

    def poke(self) -> None:
        """``wanted()`` may now be true: look at once."""
        self._poked.set()

    def stop(self) -> None:
        self._stop.set()
        self._poked.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            if not self.wanted():
                self._ready.set()
                self._poked.wait(self.timeout)
                self._poked.clear()
                continue
            try:
                self._listen()
            except psycopg.Error:
                self._stop.wait(1.0)  # the server went away: try again shortly

    def _listen(self) -> None:
        with psycopg.connect(self.conninfo, autocommit=True) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            self._ready.set()
            self.on_listening()
            while not self._stop.is_set() and self.wanted():
                for note in conn.notifies(timeout=self.timeout):
                    self.on_wake(note.payload)
