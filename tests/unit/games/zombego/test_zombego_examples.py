"""The worked examples E1-E6 of the spec, position by position."""

from __future__ import annotations

from typing import Any

from adjudicator.games.zombego import movegen, notation
from adjudicator.games.zombego.board import DEFAULT_PIECE_SET, PIECE_SETS
from adjudicator.games.zombego.play import push
from adjudicator.games.zombego.position import (
    MOVE,
    PLACE,
    ZOMBIE,
    Outcome,
    Position,
    Reason,
    Result,
    Rules,
    counts,
)

Cells = dict[str, tuple[int, int, bool]]


def given(
    cells: Cells,
    hand1: list[Any],
    hand2: list[Any],
    *,
    to_move: int = 1,
    board: int = 6,
    piece_set: str = DEFAULT_PIECE_SET,
) -> Position:
    rules = Rules(board=board, piece_set=piece_set)
    hands = [[h if isinstance(h, tuple) else (h, False) for h in hand] for hand in (hand1, hand2)]
    data = {"cells": cells, "hand1": hands[0], "hand2": hands[1]}
    return notation.position_from_json(rules, data, to_move)


def texts(pos: Position) -> set[str]:
    return set(notation.legal_with_outcomes(pos))


def placement_cells(pos: Position, value: int) -> set[str]:
    return {t.split(":")[2] for t in texts(pos) if t.startswith(f"place:{value}:")}


def names(text: str) -> set[str]:
    return set(text.split())


def rest(values: tuple[int, ...], *used: int) -> list[Any]:
    return [v for v in values if v not in used]


DEFAULT = PIECE_SETS[DEFAULT_PIECE_SET]


# E1 ------------------------------------------------------------------------------------------
def e1() -> Position:
    return given({"c3": (1, 2, False)}, rest(DEFAULT, 2), list(DEFAULT), to_move=2)


def test_e1_v7_may_not_go_where_its_own_pattern_sees_the_enemy() -> None:
    legal = placement_cells(e1(), 7)
    for barred in names("c3 b2 b3 b4 c2 c4 d2 d3 d4 a3 e3 c1 c5"):
        assert barred not in legal


def test_e1_v7_has_exactly_the_23_listed_cells() -> None:
    expected = names("a1 a2 a4 a5 a6 b1 b5 b6 c6 d1 d5 d6 e1 e2 e4 e5 e6")
    expected |= {f"f{rank}" for rank in range(1, 7)}
    assert placement_cells(e1(), 7) == expected
    assert len(expected) == 23


def test_e1_cells_attacked_by_the_enemy_pattern_are_still_legal() -> None:
    assert {"e5", "a1"} <= placement_cells(e1(), 7)


def test_e1_v15_has_exactly_the_23_listed_cells() -> None:
    expected = names("a1 a3 a5 a6 b3 b6 c1 c2 c4 c5 c6 d3 d6 e1 e3 e5 e6")
    expected |= {f"f{rank}" for rank in range(1, 7)}
    legal = placement_cells(e1(), 15)
    assert legal == expected
    assert "b2" not in legal and "e4" not in legal and "c2" in legal


def test_e1_p2_has_184_placements() -> None:
    pos = e1()
    assert len(pos.moves) == 184
    assert all(move.kind == PLACE for move in pos.moves)


# E1b -----------------------------------------------------------------------------------------
SLIDES = "(9) Sum 4 plus Slides"


def test_e1b_a_rook_may_not_see_an_enemy_along_its_lines() -> None:
    values = PIECE_SETS[SLIDES]
    cells: Cells = {"a1": (1, 99, False), "c3": (1, 5, False)}
    pos = given(cells, rest(values, 99, 5), list(values), to_move=2, board=8, piece_set=SLIDES)
    expected = {f"{f}{r}" for f in "bdefgh" for r in (2, 4, 5, 6, 7, 8)}
    assert placement_cells(pos, 99) == expected
    assert len(expected) == 36


def test_e1b_a_piece_in_between_blocks_the_line_of_sight() -> None:
    values = PIECE_SETS[SLIDES]
    cells: Cells = {"a1": (1, 99, False), "c3": (1, 5, False), "a2": (2, 2, False)}
    pos = given(cells, rest(values, 99, 5), rest(values, 2), to_move=2, board=8, piece_set=SLIDES)
    legal = placement_cells(pos, 99)
    assert "a5" in legal and "a8" in legal
    assert "b1" not in legal


# E2 ------------------------------------------------------------------------------------------
def e2_cells() -> Cells:
    p1 = {"b1": 56, "c3": 2, "a8": 7, "b8": 15, "c8": 25, "a7": 57, "b7": 101, "c7": 106}
    p2 = {"d3": 25, "h8": 2, "g8": 7, "f8": 56, "h7": 57, "g7": 101, "f7": 106, "h6": 15}
    cells: Cells = {cell: (1, value, False) for cell, value in p1.items()}
    cells.update({cell: (2, value, False) for cell, value in p2.items()})
    return cells


def e2(cells: Cells | None = None, hand1: list[Any] | None = None) -> Position:
    return given(cells or e2_cells(), hand1 or [], [], board=8)


def moves_from(pos: Position, origin: str) -> dict[str, str]:
    legal = notation.legal_with_outcomes(pos)
    prefix = f"move:{origin}-"
    return {t.removeprefix(prefix): o for t, o in legal.items() if t.startswith(prefix)}


def test_e2_a_moves_by_its_only_helper_pattern_anchored_at_its_origin() -> None:
    assert moves_from(e2(), "b1") == {
        "a1": "plain",
        "a2": "plain",
        "b2": "plain",
        "c1": "plain",
        "c2": "plain",
        "d3": "attacker_dies",
    }


def test_e2_b_has_no_helper_and_cannot_move() -> None:
    assert moves_from(e2(), "c3") == {}


def test_e2_whole_position_lists_63_moves_47_distinct() -> None:
    pos = e2()
    assert all(move.kind == MOVE for move in pos.moves)
    assert len(pos.moves) == 47
    assert movegen.ludii_count(pos) == 63


# E3 ------------------------------------------------------------------------------------------
def play(pos: Position, text: str) -> Position:
    return push(pos, notation.parse_move(text, pos.rules.board))


def test_e3_the_covering_defender_kills_the_attacker() -> None:
    after = play(e2(), "move:b1-d3")
    cells = notation.position_json(after)["cells"]
    assert "b1" not in cells
    assert cells["d3"] == [2, 25, False]
    assert cells["c3"] == [1, 2, False]
    assert after.hands[0][0] >> 2 == 56 and after.hands[0][0] & 2  # first slot, as a zombie
    assert counts(after, 1) == (7, 0)
    assert after.result is None


def e3b_cells() -> Cells:
    cells = e2_cells()
    cells["d3"], cells["h6"] = (2, 15, False), (2, 25, False)
    return cells


def test_e3b_an_uncovering_defender_dies() -> None:
    after = play(e2(e3b_cells()), "move:b1-d3")
    assert notation.position_json(after)["cells"]["d3"] == [1, 56, False]
    assert notation.position_json(after)["hand2"] == [[15, True]]
    assert after.hands[1][0] == (15 << 2 | 2 | 1)


# E4 ------------------------------------------------------------------------------------------
def test_e4_a_zombie_attacker_beats_a_covering_defender() -> None:
    cells = e2_cells()
    cells["b1"] = (1, 56, True)
    assert moves_from(e2(cells), "b1")["d3"] == Outcome.DEFENDER_DIES


def test_e4_a_living_attacker_into_a_zombie_dies() -> None:
    cells = e3b_cells()
    cells["d3"] = (2, 15, True)
    assert moves_from(e2(cells), "b1")["d3"] == Outcome.ATTACKER_DIES


def test_e4_zombie_against_zombie_is_not_generated() -> None:
    cells = e2_cells()
    cells["b1"], cells["d3"] = (1, 56, True), (2, 25, True)
    pos = e2(cells)
    assert set(moves_from(pos, "b1")) == {"a1", "a2", "b2", "c1", "c2"}
    assert movegen.ludii_count(pos) == 62


# E5 ------------------------------------------------------------------------------------------
EIGHT = "(7) 8 Destinations"


def e5(extra: Cells | None = None, zombies: tuple[int, ...] = (12, 17, 26, 27, 67)) -> Position:
    cells: Cells = {"a1": (1, 55, False), "e5": (1, 16, False), "c3": (2, 12, False)}
    cells.update(extra or {})
    hand1 = [(v, True) for v in zombies]
    hand2 = rest(PIECE_SETS[EIGHT], 12)
    return given(cells, hand1, hand2, board=5, piece_set=EIGHT)


def test_e5a_zombies_enter_while_fewer_than_the_living() -> None:
    pos = e5()
    assert len(pos.moves) == 76
    assert all(move.kind == ZOMBIE for move in pos.moves)
    v12 = {t.split(":")[2] for t in texts(pos) if t.startswith("zombie:12:")}
    listed = "a2 a3 a4 b1 b3 b5 c1 c2 c4 c5 d1 d3 d5 e2 e3 e4"
    assert v12 == names(listed)


def test_e5b_equal_counts_close_the_gate_and_leave_no_move() -> None:
    pos = e5({"a5": (1, 12, True), "e1": (1, 17, True)}, zombies=(26, 27, 67))
    assert counts(pos, 1) == (2, 2)
    assert pos.moves == ()


def test_e5b_the_game_ends_right_after_p2s_preceding_move() -> None:
    before = e5({"a5": (1, 12, True), "e1": (1, 17, True)}, zombies=(26, 27, 67))
    before = before._replace(to_move=2)
    before = notation.position_from_json(before.rules, notation.position_json(before), 2)
    after = push(before, before.moves[0])
    assert after.result == Result(2, Reason.NO_LEGAL_MOVE)
    assert after.moves == ()


# E6 ------------------------------------------------------------------------------------------
def test_e6_a_placeable_hand_piece_has_priority_over_every_move() -> None:
    cells = e2_cells()
    del cells["c7"]
    pos = e2(cells, hand1=[106])
    assert len(pos.moves) == 26
    assert all(move.kind == PLACE and move.a == 106 for move in pos.moves)
