"""``updated`` and ``replacer`` copy a frozen value with changes, like ``dataclasses.replace``;
``fast_init`` builds one as the dataclass's own ``__init__`` does."""

from __future__ import annotations

from dataclasses import MISSING, FrozenInstanceError, dataclass, field, fields, replace
from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.games.zoom.state import BuzzOutcome, PairOutcome, Verdict
from adjudicator.games.zoom.view import buzz_view
from adjudicator.kernel.values import fast_init, replacer, updated


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


def test_a_replacer_sets_its_fields_in_the_order_named() -> None:
    p = Point(1, 2, ("a",))
    assert replacer(Point, "tags", "x")(p, ("b",), 7) == Point(7, 2, ("b",))
    assert replacer(Point, "tags", "x") is replacer(Point, "tags", "x")
    with pytest.raises(TypeError, match="named twice"):
        replacer(Point, "x", "x")


@fast_init
@dataclass(frozen=True, slots=True)
class FastPoint:
    x: int
    y: int = 0
    tags: tuple[str, ...] = field(default_factory=tuple)
    seen: dict[str, int] = field(default_factory=dict)


def test_fast_init_builds_what_the_dataclass_init_builds() -> None:
    assert FastPoint(1) == FastPoint(1, 0, (), {})
    assert FastPoint(1, tags=("a",), y=2) == FastPoint(x=1, y=2, tags=("a",), seen={})
    assert FastPoint(1).seen is not FastPoint(1).seen  # a fresh default per instance
    assert repr(FastPoint(1)) == "FastPoint(x=1, y=0, tags=(), seen={})"
    assert FastPoint.__init__.__qualname__ == "FastPoint.__init__"
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'x'"):
        FastPoint()  # type: ignore[call-arg]
    with pytest.raises(FrozenInstanceError):
        FastPoint(1).x = 2  # type: ignore[misc]
    assert replace(FastPoint(1), y=3) == updated(FastPoint(1), y=3) == FastPoint(1, 3)


def test_fast_init_refuses_what_it_cannot_build() -> None:
    @dataclass(frozen=True)
    class Unslotted:
        n: int

    @dataclass(frozen=True, slots=True, kw_only=True)
    class KeywordOnly:
        n: int

    for cls in (Unslotted, KeywordOnly):
        with pytest.raises(TypeError, match=r"slotted|keyword-only"):
            fast_init(cls)


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


def _value_classes() -> list[type]:
    """Every frozen, slotted dataclass the folds copy with ``updated`` or build with
    ``fast_init``: the state values of Zoom and No, Not That! and the kernel's."""
    from adjudicator.games.no_not_that import state as nnt_state
    from adjudicator.games.zoom import state as zoom_state
    from adjudicator.kernel import decider

    found = []
    for module in (zoom_state, nnt_state, decider):
        for value in vars(module).values():
            if isinstance(value, type) and value.__module__ == module.__name__:
                params = getattr(value, "__dataclass_params__", None)
                if params is not None and params.frozen and "__slots__" in vars(value):
                    found.append(value)
    return found


VALUE_CLASSES = _value_classes()
anything = st.one_of(st.none(), st.integers(), st.text(max_size=3), st.tuples(st.integers()))


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_updated_is_replace_and_fast_init_is_the_dataclass_init_for_every_fold_value(
    data: st.DataObject,
) -> None:
    """For any of the folds' value classes, any field values and any changes: ``updated``
    makes what ``dataclasses.replace`` makes (every field, compared or not) and leaves the
    original alone; a class's ``__init__`` (``fast_init``'s where it has one) sets each field
    to the value given, or its default, or a fresh default from its factory."""
    cls = data.draw(st.sampled_from(VALUE_CLASSES))
    every = fields(cls)
    given = {f.name: data.draw(anything) for f in every}
    omitted = {
        f.name
        for f in every
        if (f.default is not MISSING or f.default_factory is not MISSING)
        and data.draw(st.booleans())
    }
    value = cls(**{k: v for k, v in given.items() if k not in omitted})
    for f in every:
        want = given[f.name]
        if f.name in omitted:
            want = f.default if f.default is not MISSING else f.default_factory()  # type: ignore[operator]
        assert getattr(value, f.name) == want
    names = data.draw(st.lists(st.sampled_from([f.name for f in every]), unique=True))
    changes = {name: data.draw(anything) for name in names}
    before = {f.name: getattr(value, f.name) for f in every}
    copy, reference = updated(value, **changes), replace(value, **changes)
    assert type(copy) is cls
    assert {f.name: getattr(copy, f.name) for f in every} == {
        f.name: getattr(reference, f.name) for f in every
    }
    assert {f.name: getattr(value, f.name) for f in every} == before
