"""Verification pauses the cyclic garbage collector and gives it back as it found it, however
pauses overlap; the verdicts are the same either way."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from api.service.audit import verify_parsed, verify_text
from events.record import loads
from projections.collector import _PausedCollector, collector_paused
from tests.unit.audit.records import GAMES, RECORDS


@pytest.fixture(autouse=True)
def collector_restored() -> Iterator[None]:
    was = gc.isenabled()
    yield
    if was:
        gc.enable()


def test_a_pause_stops_the_collector_and_nested_pauses_resume_it_once() -> None:
    pause = _PausedCollector()
    with pause:
        assert not gc.isenabled()
        with pause:
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_already_stopped_stays_stopped() -> None:
    gc.disable()
    with _PausedCollector():
        pass
    assert not gc.isenabled()


def test_pauses_overlapping_in_threads_resume_it_when_the_last_ends() -> None:
    pause = _PausedCollector()
    entered, release = threading.Event(), threading.Event()

    def other() -> None:
        with pause:
            entered.set()
            release.wait(5)

    thread = threading.Thread(target=other)
    with pause:
        thread.start()
        entered.wait(5)
    assert not gc.isenabled()  # the other thread's pause still holds
    release.set()
    thread.join(5)
    assert gc.isenabled()


def test_an_error_inside_a_pause_still_resumes_the_collector() -> None:
    with pytest.raises(ValueError), _PausedCollector():
        raise ValueError("boom")
    assert gc.isenabled()


def test_verdicts_are_the_same_with_the_collector_paused_or_running() -> None:
    texts = [path.read_text(encoding="utf-8") for path in RECORDS]
    paused = [verify_text(text, GAMES).as_json() for text in texts]
    assert gc.isenabled() and collector_paused._depth == 0
    running = [verify_parsed(loads(text), GAMES).as_json() for text in texts]
    assert running == paused
