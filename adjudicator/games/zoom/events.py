"""Zoom's event types and their payloads, exactly as ``decide`` records them.

Only facts are recorded: a buzz holds its pairs as posted (labels upper-cased, cells in canonical
form); whether a pair is correct is derived by the fold. Each payload is a frozen struct
(:class:`~adjudicator.kernel.payloads.Payload`): ``decide`` drafts it, the store records it as
JSON (``payloads.plain``), and the rules read it back decoded once (``EVENTS.decode``), a
:data:`ZoomEvent` or :class:`~adjudicator.kernel.payloads.Unreadable`. ``payload_of`` and
``upcast`` are :class:`~adjudicator.kernel.payloads.EventTypes`'s (every payload is at version 1).
"""

from __future__ import annotations

from adjudicator.kernel.payloads import EventTypes, Payload

ROUND_STARTED = "zoom.round_started"
BUZZED = "zoom.buzzed"
PRIORITY_DECLARED = "zoom.priority_declared"
PLAYS = frozenset({ROUND_STARTED, BUZZED, PRIORITY_DECLARED})
"""Every event type of the game itself: what the fold's last play (the game time entered
commands may not go back before) is the time of."""


class RoundStarted(Payload, frozen=True):
    """The host started ``round``: its grid and targets as rows of symbols (targets by label)."""

    round: int
    grid: tuple[tuple[str, ...], ...]
    targets: dict[str, tuple[tuple[str, ...], ...]]


class BuzzPair(Payload, frozen=True):
    target: str
    at: str


class Buzzed(Payload, frozen=True):
    """A seat buzzed these (target, top-left cell) pairs, in the order posted."""

    seat: str
    pairs: tuple[BuzzPair, ...]


class PriorityDeclared(Payload, frozen=True):
    """The Advantage holder claimed Priority for the next round."""

    seat: str


ZoomEvent = RoundStarted | Buzzed | PriorityDeclared
"""Every payload of the game's own events."""

EVENTS = EventTypes(
    {ROUND_STARTED: RoundStarted, BUZZED: Buzzed, PRIORITY_DECLARED: PriorityDeclared}
)
payload_of = EVENTS.payload_of
upcast = EVENTS.upcast
