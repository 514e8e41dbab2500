"""Rules 2-4 and 6 of the Zoom spec: buzzes, pair-by-pair grading, lockouts, ordering."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.games.zoom.commands import Buzz, Pair
from adjudicator.kernel.errors import InvalidCommand, NotPermitted, RuleViolation
from tests.kit import Table, act, given
from tests.unit.games.zoom.conftest import given_round, new_table


def buzz(seat: str, **pairs: str) -> Buzz:
    return Buzz(seat=seat, pairs=[Pair(target=k, at=v) for k, v in pairs.items()])


def outcomes(table: Table, t: float) -> list[list[tuple[Any, ...]]]:
    view = table.game.view(table.state(t), _host())
    return [
        [(p["target"], p["outcome"], p.get("reason")) for p in b["pairs"]] for b in view["buzzes"]
    ]


def _host() -> Any:
    from adjudicator.kernel.decider import Role, Viewer

    return Viewer(Role.HOST)


def last(table: Table, t: float) -> list[tuple[Any, ...]]:
    return outcomes(table, t)[-1]


def test_a_correct_pair_scores_and_closes_the_target_to_both() -> None:
    table = (
        given_round(act(buzz("alpha", A="d3"), seat="alpha", t=5))
        .when(buzz("beta", A="d3"), seat="beta", t=6)
        .then(events=[("zoom.buzzed", {"seat": "beta", "pairs": [{"target": "A", "at": "d3"}]})])
    )
    state = table.state(6)
    assert state.scores == {"alpha": 1}
    assert outcomes(table, 6) == [[("A", "correct", None)], [("A", "ineligible", "already_found")]]


def test_each_pair_of_a_buzz_is_graded_separately(table: Table) -> None:
    table.act(buzz("alpha", A="d3", B="b4", C="D4"), seat="alpha", t=5)
    assert last(table, 5) == [
        ("A", "correct", None),
        ("B", "incorrect", None),
        ("C", "correct", None),
    ]
    assert table.state(5).scores == {"alpha": 2}


def test_a_target_occurring_twice_is_correct_at_any_occurrence(table: Table) -> None:
    table.act(buzz("alpha", D="d1"), seat="alpha", t=1)
    assert last(table, 1) == [("D", "correct", None)]


def test_a_cell_where_the_target_would_not_fit_is_incorrect_not_bad_input(table: Table) -> None:
    table.act(buzz("alpha", A="f3"), seat="alpha", t=1)
    assert last(table, 1) == [("A", "incorrect", None)]


def test_labels_and_coordinates_are_case_insensitive_and_echoed_lower_case() -> None:
    given_round().when(buzz("alpha", a="D3"), seat="alpha", t=1).then(
        events=[("zoom.buzzed", {"seat": "alpha", "pairs": [{"target": "A", "at": "d3"}]})]
    )


def test_an_incorrect_pair_locks_that_target_only_for_that_player(table: Table) -> None:
    table.act(buzz("alpha", A="a1"), seat="alpha", t=10)
    table.act(buzz("alpha", A="d3", B="a4"), seat="alpha", t=20)
    assert last(table, 20) == [("A", "ineligible", "locked_out"), ("B", "correct", None)]


def test_a_lockout_is_over_at_exactly_sixty_seconds(table: Table) -> None:
    table.act(buzz("alpha", A="a1"), seat="alpha", t=10)
    table.act(buzz("alpha", A="d3"), seat="alpha", t=69.999)
    assert last(table, 70) == [("A", "ineligible", "locked_out")]
    assert [lo.target for lo in table.state(69.999).round.lockouts] == ["A"]
    assert table.state(70).round.lockouts == ()
    table.act(buzz("alpha", A="d3"), seat="alpha", t=70)
    assert last(table, 70) == [("A", "correct", None)]


def test_the_opponents_graded_buzz_releases_the_lockout(table: Table) -> None:
    table.act(buzz("alpha", A="a1"), seat="alpha", t=10)
    table.act(buzz("beta", B="a1"), seat="beta", t=11)  # graded (incorrect) -> releases
    table.act(buzz("alpha", A="d3"), seat="alpha", t=12)
    assert last(table, 12) == [("A", "correct", None)]


def test_an_all_ineligible_opponent_buzz_releases_nothing(table: Table) -> None:
    table.act(buzz("beta", C="d4"), seat="beta", t=5)
    table.act(buzz("alpha", A="a1"), seat="alpha", t=10)
    table.act(buzz("beta", C="d4"), seat="beta", t=11)  # already found: not graded
    table.act(buzz("alpha", A="d3"), seat="alpha", t=12)
    assert last(table, 12) == [("A", "ineligible", "locked_out")]


def test_of_two_buzzes_at_one_instant_the_one_recorded_first_wins(table: Table) -> None:
    table.act(buzz("beta", A="d3"), seat="beta", t=5)
    table.act(buzz("alpha", A="d3"), seat="alpha", t=5)
    assert outcomes(table, 5) == [[("A", "correct", None)], [("A", "ineligible", "already_found")]]
    assert table.state(5).scores == {"beta": 1}


@pytest.mark.parametrize(
    ("pairs", "code"),
    [
        ({"A": "d3", "a": "d3"}, "duplicate_target"),
        ({"Q": "a1"}, "unknown_target"),
        ({"A": "3d"}, "malformed_coordinate"),
        ({"A": "d0"}, "malformed_coordinate"),
        ({"A": "g1"}, "outside_grid"),
        ({"A": "a5"}, "outside_grid"),
    ],
)
def test_bad_buzzes_are_refused_whole(pairs: dict[str, str], code: str) -> None:
    command = Buzz(seat="alpha", pairs=[Pair(target=k, at=v) for k, v in pairs.items()])
    error = given_round().when(command, seat="alpha", t=5).then_refused(code)
    assert isinstance(error, InvalidCommand)


def test_a_seat_cannot_buzz_for_the_other_seat() -> None:
    error = given_round().when(buzz("beta", A="d3"), seat="alpha", t=5).then_refused("wrong_seat")
    assert isinstance(error, NotPermitted)


def test_the_host_may_enter_a_buzz_for_a_seat(table: Table) -> None:
    table.act(buzz("beta", A="d3"), t=5)
    assert table.state(5).scores == {"beta": 1}


def test_an_unknown_seat_is_refused() -> None:
    error = given_round().when(buzz("gamma", A="d3"), t=5).then_refused("unknown_seat")
    assert isinstance(error, InvalidCommand)


def test_no_buzz_before_the_first_round() -> None:
    fresh = new_table()
    when = given(fresh.game, fresh.setup).when(buzz("alpha", A="d3"), seat="alpha", t=0)
    assert isinstance(when.then_refused("no_round_in_progress"), RuleViolation)
