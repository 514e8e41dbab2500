"""§2, §4 and §P: board sizes, cell names, base patterns, values and line of sight."""

from __future__ import annotations

import pytest

from adjudicator.games.zombego import board
from adjudicator.games.zombego.board import cell_name, cells_of, parse_cell, pattern, tables
from adjudicator.games.zombego.position import Rules, Ruleset

OPEN_BOARD_COUNTS = {
    2: 12, 5: 16, 7: 12, 12: 8, 13: 8, 15: 12, 16: 8, 17: 8, 18: 8, 25: 12, 26: 8,
    27: 8, 36: 8, 55: 8, 56: 12, 57: 12, 67: 8, 68: 8, 101: 12, 106: 12,
}  # fmt: skip


def names(mask: int, n: int) -> set[str]:
    return {cell_name(c, n) for c in cells_of(mask)}


def at(value: int, cell: str, n: int = 8, occupied: int = 0) -> set[str]:
    geo = tables(n).geometry[value]
    index = parse_cell(cell, n)
    assert index is not None
    return names(pattern(geo, index, occupied), n)


def test_2_2_every_listed_board_size_is_accepted_and_6_is_the_default() -> None:
    assert board.BOARD_SIZES == (3, 4, 5, 6, 7, 8, 9, 10, 12)
    assert all(Rules(board=n).board == n for n in board.BOARD_SIZES)
    assert Rules().board == 6


@pytest.mark.parametrize("n", [2, 11, 13])
def test_2_2_other_sizes_are_refused(n: int) -> None:
    with pytest.raises(ValueError, match="board"):
        Rules(board=n)


def test_2_3_there_is_no_wrap_around() -> None:
    assert at(16, "a1") == {"a2", "b1", "b2"}
    assert at(16, "h8") == {"g8", "h7", "g7"}


def test_2_4_cells_are_row_major_with_algebraic_names() -> None:
    assert cell_name(0, 6) == "a1" and cell_name(5, 6) == "f1" and cell_name(6, 6) == "a2"
    assert cell_name(143, 12) == "l12"
    assert all(parse_cell(cell_name(c, 12), 12) == c for c in range(144))
    assert parse_cell("g1", 6) is None and parse_cell("a7", 6) is None
    assert parse_cell("a0", 6) is None and parse_cell("a01", 6) is None


def test_3_3_defaults() -> None:
    rules = Rules()
    assert (rules.board, rules.ruleset, rules.piece_set) == (
        6,
        Ruleset.ALL_ZOMBIES,
        "(8) 12 Destinations",
    )
    assert rules.values == (2, 7, 15, 25, 56, 57, 101, 106)


@pytest.mark.parametrize(("value", "count"), sorted(OPEN_BOARD_COUNTS.items()))
def test_4_2_pattern_sizes_on_an_open_board_match_table_p2(value: int, count: int) -> None:
    assert len(at(value, "f6", n=12)) == count


def test_4_2_a_value_is_the_union_of_its_digits_and_single_digits_include_the_king() -> None:
    king = at(16, "d4")
    assert at(2, "d4") == king | {"b2", "f2", "b6", "f6"}
    assert at(0 * 10 + 6, "d4") <= king
    assert at(101, "d4") == at(11, "d4") | {"b4", "f4", "d2", "d6", "b2", "f2", "b6", "f6"}
    assert at(55, "d4") == at(5, "d4") - king


def test_4_3_leaps_ignore_intervening_pieces() -> None:
    everything = (1 << 64) - 1
    assert at(7, "d4", occupied=everything) == at(7, "d4")


def test_4_4_slides_stop_at_and_include_the_first_occupied_cell() -> None:
    d6, f6 = 1 << 43, 1 << 45
    rook = at(99, "d4", occupied=d6)
    assert "d5" in rook and "d6" in rook and "d7" not in rook
    bishop = at(44, "d4", occupied=f6)
    assert "e5" in bishop and "f6" in bishop and "g7" not in bishop
    assert len(at(99, "d4")) == 14 and len(at(44, "d4")) == 13 and len(at(49, "d4")) == 27


def test_4_5_a_pattern_never_contains_its_own_cell() -> None:
    for value in {v for values in board.PIECE_SETS.values() for v in values}:
        assert all(not pattern(tables(5).geometry[value], c, 0) >> c & 1 for c in range(25))


def test_4_6_patterns_are_symmetric_even_with_blocking_pieces() -> None:
    n = 7
    occupied = sum(1 << c for c in (3, 10, 17, 24, 30, 36, 40, 44))
    for value in (2, 13, 44, 49, 99, 101, 68):
        geo = tables(n).geometry[value]
        for a in range(n * n):
            for b in cells_of(pattern(geo, a, occupied)):
                assert pattern(geo, b, occupied) >> a & 1


def test_p3_the_seven_piece_sets() -> None:
    sizes = {name: len(values) for name, values in board.PIECE_SETS.items()}
    assert sizes == {
        "(6) Sum dist by type = 4": 6,
        "(7) 8 Destinations": 7,
        "(8) Pairs of types": 8,
        "(8) 12 Destinations": 8,
        "(10) Sum 4 with Long Leaps": 10,
        "(9) Sum 4 plus Slides": 9,
        "(11) 12 plus Slides": 11,
    }
    with pytest.raises(ValueError, match="piece set"):
        Rules(piece_set="(5) Nope")


def test_p3_board_size_and_piece_set_are_independent() -> None:
    rules = Rules(board=3, piece_set="(11) 12 plus Slides")
    assert len(rules.values) == 11 > rules.board**2 - 1
