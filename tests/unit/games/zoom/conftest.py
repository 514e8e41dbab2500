"""A small hand-made round: every test below reads its grid and targets from here."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.games.zoom import ZoomGame
from adjudicator.games.zoom.commands import StartRound, SuppliedRound
from adjudicator.kernel.decider import Setup
from tests.kit import History, Specification, Table, given

GRID = [
    "RGBRGB",  # row 1
    "GBRGBR",  # row 2
    "BRGYYY",  # row 3
    "KKKWRG",  # row 4
]
TARGETS = {"A": ["YYY"], "B": ["KKK"], "C": ["W"], "D": ["RG"]}  # D occurs three times
ROUND = SuppliedRound(grid=GRID, targets=TARGETS)


def new_table(rounds: int = 2, advantage: str | None = None, **config: Any) -> Table:
    setup = Setup(
        match_id="m",
        seats=("alpha", "beta"),
        config={"rounds": rounds, **config},
        advantage=advantage,
        seed=7,
    )
    return Table(ZoomGame(), setup)


def given_round(*history: History) -> Specification:
    """Given a two-round match with round 1 (the grid above) started at t=0, then ``history``."""
    fresh = new_table()
    return given(fresh.game, fresh.setup, StartRound(supplied=ROUND), *history)


def start(table: Table, t: float = 0) -> None:
    table.act(StartRound(supplied=ROUND), t=t)


@pytest.fixture
def table() -> Table:
    """A two-round match with round 1 (the grid above) started at t=0."""
    tab = new_table()
    start(tab)
    return tab
