"""Plain records the store hands back for matches and tokens."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

if TYPE_CHECKING:
    from events.envelope import NewEvent

Role = Literal["host", "seat", "auditor"]
GrantRole = Literal["host", "seat", "auditor", "operator"]
MatchStatus = Literal["open", "closed"]


@dataclass(frozen=True)
class TokenRecord:
    """A bearer token as stored: only its hash. ``seat`` is set exactly for the seat role."""

    role: Role
    token_hash: str
    seat: str | None = None


@dataclass(frozen=True)
class MatchRecord:
    match_id: str
    game: str
    rules_version: str
    status: MatchStatus
    created_at: datetime
    setup: dict[str, Any]
    last_seq: int
    closed_at: datetime | None


@dataclass(frozen=True)
class NewMatch:
    """A match to create: its row (``last_seq`` 0), its tokens (hashes only) and its first
    events, stored in one transaction (``EventStore.create``, or with a tournament's round
    in the round's own: ``events.tournaments``)."""

    record: MatchRecord
    tokens: Sequence[TokenRecord]
    first_events: Sequence[NewEvent]


class TokenGrant(NamedTuple):
    """Who a token is: a match's host, seat or auditor, or the operator (``match_id`` "")."""

    match_id: str
    role: GrantRole
    seat: str | None
