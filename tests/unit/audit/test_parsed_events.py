"""The events a record's fast parse builds (without ``__init__``, their times' text and their
``plain_json`` carried over) are the events the constructor builds, and hash as they would."""

from __future__ import annotations

import json
from dataclasses import fields, replace
from datetime import datetime

from hypothesis import given
from hypothesis import strategies as st

from adjudicator.kernel.canonical import iso, sha256_hex, stdlib_canonical_json
from events import StoredEvent
from events.envelope import _hashed, assembled, hash_of
from events.record import _CANONICAL_TIME, loads
from events.record_fast import LineReader
from tests.unit.audit.records import RECORDS

EVENTS = [event for path in RECORDS for event in loads(path.read_text(encoding="utf-8")).events]
NAMES = [f.name for f in fields(StoredEvent)]
PUBLIC = next(e.seq for e in EVENTS if e.private_to is None and e.type != "match.created")
LINE = next(
    line
    for line in RECORDS[0].read_text(encoding="utf-8").splitlines()[1:]
    if json.loads(line)["seq"] == PUBLIC
)


def test_a_parsed_event_is_the_constructed_one_with_its_times_as_iso_writes_them() -> None:
    assert len(EVENTS) > 100
    for event in EVENTS:
        built = StoredEvent(**{name: getattr(event, name) for name in NAMES})
        assert event == built and repr(event) == repr(built)
        assert event.occurred_iso == iso(event.occurred_at) == built.occurred_iso
        assert event.recorded_iso == iso(event.recorded_at) == built.recorded_iso
        assert event.plain_json == built.plain_json
        assert hash_of(event) == hash_of(built) == event.hash


def test_assembled_takes_every_field_and_a_replaced_time_is_formatted_afresh() -> None:
    event = EVENTS[5]
    values = {name: getattr(event, name) for name in NAMES}
    same = assembled(dict(values))
    assert same == event and same.occurred_iso == iso(event.occurred_at)
    later = replace(same, occurred_at=event.occurred_at.replace(year=2030))
    assert later.occurred_iso == iso(later.occurred_at) != same.occurred_iso


parts = st.tuples(
    st.integers(0, 9999),
    st.integers(0, 19),
    st.integers(0, 39),
    st.integers(0, 29),
    st.integers(0, 69),
    st.integers(0, 69),
    st.integers(0, 999_999),
)


@given(parts)
def test_a_canonical_text_that_parses_is_what_iso_writes(numbers: tuple[int, ...]) -> None:
    """Why the parse may hand its text over: a text in the canonical form that parses names
    one instant, and ``iso`` writes that instant back as the very same text."""
    text = "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}Z".format(*numbers)
    assert _CANONICAL_TIME.fullmatch(text)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return
    assert iso(moment) == text


def test_an_event_with_a_float_is_not_plain_and_hashes_by_the_stdlib() -> None:
    event = replace(EVENTS[5], payload={"x": 1e-05})
    assert not event.plain_json and EVENTS[5].plain_json
    assert hash_of(event) == sha256_hex(stdlib_canonical_json(_hashed(event)))


def test_a_parsed_int_beyond_64_bits_leaves_plain_json_to_the_property() -> None:
    line = json.loads(LINE)
    line["payload"] = {"x": 2**64, "y": [-(2**63)]}
    event, _ = LineReader().read(json.dumps(line)) or (None, None)
    assert event is not None and "plain_json" not in vars(event)
    assert not event.plain_json
    assert hash_of(event) == sha256_hex(stdlib_canonical_json(_hashed(event)))
