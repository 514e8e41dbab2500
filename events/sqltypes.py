"""Column types that round-trip exactly on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, String
from sqlalchemy.dialects.postgresql import TIMESTAMP
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine

from adjudicator.kernel.canonical import iso, parse_iso


class UTCDateTime(TypeDecorator[datetime]):
    """An aware instant: ``timestamptz`` on PostgreSQL, fixed-width ISO text elsewhere.

    The text form (``iso``: ``0999-01-02T03:04:05.000006Z``, always 27 characters, the year
    zero-padded) sorts like the instants it names, so comparisons in SQL stay correct on SQLite
    for every year from 1 to 9999. Naive datetimes are refused. Text written before years were
    padded (``999-01-02T…``) is still read.
    """

    impl = String(32)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "postgresql":
            return dialect.type_descriptor(TIMESTAMP(timezone=True))
        return dialect.type_descriptor(String(32))

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> Any:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetimes are refused: every instant carries a time zone")
        if dialect.name == "postgresql":
            return value.astimezone(UTC)
        return iso(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        return None if value is None else stored_instant(value)


def stored_instant(value: datetime | str) -> datetime:
    """A stored instant as read by the driver (psycopg's aware datetime, or SQLite's text) as
    an aware UTC datetime."""
    if isinstance(value, datetime):
        return value if value.tzinfo is UTC else value.astimezone(UTC)
    return parse_iso(_padded_year(str(value)))


def _padded_year(text: str) -> str:
    """Zero-pad a year of fewer than four digits (text stored by an older ``iso``)."""
    year, dash, rest = text.partition("-")
    return f"{year:0>4}{dash}{rest}" if dash and len(year) < 4 and year.isdigit() else text


def json_column() -> JSON:
    """JSON stored as text (``json`` on PostgreSQL, not ``jsonb``), so it round-trips as sent;
    Python ``None`` is SQL NULL."""
    return JSON(none_as_null=True)
