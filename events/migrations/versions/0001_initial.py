"""Initial schema: matches, tokens, the append-only events table, the position counter.

Revision ID: 0001
Revises:
Create Date: 2024-01-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from events.sqltypes import UTCDateTime

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

IMMUTABLE = "events are immutable: % on events is refused"

PG_IMMUTABLE = [
    f"""
    CREATE FUNCTION events_refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '{IMMUTABLE}', TG_OP USING ERRCODE = 'restrict_violation';
    END
    $$
    """,
    """
    CREATE TRIGGER events_no_update_delete BEFORE UPDATE OR DELETE ON events
    FOR EACH ROW EXECUTE FUNCTION events_refuse_change()
    """,
    """
    CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON events
    FOR EACH STATEMENT EXECUTE FUNCTION events_refuse_change()
    """,
]

SQLITE_IMMUTABLE = [
    f"""
    CREATE TRIGGER events_no_{op_name.lower()} BEFORE {op_name} ON events
    BEGIN SELECT RAISE(ABORT, '{IMMUTABLE.replace("%", op_name)}'); END
    """
    for op_name in ("UPDATE", "DELETE")
]


def _json() -> sa.JSON:
    return sa.JSON(none_as_null=True)


def _create_matches() -> None:
    op.create_table(
        "matches",
        sa.Column("match_id", sa.String(36), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("rules_version", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("setup", _json(), nullable=False),
        sa.Column("last_seq", sa.Integer, nullable=False),
        sa.Column("closed_at", UTCDateTime(), nullable=True),
        sa.CheckConstraint("status IN ('open', 'closed')", name="ck_matches_status"),
        sa.CheckConstraint("last_seq >= 0", name="ck_matches_last_seq"),
    )
    op.create_index("ix_matches_game_status", "matches", ["game", "status"])


def _create_tokens() -> None:
    op.create_table(
        "match_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("match_id", sa.String(36), sa.ForeignKey("matches.match_id"), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("seat", sa.String(64), nullable=True),
        sa.CheckConstraint("role IN ('host', 'seat', 'auditor')", name="ck_match_tokens_role"),
    )
    op.create_index("ix_match_tokens_match_id", "match_tokens", ["match_id"])
    op.create_table(
        "operator_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("created_at", UTCDateTime(), nullable=False),
    )


def _create_events() -> None:
    op.create_table(
        "events",
        sa.Column("match_id", sa.String(36), sa.ForeignKey("matches.match_id"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("position", sa.BigInteger, nullable=False),
        sa.Column("type", sa.String(128), nullable=False),
        sa.Column("actor", sa.String(128), nullable=False),
        sa.Column("occurred_at", UTCDateTime(), nullable=False),
        sa.Column("recorded_at", UTCDateTime(), nullable=False),
        sa.Column("payload", _json(), nullable=False),
        sa.Column("private_to", _json(), nullable=True),
        sa.Column("salt", sa.String(64), nullable=True),
        sa.Column("commitment", sa.String(64), nullable=True),
        sa.Column("idempotency_key", sa.String(255), nullable=True),
        sa.Column("request_digest", sa.String(128), nullable=True),
        sa.Column("batch_size", sa.Integer, nullable=True),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("match_id", "seq", name="pk_events"),
        sa.UniqueConstraint("position", name="uq_events_position"),
        sa.UniqueConstraint("match_id", "idempotency_key", name="uq_events_idempotency_key"),
        sa.CheckConstraint("seq >= 1", name="ck_events_seq"),
    )


def _create_positions() -> None:
    positions = op.create_table(
        "positions",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("last", sa.BigInteger, nullable=False),
        sa.CheckConstraint("id = 1", name="ck_positions_single_row"),
    )
    op.bulk_insert(positions, [{"id": 1, "last": 0}])


def upgrade() -> None:
    _create_matches()
    _create_tokens()
    _create_events()
    _create_positions()
    dialect = op.get_bind().dialect.name
    for statement in PG_IMMUTABLE if dialect == "postgresql" else SQLITE_IMMUTABLE:
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION events_refuse_change() CASCADE")
    for table in ("positions", "events", "operator_tokens", "match_tokens", "matches"):
        op.drop_table(table)
