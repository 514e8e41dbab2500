"""Zombego's event types and their payloads, exactly as ``decide`` records them.

A placement keeps the hand slot (public in every ruleset) and, outside the hidden variant, the
value; cells are named as on the board (``a1``). In the hidden variant ``zombego.piece_dealt``
is private to its seat and ``zombego.zombie_revealed`` follows every zombie placement.
Outcomes are derived by the fold. Each payload is a frozen struct, decoded once where the
store's events become facts (as Zoom's, see its ``events.py``). ``payload_of`` and ``upcast``
are :class:`~adjudicator.kernel.payloads.EventTypes`'s (every payload is at version 1).
"""

from __future__ import annotations

import msgspec

from adjudicator.kernel.payloads import EventTypes, Payload

PLACED = "zombego.placed"
ZOMBIE_PLACED = "zombego.zombie_placed"
MOVED = "zombego.moved"
PIECE_DEALT = "zombego.piece_dealt"
ZOMBIE_REVEALED = "zombego.zombie_revealed"
PLAYS = frozenset({PLACED, ZOMBIE_PLACED, MOVED, PIECE_DEALT, ZOMBIE_REVEALED})
"""Every event type of the game itself: what the fold's last play (the game time entered
commands may not go back before) is the time of."""


class Placed(Payload, frozen=True):
    """``zombego.placed`` and ``zombego.zombie_placed``: a hand piece put on ``cell`` (its
    ``value`` left out in the hidden variant: the key is then absent, never null)."""

    seat: str
    slot: int
    cell: str
    value: int | msgspec.UnsetType = msgspec.UNSET


class Moved(Payload, frozen=True):
    """A piece moved from one cell to another (recorded as ``from`` and ``to``)."""

    seat: str
    origin: str = msgspec.field(name="from")
    to: str


class PieceDealt(Payload, frozen=True):
    """Private to ``seat``: the value dealt into one of its hand slots."""

    seat: str
    slot: int
    value: int


class ZombieRevealed(Payload, frozen=True):
    """The value of the zombie just placed, and the seq of the deal fact committing to it."""

    seat: str
    cell: str
    value: int
    dealt_seq: int | None


ZombegoEvent = Placed | Moved | PieceDealt | ZombieRevealed
"""Every payload of the game's own events."""

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
