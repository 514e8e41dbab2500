"""The event envelope: what a caller appends, what the store keeps, and the hash over it."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from operator import itemgetter
from typing import Any, Literal

from adjudicator.kernel.canonical import (
    fast_canonical_json,
    iso,
    plain,
    sha256_hex,
    stdlib_canonical_json,
)

GENESIS_HASH = "0" * 64
Visibility = Literal["public", "private"]


@dataclass(frozen=True)
class NewEvent:
    """An event to append. ``private_to`` names the seats that may see the payload (the host
    always can); ``None`` makes it public. ``source`` says where an entered event came from
    (a chat post: kind, channel and message id, author, posted and edited times), or None."""

    type: str
    actor: str
    occurred_at: datetime
    payload: dict[str, Any]
    private_to: tuple[str, ...] | None = None
    source: dict[str, Any] | None = None


@dataclass(frozen=True)
class StoredEvent:
    """An event as recorded. ``position`` is the global order in this store instance only."""

    match_id: str
    seq: int
    position: int
    type: str
    actor: str
    occurred_at: datetime
    recorded_at: datetime
    payload: dict[str, Any]
    private_to: tuple[str, ...] | None
    salt: str | None
    commitment: str | None
    idempotency_key: str | None
    prev_hash: str
    hash: str
    source: dict[str, Any] | None = None

    @property
    def visibility(self) -> Visibility:
        return "public" if self.private_to is None else "private"


def envelope_hash(
    *,
    match_id: str,
    seq: int,
    type: str,
    actor: str,
    occurred_at: datetime,
    recorded_at: datetime,
    payload: dict[str, Any] | None,
    private_to: tuple[str, ...] | None,
    commitment: str | None,
    idempotency_key: str | None,
    prev_hash: str,
    source: dict[str, Any] | None = None,
) -> str:
    """sha256 over the canonical envelope (``canonical_json``'s bytes). A private payload is
    hashed as null (its commitment stands for it), so a redacted export still verifies.
    ``source`` is hashed only when set, so every envelope recorded before it existed keeps its
    hash."""
    envelope = {
        "match_id": match_id,
        "seq": seq,
        "type": type,
        "actor": actor,
        "occurred_at": iso(occurred_at),
        "recorded_at": iso(recorded_at),
        "visibility": "public" if private_to is None else "private",
        "private_to": None if private_to is None else list(private_to),
        "commitment": commitment,
        "idempotency_key": idempotency_key,
        "prev_hash": prev_hash,
        "payload": payload if private_to is None else None,
    }
    if source is not None:
        envelope["source"] = source
    return sha256_hex(_canonical(envelope))


_STRINGS = frozenset({str, type(None)})
_FIXED = itemgetter("match_id", "type", "actor", "commitment", "idempotency_key", "prev_hash")


def _canonical(envelope: dict[str, Any]) -> bytes:
    """``canonical_json(envelope)``, its ``plain`` check cut short (see ``_plain``)."""
    fast = fast_canonical_json(envelope, _plain)
    return stdlib_canonical_json(envelope) if fast is None else fast


def _plain(envelope: dict[str, Any]) -> bool:
    """``plain(envelope)``: the fixed fields checked by type at once, payload and source
    walked."""
    private_to, source = envelope["private_to"], envelope.get("source")
    return (
        _STRINGS.issuperset(map(type, _FIXED(envelope)))
        and plain(envelope["seq"])
        and (private_to is None or _STRINGS.issuperset(map(type, private_to)))
        and plain(envelope["payload"])
        and (source is None or plain(source))
    )


def hash_of(event: StoredEvent) -> str:
    """The hash ``event`` should carry, recomputed from its fields."""
    return envelope_hash(
        match_id=event.match_id,
        seq=event.seq,
        type=event.type,
        actor=event.actor,
        occurred_at=event.occurred_at,
        recorded_at=event.recorded_at,
        payload=event.payload,
        private_to=event.private_to,
        commitment=event.commitment,
        idempotency_key=event.idempotency_key,
        prev_hash=event.prev_hash,
        source=event.source,
    )
