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


NOBODY = Forfeit(1, 1, None, "both late", 3)
"""A forfeit naming no winner: the service refuses it in an elimination now, but took it once."""


def test_a_forfeit_naming_no_winner_decides_nothing_where_a_winner_is_needed() -> None:
    assert result_of(BOARD, None, NOBODY, needs_winner=True) is None
    assert result_of(BOARD, DRAW, NOBODY, needs_winner=True) is None
    won = result_of(BOARD, WIN, NOBODY, needs_winner=True)  # the match's own result decides
    assert won is not None and (won.winner, won.forfeit) == ("p4", False)
    both_lost = result_of(BOARD, WIN, NOBODY)  # a round robin's double forfeit: nobody wins
    assert both_lost is not None and (both_lost.winner, both_lost.forfeit) == (None, True)


@pytest.mark.parametrize("fmt", [Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION])
def test_a_knockout_board_forfeited_to_nobody_still_needs_a_winner(fmt: Format) -> None:
    t = knockout(fmt, {(1, 1): NOBODY})
    unplayed: dict[str, Mapping[str, Any] | None] = {"m1": None, "m2": WIN}
    for read in (unplayed.get, READ.get):  # its match unplayed, or drawn
        assert drawn_boards(t, read, 1) == [1]
        assert set(model_rounds(t, read)[0].results) == {2}
        table = standings(t.settings, t.players, model_rounds(t, read))
        assert not table.finished and table.champion is None
    played = {"m1": WIN, "m2": WIN}.get
    assert drawn_boards(t, played, 1) == []
    assert model_rounds(t, played)[0].results[1].winner == "p4"
