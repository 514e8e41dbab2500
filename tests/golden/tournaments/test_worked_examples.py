"""Golden: Swiss pairings and tie-breaks worked by hand, the reasoning beside each.

The Dutch reasoning follows FIDE C.04.3: rank by score then pairing number; in each score
group S1 (top half) meets S2 (bottom half) in order; a colour (first-seat) clash is removed by a
transposition in S2 when one exists; the lowest-ranked player who has had no bye gets it; an
odd group's lowest player floats down to the next group's highest. The two Swiss examples were
also put to caissify-pairings 0.5.0 (a Dutch engine validated against bbpPairings, run by
``infra/bench/tournament_dutch_compare.py``'s ``theirs``): it pairs and seats them the same.
"""

from __future__ import annotations

from adjudicator.tournaments import (
    Format,
    Pairing,
    Player,
    Result,
    Round,
    Tiebreak,
    pair_next,
    standings,
)
from tests.unit.tournaments.play import field, settings


def seats(pairings: tuple[Pairing, ...]) -> list[str]:
    return [f"{p.first[1:]}-{p.second[1:] if p.second else 'bye'}" for p in pairings]


def decided(number: int, pairings: tuple[Pairing, ...], winners: list[str | None]) -> Round:
    results = {
        p.board: Result(number, p.board, w, 0.0, 0.0)
        for p, w in zip(pairings, winners, strict=False)
        if p.second is not None
    }
    return Round(number, pairings, results)


def test_eight_players_round_one_and_two_with_colour_transpositions() -> None:
    players, s = field(8), settings(Format.SWISS, 3)
    # Round 1: S1 = 1..4, S2 = 5..8; board 1's higher-ranked player has the first seat, and
    # the seats alternate board by board.
    r1 = pair_next(s, players, [])
    assert seats(r1) == ["1-5", "6-2", "3-7", "8-4"]
    # The higher-ranked player wins every board: group 1 = {1, 2, 3, 4}, group 0 = {5..8}.
    # S1/S2 order would give 1-3 and 2-4, but 1 and 3 both had the first seat (both want the
    # second) and 2 and 4 both had the second: the transposition 1-4, 2-3 meets every
    # preference. Likewise 5-8 and 6-7 below.
    rounds = [decided(1, r1, ["p1", "p2", "p3", "p4"])]
    assert seats(pair_next(s, players, rounds)) == ["4-1", "2-3", "5-8", "7-6"]


def test_seven_players_bye_floaters_and_colours() -> None:
    players, s = field(7), settings(Format.SWISS, 3)
    # Round 1: 7 (the lowest) has the bye; S1 = 1..3 against S2 = 4..6.
    r1 = pair_next(s, players, [])
    assert seats(r1) == ["1-4", "5-2", "3-6", "7-bye"]
    # 1 beats 4, 5 beats 2 (an upset), 3 and 6 draw. Scores: 1, 5, 7 (bye) on 1; 3, 6 on 0.5;
    # 2, 4 on 0. The bye goes to the lowest-ranked player without one: 4 (0 points, after 2).
    # Group 1 = {1, 5, 7} is odd: S1/S2 would pair 1-5, but both had the first seat; 1-7
    # meets both (7 has no seat yet), so 5 floats down. In {5 | 3, 6}, 5-3 clash again (both
    # had the first seat), 5-6 does not, so 3 floats down and meets 2.
    rounds = [decided(1, r1, ["p1", "p5", None])]
    assert seats(pair_next(s, players, rounds)) == ["7-1", "6-5", "2-3", "4-bye"]


def round_robin_of_four() -> tuple[list[Player], list[Round]]:
    """Berger 4: R1 1-4 2-3, R2 4-3 1-2, R3 2-4 3-1, with game points (first-second):
    R1: 1 beats 4 (5-2), 2 and 3 draw (3-3); R2: 4 beats 3 (4-1), 1 and 2 draw (2-2);
    R3: 2 beats 4 (6-0), 3 beats 1 (5-4)."""
    players, s = field(4), settings(Format.ROUND_ROBIN)
    script: list[list[tuple[str | None, float, float]]] = [
        [("p1", 5, 2), (None, 3, 3)],
        [("p4", 4, 1), (None, 2, 2)],
        [("p2", 6, 0), ("p3", 5, 4)],
    ]
    rounds: list[Round] = []
    for number, games in enumerate(script, start=1):
        pairings = pair_next(s, players, rounds)
        results = {
            p.board: Result(number, p.board, w, a, b)
            for p, (w, a, b) in zip(pairings, games, strict=True)
        }
        rounds.append(Round(number, pairings, results))
    return players, rounds


def test_tiebreaks_of_a_small_crosstable_computed_by_hand() -> None:
    # Points: 1: 1 + 0.5 + 0 = 1.5; 2: 0.5 + 0.5 + 1 = 2; 3: 0.5 + 0 + 1 = 1.5; 4: 0 + 1 + 0 = 1.
    # Buchholz: 1: 4+2+3 = 1 + 2 + 1.5 = 4.5; 2: 3+1+4 = 4; 3: 2+4+1 = 4.5; 4: 1+3+2 = 5.
    # Cut-1 (less the lowest term): 3.5, 3, 3.5, 3.5.
    # Sonneborn-Berger: 1: win v 4 (1) + draw v 2 (2/2) = 2; 2: draw v 3 (0.75) + draw v 1
    # (0.75) + win v 4 (1) = 2.5; 3: draw v 2 (1) + win v 1 (1.5) = 2.5; 4: win v 3 = 1.5.
    # Game points difference: 1: +3 +0 -1 = 2; 2: 0 + 0 + 6 = 6; 3: 0 - 3 + 1 = -2;
    # 4: -3 + 3 - 6 = -6.
    players, rounds = round_robin_of_four()
    every = (
        Tiebreak.BUCHHOLZ,
        Tiebreak.BUCHHOLZ_CUT1,
        Tiebreak.SONNEBORN_BERGER,
        Tiebreak.WINS,
        Tiebreak.GAME_POINTS_DIFF,
    )
    table = standings(settings(Format.ROUND_ROBIN, None, *every), players, rounds)
    got = {r.player: (r.points, *(r.tiebreaks[tb] for tb in every)) for r in table.rows}
    assert got == {
        "p1": (1.5, 4.5, 3.5, 2.0, 1.0, 2.0),
        "p2": (2.0, 4.0, 3.0, 2.5, 1.0, 6.0),
        "p3": (1.5, 4.5, 3.5, 2.5, 1.0, -2.0),
        "p4": (1.0, 5.0, 3.5, 1.5, 1.0, -6.0),
    }

    # 1 and 3 are level on points and Buchholz: seed order puts 1 first, direct encounter
    # (3 beat 1) puts 3 first, and so does Sonneborn-Berger (2.5 against 2).
    def order(*tbs: Tiebreak) -> list[str]:
        return [
            r.player
            for r in standings(settings(Format.ROUND_ROBIN, None, *tbs), players, rounds).rows
        ]

    assert order(Tiebreak.BUCHHOLZ) == ["p2", "p1", "p3", "p4"]
    assert order(Tiebreak.BUCHHOLZ, Tiebreak.DIRECT_ENCOUNTER) == ["p2", "p3", "p1", "p4"]
    assert order(Tiebreak.SONNEBORN_BERGER) == ["p2", "p3", "p1", "p4"]
    assert order(Tiebreak.GAME_POINTS_DIFF) == ["p2", "p1", "p3", "p4"]


def test_a_bye_counts_as_a_draw_against_a_virtual_opponent_with_the_players_own_points() -> None:
    # Three players, two Swiss rounds. R1: 3 has the bye, 1 beats 2. R2: 3 had the bye, so the
    # lowest-ranked eligible player, 2, has it; 1 meets 3, who has no seat yet while 1 had the
    # first: 3 takes the first seat and wins. Final points: 3: 2, 1: 1, 2: 1.
    # Buchholz: 3: virtual (own 2) + 1 (1) = 3; 1: 2 (1) + 3 (2) = 3; 2: 1 (1) + virtual (1) = 2.
    # Sonneborn-Berger: 3: 2/2 (bye) + 1 (win v 1) = 2; 1: 1 (win v 2) = 1; 2: 1/2 (bye) = 0.5.
    players, s = field(3), settings(Format.SWISS, 2, Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN_BERGER)
    r1 = pair_next(s, players, [])
    assert seats(r1) == ["1-2", "3-bye"]
    rounds = [decided(1, r1, ["p1"])]
    r2 = pair_next(s, players, rounds)
    assert seats(r2) == ["3-1", "2-bye"]
    rounds.append(decided(2, r2, ["p3"]))
    table = standings(s, players, rounds)
    got = {r.player: (r.rank, r.points, *r.tiebreaks.values()) for r in table.rows}
    assert got == {"p3": (1, 2.0, 3.0, 2.0), "p1": (2, 1.0, 3.0, 1.0), "p2": (3, 1.0, 2.0, 0.5)}
    assert table.finished and table.champion == "p3"
