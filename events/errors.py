"""Errors raised by the event store. One root; each subclass carries a stable ``code``.

Codes are part of the public contract (the API maps them to HTTP answers), so they never change
meaning once published.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from adjudicator.kernel.errors import quoted

if TYPE_CHECKING:
    from events.envelope import StoredEvent


class StoreError(Exception):
    """Root of every error the store raises. Nothing is recorded when one is raised."""

    code = "store_error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code!r}, {self.message!r})"


class UnknownMatch(StoreError):
    code = "unknown_match"

    def __init__(self, match_id: str) -> None:
        super().__init__(f"no match with id {quoted(match_id)}")
        self.match_id = match_id


class MatchExists(StoreError):
    code = "match_exists"

    def __init__(self, match_id: str) -> None:
        super().__init__(f"a match with id {quoted(match_id)} already exists")
        self.match_id = match_id


class DuplicateToken(StoreError):
    code = "duplicate_token"

    def __init__(self) -> None:
        super().__init__("a token with this hash is already issued")


class MatchClosed(StoreError):
    code = "match_closed"

    def __init__(self, match_id: str) -> None:
        super().__init__(f"match {match_id!r} is closed")
        self.match_id = match_id


class VersionConflict(StoreError):
    """The stream moved on since the caller read it: re-read, re-decide, retry."""

    code = "version_conflict"

    def __init__(self, expected: int, actual: int) -> None:
        super().__init__(f"expected the stream at seq {expected}, but it is at seq {actual}")
        self.expected = expected
        self.actual = actual


class IdempotentReplay(StoreError):
    """The request was already recorded: ``events`` is the batch stored the first time."""

    code = "idempotent_replay"

    def __init__(self, events: Sequence[StoredEvent]) -> None:
        super().__init__("this idempotency key was already used for the same request")
        self.events: list[StoredEvent] = list(events)


class IdempotencyKeyReused(StoreError):
    code = "idempotency_key_reused"

    def __init__(self, key: str) -> None:
        super().__init__(f"idempotency key {quoted(key)} was already used for a different request")
        self.key = key


class InvalidEvent(StoreError):
    """A batch the store refuses before touching the database (empty, naive time, bad role)."""

    code = "invalid_event"
