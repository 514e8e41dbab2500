"""Whether a standby's copy of a match can answer a read into the past exactly as the primary
would: decided from the standby's own rows, with no clock and no replication lag estimate.

A standby replays the primary's transactions in commit order, so its copy of a match is always
a prefix of the primary's log. Within one match, commits follow seq order (an append reads the
previous event's hash, so seq n+1 commits after seq n) and record times never go back
(``events.appending.record_time``). Hence a standby holds every event of a match that a read
as known at ``(known_at, known_seq)`` needs when:

* the match is closed there (nothing is ever appended after the close), or
* it holds the event ``known_seq`` (every event up to it, then), or
* it holds an event of the match recorded after ``known_at`` (every event recorded at or
  before that instant, then: any of them committed before it).

Otherwise (the asked instant lies after the last event the standby has, a read of "now", an
unknown match) the read goes to the primary: the standby cannot tell whether it lags.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, Engine, select, text

from events.tables import events, matches

IN_RECOVERY = text("SELECT pg_is_in_recovery()")


@dataclass(frozen=True)
class Cut:
    """A read's record time: an instant, a seq, both, or neither (now, which no standby
    covers unless the match is closed)."""

    at: datetime | None = None
    seq: int | None = None


def covers(conn: Connection, match_id: str, cut: Cut) -> bool:
    """Whether the server behind ``conn`` holds every event of ``match_id`` that a read as
    known at ``cut`` needs (see the module's docstring)."""
    row = conn.execute(
        select(matches.c.status, matches.c.last_seq).where(matches.c.match_id == match_id)
    ).first()
    if row is None:
        return False
    if row.status == "closed":
        return True
    if cut.seq is not None and row.last_seq >= cut.seq:
        return True
    if cut.at is None or row.last_seq == 0:
        return False
    last_recorded = conn.execute(
        select(events.c.recorded_at).where(
            events.c.match_id == match_id, events.c.seq == row.last_seq
        )
    ).scalar_one_or_none()
    return last_recorded is not None and last_recorded > cut.at


def standby_covers(engine: Engine, match_id: str, cut: Cut) -> bool:
    """:func:`covers`, asked of a server that is still a standby (in recovery): a node promoted
    since is a primary, which the primary's own engine reaches."""
    with engine.connect() as conn, conn.begin():
        if not conn.execute(IN_RECOVERY).scalar_one():
            return False
        return covers(conn, match_id, cut)
