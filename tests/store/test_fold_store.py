"""The fold's background writer (``projections.stored_checkpoints.FoldStore``) is closed before
its store: closing runs the jobs already queued and takes no more, and an app's shutdown closes
its service's writer (a job left running after the store's connections are closed would open
a new one and leave it open)."""

from __future__ import annotations

import threading
import time
from types import SimpleNamespace
from typing import Any, cast

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from events import EventStore
from events.tables import fold_checkpoints, fold_heads, fold_pages
from projections import stored_checkpoints
from projections.checkpoints import Checkpoints
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


def test_prune_deletes_the_stored_states_of_every_codec_but_the_current(
    store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checkpoints, heads and pages of codecs no longer written go, a few rows a transaction
    (the batch made small here, so that it takes several); the current codecs' stay."""
    monkeypatch.setattr(stored_checkpoints, "PRUNE_BATCH", 3)
    folds = FoldStore(store)
    digest = bytes(16)
    for codec in ("zoom:old", "zoom:new", "nnt:new"):
        for k in range(1, 5):
            page = folds.page_inserts("m-1", codec, [(f"{codec}{k}", b"page")])
            folds.execute(*page, folds.checkpoint_insert("m-1", codec, k * 1000, digest, b"state"))
    heads = {"m-1": "zoom:old", "m-2": "zoom:new", "m-3": "gone"}
    for match_id, codec in heads.items():
        row = {
            "match_id": match_id,
            "codec": codec,
            "seq": 1,
            "hash": "h",
            "meta": b"",
            "state": b"",
        }
        folds.execute(folds.insert(fold_heads).values(row))

    assert folds.prune({"zoom:new", "nnt:new"}) == 4 + 2 + 4

    with store.engine.connect() as conn:
        kept = {
            tuple(r) for r in conn.execute(select(fold_checkpoints.c.codec, fold_checkpoints.c.k))
        }
        kept_heads = set(conn.execute(select(fold_heads.c.match_id)).scalars())
        kept_pages = set(conn.execute(select(fold_pages.c.digest)).scalars())
    assert kept == {(c, k * 1000) for c in ("zoom:new", "nnt:new") for k in range(1, 5)}
    assert kept_pages == {f"{c}{k}" for c in ("zoom:new", "nnt:new") for k in range(1, 5)}
    assert kept_heads == {"m-2"}
    assert folds.prune({"zoom:new", "nnt:new"}) == 0


def test_an_app_prunes_stale_codecs_when_it_starts(database_url: str, clock: ManualClock) -> None:
    app: Any = make_app(database_url, clock)
    folds: FoldStore = app.state.service.checkpoints.stored
    old = folds.checkpoint_insert("m-1", "zoom:a-codec-of-older-code", 1000, bytes(16), b"state")
    folds.execute(old)
    with TestClient(app):
        folds.flush()
        with app.state.service.store.engine.connect() as conn:
            left = conn.execute(select(fold_checkpoints.c.codec)).scalars().all()
    app.state.service.store.dispose()
    assert left == []


def appended(*seqs: int) -> Any:
    """Stand-ins for the events of one append (``Checkpoints.appended`` reads their seq and
    type only)."""
    return [SimpleNamespace(seq=seq, type="zoom.buzzed") for seq in seqs]


def test_an_append_while_a_match_s_checkpoints_are_being_stored_queues_another_run(
    store: EventStore,
) -> None:
    """The background job reads the log when it begins; a stride passed while it runs must
    not be dropped (it was: the stored checkpoints then lagged until the next stride), and
    while a run is queued, not begun, no second is queued (that one reads the log later)."""
    folds = FoldStore(store, stride=4)
    checkpoints = Checkpoints(
        store, stored=folds, resolve=lambda match_id: cast(Any, (0, match_id))
    )
    runs: list[str] = []
    began, release = threading.Event(), threading.Event()

    def store_all(game: Any, match: Any) -> None:
        runs.append(match)
        began.set()
        release.wait(10)

    checkpoints.store_all = store_all  # type: ignore[method-assign]
    checkpoints.appended("m-1", appended(3, 4))  # passes 4: queued, then begun
    assert began.wait(10)
    checkpoints.appended("m-1", appended(5))  # no stride passed
    checkpoints.appended("m-1", appended(8))  # passes 8 while the first runs: queued
    checkpoints.appended("m-1", appended(12))  # the second is queued, not begun: not again
    release.set()
    folds.flush()
    folds.close()
    assert runs == ["m-1", "m-1"]


def test_read_finds_the_deepest_candidate_stored_with_its_prefix(store: EventStore) -> None:
    """A checkpoint is read only under the very prefix a candidate names: a deeper ``k`` stored
    under another prefix (another timeline) is passed over, as is one of another codec; the
    blob comes back as the bytes stored (on PostgreSQL read in the binary format)."""
    folds = FoldStore(store)
    mine, other = bytes(range(16)), bytes(16)
    big = bytes(range(256)) * 4000  # a state of about 1 MB, every byte value
    rows = [("zoom:c", 1000, mine, b"one"), ("zoom:c", 2000, mine, big)]
    rows += [("zoom:c", 3000, other, b"another timeline"), ("nnt:c", 4000, mine, b"x")]
    for codec, k, digest, blob in rows:
        folds.execute(folds.checkpoint_insert("m-1", codec, k, digest, blob))

    candidates = [(4000, mine), (3000, mine), (2000, mine), (1000, mine)]
    assert folds.read("m-1", "zoom:c", candidates) == (2000, mine, big)
    assert folds.read("m-1", "zoom:c", [(1000, mine)]) == (1000, mine, b"one")
    assert folds.read("m-1", "zoom:c", [(3000, mine)]) is None
    assert folds.read("m-2", "zoom:c", candidates) is None
    assert folds.read("m-1", "zoom:c", []) is None


def test_pages_are_read_back_byte_for_byte_by_digest(store: EventStore) -> None:
    folds = FoldStore(store)
    pages = [(f"d{i}", bytes([i]) * (i * 1000) + b"\x00\xff") for i in range(5)]
    folds.execute(*folds.page_inserts("m-1", "zoom:c", pages))

    assert folds.pages("m-1", "zoom:c", ["d1", "d3", "d3", "missing"]) == dict([pages[1], pages[3]])
    assert folds.pages("m-1", "nnt:c", ["d1"]) == {}


def test_a_job_waits_for_the_requests_in_flight_but_not_forever(
    store: EventStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The background thread runs a job once no request is in flight (``idle``), or after
    ``YIELD`` seconds of them: a steady load delays its jobs, it does not starve them."""
    writer, ran, busy = FoldStore(store), [], threading.Event()
    writer.idle = lambda: not busy.is_set()
    monkeypatch.setattr(stored_checkpoints, "YIELD", 30.0)
    busy.set()
    assert writer.submit(lambda: ran.append("after the request"))
    time.sleep(0.1)
    assert ran == []  # still waiting: the request is in flight
    busy.clear()
    writer.flush()
    assert ran == ["after the request"]

    monkeypatch.setattr(stored_checkpoints, "YIELD", 0.05)
    busy.set()  # requests never end
    assert writer.submit(lambda: ran.append("regardless"))
    writer.flush()
    assert ran == ["after the request", "regardless"]
    writer.close()
