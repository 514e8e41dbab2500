"""Random legal play-outs on every board size x ruleset x piece set never fail and end."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.games.zombego import board, notation
from adjudicator.games.zombego.check import check
from adjudicator.games.zombego.movegen import outcome
from adjudicator.games.zombego.play import push, start
from adjudicator.games.zombego.position import Move, Position, Rules, Ruleset, counts

COMBOS = [
    (n, ruleset, piece_set)
    for n in board.BOARD_SIZES
    for ruleset in Ruleset
    for piece_set in board.PIECE_SETS
]


def pieces_of(pos: Position, player: int) -> int:
    on_board = pos.owned[player - 1].bit_count()
    in_hands = sum(1 for hand in pos.hands for c in hand if c and c & 1 == player - 1)
    return on_board + in_hands


def assert_sound(pos: Position, k: int) -> None:
    for player in (1, 2):
        total = pieces_of(pos, player)
        if pos.rules.ruleset is Ruleset.NO_ZOMBIES:
            assert total <= k
        else:
            assert total == k
        if pos.result is None:
            living, zombies = counts(pos, player)
            assert zombies <= living
    assert (pos.result is None) == bool(pos.moves)
    assert len(set(pos.moves)) == len(pos.moves)


def play_out(
    rules: Rules, rng: random.Random, sort: bool = False
) -> tuple[list[Position], list[Move]]:
    orders = [rng.sample(rules.values, len(rules.values)) for _ in range(2)]
    if sort:
        orders = [list(rules.values)] * 2
    pos = start(rules, (orders[0], orders[1]))
    seen, played = [pos], []
    while pos.result is None:
        move = rng.choice(pos.moves)
        check(pos, move)
        outcome(pos, move)
        pos = push(pos, move)
        assert_sound(pos, len(rules.values))
        seen.append(pos)
        played.append(move)
    return seen, played


@pytest.mark.parametrize(("n", "ruleset", "piece_set"), COMBOS)
@settings(max_examples=2, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False), cap=st.integers(min_value=1, max_value=120))
def test_random_play_outs_end_with_a_result(
    n: int, ruleset: Ruleset, piece_set: str, rng: random.Random, cap: int
) -> None:
    rules = Rules(board=n, ruleset=ruleset, piece_set=piece_set, ply_cap=cap)
    seen, _ = play_out(rules, rng)
    final = seen[-1]
    assert final.result is not None and final.ply <= cap


@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    rng=st.randoms(use_true_random=False),
    combo=st.sampled_from(COMBOS),
    compat=st.booleans(),
)
def test_whole_games_round_trip_through_ludii_notation(
    rng: random.Random, combo: tuple[int, Ruleset, str], compat: bool
) -> None:
    n, ruleset, piece_set = combo
    rules = Rules(board=n, ruleset=ruleset, piece_set=piece_set, ply_cap=400, ludii_compat=compat)
    seen, moves = play_out(rules, rng, sort=True)
    exported = notation.export_game(seen[0], moves)
    assert exported["result"] == notation.result_json(seen[-1].result)
    if not compat:
        assert notation.import_game(exported, ply_cap=400)[-1] == seen[-1]
