"""A sealed tournament is a leaf of the transparency log (``kind`` ``tournament``).

``tlog_leaves`` gains ``tournament_id`` (unique: one seal a tournament) and its ``kind`` check
admits ``tournament``. PostgreSQL alters the table in place (no row is rewritten, so its
append-only triggers stay as they are). SQLite cannot change a CHECK constraint: the table is
made again under its name with the same rows (``DROP TABLE`` fires no trigger) and its three
guards (no UPDATE, no DELETE, no replacing INSERT) are created again, word for word as
revision 0005 made them.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from events.sqltypes import UTCDateTime

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

KINDS = "kind IN ('match', 'key_rotation', 'tournament')"
OLD_KINDS = "kind IN ('match', 'key_rotation')"
COLUMNS = "idx, kind, match_id, leaf, leaf_hash, recorded_at"
IMMUTABLE = "the transparency log is append-only"
GUARDS = (
    "CREATE TRIGGER tlog_leaves_no_update BEFORE UPDATE ON tlog_leaves"
    f" BEGIN SELECT RAISE(ABORT, '{IMMUTABLE}'); END",
    "CREATE TRIGGER tlog_leaves_no_delete BEFORE DELETE ON tlog_leaves"
    f" BEGIN SELECT RAISE(ABORT, '{IMMUTABLE}'); END",
    "CREATE TRIGGER tlog_leaves_no_replace BEFORE INSERT ON tlog_leaves"
    " WHEN EXISTS (SELECT 1 FROM tlog_leaves WHERE idx = NEW.idx)"
    f" BEGIN SELECT RAISE(ABORT, '{IMMUTABLE}'); END",
)
"""Revision 0005's guards of ``tlog_leaves`` on SQLite, word for word."""


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.add_column("tlog_leaves", sa.Column("tournament_id", sa.String(36), nullable=True))
        op.create_unique_constraint(
            "uq_tlog_leaves_tournament_id", "tlog_leaves", ["tournament_id"]
        )
        op.drop_constraint("ck_tlog_leaves_kind", "tlog_leaves", type_="check")
        op.create_check_constraint("ck_tlog_leaves_kind", "tlog_leaves", KINDS)
        return
    _sqlite_remake(KINDS, with_tournament=True)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.drop_constraint("ck_tlog_leaves_kind", "tlog_leaves", type_="check")
        op.create_check_constraint("ck_tlog_leaves_kind", "tlog_leaves", OLD_KINDS)
        op.drop_constraint("uq_tlog_leaves_tournament_id", "tlog_leaves", type_="unique")
        op.drop_column("tlog_leaves", "tournament_id")
        return
    _sqlite_remake(OLD_KINDS, with_tournament=False)


def _sqlite_remake(kinds: str, with_tournament: bool) -> None:
    extra = [sa.Column("tournament_id", sa.String(36), nullable=True)] if with_tournament else []
    uniques = [sa.UniqueConstraint("tournament_id", name="uq_tlog_leaves_tournament_id")]
    op.create_table(
        "tlog_leaves_remade",
        sa.Column("idx", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("match_id", sa.String(36), nullable=True, unique=True),
        *extra,
        sa.Column("leaf", sa.String, nullable=False),
        sa.Column("leaf_hash", sa.String(64), nullable=False),
        sa.Column("recorded_at", UTCDateTime(), nullable=False),
        sa.CheckConstraint("idx >= 0", name="ck_tlog_leaves_idx"),
        sa.CheckConstraint(kinds, name="ck_tlog_leaves_kind"),
        *(uniques if with_tournament else []),
    )
    op.execute(f"INSERT INTO tlog_leaves_remade ({COLUMNS}) SELECT {COLUMNS} FROM tlog_leaves")
    op.execute("DROP TABLE tlog_leaves")
    op.execute("ALTER TABLE tlog_leaves_remade RENAME TO tlog_leaves")
    for statement in GUARDS:
        op.execute(statement)
