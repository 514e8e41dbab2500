"""How a request is retried and made idempotent: the pieces every acting path (commands,
rulings, closing, atomic batches) shares.

``retrying`` re-runs an attempt while another writer got in first; ``scoped_key`` and
``request_digest`` are what the store keeps to answer a repeated ``Idempotency-Key``;
``not_in_future`` checks an entered game time.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, TypeVar

from adjudicator.kernel.canonical import canonical_json, sha256_hex
from adjudicator.kernel.errors import InvalidCommand
from events import VersionConflict

MAX_ATTEMPTS = 5
T = TypeVar("T")


def retrying(attempt: Callable[[int], T]) -> T:
    """Run ``attempt(n)`` again while another writer got in first (``n`` counts the tries; a
    retry re-reads the stream); after ``MAX_ATTEMPTS`` the last ``VersionConflict`` reaches the
    caller (409)."""
    for n in range(MAX_ATTEMPTS - 1):
        try:
            return attempt(n)
        except VersionConflict:
            continue
    return attempt(MAX_ATTEMPTS - 1)


def scoped_key(actor: str, key: str | None) -> str | None:
    """An ``Idempotency-Key`` as stored: scoped to the actor, so one actor's key never finds
    (or refuses) another actor's request, and a guessed key tells nothing."""
    return None if key is None else f"{actor}/{key}"


def request_digest(actor: str, request: Any, at: datetime | None) -> str:
    """What a retry must repeat exactly: the actor, the request and its entered game time."""
    return sha256_hex(canonical_json({"actor": actor, "request": request, "at": at}))


def not_in_future(moment: datetime, now: datetime) -> datetime:
    if moment > now:
        raise InvalidCommand("game_time_in_future", "an entered game time cannot be ahead")
    return moment
