"""Alembic environment. Run through ``events.migrate.upgrade``, which passes an open connection
in ``config.attributes["connection"]``; the ``alembic`` command line works too, given a URL."""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine
from sqlalchemy.pool import NullPool

from events.tables import metadata

config = context.config


def _run(connection: Connection) -> None:
    context.configure(connection=connection, target_metadata=metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


def run_online() -> None:
    connection = config.attributes.get("connection")
    if isinstance(connection, Connection):
        _run(connection)
        return
    url = config.get_main_option("sqlalchemy.url")
    if not url:
        raise RuntimeError("no database: set sqlalchemy.url or pass a connection")
    engine = create_engine(url, poolclass=NullPool)
    with engine.connect() as fresh:
        _run(fresh)
    engine.dispose()


if context.is_offline_mode():
    raise RuntimeError("offline (SQL script) migrations are not supported")
run_online()
