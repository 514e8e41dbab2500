"""The one-step envelope parse reads every line exactly as ``json`` + ``model_validate`` does:
the same envelope, or the same refusal with the same message."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from events import StoredEvent
from events.record import Envelope, RecordFormatError, _envelope, _FastEnvelope, _validated
from tests.unit.audit.records import RECORDS

LINES = [
    line
    for path in RECORDS
    for line in path.read_text(encoding="utf-8").splitlines()[1:]
    if line.strip()
]
chars = st.characters(exclude_categories=[])  # surrogates and control characters included


def outcome(parse: Any, line: str) -> tuple[str, Any]:
    try:
        return "read", parse(7, line)
    except RecordFormatError as error:
        return "refused", str(error)


def slow(number: int, line: str) -> tuple[StoredEvent, bool]:
    envelope = _validated(Envelope, number, line)
    return envelope.stored(), envelope.payload is None


def assert_same(line: str) -> None:
    assert outcome(_envelope, line) == outcome(slow, line)


def test_every_golden_line_reads_the_same() -> None:
    assert len(LINES) > 100
    for line in LINES:
        assert_same(line)


@pytest.mark.parametrize(
    "payload",
    [
        "NaN",
        "-Infinity",
        "1e400",
        "1.5",
        "123456789012345678901234567890",
        '"\\ud800"',
        '"\\udc00\\ud800"',
        '"\\ud83d\\ude00"',
        '"caf\\u00e9 \\u2028"',
        '"raw\x01control"',
        "[1,]",
        "01",
        "{}} ",
    ],
)
def test_odd_json_in_a_payload_reads_the_same(payload: str) -> None:
    line = LINES[3]
    start = line.index('"payload": ') + len('"payload": ')
    end = line.index(', "prev_hash"')
    assert_same(line[:start] + '{"x": ' + payload + "}" + line[end:])


@settings(max_examples=300)
@given(st.sampled_from(LINES), st.data())
def test_a_spliced_line_reads_the_same(line: str, data: st.DataObject) -> None:
    cut = data.draw(st.integers(0, len(line)))
    cut_end = data.draw(st.integers(cut, min(len(line), cut + 8)))
    assert_same(line[:cut] + data.draw(st.text(chars, max_size=4)) + line[cut_end:])


scalars = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(chars))


@settings(max_examples=200)
@given(st.sampled_from(LINES), st.data())
def test_a_changed_field_reads_the_same(line: str, data: st.DataObject) -> None:
    fields = json.loads(line)
    key = data.draw(st.sampled_from(sorted(fields)))
    fields[key] = data.draw(st.one_of(scalars, st.lists(scalars, max_size=2)))
    assert_same(json.dumps(fields, ensure_ascii=data.draw(st.booleans())))


@pytest.mark.parametrize(
    "moment",
    [
        "2026-13-01T18:00:02.000000Z",
        "0000-03-01T18:00:02.000000Z",
        "2026-03-01T18:00:02.000000z",
        "2026-03-01 18:00:02.000000Z",
        "2026-03-01T18:00:02.000000+00:00",
        "2026-03-01T18:00:02Z",
        "2026-03-01T18:00:02.000000Z\n",
        "\uff12026-03-01T18:00:02.000000Z",  # a full-width digit
        "9999-12-31T23:59:59.999999Z",
    ],
)
def test_odd_times_read_the_same(moment: str) -> None:
    fields = json.loads(LINES[3])
    fields["occurred_at"] = moment
    assert_same(json.dumps(fields))


def test_the_fast_model_has_the_envelope_fields() -> None:
    fields = {name: f.is_required() for name, f in Envelope.model_fields.items()}
    assert {name: f.is_required() for name, f in _FastEnvelope.model_fields.items()} == fields
