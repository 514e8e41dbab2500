"""Instants the store can keep: aware, and within years 1-9999 once converted to UTC.

A Python datetime in year 1 or 9999 with an offset may have no UTC form (``0001-01-01T00:00+01:00``
is in year 0 in UTC), and then neither the canonical text nor either backend can hold it. The API
layer bounds every instant a client sends with :func:`storable` before it reaches the rules.
"""

from __future__ import annotations

from datetime import UTC, datetime

from adjudicator.kernel.errors import InvalidCommand

EARLIEST = datetime.min.replace(tzinfo=UTC)
LATEST = datetime.max.replace(tzinfo=UTC)


def storable(moment: datetime) -> datetime:
    """``moment`` in UTC, or InvalidCommand: ``time_zone_required`` for a naive datetime,
    ``time_out_of_range`` when its UTC form falls outside years 1-9999."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise InvalidCommand("time_zone_required", "an instant needs a time zone or a Z")
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise InvalidCommand(
            "time_out_of_range",
            f"{moment.isoformat()} is outside {EARLIEST.isoformat()} .. {LATEST.isoformat()}",
        ) from None
