"""A match's result as a tournament's rules count it (``projections.tournaments``: pure)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

import pytest

from adjudicator.tournaments import Format, Pairing, standings
from projections.tournaments import (
    Board,
    Forfeit,
    PairedRound,
    Tournament,
    drawn_boards,
    model_rounds,
    result_of,
)
from tests.unit.tournaments.play import field, settings

BOARD = Board(Pairing(1, 1, "p1", "p4"), "m1")
DRAW: Mapping[str, Any] = {"winner": None, "scores": {"alpha": 1, "beta": 1}}
WIN: Mapping[str, Any] = {"winner": "beta", "scores": {"alpha": 0, "beta": 2}}
READ: dict[str, Mapping[str, Any] | None] = {"m1": DRAW, "m2": WIN}


def test_a_draw_is_a_result_where_a_winner_is_not_needed_and_none_where_it_is() -> None:
    assert result_of(BOARD, DRAW, None).winner is None  # type: ignore[union-attr]
    assert result_of(BOARD, DRAW, None, needs_winner=True) is None
    won = result_of(BOARD, WIN, None, needs_winner=True)
    assert won is not None and (won.winner, won.second_points) == ("p4", 2.0)
    forfeit = result_of(BOARD, DRAW, Forfeit(1, 1, "p1", "late", 3), needs_winner=True)
    assert forfeit is not None and forfeit.winner == "p1" and forfeit.forfeit


def knockout(fmt: Format, forfeits: dict[tuple[int, int], Forfeit]) -> Tournament:
    boards = (BOARD, Board(Pairing(1, 2, "p2", "p3"), "m2"))
    paired = PairedRound(1, boards, 2, datetime(2026, 1, 1, tzinfo=UTC), {})
    rules = settings(fmt, 3 if fmt is Format.SWISS else None)
    return Tournament("t", "T", "zoom", rules, tuple(field(4)), {}, {}, (paired,), forfeits)


@pytest.mark.parametrize("fmt", [Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION])
def test_an_elimination_s_drawn_board_is_undecided_and_its_standings_stand(fmt: Format) -> None:
    t = knockout(fmt, {})
    read = READ.get
    rounds = model_rounds(t, read)
    assert set(rounds[0].results) == {2}
    assert drawn_boards(t, read, 1) == [1]
    table = standings(t.settings, t.players, rounds)
    assert not table.finished and table.champion is None
    decided = knockout(fmt, {(1, 1): Forfeit(1, 1, "p4", "late", 3)})
    assert drawn_boards(decided, read, 1) == []
    assert set(model_rounds(decided, read)[0].results) == {1, 2}


def test_a_swiss_draw_counts_as_a_draw() -> None:
    t = knockout(Format.SWISS, {})
    read = READ.get
    assert model_rounds(t, read)[0].results[1].winner is None
    assert drawn_boards(t, read, 1) == []
