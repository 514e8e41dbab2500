"""A player withdrawn from an elimination is out: ranked as eliminated in the first round paired
after their last match (as if they had lost it by forfeit), and below every player still in
while no round has been paired since. They had ranked as if still in (second place for a
player who withdrew in round 2 of a six-player bracket, above the finalist)."""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.tournaments import Format, pair_next, standings
from tests.unit.tournaments.play import field, higher_seed_wins, play, results, settings


def after_round(n: int, who: str) -> Callable[[int], frozenset[str]]:
    """``who`` withdrawn before the rounds after round ``n`` are paired."""
    return lambda number: frozenset({who}) if number > n else frozenset()


def test_a_player_withdrawn_from_a_single_elimination_is_out_in_the_round_they_missed() -> None:
    players, s = field(6), settings(Format.SINGLE_ELIMINATION)
    rounds = play(s, players, higher_seed_wins, after_round(1, "p1"))  # p1 had a bye in round 1
    assert {(p.first, p.second) for p in rounds[1].pairings} == {("p4", None), ("p2", "p3")}
    table = standings(s, players, rounds, frozenset({"p1"}))
    assert table.champion == "p2"
    order = [row.player for row in table.rows]
    assert order[:2] == ["p2", "p4"]  # the champion, then the finalist
    # p1 is out in round 2 beside p3, who lost it: level on points (a bye, a win), seed first
    assert order[2:4] == ["p1", "p3"]
    assert [row.rank for row in table.rows if row.player == "p1"] == [3]


def test_a_player_withdrawn_from_a_double_elimination_ranks_below_the_finalist() -> None:
    players, s = field(4), settings(Format.DOUBLE_ELIMINATION)
    rounds = play(s, players, higher_seed_wins, after_round(1, "p2"))
    table = standings(s, players, rounds, frozenset({"p2"}))
    order = [row.player for row in table.rows]
    final = rounds[-1].pairings[0]
    finalist = final.second if table.champion == final.first else final.first
    assert order[:2] == [table.champion, finalist]
    assert order.index("p2") >= 2


def test_a_withdrawn_player_ranks_below_every_player_still_in_until_the_next_round() -> None:
    players, s = field(4), settings(Format.SINGLE_ELIMINATION)
    first = results(1, pair_next(s, players, []), higher_seed_wins)  # p1 and p2 go through
    table = standings(s, players, [first], frozenset({"p1"}))
    assert [row.player for row in table.rows][:2] == ["p2", "p1"]
    assert not table.finished


def test_the_winners_finalist_who_withdraws_while_waiting_is_out_at_the_grand_final() -> None:
    players, s = field(4), settings(Format.DOUBLE_ELIMINATION)
    # p1 wins the winners' bracket in round 2, then withdraws while the losers' side plays on
    rounds = play(s, players, higher_seed_wins, after_round(2, "p1"))
    assert [(p.first, p.second) for p in rounds[3].pairings] == [("p2", None)]  # the final
    table = standings(s, players, rounds, frozenset({"p1"}))
    assert table.champion == "p2"
    # out by walkover in the grand final and its reset: ahead of p3 and p4, out in rounds 3, 2
    assert [row.player for row in table.rows] == ["p2", "p1", "p3", "p4"]


def test_two_players_who_would_meet_both_withdrawn_leave_nobody_not_a_broken_bracket() -> None:
    """p1 and p4 would meet in round 2; both withdraw after round 1: round 2 pairs only p2 and
    p3, and the bracket replays on (it refused the recorded round 2 as not pairing p1 with p4,
    so no round could be paired, nor the standings read, ever again)."""
    players, s = field(8), settings(Format.SINGLE_ELIMINATION)
    gone = frozenset({"p1", "p4"})
    rounds = play(s, players, higher_seed_wins, lambda n: gone if n > 1 else frozenset())
    assert [(p.first, p.second) for p in rounds[1].pairings] == [("p2", "p3")]
    assert [(p.first, p.second) for p in rounds[2].pairings] == [("p2", None)]  # the final
    table = standings(s, players, rounds, gone)
    assert table.finished and table.champion == "p2"
    order = [row.player for row in table.rows]
    assert order[0] == "p2"
    assert set(order[1:4]) == {"p1", "p3", "p4"}  # out in round 2: lost it, or missed it
    assert set(order[4:]) == {"p5", "p6", "p7", "p8"}
