"""``plain`` is exactly the recursive definition it documents."""

from __future__ import annotations

from enum import IntEnum, StrEnum
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from adjudicator.kernel.canonical import plain


class Level(IntEnum):
    LOW = 1


class Colour(StrEnum):
    RED = "red"


class Text(str):
    pass


def reference(value: Any) -> bool:
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return bool(-(2**63) <= value <= 2**64 - 1)
    if kind is dict:
        return all(reference(v) for v in value.values())
    if kind is list or kind is tuple:
        return all(reference(v) for v in value)
    return False


leaves = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=-(2**63), max_value=2**64 - 1),
    st.floats(),
    st.text(max_size=3),
    st.sampled_from([Level.LOW, Colour.RED, Text("x"), b"x", frozenset(), object()]),
)
values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.lists(inner, max_size=4).map(tuple),
        st.dictionaries(st.text(max_size=3), inner, max_size=4),
    ),
    max_leaves=25,
)


@given(values)
def test_plain_is_the_recursive_definition(value: Any) -> None:
    assert plain(value) is reference(value)


def test_the_limits_of_orjson_ints() -> None:
    assert plain([2**64 - 1, -(2**63)]) and not plain([2**64]) and not plain({"a": -(2**63) - 1})
    assert plain({"a": [True, None, "x", (1, [])]}) and not plain({"a": [(1.0,)]})
