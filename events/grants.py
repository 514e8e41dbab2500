"""PostgreSQL privileges of the service role: what the running service needs and nothing more.

The schema's owner runs the migrations; the service connects as another role that may read and
append, and update exactly the columns the append path moves. Without ownership it can neither
alter the tables nor disable their triggers, and without the privileges it can neither UPDATE,
DELETE nor TRUNCATE the log. ``grant_service_role`` is re-run after every upgrade (idempotent),
so a table added by a later migration is granted at once.
"""

from __future__ import annotations

from sqlalchemy import Connection

TABLES = (
    "events",
    "matches",
    "positions",
    "match_tokens",
    "operator_tokens",
    "alembic_version",
    "tournaments",
    "tournament_events",
    "tlog_leaves",
    "tlog_nodes",
    "tlog_checkpoints",
    "tlog_cosignatures",
    "signing_keys",
    "fold_checkpoints",
    "fold_heads",
    "fold_pages",
)

GRANTS = (
    "GRANT SELECT, INSERT ON events, match_tokens, operator_tokens TO {role}",
    "GRANT DELETE ON operator_tokens TO {role}",  # rotating or revoking the operator token
    "GRANT SELECT, INSERT, UPDATE (last_seq, status, closed_at) ON matches TO {role}",
    "GRANT SELECT, UPDATE (last) ON positions TO {role}",
    "GRANT SELECT, INSERT ON tournament_events TO {role}",
    "GRANT SELECT, INSERT, UPDATE (last_seq) ON tournaments TO {role}",
    "GRANT SELECT, INSERT ON tlog_leaves, tlog_nodes, tlog_checkpoints, tlog_cosignatures"
    " TO {role}",
    "GRANT SELECT, INSERT, UPDATE (valid_until) ON signing_keys TO {role}",
    # the fold's stored checkpoints and the live fold's stored head: caches of what the log
    # folds to, whose rows of codecs no longer written the service deletes (FoldStore.prune)
    "GRANT SELECT, INSERT, DELETE ON fold_checkpoints TO {role}",
    "GRANT SELECT, INSERT, UPDATE, DELETE ON fold_heads TO {role}",
    "GRANT SELECT, INSERT, DELETE ON fold_pages TO {role}",
    # read only: lets an upgrade run as the service see that the schema is current (a no-op)
    "GRANT SELECT ON alembic_version TO {role}",
)


def quoted_role(role: str) -> str:
    """``role`` as a quoted SQL identifier; refuses an empty name or one with a NUL."""
    if not role or "\0" in role:
        raise ValueError(f"not a role name: {role!r}")
    return '"' + role.replace('"', '""') + '"'


def service_grants(role: str, schema: str = "public") -> list[str]:
    """The statements giving ``role`` exactly the service's privileges on the store's tables in
    ``schema`` (any others it held on them are revoked first)."""
    name = quoted_role(role)
    revoke = f"REVOKE ALL ON {', '.join(TABLES)} FROM {name}"
    usage = f"GRANT USAGE ON SCHEMA {quoted_role(schema)} TO {name}"
    return [revoke, usage, *(grant.format(role=name) for grant in GRANTS)]


def grant_service_role(conn: Connection, role: str) -> None:
    """Apply ``service_grants`` for ``role`` in the current schema through ``conn``, which
    connects as the tables' owner."""
    schema = str(conn.exec_driver_sql("SELECT current_schema()").scalar_one())
    for statement in service_grants(role, schema):
        conn.exec_driver_sql(statement)
