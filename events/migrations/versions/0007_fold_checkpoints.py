"""The fold's checkpoints beside the events: a cache of derived states (``fold_checkpoints``).

A row is the state of a match's fold after the first ``k`` facts of a timeline named by the
digest of that prefix, encoded by a named codec. It is derived from the events alone and
re-derivable at any time, so it is not guarded as the log is: losing rows costs a re-fold,
never a wrong answer (a row is only used when its match, codec, ``k`` and prefix all match the
query's timeline).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "fold_checkpoints",
        sa.Column("match_id", sa.String(36), nullable=False),
        sa.Column("codec", sa.String(64), nullable=False),
        sa.Column("k", sa.Integer, nullable=False),
        sa.Column("prefix", sa.String(32), nullable=False),
        sa.Column("state", sa.LargeBinary, nullable=False),
        sa.PrimaryKeyConstraint("match_id", "codec", "k", "prefix", name="pk_fold_checkpoints"),
        sa.CheckConstraint("k >= 1", name="ck_fold_checkpoints_k"),
    )


def downgrade() -> None:
    op.drop_table("fold_checkpoints")
