"""The buzzes of Zoom's view rendered in one pass (``view.buzz_views``, which writes the times
with ``iso_all``) are exactly what rendering each buzz alone gives, whatever its time zone,
microseconds, pairs (reasons, amendments) and chat post; and each is rendered once."""

from __future__ import annotations

import copy
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from adjudicator.games.zoom.state import BuzzOutcome, Outcomes, PairOutcome, Verdict
from adjudicator.games.zoom.view import _render, buzz_view, buzz_views
from adjudicator.kernel.canonical import iso

zones = st.sampled_from([UTC, timezone(timedelta(hours=2)), timezone(timedelta(minutes=-330))])
EPOCH = datetime(2020, 1, 1, tzinfo=UTC)
moments = st.builds(
    lambda us, whole, zone: (
        EPOCH + timedelta(microseconds=us - us % 10**6 if whole else us)
    ).astimezone(zone),
    st.integers(-(10**15), 10**15),
    st.booleans(),
    zones,
)
pairs = st.builds(
    PairOutcome,
    st.sampled_from("ABCDE"),
    st.sampled_from(["a1", "f6", "c3"]),
    st.sampled_from(list(Verdict)),
    st.none() | st.sampled_from(["locked out", "not in this round"]),
    st.booleans(),
)
posts = st.none() | st.fixed_dictionaries(
    {"kind": st.just("discord"), "message_id": st.text("0123456789", min_size=1, max_size=19)}
)
buzzes = st.builds(
    BuzzOutcome,
    st.integers(1, 10**6),
    st.sampled_from(["alpha", "beta"]),
    moments,
    st.none() | st.integers(1, 9),
    st.lists(pairs, max_size=3).map(tuple),
    posts,
)


def chain(outcomes: list[BuzzOutcome]) -> Outcomes | None:
    node: Outcomes | None = None
    for outcome in outcomes:
        node = Outcomes(outcome, node)
    return node


@given(st.lists(buzzes, max_size=20), st.data())
def test_one_pass_renders_each_buzz_as_alone(outcomes: list[BuzzOutcome], data: Any) -> None:
    alone = [_render(b, iso(b.at)) for b in copy.deepcopy(outcomes)]
    some = data.draw(st.lists(st.sampled_from(outcomes), max_size=5)) if outcomes else []
    for buzz in some:  # some already rendered one by one (a live match's view)
        buzz_view(buzz)
    got = buzz_views(chain(outcomes))
    assert got == alone
    assert [list(v) for v in got] == [list(v) for v in alone]  # the keys' order too
    assert all(v is b.rendered for v, b in zip(got, outcomes, strict=True))
    assert buzz_views(chain(outcomes)) == got  # rendered once: the same dicts again
    assert all(a is b for a, b in zip(buzz_views(chain(outcomes)), got, strict=True))
