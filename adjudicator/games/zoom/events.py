"""Zoom's event types and their payloads, exactly as ``decide`` records them.

Only facts are recorded: a buzz holds its pairs as posted (labels upper-cased, cells in canonical
form); whether a pair is correct is derived by the fold. ``payload_of`` and ``upcast`` are
:class:`~adjudicator.games.payloads.EventTypes`'s (every payload is at version 1).
"""

from __future__ import annotations

from pydantic import with_config
from typing_extensions import TypedDict

from adjudicator.games.payloads import STRICT, EventTypes

ROUND_STARTED = "zoom.round_started"
BUZZED = "zoom.buzzed"
PRIORITY_DECLARED = "zoom.priority_declared"
PLAYS = frozenset({ROUND_STARTED, BUZZED, PRIORITY_DECLARED})
"""Every event type of the game itself: what the fold's last play (the game time entered
commands may not go back before) is the time of."""


@with_config(STRICT)
class RoundStarted(TypedDict):
    """The host started ``round``: its grid and targets as rows of symbols (targets by label)."""

    round: int
    grid: list[list[str]]
    targets: dict[str, list[list[str]]]


@with_config(STRICT)
class BuzzPair(TypedDict):
    target: str
    at: str


@with_config(STRICT)
class Buzzed(TypedDict):
    """A seat buzzed these (target, top-left cell) pairs, in the order posted."""

    seat: str
    pairs: list[BuzzPair]


@with_config(STRICT)
class PriorityDeclared(TypedDict):
    """The Advantage holder claimed Priority for the next round."""

    seat: str


EVENTS = EventTypes(
    {ROUND_STARTED: RoundStarted, BUZZED: Buzzed, PRIORITY_DECLARED: PriorityDeclared}
)
payload_of = EVENTS.payload_of
upcast = EVENTS.upcast
