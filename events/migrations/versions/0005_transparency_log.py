"""The transparency log: the Merkle tree's leaves and nodes, its signed checkpoints, witnesses'
cosignatures and the signing keys.

Leaves, nodes, checkpoints and cosignatures are append-only, guarded as events are (no UPDATE,
DELETE or replacing INSERT on either backend; no TRUNCATE on PostgreSQL). A signing key's row
changes once: ``valid_until`` is set when it is rotated out, and never again.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from events.sqltypes import UTCDateTime

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APPEND_ONLY = ("tlog_leaves", "tlog_nodes", "tlog_checkpoints", "tlog_cosignatures")
IMMUTABLE = "the transparency log is append-only"
KEY_FIXED = "a signing key only ever gains its end of validity, once"
KEY_CHANGED = (
    "NEW.key_id IS NOT OLD.key_id OR NEW.name IS NOT OLD.name"
    " OR NEW.public_key IS NOT OLD.public_key OR NEW.private_key IS NOT OLD.private_key"
    " OR NEW.valid_from IS NOT OLD.valid_from OR OLD.valid_until IS NOT NULL"
)


def upgrade() -> None:
    _create_tables()
    statements = postgres_statements() if _dialect() == "postgresql" else sqlite_statements()
    for statement in statements:
        op.execute(statement)


def _create_tables() -> None:
    op.create_table(
        "tlog_leaves",
        sa.Column("idx", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("match_id", sa.String(36), nullable=True, unique=True),
        sa.Column("leaf", sa.String, nullable=False),
        sa.Column("leaf_hash", sa.String(64), nullable=False),
        sa.Column("recorded_at", UTCDateTime(), nullable=False),
        sa.CheckConstraint("idx >= 0", name="ck_tlog_leaves_idx"),
        sa.CheckConstraint("kind IN ('match', 'key_rotation')", name="ck_tlog_leaves_kind"),
    )
    op.create_table(
        "tlog_nodes",
        sa.Column("level", sa.Integer, nullable=False),
        sa.Column("idx", sa.BigInteger, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("level", "idx", name="pk_tlog_nodes"),
    )
    op.create_table(
        "tlog_checkpoints",
        sa.Column("size", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("note", sa.String, nullable=False),
        sa.Column("signed_at", UTCDateTime(), nullable=False),
        sa.Column("key_id", sa.String(8), nullable=False),
    )
    op.create_table(
        "tlog_cosignatures",
        sa.Column("size", sa.BigInteger, nullable=False),
        sa.Column("key_id", sa.String(8), nullable=False),
        sa.Column("name", sa.String(255), nullable=False),
        sa.Column("line", sa.String, nullable=False),
        sa.Column("recorded_at", UTCDateTime(), nullable=False),
        sa.PrimaryKeyConstraint("size", "name", "key_id", name="pk_tlog_cosignatures"),
    )
    op.create_table(
        "signing_keys",
        sa.Column("key_id", sa.String(8), primary_key=True),
        sa.Column("name", sa.String(255), nullable=False),
        sa.Column("public_key", sa.String(64), nullable=False),
        sa.Column("private_key", sa.String, nullable=True),
        sa.Column("valid_from", UTCDateTime(), nullable=False),
        sa.Column("valid_until", UTCDateTime(), nullable=True),
    )


def _dialect() -> str:
    return str(op.get_bind().dialect.name)


def sqlite_statements() -> list[str]:
    out = []
    for table in APPEND_ONLY:
        out += [
            f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table}"
            f" BEGIN SELECT RAISE(ABORT, '{IMMUTABLE}'); END",
            f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table}"
            f" BEGIN SELECT RAISE(ABORT, '{IMMUTABLE}'); END",
        ]
    out += [
        f"CREATE TRIGGER signing_keys_fixed BEFORE UPDATE ON signing_keys WHEN {KEY_CHANGED}"
        f" BEGIN SELECT RAISE(ABORT, '{KEY_FIXED}'); END",
        "CREATE TRIGGER signing_keys_no_delete BEFORE DELETE ON signing_keys"
        f" BEGIN SELECT RAISE(ABORT, '{KEY_FIXED}'); END",
    ]
    return out + _sqlite_no_replace()


def _sqlite_no_replace() -> list[str]:
    """``INSERT OR REPLACE`` deletes a clashing row without firing DELETE triggers: refuse it."""
    keys = {
        "tlog_leaves": "idx = NEW.idx",
        "tlog_nodes": "level = NEW.level AND idx = NEW.idx",
        "tlog_checkpoints": "size = NEW.size",
    }
    return [
        f"CREATE TRIGGER {table}_no_replace BEFORE INSERT ON {table}"
        f" WHEN EXISTS (SELECT 1 FROM {table} WHERE {where})"
        f" BEGIN SELECT RAISE(ABORT, '{IMMUTABLE}'); END"
        for table, where in keys.items()
    ]


def postgres_statements() -> list[str]:
    out = [
        f"""
        CREATE FUNCTION tlog_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
        RAISE EXCEPTION '{IMMUTABLE}' USING ERRCODE = 'restrict_violation';
        END
        $$
        """,
        f"""
        CREATE FUNCTION signing_keys_guard() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
        IF TG_OP <> 'UPDATE' OR {KEY_CHANGED.replace("IS NOT", "IS DISTINCT FROM")} THEN
            RAISE EXCEPTION '{KEY_FIXED}' USING ERRCODE = 'restrict_violation';
        END IF;
        RETURN NEW;
        END
        $$
        """,
        """
        CREATE TRIGGER signing_keys_guarded BEFORE UPDATE OR DELETE ON signing_keys
        FOR EACH ROW EXECUTE FUNCTION signing_keys_guard()
        """,
    ]
    for table in APPEND_ONLY:
        out += [
            f"CREATE TRIGGER {table}_immutable BEFORE UPDATE OR DELETE ON {table}"
            " FOR EACH ROW EXECUTE FUNCTION tlog_append_only()",
            f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table}"
            " FOR EACH STATEMENT EXECUTE FUNCTION tlog_append_only()",
        ]
    return out


def downgrade() -> None:
    if _dialect() == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS tlog_append_only() CASCADE")
        op.execute("DROP FUNCTION IF EXISTS signing_keys_guard() CASCADE")
    for table in ("signing_keys", *reversed(APPEND_ONLY)):
        op.drop_table(table)
