"""Zombego's event types and their payloads, exactly as ``decide`` records them.

A placement keeps the hand slot (public in every ruleset) and, outside the hidden variant, the
value; cells are named as on the board (``a1``). In the hidden variant ``zombego.piece_dealt``
is private to its seat and ``zombego.zombie_revealed`` follows every zombie placement.
Outcomes are derived by the fold. ``payload_of`` and ``upcast`` are
:class:`~adjudicator.games.payloads.EventTypes`'s (every payload is at version 1).
"""

from __future__ import annotations

from typing import NotRequired

from pydantic import with_config
from typing_extensions import TypedDict

from adjudicator.games.payloads import STRICT, EventTypes

PLACED = "zombego.placed"
ZOMBIE_PLACED = "zombego.zombie_placed"
MOVED = "zombego.moved"
PIECE_DEALT = "zombego.piece_dealt"
ZOMBIE_REVEALED = "zombego.zombie_revealed"
PLAYS = frozenset({PLACED, ZOMBIE_PLACED, MOVED, PIECE_DEALT, ZOMBIE_REVEALED})
"""Every event type of the game itself: what the fold's last play (the game time entered
commands may not go back before) is the time of."""


@with_config(STRICT)
class Placed(TypedDict):
    """``zombego.placed`` and ``zombego.zombie_placed``: a hand piece put on ``cell``."""

    seat: str
    slot: int
    cell: str
    value: NotRequired[int]


Moved = TypedDict("Moved", {"seat": str, "from": str, "to": str})
"""A piece moved from one cell to another (``from`` is a Python keyword: functional syntax)."""
with_config(STRICT)(Moved)


@with_config(STRICT)
class PieceDealt(TypedDict):
    """Private to ``seat``: the value dealt into one of its hand slots."""

    seat: str
    slot: int
    value: int


@with_config(STRICT)
class ZombieRevealed(TypedDict):
    """The value of the zombie just placed, and the seq of the deal fact committing to it."""

    seat: str
    cell: str
    value: int
    dealt_seq: int | None


EVENTS = EventTypes(
    {
        PLACED: Placed,
        ZOMBIE_PLACED: Placed,
        MOVED: Moved,
        PIECE_DEALT: PieceDealt,
        ZOMBIE_REVEALED: ZombieRevealed,
    }
)
payload_of = EVENTS.payload_of
upcast = EVENTS.upcast
