"""The tournament rules refuse bad settings and bad rounds with a stable code, and run every
format: elimination seeding and byes, the grand-final reset, withdrawals, crosstable, bracket."""

from __future__ import annotations

import pytest

from adjudicator.kernel.errors import Code
from adjudicator.tournaments import (
    Bracket,
    Format,
    Pairing,
    Player,
    Result,
    Round,
    Settings,
    Tiebreak,
    TournamentError,
    check_conclusion,
    check_entries,
    check_seal,
    check_settings,
    pair_next,
    planned_rounds,
    standings,
)
from adjudicator.tournaments.rules import SWISS_MAX_PLAYERS
from tests.unit.tournaments.play import field, higher_seed_wins, play, results, settings

RR = settings(Format.ROUND_ROBIN)
SWISS = settings(Format.SWISS, 3)
SINGLE = settings(Format.SINGLE_ELIMINATION)
DOUBLE = settings(Format.DOUBLE_ELIMINATION)


def refused(code: Code, call: object) -> None:
    assert callable(call)
    with pytest.raises(TournamentError) as e:
        call()
    assert e.value.code == code


@pytest.mark.parametrize(
    ("n", "most"), [(2, "at most 1 Swiss round"), (4, "at most 3 Swiss rounds")]
)
def test_too_many_swiss_rounds_says_how_many_the_field_plays(n: int, most: str) -> None:
    with pytest.raises(TournamentError) as e:
        check_settings(settings(Format.SWISS, n), field(n))
    assert e.value.message == f"{n} players play {most}"


@pytest.mark.parametrize(
    ("s", "players", "code"),
    [
        (RR, field(1), "too_few_players"),
        (RR, [Player("a", "A", 1), Player("a", "B", 2)], "duplicate_player"),
        (RR, [Player("a", "A", 1), Player("b", "B", 3)], "bad_seeds"),
        (settings(Format.SWISS), field(8), "bad_rounds"),
        (settings(Format.SWISS, 0), field(8), "bad_rounds"),
        (settings(Format.ROUND_ROBIN, 3), field(8), "bad_rounds"),
        (settings(Format.SWISS, 8), field(8), "too_many_rounds"),
        (
            settings(Format.SINGLE_ELIMINATION, None, Tiebreak.BUCHHOLZ),
            field(8),
            "tiebreak_not_for_format",
        ),
        (
            settings(Format.DOUBLE_ELIMINATION, None, Tiebreak.DIRECT_ENCOUNTER),
            field(8),
            "tiebreak_not_for_format",
        ),
        (
            settings(Format.SWISS, 3, Tiebreak.GAME_POINTS_DIFF, points_game=False),
            field(8),
            "tiebreak_not_for_format",
        ),
        (settings(Format.SWISS, 3, Tiebreak.WINS, Tiebreak.WINS), field(8), "duplicate_tiebreak"),
    ],
)
def test_settings_the_format_cannot_run_are_refused(
    s: Settings, players: list[Player], code: Code
) -> None:
    refused(code, lambda: check_settings(s, players))
    refused(code, lambda: pair_next(s, players, []))


def test_settings_every_format_can_run_pass() -> None:
    check_settings(settings(Format.SWISS, 7, *Tiebreak), field(8))
    check_settings(
        settings(Format.DOUBLE_ELIMINATION, None, Tiebreak.WINS, Tiebreak.GAME_POINTS_DIFF),
        field(3),
    )


@pytest.mark.parametrize(
    ("s", "players", "rounds", "authors", "code"),
    [
        (RR, [Player("a", "Ada", 1), Player("b", " ADA ", 2)], [], [], "duplicate_player"),
        (RR, field(4), [], [["41"], ["41"]], "duplicate_chat_author"),
        (RR, field(4), [], [["7", "7"]], "duplicate_chat_author"),
        (RR, field(4), [], [["Ada"], ["ada"]], "duplicate_chat_author"),  # known_as folds case
        (RR, field(4), [0], [], "bad_round_config"),
        (RR, field(4), [4], [], "bad_round_config"),  # rounds 1 to 3
        (settings(Format.SWISS, 2), field(8), [3], [], "bad_round_config"),
        (DOUBLE, field(4), [6], [], "bad_round_config"),  # 2k + 1 = 5: the reset
        (settings(Format.SWISS, 9), field(SWISS_MAX_PLAYERS + 1), [], [], "too_many_players"),
    ],
)
def test_entries_a_new_tournament_may_not_hold_are_refused(
    s: Settings, players: list[Player], rounds: list[int], authors: list[list[str]], code: Code
) -> None:
    refused(code, lambda: check_entries(s, players, rounds, authors))


def test_entries_every_format_can_take_pass_and_pairing_does_not_check_them() -> None:
    check_entries(RR, field(4), [1, 3], [["41", "ada"], [], ["7"]])
    check_entries(settings(Format.SWISS, 2), field(8), [2], [])
    check_entries(DOUBLE, field(4), [5], [])
    check_entries(settings(Format.SWISS, 9), field(SWISS_MAX_PLAYERS), [], [])
    check_entries(RR, field(SWISS_MAX_PLAYERS + 1), [], [])  # Berger tables: no matching
    twins = [Player("a", "Ada", 1), Player("b", "Ada", 2)]  # recorded before names were checked
    assert pair_next(RR, twins, [])  # still paired


def test_planned_rounds() -> None:
    assert planned_rounds(RR, 8) == 7
    assert planned_rounds(RR, 7) == 7
    assert planned_rounds(settings(Format.DOUBLE_ROUND_ROBIN), 5) == 10
    assert planned_rounds(SWISS, 16) == 3
    assert planned_rounds(SINGLE, 9) == 4
    assert planned_rounds(DOUBLE, 8) is None


def test_the_next_round_waits_for_every_result() -> None:
    players = field(4)
    first = pair_next(RR, players, [])
    partial = Round(1, first, {1: higher_seed_wins(1, first[0])})
    refused("round_not_finished", lambda: pair_next(RR, players, [partial]))


def test_nothing_is_paired_after_the_last_round() -> None:
    players = field(4)
    rounds = play(RR, players, higher_seed_wins)
    assert len(rounds) == 3
    refused("tournament_finished", lambda: pair_next(RR, players, rounds))


def test_bad_rounds_and_results_are_refused() -> None:
    players = field(4)
    r1 = pair_next(RR, players, [])
    good = results(1, r1, higher_seed_wins)
    refused("bad_round", lambda: pair_next(RR, players, [Round(2, r1, good.results)]))
    refused(
        "bad_result", lambda: pair_next(RR, players, [Round(1, r1, {9: Result(1, 9, "p1", 0, 0)})])
    )
    wrong = {1: Result(1, 1, "p2", 0, 0), 2: good.results[2]}
    refused("unknown_player", lambda: pair_next(RR, players, [Round(1, r1, wrong)]))
    stranger = (Pairing(1, 1, "p1", "zz"), r1[1])
    refused("unknown_player", lambda: standings(RR, players, [Round(1, stranger, {})]))
    refused("unknown_player", lambda: pair_next(RR, players, [good], frozenset({"zz"})))


def test_an_elimination_match_needs_a_winner() -> None:
    players = field(4)
    r1 = pair_next(SINGLE, players, [])
    drawn = {p.board: Result(1, p.board, None, 2, 2) for p in r1}
    refused("elimination_needs_winner", lambda: pair_next(SINGLE, players, [Round(1, r1, drawn)]))


def pairs(pairings: tuple[Pairing, ...]) -> list[tuple[int, int | None]]:
    return [
        (min(int(p.first[1:]), int(p.second[1:])), max(int(p.first[1:]), int(p.second[1:])))
        if p.second
        else (int(p.first[1:]), None)
        for p in pairings
    ]


def test_single_elimination_seeds_so_the_top_two_meet_only_in_the_final() -> None:
    players = field(8)
    rounds = play(SINGLE, players, higher_seed_wins)
    assert [pairs(r.pairings) for r in rounds] == [
        [(1, 8), (4, 5), (2, 7), (3, 6)],
        [(1, 4), (2, 3)],
        [(1, 2)],
    ]
    table = standings(SINGLE, players, rounds)
    assert table.finished and table.champion == "p1"
    assert [r.player for r in table.rows][:2] == ["p1", "p2"]
    assert table.bracket is not None and len(table.bracket) == 7


def test_byes_go_to_the_top_seeds_and_need_no_result() -> None:
    players = field(5)
    first = pair_next(SINGLE, players, [])
    assert pairs(first) == [(4, 5), (1, None), (2, None), (3, None)]
    assert [p.bracket for p in first] == [Bracket.WINNERS] * 4
    rounds = [results(1, first, higher_seed_wins)]
    assert pairs(pair_next(SINGLE, players, rounds)) == [(1, 4), (2, 3)]
    bye = Round(1, first, {**rounds[0].results, 2: Result(1, 2, None, 0, 0)})
    refused("bad_result", lambda: pair_next(SINGLE, players, [bye]))


def lower_seed_wins_the_grand_final(number: int, p: Pairing) -> Result:
    result = higher_seed_wins(number, p)
    if p.bracket is Bracket.GRAND_FINAL:
        assert p.second is not None
        loser = p.second if result.winner == p.first else p.first
        return Result(number, p.board, loser, 0.0, 0.0)
    return result


def test_double_elimination_resets_the_grand_final_when_the_losers_side_wins_it() -> None:
    players = field(4)
    rounds = play(DOUBLE, players, lower_seed_wins_the_grand_final)
    brackets = [[(p.bracket, pairs((p,))[0]) for p in r.pairings] for r in rounds]
    assert brackets == [
        [(Bracket.WINNERS, (1, 4)), (Bracket.WINNERS, (2, 3))],
        [(Bracket.WINNERS, (1, 2)), (Bracket.LOSERS, (3, 4))],
        [(Bracket.LOSERS, (2, 3))],
        [(Bracket.GRAND_FINAL, (1, 2))],
        [(Bracket.GRAND_FINAL_RESET, (1, 2))],
    ]
    table = standings(DOUBLE, players, rounds)
    assert table.champion == "p1"  # the reset is won by the higher seed again
    assert [r.player for r in table.rows] == ["p1", "p2", "p3", "p4"]


def test_double_elimination_ends_at_the_grand_final_when_the_winners_side_wins_it() -> None:
    rounds = play(DOUBLE, field(4), higher_seed_wins)
    assert len(rounds) == 4 and rounds[-1].pairings[0].bracket is Bracket.GRAND_FINAL


def test_a_withdrawn_player_is_not_paired_again_and_keeps_the_games_played() -> None:
    players = field(6)
    gone = frozenset({"p2"})
    rounds = play(SWISS, players, higher_seed_wins, lambda n: gone if n > 1 else frozenset())
    assert all("p2" not in (p.first, p.second) for r in rounds[1:] for p in r.pairings)
    row = next(r for r in standings(SWISS, players, rounds, gone).rows if r.player == "p2")
    assert row.withdrawn and row.played == 1


def test_a_withdrawn_round_robin_players_opponents_have_byes() -> None:
    players = field(4)
    gone = frozenset({"p4"})
    rounds = play(RR, players, higher_seed_wins, lambda n: gone if n > 1 else frozenset())
    assert [pairs(r.pairings) for r in rounds] == [
        [(1, 4), (2, 3)],
        [(3, None), (1, 2)],
        [(2, None), (1, 3)],
    ]


def test_a_withdrawn_elimination_players_opponent_goes_through() -> None:
    players = field(4)
    gone = frozenset({"p2"})
    rounds = play(SINGLE, players, higher_seed_wins, lambda n: gone if n > 1 else frozenset())
    assert [pairs(r.pairings) for r in rounds] == [[(1, 4), (2, 3)], [(1, None)]]
    assert standings(SINGLE, players, rounds, gone).champion == "p1"


def test_the_round_robin_standings_carry_the_crosstable() -> None:
    players = field(4)
    rounds = play(RR, players, higher_seed_wins)
    table = standings(RR, players, rounds)
    assert table.crosstable is not None and table.bracket is None
    cells = table.crosstable["p1"]["p4"]
    assert [(c.round, c.first, c.score) for c in cells] == [(1, True, 1.0)]
    assert [r.points for r in table.rows] == [3.0, 2.0, 1.0, 0.0]
    assert table.finished and table.champion == "p1"


def test_an_event_may_be_concluded_between_rounds_only_and_is_then_finished_as_it_stands() -> None:
    players, s = field(5), settings(Format.SWISS, 4)
    first = pair_next(s, players, [])
    refused("round_not_finished", lambda: check_conclusion(s, players, [Round(1, first, {})]))
    played = [results(1, first, higher_seed_wins)]
    check_conclusion(s, players, played)  # between rounds: allowed
    table = standings(s, players, played, concluded=True)
    assert table.finished and table.champion == table.rows[0].player
    assert not standings(s, players, played).finished
    done = play(RR, field(4), higher_seed_wins)
    refused("tournament_finished", lambda: check_conclusion(RR, field(4), done))
    bracket = settings(Format.SINGLE_ELIMINATION)
    half = [results(1, pair_next(bracket, field(4), []), higher_seed_wins)]
    cut = standings(bracket, field(4), half, concluded=True)
    assert cut.finished and cut.champion is None  # an elimination's champion is won, not led
    before_any = standings(s, players, [], concluded=True)
    assert before_any.finished and before_any.champion is None


@pytest.mark.parametrize("s", [RR, SWISS, SINGLE, DOUBLE], ids=lambda s: str(s.format))
def test_an_event_is_sealed_once_finished_or_concluded_and_not_before(s: Settings) -> None:
    players = field(6)
    refused("tournament_not_finished", lambda: check_seal(s, players, []))
    first = [results(1, pair_next(s, players, []), higher_seed_wins)]
    refused("tournament_not_finished", lambda: check_seal(s, players, first))
    check_seal(s, players, first, concluded=True)  # ended early between rounds: as it stands
    done = play(s, players, higher_seed_wins)
    check_seal(s, players, done)
    refused("tournament_not_finished", lambda: check_seal(s, players, done[:-1]))
    unplayed = [*done[:-1], Round(done[-1].number, done[-1].pairings, {})]
    refused("tournament_not_finished", lambda: check_seal(s, players, unplayed))
