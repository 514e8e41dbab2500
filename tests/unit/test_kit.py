"""The given/when/then kit fails when a rule does not do what the test says."""

from __future__ import annotations

import pytest

from adjudicator.games.zoom.commands import Buzz, Pair
from tests.unit.games.zoom.conftest import given_round

BUZZ = Buzz(seat="alpha", pairs=[Pair(target="A", at="d3")])
BUZZED = ("zoom.buzzed", {"seat": "alpha", "pairs": [{"target": "A", "at": "d3"}]})


def test_then_records_the_events_it_was_told() -> None:
    table = given_round().when(BUZZ, seat="alpha", t=5).then(events=[BUZZED])
    assert [f.type for f in table.facts] == ["zoom.round_started", "zoom.buzzed"]


@pytest.mark.parametrize(
    "events",
    [[], [BUZZED, BUZZED], [("zoom.buzzed", {"seat": "beta", "pairs": BUZZED[1]["pairs"]})]],
)
def test_then_fails_on_other_events(events: list[tuple[str, dict[str, object]]]) -> None:
    with pytest.raises(AssertionError):
        given_round().when(BUZZ, seat="alpha", t=5).then(events=events)


def test_then_refused_fails_on_an_accepted_command_or_another_code() -> None:
    with pytest.raises(pytest.fail.Exception):
        given_round().when(BUZZ, seat="alpha", t=5).then_refused("locked_out")
    with pytest.raises(AssertionError):
        given_round().when(BUZZ, seat="beta", t=5).then_refused("locked_out")
