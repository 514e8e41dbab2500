"""The fast envelope reading (``events.record_fast``, then the strict one for what it leaves)
reads every line exactly as ``json`` + ``model_validate`` does: the same envelope, or the same
refusal with the same message; and a whole record as a reading of every line the strict way."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.kernel.canonical import plain
from events import StoredEvent
from events.record import Envelope, Record, RecordFormatError, _envelope, _validated, loads
from events.record_fast import FIELDS, LineReader
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
    fast, strict = outcome(_envelope, line), outcome(slow, line)
    assert fast == strict and repr(fast) == repr(strict)  # repr: 1, 1.0 and True differ


def test_every_golden_line_reads_the_same_and_fast() -> None:
    assert len(LINES) > 100
    for line in LINES:
        assert_same(line)
        fast = LineReader().read(line) is not None
        assert fast or not plain(json.loads(line)), line  # a float is the strict reading's


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


def test_the_fast_reading_has_the_envelope_fields() -> None:
    assert set(FIELDS) == set(Envelope.model_fields)


def with_payload(payload: str, line: str = LINES[3]) -> str:
    start = line.index('"payload": ') + len('"payload": ')
    return line[:start] + payload + line[line.index(', "prev_hash"') :]


@pytest.mark.parametrize(
    "payload",
    [
        '{"x": 18446744073709551615, "y": -9223372036854775808}',
        '{"x": 18446744073709551616}',
        '{"x": -9223372036854775809}',
        '{"x": 1, "x": 2.5}',
        '{"x": 2.5, "x": 1}',
        '{"x": ' + "[" * 200 + "]" * 200 + "}",
        '{"x": ' + "[" * 300 + "]" * 300 + "}",
        '{"x": ' + "[" * 2000 + "]" * 2000 + "}",
        '{"x": "\\u0000 \\u007f \\ud83d\\ude00 \u2028 \u0085"}',
        "null",
        "[]",
        '"x"',
    ],
)
def test_big_ints_deep_nesting_and_repeated_keys_read_the_same(payload: str) -> None:
    assert_same(with_payload(payload))


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("seq", 2**64),
        ("seq", -1),
        ("source", None),
        ("source", {"kind": "chat", "at": 1.5}),
        ("source", {"kind": "chat", "id": 2**70}),
        ("source", []),
        ("idempotency_key", "k" * 255),
        ("idempotency_key", "k" * 256),
        ("idempotency_key", "caf\u00e9 \u2028 \u0085"),
        ("idempotency_key", "tab\there"),
        ("idempotency_key", "del\u007f"),
        ("private_to", ["alpha", "beta"]),
        ("private_to", ["al pha"]),
        ("private_to", [""]),
        ("private_to", "alpha"),
        ("salt", "0" * 32),
        ("commitment", "0" * 64),
        ("actor", 'a"\\b'),
        ("type", "x" * 129),
        ("match_id", "00000000-0000-0000-0000-00000000000A"),
        ("prev_hash", ""),  # a reader that has read no line yet knows no hash
        ("prev_hash", "0" * 63 + "\n"),
        ("hash", "0" * 64 + "\n"),
    ],
)
def test_odd_fields_read_the_same(key: str, value: Any) -> None:
    fields = json.loads(LINES[3])
    fields[key] = value
    assert_same(json.dumps(fields, ensure_ascii=False))


def test_repeated_top_level_keys_read_the_same() -> None:
    line = LINES[3]
    assert_same(line[:-1] + ', "seq": 0}')
    assert_same(line[:-1] + ', "seq": "1"}')
    assert_same('{"seq": "1", ' + line[1:])
    assert_same(line[:-1] + ', "hash": "' + "0" * 64 + '"}')


def strictly(text: str) -> tuple[str, Any]:
    """``loads`` with every envelope line read the strict way (no fast reading)."""
    read = LineReader.read
    LineReader.read = lambda self, line: None  # type: ignore[method-assign]
    try:
        return outcome_of(text)
    finally:
        LineReader.read = read  # type: ignore[method-assign]


def outcome_of(text: str) -> tuple[str, Any]:
    try:
        record: Record = loads(text)
    except RecordFormatError as error:
        return "refused", str(error)
    return "read", (repr(record.events), record.withheld)


RECORD_TEXTS = [path.read_text(encoding="utf-8") for path in RECORDS]
values = st.recursive(
    scalars | st.integers(-(2**70), 2**70),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(chars), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=200)
@given(st.sampled_from(RECORD_TEXTS), st.data())
def test_a_record_with_lines_changed_reads_as_the_strict_reading_reads_it(
    text: str, data: st.DataObject
) -> None:
    """A whole record, so that what the reader remembers from line to line is tried too:
    fields of some lines set to values alike or unlike those of other lines."""
    objects = [json.loads(line) for line in text.splitlines()]
    for _ in range(data.draw(st.integers(1, 3))):
        target = data.draw(st.integers(1, len(objects) - 1))
        key = data.draw(st.sampled_from(sorted(objects[target])))
        donor = objects[data.draw(st.integers(0, len(objects) - 1))]
        objects[target][key] = data.draw(
            st.one_of(st.just(donor.get(key)), values, st.sampled_from(list(donor.values())))
        )
    changed = "".join(json.dumps(o, sort_keys=True, ensure_ascii=False) + "\n" for o in objects)
    assert outcome_of(changed) == strictly(changed)


def test_the_golden_records_read_as_the_strict_reading_reads_them() -> None:
    for text in RECORD_TEXTS:
        assert outcome_of(text) == strictly(text)
