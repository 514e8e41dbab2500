"""Canonical JSON through orjson is byte for byte the stdlib form, for every JSON value (and
the stdlib decides, with its own errors, whatever orjson would spell differently)."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.kernel.canonical import canonical_json, iso, plain, stdlib_canonical_json
from events.envelope import _canonical

chars = st.characters(exclude_categories=["Cs"])  # every code point but lone surrogates
scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),  # beyond 64 bits too
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(chars, max_size=12),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.text(chars, max_size=6), inner, max_size=4),
    ),
    max_leaves=20,
)


@settings(max_examples=400)
@given(values)
def test_the_same_bytes_as_the_stdlib(value: Any) -> None:
    assert canonical_json(value) == stdlib_canonical_json(value)


@pytest.mark.parametrize(
    "value",
    [
        1e-05,  # orjson writes 0.00001
        {"a": [1.5e16, 0.1, -0.0, 5e-324]},
        2**64,  # beyond orjson's ints
        -(2**63) - 1,
        {"at": datetime(2026, 3, 1, 18, tzinfo=UTC)},  # orjson would write +00:00
        {"seats": frozenset({"alpha"})},
        {1: "an int key"},
        'é\u2028\x00\x1f\x7f"\\\n\t',
    ],
)
def test_values_orjson_spells_differently_go_through_the_stdlib(value: Any) -> None:
    assert canonical_json(value) == stdlib_canonical_json(value)


def test_nesting_beyond_orjson_depth_is_left_to_the_stdlib() -> None:
    value: Any = 0
    for _ in range(300):
        value = [value]
    assert canonical_json(value) == stdlib_canonical_json(value)


@pytest.mark.parametrize("value", [1.0, [1, 2.5], {"a": {"b": 2**70}}, datetime.now(UTC), {1}])
def test_floats_big_ints_and_other_types_are_not_plain(value: Any) -> None:
    assert not plain(value)


def test_errors_are_the_stdlib_ones() -> None:
    with pytest.raises(UnicodeEncodeError):
        canonical_json({"a": "\ud800"})
    with pytest.raises(TypeError, match="not JSON-serialisable: object"):
        canonical_json({"a": object()})
    with pytest.raises(TypeError):
        canonical_json({"a": 1, 2: 3})  # mixed keys cannot be sorted
    assert json.loads(canonical_json({"b": 1, "a": 2})) == {"a": 2, "b": 1}


@given(st.datetimes(timezones=st.sampled_from([UTC, timezone(timedelta(hours=-3))])))
def test_iso_is_the_utc_isoformat_with_z(moment: datetime) -> None:
    try:
        utc = moment.astimezone(UTC)
    except OverflowError:
        return
    assert iso(moment) == utc.replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


texts = st.one_of(st.none(), st.text(chars, max_size=8), scalars)


@settings(max_examples=300)
@given(
    st.fixed_dictionaries(
        {
            "match_id": texts,
            "seq": st.one_of(st.integers(), st.floats(allow_nan=False)),
            "type": texts,
            "actor": texts,
            "occurred_at": st.just("2026-03-01T18:00:02.000000Z"),
            "recorded_at": st.just("2026-03-01T18:00:03.000000Z"),
            "visibility": st.sampled_from(["public", "private"]),
            "private_to": st.one_of(st.none(), st.lists(texts, max_size=2)),
            "commitment": texts,
            "idempotency_key": texts,
            "prev_hash": texts,
            "payload": values,
        },
        optional={"source": st.one_of(values, st.none())},
    )
)
def test_the_envelope_hash_text_is_the_stdlib_one(envelope: dict[str, Any]) -> None:
    assert _canonical(envelope) == stdlib_canonical_json(envelope)


def test_a_value_that_holds_itself_is_the_stdlib_error() -> None:
    looped: list[Any] = []
    looped.append(looped)
    with pytest.raises(ValueError, match="Circular reference"):
        canonical_json({"a": looped})
