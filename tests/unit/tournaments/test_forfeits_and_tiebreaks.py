"""Forfeits and byes as the Swiss and the tie-breaks count them: a forfeit is a meeting (no
rematch) but gives no seat; a forfeit winner is not due the bye; a double forfeit scores
nothing; direct encounter applies only when every tied player has met every other."""

from __future__ import annotations

from adjudicator.tournaments import Format, Result, Round, Tiebreak, pair_next, standings
from adjudicator.tournaments.records import games
from adjudicator.tournaments.seats import preference
from tests.unit.tournaments.play import field, settings


def test_a_forfeit_is_a_meeting_without_a_seat_and_its_winner_is_not_due_the_bye() -> None:
    players, s = field(5), settings(Format.SWISS, 4)
    r1 = pair_next(s, players, [])
    assert [(p.first, p.second) for p in r1] == [("p1", "p3"), ("p4", "p2"), ("p5", None)]
    # p3 wins board 1 by forfeit; p2 beats p4 over the board.
    rounds = [
        Round(1, r1, {1: Result(1, 1, "p3", 0, 0, forfeit=True), 2: Result(1, 2, "p2", 0, 0)})
    ]
    history = games(players, rounds)
    assert preference(history["p3"]).seats == ()  # the forfeit gave no seat
    r2 = pair_next(s, players, rounds)
    met = {frozenset((p.first, p.second)) for p in r2}
    assert frozenset(("p1", "p3")) not in met  # no rematch after a forfeit
    bye = next(p.first for p in r2 if p.second is None)
    # On 0 points p1 and p4 (ranked 4th and 5th): p4, the lowest, has the bye; p3 (forfeit
    # winner) and p5 (bye) could not have had it anyway.
    assert bye == "p4"


def test_a_double_forfeit_scores_nothing_for_either_player() -> None:
    players, s = field(4), settings(Format.ROUND_ROBIN)
    r1 = pair_next(s, players, [])
    rnd = Round(1, r1, {1: Result(1, 1, None, 0, 0, forfeit=True), 2: Result(1, 2, None, 1, 1)})
    points = {r.player: r.points for r in standings(s, players, [rnd]).rows}
    assert points == {"p1": 0.0, "p4": 0.0, "p2": 0.5, "p3": 0.5}


def test_direct_encounter_applies_only_when_every_tied_player_has_met() -> None:
    players = field(4)
    s = settings(Format.SWISS, 2, Tiebreak.DIRECT_ENCOUNTER)
    r1 = pair_next(s, players, [])  # 1-3, 4-2
    rounds = [Round(1, r1, {1: Result(1, 1, "p3", 0, 0), 2: Result(1, 2, "p2", 0, 0)})]
    r2 = pair_next(s, players, rounds)
    # Round 2 pairs the winners (2, 3) and the losers (1, 4); 2 and 4 win, so 3 and 4 end
    # level on 1 point without having met: direct encounter is 0 for both (and for the
    # untied), and the seed decides.
    winners = {frozenset(("p2", "p3")): "p2", frozenset(("p1", "p4")): "p4"}
    results = {
        p.board: Result(2, p.board, winners[frozenset((p.first, p.second or ""))], 0, 0) for p in r2
    }
    rounds.append(Round(2, r2, results))
    rows = standings(s, players, rounds).rows
    assert [(r.player, r.points, r.tiebreaks[Tiebreak.DIRECT_ENCOUNTER]) for r in rows] == [
        ("p2", 2.0, 0.0),
        ("p3", 1.0, 0.0),
        ("p4", 1.0, 0.0),
        ("p1", 0.0, 0.0),
    ]
