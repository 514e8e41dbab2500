"""The event store: envelope, hash chain, SQLAlchemy Core tables, append and reads."""

from events.chain import ChainReport, verify_chain
from events.envelope import GENESIS_HASH, NewEvent, StoredEvent, envelope_hash, hash_of
from events.errors import (
    DuplicateToken,
    IdempotencyKeyReused,
    IdempotentReplay,
    InvalidEvent,
    MatchClosed,
    MatchExists,
    StoreError,
    UnknownMatch,
    VersionConflict,
)
from events.records import MatchRecord, NewMatch, TokenGrant, TokenRecord
from events.store import EventStore

__all__ = [
    "GENESIS_HASH",
    "ChainReport",
    "DuplicateToken",
    "EventStore",
    "IdempotencyKeyReused",
    "IdempotentReplay",
    "InvalidEvent",
    "MatchClosed",
    "MatchExists",
    "MatchRecord",
    "NewEvent",
    "NewMatch",
    "StoreError",
    "StoredEvent",
    "TokenGrant",
    "TokenRecord",
    "UnknownMatch",
    "VersionConflict",
    "envelope_hash",
    "hash_of",
    "verify_chain",
]
