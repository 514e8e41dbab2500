"""Column types that round-trip exactly on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import JSON, String
from sqlalchemy.dialects.postgresql import TIMESTAMP
from sqlalchemy.engine import Dialect
from sqlalchemy.types import TypeDecorator, TypeEngine

from adjudicator.kernel.canonical import iso


class UTCDateTime(TypeDecorator[datetime]):
    """An aware instant: ``timestamptz`` on PostgreSQL, fixed-width ISO text elsewhere.

    The text form (``2024-01-02T03:04:05.000006Z``) sorts like the instants it names, so
    comparisons in SQL stay correct on SQLite. Naive datetimes are refused.
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
        if value is None:
            return None
        if isinstance(value, datetime):
            return value.astimezone(UTC)
        return datetime.fromisoformat(str(value)).astimezone(UTC)


def json_column() -> JSON:
    """JSON stored as text (``json`` on PostgreSQL, not ``jsonb``), so it round-trips as sent;
    Python ``None`` is SQL NULL."""
    return JSON(none_as_null=True)
