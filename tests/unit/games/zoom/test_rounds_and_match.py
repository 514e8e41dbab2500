"""Rules 1, 5, 7, Advantage and Priority, end of match, generated rounds."""

from __future__ import annotations

import pytest

from adjudicator.games.zoom.commands import Buzz, DeclarePriority, Pair, StartRound, SuppliedRound
from adjudicator.games.zoom.grid import Board, Shape, generate
from adjudicator.games.zoom.state import Phase
from adjudicator.kernel.decider import Role, Viewer
from adjudicator.kernel.errors import InvalidCommand, NotPermitted, RuleViolation
from tests.kit import Table
from tests.unit.games.zoom.conftest import new_table, start

HOST = Viewer(Role.HOST)


def buzz(seat: str, **pairs: str) -> Buzz:
    return Buzz(seat=seat, pairs=[Pair(target=k, at=v) for k, v in pairs.items()])


def find_all(table: Table, seat: str, t: float) -> None:
    table.act(buzz(seat, A="d3", B="a4", C="d4", D="a1"), seat=seat, t=t)


def test_the_round_ends_when_every_target_is_found(table: Table) -> None:
    find_all(table, "alpha", 30)
    state = table.state(30)
    assert state.phase is Phase.BETWEEN_ROUNDS
    assert state.played[0].end_reason == "all_found"
    assert state.played[0].ended_at == table.facts[-1].at


def test_the_round_ends_120_seconds_after_its_start_without_a_correct_buzz(table: Table) -> None:
    assert table.state(119.999).phase is Phase.IN_ROUND
    state = table.state(120)
    assert state.phase is Phase.BETWEEN_ROUNDS
    assert state.played[0].end_reason == "round_clock"
    assert state.played[0].void_targets == ("A", "B", "C", "D")


def test_each_correct_buzz_restarts_the_round_clock(table: Table) -> None:
    table.act(buzz("alpha", A="d3"), seat="alpha", t=100)
    table.act(buzz("beta", B="a1"), seat="beta", t=150)  # incorrect: no restart
    assert table.state(219.999).phase is Phase.IN_ROUND
    assert table.state(220).phase is Phase.BETWEEN_ROUNDS
    assert table.state(220).played[0].void_targets == ("B", "C", "D")


def test_a_buzz_at_the_round_deadline_is_refused(table: Table) -> None:
    with pytest.raises(RuleViolation) as caught:
        table.act(buzz("alpha", A="d3"), seat="alpha", t=120)
    assert caught.value.code == "no_round_in_progress"


def test_rounds_are_started_by_the_host_in_order(table: Table) -> None:
    with pytest.raises(RuleViolation, match="already in progress"):
        start(table, t=1)
    with pytest.raises(NotPermitted):
        table.act(StartRound(), seat="alpha", t=200)
    with pytest.raises(RuleViolation) as caught:
        table.act(StartRound(round=3), t=200)
    assert caught.value.code == "wrong_round"
    table.act(StartRound(round=2), t=200)  # generated from the seed
    assert table.state(200).round.number == 2
    assert len(table.state(200).round.board.targets) == 5


def test_a_supplied_target_absent_from_its_grid_is_refused() -> None:
    table = new_table()
    bad = SuppliedRound(grid=["RG", "GR"], targets={"A": ["BB"]})
    with pytest.raises(InvalidCommand) as caught:
        table.act(StartRound(supplied=bad), t=0)
    assert caught.value.code == "target_absent"


def test_after_the_last_round_the_match_is_over_and_buzzes_are_refused() -> None:
    table = new_table(rounds=1)
    start(table)
    find_all(table, "alpha", 5)
    assert table.state(5).phase is Phase.FINISHED
    with pytest.raises(RuleViolation, match="match is over"):
        table.act(buzz("beta", A="d3"), seat="beta", t=6)
    with pytest.raises(RuleViolation) as caught:
        table.act(StartRound(), t=7)
    assert caught.value.code == "match_over"


@pytest.mark.parametrize(
    ("advantage", "alpha_finds", "beta_finds", "expected"),
    [
        (None, 3, 1, {"winner": "alpha", "reason": "points"}),
        ("beta", 3, 1, {"winner": "alpha", "reason": "points"}),
        ("beta", 2, 2, {"winner": "beta", "reason": "advantage_tiebreak"}),
        (None, 2, 2, {"winner": None, "reason": "draw"}),
    ],
)
def test_the_result_names_its_reason(
    advantage: str | None, alpha_finds: int, beta_finds: int, expected: dict[str, object]
) -> None:
    table = new_table(rounds=1, advantage=advantage)
    start(table)
    answers = [("A", "d3"), ("B", "a4"), ("C", "d4"), ("D", "a1")]
    for i, (label, cell) in enumerate(answers[: alpha_finds + beta_finds]):
        seat = "alpha" if i < alpha_finds else "beta"
        table.act(Buzz(seat=seat, pairs=[Pair(target=label, at=cell)]), seat=seat, t=i + 1)
    scores = {"alpha": alpha_finds, "beta": beta_finds}
    assert table.game.view(table.state(60), HOST)["result"] == {**expected, "scores": scores}


def priority_table() -> Table:
    table = new_table(advantage="alpha")
    table.act(DeclarePriority(seat="alpha"), seat="alpha", t=0)
    start(table, t=1)
    return table


def test_only_the_holder_declares_priority_once_between_rounds() -> None:
    table = new_table(advantage="alpha")
    with pytest.raises(RuleViolation) as caught:
        table.act(DeclarePriority(seat="beta"), seat="beta", t=0)
    assert caught.value.code == "not_advantage_holder"
    start(table)
    with pytest.raises(RuleViolation) as caught:
        table.act(DeclarePriority(seat="alpha"), seat="alpha", t=1)
    assert caught.value.code == "round_in_progress"
    table2 = priority_table()
    find_all(table2, "alpha", 5)
    with pytest.raises(RuleViolation) as caught:
        table2.act(DeclarePriority(seat="alpha"), seat="alpha", t=6)
    assert caught.value.code == "priority_already_used"


def test_under_priority_the_opponent_is_ineligible_for_20_seconds() -> None:
    table = priority_table()  # round starts at t=1
    table.act(buzz("beta", A="d3"), seat="beta", t=20.999)
    table.act(buzz("beta", A="d3"), seat="beta", t=21)
    view = table.game.view(table.state(21), HOST)
    assert [b["pairs"][0]["outcome"] for b in view["buzzes"]] == ["ineligible", "correct"]
    assert view["buzzes"][0]["pairs"][0]["reason"] == "priority"


def test_priority_ends_when_the_holder_makes_a_graded_buzz() -> None:
    table = priority_table()
    table.act(buzz("alpha", A="a1"), seat="alpha", t=3)  # incorrect, still graded
    table.act(buzz("beta", A="d3"), seat="beta", t=4)
    view = table.game.view(table.state(4), HOST)
    assert view["buzzes"][-1]["pairs"][0]["outcome"] == "correct"
    assert table.state(2).round.priority_holder == "alpha"
    assert table.state(4).round.priority_holder is None


def test_priority_applies_to_the_next_round_only() -> None:
    table = priority_table()
    find_all(table, "alpha", 5)
    table.act(StartRound(supplied=SuppliedRound(grid=["RG"], targets={"A": ["G"]})), t=10)
    table.act(buzz("beta", A="b1"), seat="beta", t=11)
    assert table.state(11).scores["beta"] == 1


def test_generated_rounds_are_reproducible_and_every_target_occurs_exactly_once() -> None:
    shape = Shape(60, 60, 3, 3, 5, ("R", "G", "B", "Y", "K", "W"))
    for number in range(1, 12):
        grid, targets = generate(1234, number, shape)
        assert (grid, targets) == generate(1234, number, shape)
        board = Board.build(grid, targets)
        assert all(len(list(board.occurrences(label))) == 1 for label in targets)
    assert generate(1234, 1, shape) != generate(1234, 2, shape)
    assert generate(1234, 1, shape) != generate(1235, 1, shape)


def test_a_small_alphabet_still_gives_unique_targets() -> None:
    shape = Shape(20, 20, 3, 3, 5, ("R", "G"))
    grid, targets = generate(99, 1, shape)
    board = Board.build(grid, targets)
    assert all(len(list(board.occurrences(label))) == 1 for label in targets)


def test_the_last_round_stays_in_the_state_with_its_end_and_why(table: Table) -> None:
    table.act(buzz("alpha", A="a1"), t=5, seat="alpha")  # wrong: alpha locked out of A
    state = table.state(200)
    assert state.phase is Phase.BETWEEN_ROUNDS
    shown = table.game.view(state, Viewer(Role.SPECTATOR))["round"]
    assert shown["in_progress"] is False and shown["end_reason"] == "round_clock"
    assert shown["ended_at"] is not None and shown["number"] == 1
    assert [lo["target"] for lo in shown["lockouts"]] == ["A"]
