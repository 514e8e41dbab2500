"""Guard the record: a match's fixed fields never change, its status and ``last_seq`` only move
forward, it is never deleted; on SQLite an ``INSERT OR REPLACE`` can no longer rewrite (or, by a
clash on another unique key, delete) a recorded event or a match.

SQLite's REPLACE deletes the clashing row without firing DELETE triggers (unless
``PRAGMA recursive_triggers`` is on, a per-connection setting any other client can leave off),
so BEFORE INSERT triggers refuse a row whose unique keys are taken: they live in the schema and
hold for every connection. A refused insert is still an integrity error, as a clash was before.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

FIXED = "a match's id, game, rules version, creation time and setup never change"
BACKWARDS = "a match's status only moves forward (open to closed)"
SHRINKS = "a match's last_seq only grows"
AFTER_CLOSE = "nothing is recorded after a match is closed"
CLOSED_AT = "a match's closed_at never changes once set"
NO_DELETE = "matches are never deleted"
REPLACED = "events are immutable: this insert would replace a recorded event"
MATCH_REPLACED = "a match is never replaced"

# (name, condition on OLD and NEW, message): one rule each, the same on both backends.
MATCH_RULES = [
    (
        "fixed",
        "NEW.match_id IS DISTINCT FROM OLD.match_id OR NEW.game IS DISTINCT FROM OLD.game"
        " OR NEW.rules_version IS DISTINCT FROM OLD.rules_version"
        " OR NEW.created_at IS DISTINCT FROM OLD.created_at"
        " OR CAST(NEW.setup AS TEXT) IS DISTINCT FROM CAST(OLD.setup AS TEXT)",
        FIXED,
    ),
    ("forward", "OLD.status = 'closed' AND NEW.status <> 'closed'", BACKWARDS),
    ("grows", "NEW.last_seq < OLD.last_seq", SHRINKS),
    ("after_close", "OLD.status = 'closed' AND NEW.last_seq <> OLD.last_seq", AFTER_CLOSE),
    (
        "closed_at",
        "OLD.closed_at IS NOT NULL AND NEW.closed_at IS DISTINCT FROM OLD.closed_at",
        CLOSED_AT,
    ),
]

TAKEN_EVENT = (
    "EXISTS (SELECT 1 FROM events WHERE match_id = NEW.match_id AND seq = NEW.seq)"
    " OR EXISTS (SELECT 1 FROM events WHERE position = NEW.position)"
    " OR EXISTS (SELECT 1 FROM events"
    " WHERE match_id = NEW.match_id AND idempotency_key = NEW.idempotency_key)"
)
TAKEN_MATCH = "EXISTS (SELECT 1 FROM matches WHERE match_id = NEW.match_id)"


def _sqlite_trigger(name: str, timing: str, table: str, condition: str, message: str) -> str:
    condition = condition.replace("IS DISTINCT FROM", "IS NOT")
    return (
        f"CREATE TRIGGER {name} {timing} ON {table} WHEN {condition}"
        f" BEGIN SELECT RAISE(ABORT, '{message.replace(chr(39), chr(39) * 2)}'); END"
    )


def sqlite_statements() -> list[str]:
    rules = [
        _sqlite_trigger(f"matches_{name}", "BEFORE UPDATE", "matches", condition, message)
        for name, condition, message in MATCH_RULES
    ]
    return [
        *rules,
        _sqlite_trigger("matches_no_delete", "BEFORE DELETE", "matches", "1", NO_DELETE),
        _sqlite_trigger(
            "matches_no_replace", "BEFORE INSERT", "matches", TAKEN_MATCH, MATCH_REPLACED
        ),
        _sqlite_trigger("events_no_replace", "BEFORE INSERT", "events", TAKEN_EVENT, REPLACED),
    ]


def _pg_check(condition: str, message: str) -> str:
    quoted = message.replace("'", "''")
    return (
        f"IF {condition} THEN"
        f" RAISE EXCEPTION '{quoted}' USING ERRCODE = 'restrict_violation'; END IF;"
    )


def postgres_statements() -> list[str]:
    checks = "\n        ".join(_pg_check(condition, text) for _, condition, text in MATCH_RULES)
    return [
        f"""
        CREATE FUNCTION matches_guard() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
        IF TG_OP = 'DELETE' THEN
            RAISE EXCEPTION '{NO_DELETE}' USING ERRCODE = 'restrict_violation';
        END IF;
        {checks}
        RETURN NEW;
        END
        $$
        """,
        """
        CREATE TRIGGER matches_guarded BEFORE UPDATE OR DELETE ON matches
        FOR EACH ROW EXECUTE FUNCTION matches_guard()
        """,
    ]


def upgrade() -> None:
    postgres = op.get_bind().dialect.name == "postgresql"
    for statement in postgres_statements() if postgres else sqlite_statements():
        op.execute(statement)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION matches_guard() CASCADE")
        return
    names = [f"matches_{name}" for name, _, _ in MATCH_RULES]
    for name in [*names, "matches_no_delete", "matches_no_replace", "events_no_replace"]:
        op.execute(f"DROP TRIGGER {name}")
