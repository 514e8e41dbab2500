"""A record's envelope lines, written field by field (``events.record.envelope_text``, what
verify and export spend most on), are exactly ``json.dumps`` of the envelope's dict with sorted
keys (the format ``docs/transparency.md`` hashes), for any envelope: any text (control
characters, quotes, backslashes, U+2028, astral code points), any JSON payload and source,
private or not, revealed or not."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from events import StoredEvent
from events.record import envelope_line, envelope_text

_text = st.text(max_size=12)
_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | _text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
    max_leaves=12,
)
_times = st.datetimes(  # hypothesis takes naive bounds, then adds the time zone
    min_value=datetime(1970, 1, 1),  # noqa: DTZ001
    max_value=datetime(2200, 1, 1),  # noqa: DTZ001
    timezones=st.just(UTC),
)


@st.composite
def events(draw: st.DrawFn) -> StoredEvent:
    occurred = draw(_times)
    return StoredEvent(
        match_id=draw(_text),
        seq=draw(st.integers(min_value=0, max_value=2**40)),
        position=draw(st.integers(min_value=1, max_value=2**40)),
        type=draw(_text),
        actor=draw(_text),
        occurred_at=occurred,
        recorded_at=occurred + draw(st.timedeltas(timedelta(0), timedelta(days=999))),
        payload=draw(st.dictionaries(_text, _json, max_size=5)),
        private_to=draw(st.none() | st.lists(_text, max_size=3).map(tuple)),
        salt=draw(st.none() | _text),
        commitment=draw(st.none() | _text),
        idempotency_key=draw(st.none() | _text),
        prev_hash=draw(_text),
        hash=draw(_text),
        source=draw(st.none() | st.dictionaries(_text, _json, max_size=3)),
    )


@settings(max_examples=400)
@given(events(), st.booleans())
def test_an_envelope_line_is_the_sorted_json_of_its_dict(event: StoredEvent, reveal: bool) -> None:
    expected = json.dumps(envelope_line(event, reveal), sort_keys=True, ensure_ascii=False)
    assert envelope_text(event, reveal) == expected


def test_the_awkward_characters_are_escaped_as_json_dumps_escapes_them() -> None:
    awkward = 'a"b\\c\n\t\x00\x1f\x7f\u2028\u0085\ud7ff\U0001f600'
    event = StoredEvent(
        awkward, 3, 1, awkward, awkward, datetime(2024, 5, 1, tzinfo=UTC),
        datetime(2024, 5, 1, tzinfo=UTC), {awkward: [awkward, 1.5, None, True]}, (awkward,),
        awkward, awkward, awkward, awkward, awkward, {awkward: awkward},
    )  # fmt: skip
    for reveal in (True, False):
        expected = json.dumps(envelope_line(event, reveal), sort_keys=True, ensure_ascii=False)
        assert envelope_text(event, reveal) == expected
