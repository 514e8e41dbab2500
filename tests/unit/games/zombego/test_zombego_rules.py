"""§1, §5-§13: turns, setup, tiers, helpers, attacks, zombies, the end, the variants."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.games.zombego import board, movegen, notation
from adjudicator.games.zombego.play import make, push, start
from adjudicator.games.zombego.position import (
    MOVE,
    PLACE,
    ZOMBIE,
    Move,
    Outcome,
    Position,
    Reason,
    Result,
    Rules,
    Ruleset,
    counts,
    piece,
)

Cells = dict[str, tuple[int, int, bool]]


def given(cells: Cells, hand1: list[Any], hand2: list[Any], **options: Any) -> Position:
    to_move = options.pop("to_move", 1)
    rules = Rules(**options)
    hands = [[h if isinstance(h, tuple) else (h, False) for h in hand] for hand in (hand1, hand2)]
    data = {"cells": cells, "hand1": hands[0], "hand2": hands[1]}
    return notation.position_from_json(rules, data, to_move)


def legal(pos: Position) -> dict[str, str]:
    return notation.legal_with_outcomes(pos)


def play(pos: Position, text: str) -> Position:
    return push(pos, notation.parse_move(text, pos.rules.board))


def cells_of(pos: Position) -> dict[str, list[Any]]:
    return dict(notation.position_json(pos)["cells"])


# §1 turns ------------------------------------------------------------------------------------
def test_1_1_p1_moves_first() -> None:
    assert start(Rules()).to_move == 1


def test_1_2_turns_alternate_one_move_each() -> None:
    pos = start(Rules())
    after = push(pos, pos.moves[0])
    assert (after.to_move, after.ply) == (2, 1)
    assert push(after, after.moves[0]).to_move == 1


@pytest.mark.parametrize("n", board.BOARD_SIZES)
@pytest.mark.parametrize("piece_set", list(board.PIECE_SETS))
def test_1_3_and_5_the_opening_offers_every_piece_on_every_cell(n: int, piece_set: str) -> None:
    pos = start(Rules(board=n, piece_set=piece_set))
    assert len(pos.moves) == n * n * len(board.PIECE_SETS[piece_set])
    assert all(move.kind == PLACE for move in pos.moves)


# §5 setup ------------------------------------------------------------------------------------
def test_5_1_every_piece_starts_living_in_hand_in_the_given_slot_order() -> None:
    pos = start(Rules(), orders=((106, 2, 7, 15, 25, 56, 57, 101), Rules().values))
    assert [c >> 2 for c in pos.hands[0]] == [106, 2, 7, 15, 25, 56, 57, 101]
    assert all(c & 2 == 0 and c & 1 == 0 for c in pos.hands[0])
    assert all(c & 1 == 1 for c in pos.hands[1])
    with pytest.raises(ValueError, match="permutation"):
        start(Rules(), orders=((2, 2, 7, 15, 25, 56, 57, 101), Rules().values))


def test_5_2_the_board_starts_empty() -> None:
    assert not any(start(Rules(board=4)).board)


def test_5_3_slot_order_does_not_change_the_legal_moves() -> None:
    values = Rules().values
    assert start(Rules(), orders=(values[::-1], values)).moves == start(Rules()).moves


# §6 tiers ------------------------------------------------------------------------------------
def test_6_tier1_opponent_zombies_count_as_opponent_pieces() -> None:
    pos = given({"c3": (1, 2, True)}, [7], [7], to_move=2)
    assert "place:7:c2" not in legal(pos) and "place:7:f6" in legal(pos)


def test_6_tier1_a_friendly_piece_shields_a_slide() -> None:
    slides = "(9) Sum 4 plus Slides"
    blocked = given({"a1": (1, 5, False)}, [], [99], to_move=2, board=4, piece_set=slides)
    shielded = given(
        {"a1": (1, 5, False), "a2": (2, 2, False)}, [], [99], to_move=2, board=4, piece_set=slides
    )
    assert "place:99:a4" not in legal(blocked)
    assert "place:99:a4" in legal(shielded)


def test_6_tier2_applies_when_hand_pieces_exist_but_none_can_be_placed() -> None:
    # P1's only hand piece (v7, King+Dabbaba) sees an enemy from every empty cell of 3x3.
    cells: Cells = {"b2": (2, 16, False), "a1": (1, 16, False), "a2": (1, 2, False)}
    pos = given(cells, [7], [], board=3, piece_set="(6) Sum dist by type = 4")
    assert pos.moves and all(move.kind == MOVE for move in pos.moves)


def test_6_1_placement_regains_priority_whenever_possible() -> None:
    cells: Cells = {"a1": (1, 16, False), "a2": (1, 2, False)}
    pos = given(cells, [7], [], board=5, piece_set="(6) Sum dist by type = 4")
    assert all(move.kind == PLACE for move in pos.moves)


def test_6_2_hand_pieces_never_count_for_the_zombie_gate() -> None:
    cells: Cells = {"a1": (1, 55, False), "c3": (2, 12, False)}
    pos = given(cells, [(12, True), (17, True)], [], board=5, piece_set="(7) 8 Destinations")
    assert counts(pos, 1) == (1, 0)
    assert pos.moves and all(move.kind == ZOMBIE for move in pos.moves)


# §7 movement ---------------------------------------------------------------------------------
def helper_position(helper_owner: int, helper_zombie: bool = False) -> Position:
    cells: Cells = {"a1": (1, 55, False), "b3": (helper_owner, 7, helper_zombie)}
    cells["e5"] = (2 if helper_owner == 1 else 1, 16, False)
    return given(cells, [], [], board=5, piece_set="(7) 8 Destinations")


def test_7_1_opponent_pieces_never_help() -> None:
    assert not any(t.startswith("move:a1-") for t in legal(helper_position(2)))


def test_7_1_friendly_zombies_help() -> None:
    assert any(t.startswith("move:a1-") for t in legal(helper_position(1, helper_zombie=True)))


def test_7_2_destinations_are_the_helpers_pattern_anchored_at_the_origin() -> None:
    moves = {t for t in legal(helper_position(1)) if t.startswith("move:a1-")}
    # v7 (King+Dabbaba) anchored at a1: a2 b1 b2, a3 c1 (b3 is the helper's own cell: not there)
    assert moves == {"move:a1-a2", "move:a1-b1", "move:a1-b2", "move:a1-a3", "move:a1-c1"}


def test_7_2_friendly_occupied_destinations_are_dropped() -> None:
    cells: Cells = {"a1": (1, 55, False), "b3": (1, 7, False), "c1": (1, 16, False)}
    pos = given(cells, [], [(12, False)], board=5, piece_set="(7) 8 Destinations")
    assert "move:a1-c1" not in legal(pos)


def test_7_3_duplicates_from_several_helpers_are_listed_once() -> None:
    cells: Cells = {"a1": (1, 55, False), "b3": (1, 16, False), "c2": (1, 16, False)}
    pos = given(cells, [], [(12, False)], board=5, piece_set="(7) 8 Destinations")
    from_a1 = [m for m in pos.moves if m.kind == MOVE and m.a == 0]
    assert len(from_a1) == len(set(from_a1)) == 3
    assert movegen.ludii_count(pos) > len(pos.moves)


def test_7_4_slide_destinations_stop_at_the_first_piece() -> None:
    slides = "(9) Sum 4 plus Slides"
    cells: Cells = {"a1": (1, 5, False), "b2": (1, 99, False), "a3": (2, 2, False)}
    pos = given(cells, [], [], board=5, piece_set=slides)
    moves = {t for t in legal(pos) if t.startswith("move:a1-")}
    assert "move:a1-a2" in moves and "move:a1-a3" in moves and "move:a1-a4" not in moves
    assert "move:a1-e1" in moves


def test_7_5_a_move_to_an_empty_cell_relocates() -> None:
    after = play(helper_position(1), "move:a1-c1")
    assert cells_of(after)["c1"] == [1, 55, False] and "a1" not in cells_of(after)


# §8 attacks ----------------------------------------------------------------------------------
def duel(attacker_zombie: bool, defender: tuple[int, bool], *, ruleset: Ruleset) -> Position:
    cells: Cells = {"a1": (1, 55, attacker_zombie), "b3": (1, 7, False), "e5": (1, 16, False)}
    cells["a3"] = (2, defender[0], defender[1])
    return given(cells, [], [17], board=5, piece_set="(7) 8 Destinations", ruleset=ruleset)


@pytest.mark.parametrize(
    ("attacker_zombie", "defender", "expected"),
    [
        (False, (16, False), Outcome.DEFENDER_DIES),  # King at a3 does not reach a1
        (False, (67, False), Outcome.ATTACKER_DIES),  # Dabbaba at a3 covers a1
        (False, (16, True), Outcome.ATTACKER_DIES),  # zombies win every fight
        (True, (67, False), Outcome.DEFENDER_DIES),  # zombies cannot be defended against
    ],
)
def test_8_the_attack_table(
    attacker_zombie: bool, defender: tuple[int, bool], expected: Outcome
) -> None:
    pos = duel(attacker_zombie, defender, ruleset=Ruleset.ALL_ZOMBIES)
    assert legal(pos)["move:a1-a3"] == expected


def test_8_zombie_against_zombie_is_not_a_move() -> None:
    assert "move:a1-a3" not in legal(duel(True, (16, True), ruleset=Ruleset.ALL_ZOMBIES))


def test_8_1_a_failed_attack_consumes_the_turn() -> None:
    after = play(duel(False, (67, False), ruleset=Ruleset.ALL_ZOMBIES), "move:a1-a3")
    assert after.to_move == 2 and cells_of(after)["a3"] == [2, 67, False]
    assert notation.position_json(after)["hand1"] == [[55, True]]


def test_8_2_the_dead_go_to_the_lowest_empty_slot_of_their_owners_hand() -> None:
    pos = duel(False, (16, False), ruleset=Ruleset.ALL_ZOMBIES)
    hands = ((), (piece(2, 12, True), 0, piece(2, 17, True), 0))
    pos = make(pos.rules, pos.board, hands)
    after = push(pos, Move(MOVE, 0, 10))
    assert after.hands[1] == (piece(2, 12, True), piece(2, 16, True), piece(2, 17, True), 0)


def test_8_3_a_board_zombie_is_never_captured() -> None:
    after = play(duel(False, (16, True), ruleset=Ruleset.ALL_ZOMBIES), "move:a1-a3")
    assert cells_of(after)["a3"] == [2, 16, True]


# §9 end --------------------------------------------------------------------------------------
def self_destruct(p2_can_move: bool, extra_living: bool = False) -> Position:
    cells: Cells = {"b1": (1, 56, False), "c3": (1, 2, True), "d3": (2, 25, False)}
    if extra_living:
        cells["a6"] = (1, 7, False)
    return given(cells, [], [2] if p2_can_move else [], board=6)


def test_9_1_the_mover_wins_when_the_opponent_cannot_move_even_after_losing_a_piece() -> None:
    after = play(self_destruct(p2_can_move=False), "move:b1-d3")
    assert after.result == Result(1, Reason.NO_LEGAL_MOVE)


def test_9_2_and_9_4_a_player_loses_on_their_own_failed_attack() -> None:
    after = play(self_destruct(p2_can_move=True), "move:b1-d3")
    assert counts(after, 1) == (0, 1)
    assert after.result == Result(2, Reason.ZOMBIE_MAJORITY)
    assert after.moves == ()


def test_9_3_p2_with_more_zombies_than_living_loses() -> None:
    cells: Cells = {"b1": (2, 56, False), "c3": (2, 2, True), "d3": (1, 25, False)}
    pos = given(cells, [2], [], to_move=2)
    assert play(pos, "move:b1-d3").result == Result(1, Reason.ZOMBIE_MAJORITY)


def test_9_4_equal_counts_are_safe() -> None:
    after = play(self_destruct(p2_can_move=True, extra_living=True), "move:b1-d3")
    assert counts(after, 1) == (1, 1) and after.result is None


def test_9_5_the_ply_cap_is_a_draw_and_configurable() -> None:
    assert Rules().ply_cap == 2499
    pos = start(Rules(ply_cap=3))
    for _ in range(2):
        pos = push(pos, pos.moves[0])
    assert pos.result is None
    pos = push(pos, pos.moves[0])
    assert pos.result == Result(None, Reason.PLY_CAP) and pos.moves == ()


# §10 zombies ---------------------------------------------------------------------------------
def test_10_1_a_zombie_moves_with_helpers_and_keeps_its_value() -> None:
    cells: Cells = {"a1": (1, 55, True), "b3": (1, 7, False), "e5": (2, 16, False)}
    pos = given(cells, [], [], board=5, piece_set="(7) 8 Destinations")
    assert cells_of(play(pos, "move:a1-a2"))["a2"] == [1, 55, True]


def test_10_2_one_zombie_enters_per_turn() -> None:
    cells: Cells = {"a1": (1, 55, False), "c3": (2, 12, False)}
    pos = given(cells, [(12, True), (17, True)], [16], board=5, piece_set="(7) 8 Destinations")
    after = push(pos, pos.moves[0])
    assert counts(after, 1) == (1, 1) and after.to_move == 2


# §11 hidden variant: identical legal moves -----------------------------------------------------
def test_11_1_the_hidden_variant_has_the_same_moves_and_outcomes() -> None:
    shown = duel(False, (67, False), ruleset=Ruleset.ALL_ZOMBIES)
    hidden = duel(False, (67, False), ruleset=Ruleset.STRATEGO)
    assert legal(shown) == legal(hidden)
    assert Rules(ruleset=Ruleset.STRATEGO).hidden


# §12 No Zombies --------------------------------------------------------------------------------
def test_12_1_dead_pieces_are_removed_from_the_game() -> None:
    failed = play(duel(False, (67, False), ruleset=Ruleset.NO_ZOMBIES), "move:a1-a3")
    assert notation.position_json(failed)["hand1"] == []
    assert notation.position_json(failed)["hand2"] == [[17, False]]
    won = play(duel(False, (16, False), ruleset=Ruleset.NO_ZOMBIES), "move:a1-a3")
    assert cells_of(won)["a3"] == [1, 55, False]
    assert notation.position_json(won)["hand1"] == []


def compat(hand1: tuple[int, ...], hand2: tuple[int, ...], defender: int) -> Position:
    rules = Rules(board=3, piece_set="(11) 12 plus Slides", ruleset=Ruleset.NO_ZOMBIES)
    rules = Rules(board=3, piece_set=rules.piece_set, ruleset=rules.ruleset, ludii_compat=True)
    cells = [0] * 9
    cells[0], cells[1], cells[6] = piece(1, 2), piece(1, 7), piece(2, defender)
    return make(rules, cells, (hand1, hand2))


def test_12_ludii_compat_sends_the_dead_to_the_other_hand() -> None:
    pos = compat((0,) * 11, (0,) * 11, defender=7)  # v7 at a3 covers a1: the attack fails
    after = push(pos, Move(MOVE, 0, 6))
    assert after.hands[1][0] == piece(1, 2, True)


def test_12_2_a_failed_attacker_facing_a_full_hand_stays_as_a_zombie() -> None:
    full = (*(piece(2, v) for v in (15, 25, 44, 49, 56, 57, 99, 101, 106, 2)), piece(1, 15))
    after = push(compat((0,) * 11, full, defender=7), Move(MOVE, 0, 6))
    assert after.board[0] == piece(1, 2, True)
    assert counts(after, 1) == (1, 1)


def test_12_2_a_captured_defender_facing_a_full_hand_is_deleted() -> None:
    full = tuple(piece(1, v) for v in (15, 25, 44, 49, 56, 57, 99, 101, 106)) + (piece(2, 15),) * 2
    after = push(compat(full, (0,) * 11, defender=16), Move(MOVE, 0, 6))
    assert after.board[6] == piece(1, 2) and after.hands[0] == full


# §13 representation ------------------------------------------------------------------------------
def test_13_1_move_strings_round_trip() -> None:
    for text in ("place:101:a1", "zombie:7:f6", "move:c3-e1"):
        assert notation.move_text(notation.parse_move(text, 6), 6) == text
