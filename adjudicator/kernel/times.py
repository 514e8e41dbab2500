"""Instants the service accepts: aware, and inside the range it can store, convert and compute
deadlines from.

Every time a client gives (a command's ``occurred_at``, a ruling's game time, a query's ``at`` or
``known_at``) must carry a zone and, once converted to UTC, lie between ``EARLIEST`` and
``LATEST``: years 1 to 9999 with a day's margin at each end, so that every deadline the rules
compute from an accepted time (lockouts, windows, step times: at most hours) stays representable.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Annotated

from pydantic import AfterValidator, AwareDatetime

from adjudicator.kernel.errors import InvalidCommand

FIRST = datetime.min.replace(tzinfo=UTC)  # what the store and the canonical text can hold
LAST = datetime.max.replace(tzinfo=UTC)
MARGIN = timedelta(days=1)
EARLIEST = FIRST + MARGIN  # what a client may send
LATEST = LAST - MARGIN
RANGE_TEXT = f"between {EARLIEST.date().isoformat()} and {LATEST.date().isoformat()} (UTC)"


class TimeOutOfRange(InvalidCommand):
    def __init__(self, what: str) -> None:
        super().__init__("time_out_of_range", f"{what} must lie {RANGE_TEXT}")


class NaiveTime(InvalidCommand):
    def __init__(self, what: str) -> None:
        super().__init__(
            "naive_time", f"give {what} with a zone, e.g. 2026-01-01T12:00:00Z or +02:00"
        )


def checked(moment: datetime, what: str = "a time") -> datetime:
    """``moment`` in UTC, or ``NaiveTime`` / ``TimeOutOfRange``."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise NaiveTime(what)
    try:
        utc = moment.astimezone(UTC)
    except OverflowError:
        raise TimeOutOfRange(what) from None
    if not EARLIEST <= utc <= LATEST:
        raise TimeOutOfRange(what)
    return utc


def _in_range(moment: datetime) -> datetime:
    try:
        return checked(moment)
    except InvalidCommand as error:
        raise ValueError(error.message) from None


Instant = Annotated[AwareDatetime, AfterValidator(_in_range)]
"""A request field's instant: aware, in range, converted to UTC."""
