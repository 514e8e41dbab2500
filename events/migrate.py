"""Run the store's Alembic migrations from code: no alembic.ini needed in the working directory."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from events.engine import WRITE, make_engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database at ``url`` up to ``revision`` in one transaction (DDL included, on
    both backends); a no-op when it is already there."""
    engine = make_engine(url)
    try:
        with engine.connect() as connection:
            connection.execution_options(**{WRITE: True})  # SQLite: one BEGIN IMMEDIATE
            with connection.begin():
                config = alembic_config()
                config.attributes["connection"] = connection
                command.upgrade(config, revision)
    finally:
        engine.dispose()
