"""What the typed-events tests of every game and of the rulings share: their Hypothesis
settings, JSON-ish values to record under an event type, and the round-trip check (a recorded
payload decodes to the struct that records it again)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from adjudicator.kernel.payloads import Unreadable, plain
from adjudicator.registry import decode

PROPERTY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
ints = st.integers(-(2**63), 2**63 - 1)
"""What msgspec reads as an int (so does PostgreSQL's bigint)."""


def json_values(texts: st.SearchStrategy[str]) -> st.SearchStrategy[Any]:
    """Any JSON value: what a record made elsewhere may hold under a key."""
    return st.recursive(
        st.none() | st.booleans() | ints | st.floats(allow_nan=False) | texts,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(texts, inner, max_size=3),
        max_leaves=8,
    )


def records_again(event: tuple[str, dict[str, Any]]) -> object:
    """``event``'s payload decoded (never ``Unreadable``), after checking that the struct
    records exactly that payload again."""
    kind, payload = event
    decoded = decode(kind, payload)
    assert not isinstance(decoded, Unreadable), decoded
    assert plain(decoded) == payload
    return decoded
