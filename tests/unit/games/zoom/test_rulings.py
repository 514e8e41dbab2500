"""Rulings on a Zoom match: void, adjust score, end round, amend; known_at before and after."""

from __future__ import annotations

from adjudicator.games.zoom.commands import Buzz, Pair
from adjudicator.games.zoom.state import Phase
from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import Role, Viewer
from tests.kit import Table, at

HOST = Viewer(Role.HOST)


def buzz(seat: str, **pairs: str) -> Buzz:
    return Buzz(seat=seat, pairs=[Pair(target=k, at=v) for k, v in pairs.items()])


def pairs_of(table: Table, t: float, known_seq: int | None = None) -> list[list[str]]:
    view = table.game.view(table.state(t, known_seq), HOST)
    return [[p.get("reason") or p["outcome"] for p in b["pairs"]] for b in view["buzzes"]]


def test_voiding_an_incorrect_buzz_releases_its_lockout_retroactively(table: Table) -> None:
    [wrong] = table.act(buzz("alpha", A="a1"), seat="alpha", t=10)
    table.act(buzz("alpha", A="d3"), seat="alpha", t=20)
    before = table.last_seq
    table.record("ruling.void", {"target_seq": wrong.seq, "reason": "typo in grid"}, t=200)
    assert pairs_of(table, 20, known_seq=before) == [["incorrect"], ["locked_out"]]
    assert table.state(20, known_seq=before).scores == {}
    assert pairs_of(table, 20) == [["correct"]]
    assert table.state(20).scores == {"alpha": 1}
    assert table.folded(20).effects.voided[wrong.seq].startswith("voided by ruling")


def test_a_voided_ruling_has_no_effect(table: Table) -> None:
    [wrong] = table.act(buzz("alpha", A="a1"), seat="alpha", t=10)
    void = table.record("ruling.void", {"target_seq": wrong.seq, "reason": "r"}, t=30)
    table.record("ruling.void", {"target_seq": void.seq, "reason": "changed my mind"}, t=31)
    assert pairs_of(table, 31) == [["incorrect"]]


def test_a_score_adjustment_acts_at_its_game_time(table: Table) -> None:
    table.record(
        "ruling.adjust_score", {"seat": "beta", "delta": 2, "at": iso(at(50)), "reason": "r"}, t=300
    )
    assert table.state(49).scores == {}
    assert table.state(50).scores == {"beta": 2}


def test_ending_a_round_earlier_makes_later_buzzes_round_over(table: Table) -> None:
    table.act(buzz("alpha", A="d3"), seat="alpha", t=40)
    table.record("ruling.end_round", {"at": iso(at(30)), "reason": "fire alarm"}, t=300)
    assert pairs_of(table, 40) == [["round_over"]]
    state = table.state(40)
    assert state.phase is Phase.BETWEEN_ROUNDS
    assert state.scores == {}
    assert state.played[0].end_reason == "ruling"


def test_an_amendment_turns_an_incorrect_pair_correct(table: Table) -> None:
    [graded] = table.act(buzz("alpha", A="a1"), seat="alpha", t=10)
    table.record(
        "ruling.amend", {"target_seq": graded.seq, "outcome": {"A": "correct"}, "reason": "r"}, t=99
    )
    assert pairs_of(table, 10) == [["correct"]]
    assert table.state(10).scores == {"alpha": 1}


def test_undo_voids_everything_after_a_point(table: Table) -> None:
    table.act(buzz("alpha", A="d3"), seat="alpha", t=10)
    table.act(buzz("beta", B="a4"), seat="beta", t=11)
    table.record("ruling.undo", {"to_seq": 2, "reason": "restart"}, t=12)
    assert table.state(12).scores == {"alpha": 1}


def test_a_round_start_made_impossible_by_a_ruling_is_folded_as_void(table: Table) -> None:
    from adjudicator.games.zoom.commands import StartRound

    [last] = table.act(buzz("alpha", A="d3", B="a4", C="d4", D="a1"), seat="alpha", t=10)
    [second] = table.act(StartRound(), t=20)
    table.record(
        "ruling.void", {"target_seq": last.seq, "reason": "buzz from the wrong seat"}, t=30
    )
    state = table.state(25)
    assert state.round is not None and state.round.number == 1
    assert state.voided == ((second.seq, "round_in_progress"),)
    assert table.game.outcome(state, second.seq) == {"void": True, "reason": "round_in_progress"}
    assert table.game.view(state, HOST)["voided"] == [
        {"seq": second.seq, "reason": "round_in_progress"}
    ]
