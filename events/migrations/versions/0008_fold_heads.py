"""The live fold's head beside the events: one derived state per match (``fold_heads``).

A row is the whole log of a match folded up to its event ``seq`` (whose hash it names), as the
live fold holds it, encoded by a named codec. Like ``fold_checkpoints`` it is derived from the
events alone and re-derivable at any time: a row is only used when its codec matches and the
stored event ``seq`` still has that hash, and losing one costs a re-fold, never a wrong answer.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "fold_heads",
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.Column("codec", sa.String(64), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("meta", sa.LargeBinary, nullable=False),
        sa.Column("state", sa.LargeBinary, nullable=False),
        sa.PrimaryKeyConstraint("match_id", "codec", name="pk_fold_heads"),
        sa.CheckConstraint("seq >= 1", name="ck_fold_heads_seq"),
    )


def downgrade() -> None:
    op.drop_table("fold_heads")
