"""Every game the service knows, by name. Explicit on purpose: adding a game is one line here."""

from __future__ import annotations

from typing import Any

from adjudicator.games.zombego import ZombegoGame
from adjudicator.games.zoom import ZoomGame
from adjudicator.kernel.decider import Game

GAMES: dict[str, Game[Any]] = {
    ZoomGame.name: ZoomGame(),
    ZombegoGame.name: ZombegoGame(),
}
