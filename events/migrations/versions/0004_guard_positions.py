"""Guard the global position counter: it only grows and is never deleted.

Every append claims its positions from the single ``positions`` row. The service's own role may
update ``last`` (the append moves it), so without a guard it could also wind it back
(``UPDATE positions SET last = last - 1``), after which every append would collide with a
recorded position. As ``matches`` is guarded (revision 0002), a trigger now refuses an update
that lowers ``last`` or changes the row's id, and a delete, on both backends.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

SHRINKS = "the global position counter only grows"
NO_DELETE = "the global position counter is never deleted"
CHANGED = "NEW.last < OLD.last OR NEW.id <> OLD.id"


def sqlite_statements() -> list[str]:
    return [
        f"CREATE TRIGGER positions_grow BEFORE UPDATE ON positions WHEN {CHANGED}"
        f" BEGIN SELECT RAISE(ABORT, '{SHRINKS}'); END",
        "CREATE TRIGGER positions_no_delete BEFORE DELETE ON positions"
        f" BEGIN SELECT RAISE(ABORT, '{NO_DELETE}'); END",
    ]


def postgres_statements() -> list[str]:
    return [
        f"""
        CREATE FUNCTION positions_guard() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
        IF TG_OP = 'DELETE' THEN
            RAISE EXCEPTION '{NO_DELETE}' USING ERRCODE = 'restrict_violation';
        END IF;
        IF {CHANGED} THEN
            RAISE EXCEPTION '{SHRINKS}' USING ERRCODE = 'restrict_violation';
        END IF;
        RETURN NEW;
        END
        $$
        """,
        """
        CREATE TRIGGER positions_guarded BEFORE UPDATE OR DELETE ON positions
        FOR EACH ROW EXECUTE FUNCTION positions_guard()
        """,
        """
        CREATE TRIGGER positions_no_truncate BEFORE TRUNCATE ON positions
        FOR EACH STATEMENT EXECUTE FUNCTION positions_guard()
        """,
    ]


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for statement in postgres_statements() if postgres else sqlite_statements():
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION positions_guard() CASCADE")
        return
    op.execute("DROP TRIGGER positions_grow")
    op.execute("DROP TRIGGER positions_no_delete")
