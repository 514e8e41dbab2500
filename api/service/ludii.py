"""Ludii notation through the service: export a Zombego match as a Ludii game, enter one.

The conversions are pure (``adjudicator.games.zombego.ludii``); here are who may do what, the
game times of entered moves, and the one atomic append (``api.service.batch``).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime, timedelta
from typing import Any

from adjudicator.games.zombego import ludii
from adjudicator.games.zombego.state import ZombegoState
from adjudicator.kernel.errors import InvalidCommand
from api.service import access
from api.service.batch import execute_batch
from api.service.matches import MatchService
from events import MatchRecord, TokenGrant

STEP = timedelta(seconds=1)


def zombego_state(service: MatchService, match: MatchRecord) -> ZombegoState:
    """The match's current fold; 422 ``not_zombego`` for another game."""
    if match.game != "zombego":
        raise InvalidCommand("not_zombego", f"Ludii notation is for Zombego, not {match.game}")
    state = service.snapshot_of(match).folded.state
    assert isinstance(state, ZombegoState)
    return state


def export(service: MatchService, match_id: str, grant: TokenGrant | None) -> dict[str, Any]:
    """The match as a Ludii game. Perfect information: anyone. The hidden ruleset names every
    placed value, so only the host reads it before the match is closed (403 ``ludii_hidden``)."""
    match = service.match(match_id)
    state = zombego_state(service, match)
    if state.hidden:
        access.require_hidden_reader(match, grant)
    return ludii.game_json(state)


def enter(
    service: MatchService,
    match_id: str,
    grant: TokenGrant,
    game: Mapping[str, Any],
    start: datetime | None,
) -> dict[str, Any]:
    """Host: enter a Ludii game's moves into a fresh Zombego match, all or nothing.

    The whole move list is checked with the pure engine first; the moves are then recorded as
    ordinary host-entered commands one second apart from ``start`` (default: now minus one
    second per move, so the last is a second ago).
    """
    access.acting_in(grant, match_id)
    access.require_host(grant, "enters a Ludii game")
    match = service.match(match_id)
    commands = ludii.entry_commands(zombego_state(service, match), game)
    first = start or service.clock() - STEP * len(commands)
    entries = [(body, first + STEP * i) for i, body in enumerate(commands)]
    batch = execute_batch(service, match_id, grant, entries)
    return {
        "match_id": match_id,
        "entered": len(commands),
        "first_seq": batch.events[0].seq if batch.events else None,
        "last_seq": batch.events[-1].seq if batch.events else None,
        "result": batch.result,
    }
