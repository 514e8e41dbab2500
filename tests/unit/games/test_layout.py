"""One file-naming scheme in every game package."""

from __future__ import annotations

from pathlib import Path

import pytest

import adjudicator.games

GAMES = Path(adjudicator.games.__file__).parent
SCHEME = {"commands", "events", "state", "decide", "evolve", "view", "game"}
PACKAGES = sorted(p.name for p in GAMES.iterdir() if (p / "__init__.py").exists())


def test_the_three_games_are_packages() -> None:
    assert PACKAGES == ["no_not_that", "zombego", "zoom"]


@pytest.mark.parametrize("game", PACKAGES)
def test_every_game_has_the_modules_of_the_scheme_and_no_model(game: str) -> None:
    modules = {p.stem for p in (GAMES / game).glob("*.py")}
    assert modules >= SCHEME
    assert not {"model", "config"} & modules
