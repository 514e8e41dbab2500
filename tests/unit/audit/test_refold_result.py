"""The refold check compares results key by key: every key the recorded result has must equal
the re-folded one's. So a record closed before results carried ``scores`` still verifies, while
a changed winner, reason or score fails (each record below is re-chained, so only the refold
check can catch it)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from adjudicator.kernel.fold import fold
from api.service.audit import verify_text
from events import StoredEvent
from projections.facts import to_facts
from projections.record import setup_from_events
from projections.verify import Check, same_result
from tests.unit.audit.records import (
    GAMES,
    GOLDEN,
    HIDDEN,
    RECORDS,
    ZOOM,
    events_of,
    lines,
    rechained,
)

OLD = [ZOOM, HIDDEN]  # recorded before results carried scores


def refolded(path: Path) -> dict[str, Any]:
    """The result the record's events fold to under the current rules."""
    events = events_of(path)
    recorded = setup_from_events(events, ())
    game = GAMES[recorded.game]
    state = fold(game, recorded.setup, to_facts(events[:-1]), events[-1].occurred_at).state
    result = game.result(state)
    assert result is not None
    return result


def closed_with(path: Path, result: dict[str, Any] | None) -> str:
    """The record, re-chained, with ``result`` recorded in its ``match.closed``."""
    events = events_of(path)
    closed = events[-1]
    payload = {**closed.payload, "result": result}
    return rechained(path, [*events[:-1], replace(closed, payload=payload)])


def refold_check(text: str) -> Check:
    report = verify_text(text, GAMES)
    checks = {c.name: c for c in report.checks}
    assert all(c.ok for name, c in checks.items() if name != "refold"), report.as_json()
    return checks["refold"]


@pytest.mark.parametrize("path", OLD, ids=lambda p: p.parent.name)
def test_a_record_closed_before_results_had_scores_still_verifies(path: Path) -> None:
    recorded = lines(path)[-1]["payload"]["result"]
    assert "scores" not in recorded and "scores" in refolded(path)

    assert verify_text(path.read_text(encoding="utf-8"), GAMES).ok


def test_a_recorded_result_without_a_key_the_rules_now_fold_still_verifies() -> None:
    nnt = GOLDEN / "no_not_that" / "nnt-16-rounds.match.jsonl"
    recorded = dict(events_of(nnt)[-1].payload["result"])
    del recorded["scores"]

    assert refold_check(closed_with(nnt, recorded)).ok


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.parent.name)
def test_a_record_closed_with_the_scores_verifies(path: Path) -> None:
    assert refold_check(closed_with(path, refolded(path))).ok


@pytest.mark.parametrize("path", OLD, ids=lambda p: p.parent.name)
def test_an_old_record_with_a_tampered_winner_fails_the_refold(path: Path) -> None:
    recorded = lines(path)[-1]["payload"]["result"]
    seats = set(events_of(path)[0].payload["seats"])
    other = (seats - {recorded["winner"]}).pop()

    refold = refold_check(closed_with(path, {**recorded, "winner": other}))

    assert not refold.ok and "differs from the recorded" in refold.detail


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.parent.name)
def test_a_tampered_score_fails_the_refold(path: Path) -> None:
    result = refolded(path)
    seat = next(iter(result["scores"]))
    scores = {**result["scores"], seat: result["scores"][seat] + 1}

    assert not refold_check(closed_with(path, {**result, "scores": scores})).ok


@pytest.mark.parametrize(
    "recorded",
    [
        None,
        {},
        {"reason": "points"},
        {"winner": "alpha"},
        {"winner": "alpha", "reason": "points", "margin": 3},
        ["alpha", "points"],
    ],
    ids=["none", "empty", "no winner", "no reason", "unknown key", "not an object"],
)
def test_a_recorded_result_missing_winner_or_reason_or_with_a_foreign_key_fails(
    recorded: Any,
) -> None:
    assert not refold_check(closed_with(ZOOM, recorded)).ok


def test_results_agree_key_by_key() -> None:
    folded = {"winner": "a", "reason": "points", "scores": {"a": 2, "b": 1}}
    assert same_result({"winner": "a", "reason": "points"}, folded)
    assert same_result(dict(folded), folded)
    assert same_result(None, None)
    assert not same_result({"winner": "b", "reason": "points"}, folded)
    assert not same_result({"winner": "a", "reason": "draw"}, folded)
    assert not same_result({**folded, "scores": {"a": 2, "b": 2}}, folded)
    assert not same_result(None, folded)
    assert not same_result({"winner": None, "reason": "draw"}, None)


def test_the_refold_names_both_results_when_they_differ() -> None:
    events: list[StoredEvent] = events_of(ZOOM)
    recorded = events[-1].payload["result"]

    refold = refold_check(closed_with(ZOOM, {**recorded, "reason": "draw"}))

    assert refold.first_bad_seq == len(events)
    assert "'reason': 'draw'" in refold.detail and "'reason': 'points'" in refold.detail
    assert "'scores'" in refold.detail
