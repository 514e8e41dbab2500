"""A piece as a player reads it (its pattern's name and cells), and the helpers in the view."""

from __future__ import annotations

from dataclasses import replace

import pytest

from adjudicator.games.zombego import ZombegoGame, board, notation
from adjudicator.games.zombego.artwork import describe, pattern_name
from adjudicator.games.zombego.state import ZombegoState
from adjudicator.kernel.decider import Role, Setup, Viewer
from tests.unit.games.zombego.test_zombego_examples import e2_cells

GAME = ZombegoGame()
VALUES = sorted({value for values in board.PIECE_SETS.values() for value in values})


@pytest.mark.parametrize(
    ("value", "name"),
    [(2, "king + alfil"), (16, "king"), (55, "knight"), (56, "wazir + knight"), (44, "bishop"),
     (49, "queen"), (99, "rook"), (101, "ferz + alfil + dabbaba"), (18, "ferz + threeleaper")],
)  # fmt: skip
def test_a_value_is_named_by_the_base_patterns_it_joins(value: int, name: str) -> None:
    assert pattern_name(value) == name


@pytest.mark.parametrize("value", VALUES)
def test_the_drawn_cells_are_the_rules_pattern_on_an_open_board(value: int) -> None:
    """From the middle of an empty 12x12 board, the leaps plus each slide's ray to the edge are
    exactly ``pattern(v, c)`` of the rules core."""
    n, centre = 12, 5 * 12 + 5
    tables = board.tables(n)
    drawn = describe(value)
    expected = {
        (c % n - 5, c // n - 5)
        for c in board.cells_of(board.pattern(tables.geometry[value], centre, 0))
    }
    cells = {(dx, dy) for dx, dy in drawn["leaps"]}
    for dx, dy in drawn["slides"]:
        x, y = 5 + dx, 5 + dy
        while 0 <= x < n and 0 <= y < n:
            cells.add((x - 5, y - 5))
            x, y = x + dx, y + dy
    assert cells == expected
    assert not (drawn["slides"] and drawn["leaps"]) or value not in (44, 49, 99)


def e2_state(ruleset: str = "All Zombies") -> ZombegoState:
    setup = Setup(
        match_id="m", seats=("white", "black"), config={"board": 8, "ruleset": ruleset}, seed=1
    )
    state: ZombegoState = GAME.initial(setup)
    data = {"cells": e2_cells(), "hand1": [], "hand2": []}
    return replace(state, position=notation.position_from_json(state.position.rules, data))


def test_the_view_names_each_movable_pieces_helpers() -> None:
    """E2 (spec): A at b1 moves only with B at c3; B has no helper and is not listed."""
    helpers = GAME.view(e2_state(), Viewer(Role.SEAT, seat="white"))["helpers"]
    assert helpers["b1"] == ["c3"]
    assert "c3" not in helpers


def test_helpers_are_shown_only_where_the_legal_moves_are() -> None:
    state = e2_state("Stratego Style with Zombies")
    for viewer in (Viewer(Role.SEAT, seat="black"), Viewer(Role.SPECTATOR)):
        seen = GAME.view(state, viewer)
        assert seen["helpers"] is None and seen["legal"] is None
    assert GAME.view(state, Viewer(Role.SEAT, seat="white"))["helpers"]["b1"] == ["c3"]


def test_the_piece_sets_patterns_come_with_every_view() -> None:
    seen = GAME.view(e2_state("Stratego Style with Zombies"), Viewer(Role.SPECTATOR))
    assert sorted(seen["patterns"], key=int) == [
        str(v) for v in board.PIECE_SETS[board.DEFAULT_PIECE_SET]
    ]
    assert seen["patterns"]["2"]["name"] == "king + alfil"
