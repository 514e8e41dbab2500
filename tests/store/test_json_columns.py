"""The JSON columns an event's hash covers (payload, source) are read as text and decoded by
``json_read``, which also says whether the value is plain JSON: it must read every text as
``json.loads`` does, never call a value plain that is not, and the events read must hash as
they were stored whatever their payload holds."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.kernel.canonical import plain
from events import EventStore, NewEvent, verify_chain
from events.engine import json_loads, json_read
from events.envelope import _hashed, _plain
from tests.store.support import GAME_TIME, new_match

TRICKY = (
    '{"a": [1, 2.5, "x", null, true]}',
    '{"big": 123456789012345678901234567890}',
    "18446744073709551616",
    "18446744073709551615",
    "-9223372036854775809",
    "1234567890123456789",
    "12345678901234567890.5",
    "-0",
    "-0.0",
    "1E2",
    '{"n": NaN}',
    '{"n": -Infinity}',
    '{"s": "\\ud800"}',
    '{"s": "\\ud83d\\ude00 \\u2028 \\u0000"}',
    '{"k": 1, "k": 2}',
    "1e400",
    " [ ] ",
    "[" * 300 + "]" * 300,
)

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


def _same_as_json(text: str) -> None:
    value, known_plain = json_read(text)
    expected = json.loads(text)
    assert repr(value) == repr(expected), text  # NaN != NaN: compare them spelled out
    assert type(value) is type(expected)
    if known_plain:
        assert plain(value), text
    for given_as in (text, text.encode("utf-8", "surrogatepass")):
        loaded = json_loads(given_as)  # every other JSON column (setups, tournament events)
        assert (repr(loaded), type(loaded)) == (repr(expected), type(expected)), text


def test_tricky_texts_read_as_json_reads_them_and_only_plain_ones_are_called_plain() -> None:
    for text in TRICKY:
        _same_as_json(text)
    assert json_read(None) == (None, True)
    assert json_read('{"seat": "north", "pairs": [{"target": "A", "at": "a1"}]}')[1]
    assert not json_read('{"score": 1.5}')[1]
    assert not json_read('{"id": 18446744073709551616}')[1]  # beyond orjson's ints


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_any_json_text_reads_as_json_reads_it(value: Any) -> None:
    _same_as_json(json.dumps(value))
    _same_as_json(json.dumps(value, ensure_ascii=False, indent=1))


def test_events_read_back_hash_as_stored_whatever_their_payload_holds(store: EventStore) -> None:
    payloads: list[dict[str, Any]] = [
        {"n": 1, "pairs": [{"target": "A", "at": "a1"}]},
        {"score": 1.5, "tiny": 1e-05},
        {"big": 2**70, "small": -(2**64)},
        {"deep": json.loads("[" * 300 + "]" * 300)},
        {"text": "\u2028 \u00e9 \U0001f600"},
    ]
    match_id = new_match(store)
    news = [
        NewEvent("ruling.note", "host", GAME_TIME, payload, source={"post": str(n), "w": 0.5})
        if n == 2
        else NewEvent("ruling.note", "host", GAME_TIME, payload)
        for n, payload in enumerate(payloads)
    ]
    store.append(match_id, 0, news)

    stored = store.read(match_id)

    assert [event.payload for event in stored] == payloads
    assert verify_chain(stored).ok
    assert stored[0].__dict__.get("plain_json") is True  # known from the read: not walked
    for event in stored:
        assert event.plain_json == _plain(_hashed(event))
