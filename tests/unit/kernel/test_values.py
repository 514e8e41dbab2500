"""``updated`` copies a frozen value with changes, like ``dataclasses.replace``."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import UTC, datetime

import pytest

from adjudicator.games.zoom.state import BuzzOutcome, PairOutcome, Verdict
from adjudicator.games.zoom.view import buzz_view
from adjudicator.kernel.values import updated


@dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int = 0
    tags: tuple[str, ...] = field(default_factory=tuple)


def test_updated_equals_replace_and_leaves_the_original_alone() -> None:
    p = Point(1, 2, ("a",))
    q = updated(p, y=5)
    assert q == replace(p, y=5) == Point(1, 5, ("a",))
    assert p == Point(1, 2, ("a",))
    assert updated(p) == p and updated(p) is not p


def test_updated_refuses_a_field_the_value_does_not_have() -> None:
    with pytest.raises(TypeError, match="no field"):
        updated(Point(1), z=3)


def test_updated_refuses_a_class_with_post_init() -> None:
    @dataclass(frozen=True)
    class Checked:
        n: int

        def __post_init__(self) -> None:
            assert self.n >= 0

    with pytest.raises(TypeError, match="__post_init__"):
        updated(Checked(1), n=-1)


def test_a_buzz_is_rendered_once_and_the_memo_takes_no_part_in_equality() -> None:
    at = datetime(2026, 1, 1, tzinfo=UTC)
    buzz = BuzzOutcome(7, "alpha", at, 1, (PairOutcome("A", "a1", Verdict.INCORRECT),))
    first = buzz_view(buzz)
    assert buzz_view(buzz) is first
    assert first["pairs"] == [{"target": "A", "at": "a1", "outcome": "incorrect"}]
    assert buzz == BuzzOutcome(7, "alpha", at, 1, (PairOutcome("A", "a1", Verdict.INCORRECT),))
