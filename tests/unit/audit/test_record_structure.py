"""What a well-formed record must also prove: nothing after ``match.closed``, one close, a
header whose status, game and creation agree with the events, every private fact of a closed
match revealed and matching its commitment."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from api.service.audit import verify_text
from events import StoredEvent
from projections.verify import Check
from tests.unit.audit.records import GAMES, HIDDEN, ZOOM, edited, events_of, rechained


def failed(text: str) -> dict[str, Check]:
    report = verify_text(text, GAMES)
    assert not report.ok
    return {c.name: c for c in report.checks if not c.ok}


def later(event: StoredEvent, seconds: int = 1) -> StoredEvent:
    step = timedelta(seconds=seconds)
    return replace(
        event, occurred_at=event.occurred_at + step, recorded_at=event.recorded_at + step
    )


def test_a_rechained_golden_record_verifies() -> None:
    assert verify_text(rechained(ZOOM, events_of(ZOOM)), GAMES).ok


def test_an_event_after_match_closed_fails_the_refold_naming_its_seq() -> None:
    events = events_of(ZOOM)
    closed, buzz = events[-1], events[-2]
    text = rechained(ZOOM, [*events, later(replace(buzz, recorded_at=closed.recorded_at))])

    failures = failed(text)

    refold = failures["refold"]
    assert (refold.first_bad_seq, set(failures)) == (len(events) + 1, {"refold"})
    assert refold.detail == f"seq {len(events) + 1}: an event recorded after match.closed (seq 78)"


def test_a_second_match_closed_fails_the_refold_naming_its_seq() -> None:
    events = events_of(ZOOM)
    text = rechained(ZOOM, [*events, later(events[-1])])

    refold = failed(text)["refold"]

    assert refold.first_bad_seq == len(events) + 1
    assert refold.detail.startswith(f"seq {len(events) + 1}: a second match.closed")


def test_a_header_saying_closed_without_a_match_closed_fails_the_header() -> None:
    text = rechained(ZOOM, events_of(ZOOM)[:-1], status="closed")
    header = failed(text)["header"]
    assert header.detail == "header says closed, but no match.closed event is recorded"


def test_a_header_saying_open_over_a_match_closed_fails_the_header_naming_it() -> None:
    header = failed(edited(ZOOM, 1, "status", "open"))["header"]
    assert (header.first_bad_seq, header.detail) == (
        78,
        "header says open, but seq 78 is match.closed",
    )


def test_a_header_naming_another_game_or_creation_time_fails_the_header() -> None:
    game = failed(edited(ZOOM, 1, "game", "zombego"))["header"]
    assert game.first_bad_seq == 1 and "match.created (seq 1) says zoom zoom/1" in game.detail
    created = failed(edited(ZOOM, 1, "created_at", "2026-03-01T18:00:03Z"))["header"]
    assert created.detail.startswith("header created_at is not when match.created")


def test_a_revealed_private_fact_that_does_not_match_its_commitment_fails() -> None:
    events = events_of(HIDDEN)
    dealt = next(e for e in events if e.type == "zombego.piece_dealt")
    value = dict(dealt.payload)
    value["value"] = value["value"] + 1
    changed = [replace(e, payload=value) if e.seq == dealt.seq else e for e in events]

    failures = failed(rechained(HIDDEN, changed))

    assert failures["commitments"].first_bad_seq == dealt.seq
