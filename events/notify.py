"""Wake-ups across replicas. On PostgreSQL every append sends ``NOTIFY`` on one channel with
``<match id>:<last seq>:<origin>`` as payload, from its own statement (``events.pg_append``),
so it is delivered at commit; ``origin`` is the appending store instance's
:attr:`events.EventStore.origin`, so a process can tell its own appends (which it hands to its
streams with their data, see ``EventStore.on_append``) from other replicas'. A
:class:`Listener` thread per process turns those into callbacks. A wake-up carries no events:
readers catch up by seq, so a lost one only delays an update until the next poll.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import psycopg
from sqlalchemy.engine import URL

CHANNEL = "adjudicator_events"


class Listener:
    """LISTENs on the channel in a daemon thread and calls ``on_wake(payload)`` for each
    notification; reconnects after a lost connection."""

    def __init__(self, url: URL, on_wake: Callable[[str], None], timeout: float = 0.25) -> None:
        self.conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.on_wake = on_wake
        self.timeout = timeout
        self._stop = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pg-listener", daemon=True)

    def start(self) -> None:
        self._thread.start()
        self._ready.wait(timeout=10)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._listen()
            except psycopg.Error:
                self._stop.wait(1.0)  # the server went away: try again shortly

    def _listen(self) -> None:
        with psycopg.connect(self.conninfo, autocommit=True) as conn:
            conn.execute(f"LISTEN {CHANNEL}")
            self._ready.set()
            while not self._stop.is_set():
                for note in conn.notifies(timeout=self.timeout):
                    self.on_wake(note.payload)
