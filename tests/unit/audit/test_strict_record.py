"""A record passes verification only in the exact form an exporter writes: every malformed
field fails a ``format`` check naming its line and field, and nothing raises."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from api.service.audit import verify_text
from events.record import loads
from tests.unit.audit.records import (
    GAMES,
    HIDDEN,
    ZOOM,
    edited,
    lines,
    rechained,
    text_of,
    without,
)

ZOOM_SEEDED = 3  # line 3: seq 2, match.seeded, private to the host, revealed
HIDDEN_DEALT = 5  # line 5: seq 4, zombego.piece_dealt, private to white, revealed


def format_failure(text: str) -> str:
    report = verify_text(text, GAMES)
    assert not report.ok
    assert [c.name for c in report.checks] == ["format"], report.as_json()
    return report.checks[0].detail


def test_the_golden_records_still_parse_and_verify() -> None:
    for path in (ZOOM, HIDDEN):
        assert verify_text(path.read_text(encoding="utf-8"), GAMES).ok


def test_a_revealed_private_event_without_its_salt_fails_naming_line_and_field() -> None:
    detail = format_failure(edited(ZOOM, ZOOM_SEEDED, "salt", None))
    assert detail.startswith("line 3: salt: a revealed private payload needs its salt")


def test_a_seq_written_as_a_string_fails_as_the_wrong_type() -> None:
    detail = format_failure(edited(ZOOM, 2, "seq", "1"))
    assert detail == "line 2: seq: Input should be a valid integer"


def test_a_salt_that_is_a_number_is_reported_not_raised() -> None:
    detail = format_failure(edited(HIDDEN, HIDDEN_DEALT, "salt", 12345))
    assert detail.startswith("line 5: salt: Input should be a valid string")


LINE_2_EDITS: list[tuple[str, Any, str]] = [
    ("seq", True, "seq: Input should be a valid integer"),
    ("seq", 1.0, "seq: Input should be a valid integer"),
    ("seq", 0, "seq: Input should be greater than or equal to 1"),
    ("hash", "E" * 64, "hash: String should match pattern"),
    ("hash", "e" * 63, "hash: String should match pattern"),
    ("prev_hash", None, "prev_hash: Input should be a valid string"),
    ("occurred_at", "2026-03-01T18:00:02.000000", "occurred_at: Input should be a UTC time"),
    ("occurred_at", "2026-03-01T18:00:02.000000+00:00", "occurred_at: Input should be a UTC"),
    ("occurred_at", "2026-03-01T18:00:02Z", "occurred_at: Input should be a UTC time"),
    ("occurred_at", "0000-03-01T18:00:02.000000Z", "occurred_at: Input is not a valid time"),
    ("recorded_at", "2026-13-01T18:00:02.000000Z", "recorded_at: Input is not a valid time"),
    ("recorded_at", 1772388003, "recorded_at: Input should be a UTC time"),
    ("private_to", "alpha", "private_to: Input should be a valid list"),
    ("private_to", [1], "private_to.0: Input should be a valid string"),
    ("type", "x" * 129, "type: String should match pattern"),
    ("actor", "", "actor: String should match pattern"),
    ("payload", ["seats"], "payload: Input should be a valid dictionary"),
    ("payload", None, "payload: a public event's payload is never withheld"),
    ("salt", "ab" * 16, "salt: a public event has no salt or commitment"),
    ("idempotency_key", "k" * 256, "idempotency_key: String should match pattern"),
    ("match_id", "389B7C73-248E-4610-879A-9F3F79807C8D", "match_id: String should match"),
    ("position", 1, "position: Extra inputs are not permitted"),
]


@pytest.mark.parametrize(("field", "value", "expected"), LINE_2_EDITS)
def test_a_malformed_envelope_field_fails_on_its_line(
    field: str, value: Any, expected: str
) -> None:
    detail = format_failure(edited(ZOOM, 2, field, value))
    assert detail.startswith(f"line 2: {expected}"), detail


def test_a_missing_envelope_field_fails_on_its_line() -> None:
    assert format_failure(without(ZOOM, 4, "commitment")) == "line 4: commitment: Field required"


@pytest.mark.parametrize(
    ("salt", "expected"),
    [
        ("2697460896D3139A23B86778C10DEDDE", "salt: String should match pattern"),
        ("2697460896d3139a23b86778c10dedd", "salt: String should match pattern"),
        ("2697460896d3139a23b86778c10dedde00", "salt: String should match pattern"),
    ],
)
def test_a_salt_is_32_lower_case_hex_digits(salt: str, expected: str) -> None:
    assert format_failure(edited(ZOOM, ZOOM_SEEDED, "salt", salt)).startswith(f"line 3: {expected}")


def test_a_private_event_shows_payload_and_salt_together_and_keeps_its_commitment() -> None:
    withheld_payload = format_failure(edited(ZOOM, ZOOM_SEEDED, "payload", None))
    assert withheld_payload == "line 3: payload: withheld, yet its salt is shown"
    no_commitment = format_failure(edited(ZOOM, ZOOM_SEEDED, "commitment", None))
    assert no_commitment == "line 3: commitment: a private event carries a commitment"


@pytest.mark.parametrize(
    ("field", "value", "expected"),
    [
        ("event_count", "78", "event_count: Input should be a valid integer"),
        ("chain_head", "0" * 65, "chain_head: String should match pattern"),
        ("status", "finished", "status: Input should be 'open' or 'closed'"),
        ("created_at", "yesterday", "created_at: Input should be an RFC 3339 time"),
        ("exported_at", "2026-03-01T18:02:37", "exported_at: Input should be an RFC 3339"),
        ("signed_by", "me", "signed_by: Extra inputs are not permitted"),
    ],
)
def test_a_malformed_header_fails_on_line_1(field: str, value: Any, expected: str) -> None:
    assert format_failure(edited(ZOOM, 1, field, value)).startswith(f"line 1: {expected}")


def test_header_times_may_be_any_rfc_3339_time_with_a_zone() -> None:
    objects = lines(ZOOM)
    objects[0]["exported_at"] = "2026-03-01t19:02:37.5+01:00"
    assert verify_text(text_of(objects), GAMES).ok


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ('"n": NaN', "NaN is not a JSON number"),
        ('"n": 1e400', "1e400 is out of range"),
        ('"n": "\\ud800"', "a lone surrogate"),
        ('"n": ' + "[" * 100_000 + "]" * 100_000, "not JSON"),
        ('"n": ' + "9" * 5000, "not JSON"),
    ],
)
def test_json_that_cannot_be_hashed_is_a_format_error(raw: str, expected: str) -> None:
    text = ZOOM.read_text(encoding="utf-8").splitlines(keepends=True)
    text[3] = text[3].replace('"payload": {', '"payload": {' + raw + ", ", 1)
    detail = format_failure("".join(text))
    assert detail.startswith("line 4: ") and expected in detail, detail


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85", "\x0b", "\x1c"])
def test_a_payload_holding_a_unicode_line_separator_reads_back_as_written(
    separator: str,
) -> None:
    """``dumps`` writes text unescaped; only ``\\n`` ends a line (``str.splitlines`` also
    breaks at these, which cut such a record in two)."""
    events = loads(ZOOM.read_text(encoding="utf-8")).events
    payload = {**events[3].payload, "note": f"one{separator}two"}
    changed = [*events[:3], replace(events[3], payload=payload), *events[4:]]
    record = loads(rechained(ZOOM, changed))
    assert record.events[3].payload == payload
    assert len(record.events) == len(events)


@pytest.mark.parametrize("prefix", ["\x85", "\u2028", "\x0c"])
def test_a_character_before_the_header_is_a_format_error(prefix: str) -> None:
    text = ZOOM.read_text(encoding="utf-8")
    assert format_failure(prefix + text).startswith("line 1:")


def test_a_record_with_crlf_line_ends_reads_as_with_lf() -> None:
    text = ZOOM.read_text(encoding="utf-8")
    assert loads(text.replace("\n", "\r\n")) == loads(text)
