"""Every game the service knows, by name. Explicit on purpose: adding a game is one line here."""

from __future__ import annotations

from typing import Any

from adjudicator import rulings
from adjudicator.games.no_not_that import NoNotThatGame
from adjudicator.games.no_not_that import events as nnt_events
from adjudicator.games.no_not_that.dictionary import Dictionaries
from adjudicator.games.zombego import ZombegoGame
from adjudicator.games.zombego import events as zombego_events
from adjudicator.games.zoom import ZoomGame
from adjudicator.games.zoom import events as zoom_events
from adjudicator.kernel.decider import Game
from adjudicator.kernel.payloads import EventTypes

GAMES: dict[str, Game[Any, Any]] = {
    ZoomGame.name: ZoomGame(),
    ZombegoGame.name: ZombegoGame(),
}


def games(words: frozenset[str] | Dictionaries) -> dict[str, Game[Any, Any]]:
    """Every game, No, Not That! included: its word lists are data the caller loads (the rules
    do no I/O; the service reads them with ``api.service.wordlists.load_dictionaries``)."""
    return {**GAMES, NoNotThatGame.name: NoNotThatGame(words)}


EVENTS = EventTypes(
    {
        **zoom_events.EVENTS.payloads,
        **nnt_events.EVENTS.payloads,
        **zombego_events.EVENTS.payloads,
        **rulings.EVENTS.payloads,
    }
)
"""Every game's event types and the rulings': ``EVENTS.decode(type, payload)`` is a recorded
payload as the rules read it (the store's events become facts by it, ``projections.facts``)."""
decode = EVENTS.decode
