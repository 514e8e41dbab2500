"""The fold's background writer (``projections.stored_checkpoints.FoldStore``) is closed before
its store: closing runs the jobs already queued and takes no more, and an app's shutdown closes
its service's writer (a job left running after the store's connections are closed would open
a new one and leave it open)."""

from __future__ import annotations

import threading
from typing import Any

from fastapi.testclient import TestClient

from events import EventStore
from projections.stored_checkpoints import FoldStore
from tests.api.conftest import make_app
from tests.store.support import ManualClock


def test_closing_runs_the_queued_jobs_and_takes_no_more(store: EventStore) -> None:
    writer, ran, gate = FoldStore(store), [], threading.Event()

    def busy() -> None:  # the thread is busy while more jobs queue
        gate.wait()

    assert writer.submit(busy)
    assert writer.submit(lambda: ran.append(1))
    assert writer.submit(lambda: ran.append(2))
    gate.set()
    writer.close()
    assert ran == [1, 2]
    assert not writer.submit(lambda: ran.append(3))
    writer.flush()
    assert ran == [1, 2]


def test_an_apps_shutdown_closes_its_writer(database_url: str, clock: ManualClock) -> None:
    app: Any = make_app(database_url, clock)
    writer = app.state.service.checkpoints.stored
    with TestClient(app):
        assert writer.submit(lambda: None)
    assert not writer.submit(lambda: None)
    app.state.service.store.dispose()
