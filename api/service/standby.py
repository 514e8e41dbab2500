"""Reads into the past served by a standby (``ADJUDICATOR_STANDBY_URL``), the primary spared.

A read as known at an earlier record time (``known_at``/``known_seq``), and any read of a closed
match, goes to a standby when the standby's own rows prove it holds everything the read needs
(``events.standby``); otherwise, or when no standby answers, to the primary. A read of "now" on
an open match always goes to the primary, so whoever has just acted sees their own command.
While the primary is down, what a standby covers is still served."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

import structlog
from sqlalchemy.exc import DBAPIError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from adjudicator.kernel.decider import Game
from api.service.matches import MatchService
from events import EventStore
from events.engine import normalise_url
from events.standby import Cut, standby_covers
from events.store import storable

log = structlog.get_logger(__name__)

READ_FROM = "Adjudicator-Read-From"
"""The response header that says which server answered a read."""
POOL_SIZE = 10
RETRY_AFTER = 5.0
"""Seconds no standby is asked after one failed to answer."""
UNREACHABLE = (OperationalError, InterfaceError, PoolTimeout)
"""What a server that cannot be reached raises (answered 503 ``store_unavailable``)."""


class Standby:
    """The standbys' engine and a read-only service over it."""

    def __init__(
        self, url: str, games: Mapping[str, Game[Any, Any]], clock: Callable[[], datetime]
    ) -> None:
        if normalise_url(url).get_backend_name() != "postgresql":
            raise ValueError("ADJUDICATOR_STANDBY_URL names PostgreSQL standbys (postgresql://…)")
        store = EventStore.from_url(url, clock=clock, pool_size=POOL_SIZE)
        self.service = MatchService(store, games, clock, writable=False)
        self._asleep_until = 0.0

    def covers(self, match_id: str, cut: Cut) -> bool:
        """Whether a standby holds all a read of ``match_id`` as known at ``cut`` needs; False
        when no standby answers (the primary is asked instead). After a standby failed to
        answer, none is asked for ``RETRY_AFTER`` seconds: a lost standby must not add its
        connect timeout to every read."""
        if not storable(match_id) or time.monotonic() < self._asleep_until:
            return False
        try:
            return standby_covers(self.service.store.engine, match_id, cut)
        except DBAPIError as error:
            self._failed(str(error.orig or error).partition("\n")[0])
        except PoolTimeout:
            self._failed("no connection came from the pool in time")
        return False

    def _failed(self, why: str) -> None:
        self._asleep_until = time.monotonic() + RETRY_AFTER
        log.info("standby_unavailable", error=why, retry_after=RETRY_AFTER)

    def dispose(self) -> None:
        self.service.store.dispose()
