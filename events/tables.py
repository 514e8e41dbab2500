"""The store's schema as SQLAlchemy Core tables. Alembic migrations create it; this module is
the reference the queries are written against."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    UniqueConstraint,
)

from events.sqltypes import UTCDateTime, json_column

metadata = MetaData()

matches = Table(
    "matches",
    metadata,
    Column("match_id", String(36), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("rules_version", String(64), nullable=False),
    Column("status", String(16), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("setup", json_column(), nullable=False),
    Column("last_seq", Integer, nullable=False),
    Column("closed_at", UTCDateTime(), nullable=True),
    CheckConstraint("status IN ('open', 'closed')", name="ck_matches_status"),
    CheckConstraint("last_seq >= 0", name="ck_matches_last_seq"),
)
Index("ix_matches_game_status", matches.c.game, matches.c.status)

match_tokens = Table(
    "match_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("match_id", String(36), ForeignKey("matches.match_id"), nullable=False),
    Column("role", String(16), nullable=False),
    Column("seat", String(64), nullable=True),
    CheckConstraint("role IN ('host', 'seat', 'auditor')", name="ck_match_tokens_role"),
)
Index("ix_match_tokens_match_id", match_tokens.c.match_id)

operator_tokens = Table(
    "operator_tokens",
    metadata,
    Column("token_hash", String(64), primary_key=True),
    Column("created_at", UTCDateTime(), nullable=False),
)

SEQ_MAX = 2**31 - 1
"""The largest seq the store holds (``seq`` is a 32-bit integer on every backend)."""

events = Table(
    "events",
    metadata,
    Column("match_id", String(36), ForeignKey("matches.match_id"), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("position", BigInteger, nullable=False),
    Column("type", String(128), nullable=False),
    Column("actor", String(128), nullable=False),
    Column("occurred_at", UTCDateTime(), nullable=False),
    Column("recorded_at", UTCDateTime(), nullable=False),
    Column("payload", json_column(), nullable=False),
    Column("private_to", json_column(), nullable=True),
    Column("salt", String(64), nullable=True),
    Column("commitment", String(64), nullable=True),
    Column("idempotency_key", String(255), nullable=True),
    Column("request_digest", String(128), nullable=True),
    Column("batch_size", Integer, nullable=True),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
    Column("source", json_column(), nullable=True),
    PrimaryKeyConstraint("match_id", "seq", name="pk_events"),
    UniqueConstraint("position", name="uq_events_position"),
    UniqueConstraint("match_id", "idempotency_key", name="uq_events_idempotency_key"),
    CheckConstraint("seq >= 1", name="ck_events_seq"),
)

positions = Table(
    "positions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("last", BigInteger, nullable=False),
    CheckConstraint("id = 1", name="ck_positions_single_row"),
)

# The transparency log (``events.tlog``): an RFC 6962 Merkle tree of every closed match.

tlog_leaves = Table(
    "tlog_leaves",
    metadata,
    Column("idx", BigInteger, primary_key=True, autoincrement=False),
    Column("kind", String(16), nullable=False),
    Column("match_id", String(36), nullable=True, unique=True),
    Column("tournament_id", String(36), nullable=True),
    Column("leaf", String, nullable=False),
    Column("leaf_hash", String(64), nullable=False),
    Column("recorded_at", UTCDateTime(), nullable=False),
    CheckConstraint("idx >= 0", name="ck_tlog_leaves_idx"),
    CheckConstraint("kind IN ('match', 'key_rotation', 'tournament')", name="ck_tlog_leaves_kind"),
    UniqueConstraint("tournament_id", name="uq_tlog_leaves_tournament_id"),
)
"""One row per leaf, in the log's order; ``leaf`` is the leaf's exact bytes (canonical JSON)."""

tlog_nodes = Table(
    "tlog_nodes",
    metadata,
    Column("level", Integer, nullable=False),
    Column("idx", BigInteger, nullable=False),
    Column("hash", String(64), nullable=False),
    PrimaryKeyConstraint("level", "idx", name="pk_tlog_nodes"),
)
"""Every complete perfect subtree: the hash over leaves [idx * 2**level, (idx + 1) * 2**level)."""

tlog_checkpoints = Table(
    "tlog_checkpoints",
    metadata,
    Column("size", BigInteger, primary_key=True, autoincrement=False),
    Column("note", String, nullable=False),
    Column("signed_at", UTCDateTime(), nullable=False),
    Column("key_id", String(8), nullable=False),
)
"""The signed checkpoint of each tree size the log reached (C2SP signed note, kept verbatim)."""

tlog_cosignatures = Table(
    "tlog_cosignatures",
    metadata,
    Column("size", BigInteger, nullable=False),
    Column("key_id", String(8), nullable=False),
    Column("name", String(255), nullable=False),
    Column("line", String, nullable=False),
    Column("recorded_at", UTCDateTime(), nullable=False),
    PrimaryKeyConstraint("size", "name", "key_id", name="pk_tlog_cosignatures"),
)
"""A witness's cosignature (C2SP tlog-cosignature) of the checkpoint of ``size``."""

signing_keys = Table(
    "signing_keys",
    metadata,
    Column("key_id", String(8), primary_key=True),
    Column("name", String(255), nullable=False),
    Column("public_key", String(64), nullable=False),
    Column("private_key", String, nullable=True),
    Column("valid_from", UTCDateTime(), nullable=False),
    Column("valid_until", UTCDateTime(), nullable=True),
)
"""The log's Ed25519 keys. ``private_key`` (a signed-note skey) is kept only for a key the
service generated itself; a key configured by ``ADJUDICATOR_SIGNING_KEY`` has only its public
half here. ``valid_until`` is set once, when the key is rotated out."""

# The fold's checkpoints (``projections.stored_checkpoints``): a cache of derived states, never
# a source of truth. Rows are only added; one that no query's timeline names again is simply
# never read.

fold_checkpoints = Table(
    "fold_checkpoints",
    metadata,
    Column("match_id", String(36), nullable=False),
    Column("codec", String(64), nullable=False),
    Column("k", Integer, nullable=False),
    Column("prefix", String(32), nullable=False),
    Column("state", LargeBinary, nullable=False),
    PrimaryKeyConstraint("match_id", "codec", "k", "prefix", name="pk_fold_checkpoints"),
    CheckConstraint("k >= 1", name="ck_fold_checkpoints_k"),
)
"""The fold's state after the first ``k`` facts of a timeline whose prefix digest is ``prefix``
(hex), encoded by ``codec`` (the game's rules version, the codec's version and a digest of the
rules' code: a blob of another codec is never decoded)."""

fold_pages = Table(
    "fold_pages",
    metadata,
    Column("match_id", String(36), nullable=False),
    Column("codec", String(64), nullable=False),
    Column("digest", String(32), nullable=False),
    Column("entries", LargeBinary, nullable=False),
    PrimaryKeyConstraint("match_id", "codec", "digest", name="pk_fold_pages"),
)
"""A page of a stored state's history (``projections.stored_pages``): entries encoded by
``codec``, stored once under the BLAKE2b-128 digest (hex) of ``entries`` and named by the
``fold_checkpoints`` and ``fold_heads`` rows of the match whose states hold it."""

fold_heads = Table(
    "fold_heads",
    metadata,
    Column("match_id", String(36), nullable=False),
    Column("codec", String(64), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("hash", String(64), nullable=False),
    Column("meta", LargeBinary, nullable=False),
    Column("state", LargeBinary, nullable=False),
    PrimaryKeyConstraint("match_id", "codec", name="pk_fold_heads"),
    CheckConstraint("seq >= 1", name="ck_fold_heads_seq"),
)
"""The live fold of a match's whole log up to its event ``seq`` (whose ``hash`` it names): the
state (encoded by ``codec``, as in ``fold_checkpoints``) and ``meta`` (the fold's horizon, last
play and the rulings' effects), rewritten as the match grows; the first read after a restart
resumes from it and reads only the events after ``seq``."""
