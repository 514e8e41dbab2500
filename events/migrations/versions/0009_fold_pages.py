"""The history of a stored fold state kept apart, in pages shared by content (``fold_pages``).

A ``fold_checkpoints`` or ``fold_heads`` row of a game with a history (Zoom's buzz outcomes,
Zombego's plies) names its history's pages by digest instead of holding the whole list, so the
stored states of one timeline, and of the timelines a ruling makes, share them. Like the other
two tables it is derived from the events alone: a page missing or altered costs a re-fold, never
a wrong answer. Rows written before this revision are of an older codec and are pruned.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "fold_pages",
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.Column("codec", sa.String(64), nullable=False),
        sa.Column("digest", sa.String(32), nullable=False),
        sa.Column("entries", sa.LargeBinary, nullable=False),
        sa.PrimaryKeyConstraint("match_id", "codec", "digest", name="pk_fold_pages"),
    )


def downgrade() -> None:
    op.drop_table("fold_pages")
