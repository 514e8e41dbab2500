"""Run the store's Alembic migrations from code: no alembic.ini needed in the working directory."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from events.engine import WRITE, make_engine
from events.grants import grant_service_role

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def upgrade(url: str, revision: str = "head", service_role: str | None = None) -> None:
    """Bring the database at ``url`` up to ``revision`` in one transaction (DDL included, on
    both backends); a no-op when it is already there. ``url`` connects as the schema's owner.
    On PostgreSQL, ``service_role`` (when given) is then granted exactly the privileges the
    service needs, in the same transaction; SQLite has no roles and ignores it."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            connection.execution_options(**{WRITE: True})  # SQLite: one BEGIN IMMEDIATE
            with connection.begin():
                config = alembic_config()
                config.attributes["connection"] = connection
                command.upgrade(config, revision)
                if service_role and connection.dialect.name == "postgresql":
                    grant_service_role(connection, service_role)
    finally:
        engine.dispose()
