"""Tournaments: their rows and their own append-only event streams.

``tournaments`` holds one row per tournament (its name, game, creation time, the organizer
token's hash and the stream's ``last_seq``); ``tournament_events`` its events, sealed and
chained as a match's are. Guarded as the match tables are: events are never updated, deleted
or replaced; a tournament's fixed fields never change, its ``last_seq`` only grows, and it is
never deleted.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from events.sqltypes import UTCDateTime

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

IMMUTABLE = "tournament events are immutable"
REPLACED = "tournament events are immutable: this insert would replace a recorded event"
FIXED = "the id, name, game, creation time and organizer of a tournament never change"
SHRINKS = "the last_seq of a tournament only grows"
NO_DELETE = "tournaments are never deleted"
CHANGED = (
    "NEW.tournament_id <> OLD.tournament_id OR NEW.name <> OLD.name OR NEW.game <> OLD.game"
    " OR NEW.created_at <> OLD.created_at OR NEW.organizer_hash <> OLD.organizer_hash"
)
TAKEN = (
    "EXISTS (SELECT 1 FROM tournament_events"
    " WHERE tournament_id = NEW.tournament_id AND seq = NEW.seq)"
)


def _create_tables() -> None:
    op.create_table(
        "tournaments",
        sa.Column("tournament_id", sa.String(36), primary_key=True),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("created_at", UTCDateTime(), nullable=False),
        sa.Column("organizer_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("last_seq", sa.Integer, nullable=False),
        sa.CheckConstraint("last_seq >= 0", name="ck_tournaments_last_seq"),
    )
    op.create_table(
        "tournament_events",
        sa.Column(
            "tournament_id",
            sa.String(36),
            sa.ForeignKey("tournaments.tournament_id"),
            nullable=False,
        ),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("type", sa.String(128), nullable=False),
        sa.Column("actor", sa.String(128), nullable=False),
        sa.Column("occurred_at", UTCDateTime(), nullable=False),
        sa.Column("recorded_at", UTCDateTime(), nullable=False),
        sa.Column("payload", sa.JSON(none_as_null=True), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "seq", name="pk_tournament_events"),
        sa.CheckConstraint("seq >= 1", name="ck_tournament_events_seq"),
    )


def _raise(message: str) -> str:
    return f"SELECT RAISE(ABORT, '{message}');"


def sqlite_statements() -> list[str]:
    return [
        *(
            f"CREATE TRIGGER tournament_events_no_{verb.lower()} BEFORE {verb}"
            f" ON tournament_events BEGIN {_raise(IMMUTABLE)} END"
            for verb in ("UPDATE", "DELETE")
        ),
        f"CREATE TRIGGER tournament_events_no_replace BEFORE INSERT ON tournament_events"
        f" WHEN {TAKEN} BEGIN {_raise(REPLACED)} END",
        f"CREATE TRIGGER tournaments_fixed BEFORE UPDATE ON tournaments WHEN {CHANGED}"
        f" BEGIN {_raise(FIXED)} END",
        "CREATE TRIGGER tournaments_grow BEFORE UPDATE ON tournaments"
        f" WHEN NEW.last_seq < OLD.last_seq BEGIN {_raise(SHRINKS)} END",
        f"CREATE TRIGGER tournaments_no_delete BEFORE DELETE ON tournaments"
        f" BEGIN {_raise(NO_DELETE)} END",
    ]


def postgres_statements() -> list[str]:
    return [
        f"""
        CREATE FUNCTION tournament_events_refuse() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION '{IMMUTABLE}' USING ERRCODE = 'restrict_violation';
        END
        $$
        """,
        """
        CREATE TRIGGER tournament_events_no_update_delete BEFORE UPDATE OR DELETE
        ON tournament_events FOR EACH ROW EXECUTE FUNCTION tournament_events_refuse()
        """,
        """
        CREATE TRIGGER tournament_events_no_truncate BEFORE TRUNCATE ON tournament_events
        FOR EACH STATEMENT EXECUTE FUNCTION tournament_events_refuse()
        """,
        f"""
        CREATE FUNCTION tournaments_guard() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
        IF TG_OP = 'DELETE' OR TG_OP = 'TRUNCATE' THEN
            RAISE EXCEPTION '{NO_DELETE}' USING ERRCODE = 'restrict_violation';
        END IF;
        IF {CHANGED} THEN
            RAISE EXCEPTION '{FIXED}' USING ERRCODE = 'restrict_violation';
        END IF;
        IF NEW.last_seq < OLD.last_seq THEN
            RAISE EXCEPTION '{SHRINKS}' USING ERRCODE = 'restrict_violation';
        END IF;
        RETURN NEW;
        END
        $$
        """,
        """
        CREATE TRIGGER tournaments_guarded BEFORE UPDATE OR DELETE ON tournaments
        FOR EACH ROW EXECUTE FUNCTION tournaments_guard()
        """,
        """
        CREATE TRIGGER tournaments_no_truncate BEFORE TRUNCATE ON tournaments
        FOR EACH STATEMENT EXECUTE FUNCTION tournaments_guard()
        """,
    ]


def upgrade() -> None:
    _create_tables()
    postgres = op.get_bind().dialect.name == "postgresql"
    for statement in postgres_statements() if postgres else sqlite_statements():
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION tournament_events_refuse() CASCADE")
        op.execute("DROP FUNCTION tournaments_guard() CASCADE")
    op.drop_table("tournament_events")
    op.drop_table("tournaments")
