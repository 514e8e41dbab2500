"""Reports shared by their readers (``api.service.shared_reports``): one computation at a time
for a subject, reused while its fingerprint holds and it is recent, never otherwise."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from api.service.shared_reports import BoundedMemo, SharedReports


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def counting(value: str = "report") -> tuple[Callable[[], str], list[int]]:
    calls: list[int] = []

    def compute() -> str:
        calls.append(1)
        return f"{value} {len(calls)}"

    return compute, calls


def test_a_recent_report_with_the_same_fingerprint_is_given_again() -> None:
    clock = Clock()
    reports: SharedReports[str] = SharedReports(30, clock=clock)
    compute, calls = counting()

    first = reports.get("t1", (3, 7), compute)
    clock.now += 29.9
    again = reports.get("t1", (3, 7), compute)

    assert (first.report, first.reused, first.began) == ("report 1", False, 100.0)
    assert (again.report, again.reused, again.began) == ("report 1", True, 100.0)
    assert len(calls) == 1


def test_a_changed_fingerprint_another_subject_or_an_old_report_is_computed_again() -> None:
    clock = Clock()
    reports: SharedReports[str] = SharedReports(30, clock=clock)
    compute, calls = counting()
    reports.get("t1", (3, 7), compute)

    assert reports.get("t1", (3, 8), compute).report == "report 2"  # a match moved on
    assert reports.get("t2", (3, 8), compute).report == "report 3"  # another tournament
    clock.now += 30
    aged = reports.get("t1", (3, 8), compute)
    assert (aged.report, aged.reused, aged.began) == ("report 4", False, 130.0)
    assert len(calls) == 4


def test_a_max_age_of_zero_computes_for_every_reader() -> None:
    reports: SharedReports[str] = SharedReports(0, clock=Clock())
    compute, calls = counting()
    for _ in range(3):
        assert not reports.get("t1", 1, compute).reused
    assert len(calls) == 3


def test_readers_that_come_while_a_report_is_computed_wait_for_it_and_share_it() -> None:
    reports: SharedReports[str] = SharedReports(30)
    started, release = threading.Event(), threading.Event()
    calls: list[int] = []

    def slow() -> str:
        calls.append(1)
        started.set()
        assert release.wait(10)
        return "the one report"

    got: list[str] = []
    readers = [
        threading.Thread(target=lambda: got.append(reports.get("t1", 1, slow).report))
        for _ in range(8)
    ]
    readers[0].start()
    assert started.wait(10)
    for reader in readers[1:]:
        reader.start()
    release.set()
    for reader in readers:
        reader.join(10)

    assert got == ["the one report"] * 8
    assert len(calls) == 1


def test_a_failed_computation_is_not_kept() -> None:
    reports: SharedReports[str] = SharedReports(30, clock=Clock())

    def failing() -> str:
        raise RuntimeError("the store went away")

    with pytest.raises(RuntimeError):
        reports.get("t1", 1, failing)
    compute, calls = counting()
    assert reports.get("t1", 1, compute).report == "report 1"
    assert len(calls) == 1


def test_only_the_most_recently_asked_subjects_are_kept() -> None:
    reports: SharedReports[str] = SharedReports(30, capacity=2, clock=Clock())
    compute, calls = counting()
    for subject in ("a", "b", "a", "c"):  # "b" is the least recently asked when "c" comes
        reports.get(subject, 1, compute)
    assert reports.get("a", 1, compute).reused
    assert not reports.get("b", 1, compute).reused
    assert len(calls) == 4


def test_a_bounded_memo_computes_a_value_once_and_forgets_the_least_recently_used() -> None:
    memo: BoundedMemo[str, str] = BoundedMemo(2)
    compute, calls = counting()
    assert memo.get("a", compute) == "report 1"
    assert memo.get("a", compute) == "report 1"
    memo.get("b", compute)
    memo.get("a", compute)  # "b" is now the least recently used
    memo.get("c", compute)
    assert len(memo) == 2
    assert memo.get("a", compute) == "report 1"
    assert memo.get("b", compute) == "report 4"  # forgotten, computed again
    assert len(calls) == 4
