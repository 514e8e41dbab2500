"""The start-up resume of the long open matches' live folds, and whether it still runs.

On start, the service resumes from their stored heads the live folds of the open matches that
have one (the long ones; newest first, at most half the live folds' bound in events; which ones
is read at the start, in one query) on the stored checkpoints' background thread, and renders
each once for the host, so that their first command or read after a restart, deploy or
failover finds them in memory. Until that is done, or for ``WARMING_SECONDS`` at most,
:meth:`Prewarm.warming` is true and ``GET /ready`` answers 503 ``warming_up``: a replica takes
its requests once its long matches are in memory, and its first requests do not share the
process with the resume. An empty store (nothing to resume) is ready at once.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import TYPE_CHECKING

from adjudicator.kernel.decider import Role, Viewer
from projections.collector import collector_paused, freeze_heap
from projections.stored_heads import Heads

if TYPE_CHECKING:
    from api.service.matches import MatchService

log = logging.getLogger(__name__)

WARMING_SECONDS = 10.0
"""How long after the start ``/ready`` waits at most for the resume before answering ready."""
HOST_VIEWER = Viewer(Role.HOST)
"""What a first read renders: the host sees everything."""


class Prewarm:
    """One service's start-up resume (:meth:`start`, once) and whether it still runs."""

    def __init__(self) -> None:
        self._done = threading.Event()
        self._until: float | None = None
        self.freeze = False
        """Whether the folds resumed are then frozen out of the collector's sight (in a
        serving process: ``api.http.app.served``)."""

    def start(self, service: MatchService) -> None:
        """Queue the resume of ``service``'s long open matches on its background thread;
        returns at once (done at once when the store takes no writes or has none to resume)."""
        self._until = time.monotonic() + WARMING_SECONDS
        stored = service.checkpoints.stored
        wanted = [] if stored is None else _wanted(service, Heads(stored))
        if stored is None or not wanted or not stored.submit(lambda: self._run(service, wanted)):
            self._done.set()

    def warming(self) -> bool:
        """Whether the resume still runs, within ``WARMING_SECONDS`` of the start."""
        if self._done.is_set() or self._until is None:
            return False
        return time.monotonic() < self._until

    def _run(self, service: MatchService, wanted: list[str]) -> None:
        """Resume ``wanted`` with the collector paused (the folds and their renderings form no
        cycles: a full collection meanwhile would walk them all and free nothing), then, in a
        serving process, collect once and freeze what is left (``freeze_heap``), so that no
        later full collection walks the resumed folds again; ready after that."""
        try:
            with collector_paused:
                for match_id in wanted:
                    resume(service, match_id)
            if self.freeze:
                freeze_heap()
        finally:
            self._done.set()


def resume(service: MatchService, match_id: str) -> None:
    """The match's live fold, resumed (from its stored head) and rendered once for the host:
    what its first read does."""
    match = service.match(match_id)
    game = service.game(match.game)
    running = service.live.current(game, match)
    game.view(running.state, HOST_VIEWER)


def _wanted(service: MatchService, heads: Heads) -> list[str]:
    """The open matches with a stored head to resume, newest first, within the budget (none
    when the store cannot say: the start goes on)."""
    try:
        found = heads.open_matches()
    except Exception:
        log.warning("open matches unreadable: none resumed at the start", exc_info=True)
        return []
    budget, wanted = service.live.max_events // 2, []
    for match_id, seq in found:
        if seq <= budget:
            budget -= seq
            wanted.append(match_id)
    return wanted
