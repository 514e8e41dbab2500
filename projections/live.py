"""Live folds: each match's current fold kept in memory and extended with the events recorded
since, so a command costs the events it adds, not the length of the match.

Correct across replicas: every use reads the store's tail after the cached seq; a tail holding a
ruling (which may reshape the past) or a fact earlier than the fold's horizon re-folds the match.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from adjudicator.kernel.decider import Game
from adjudicator.kernel.fold import Running
from events import EventStore, MatchRecord
from projections.facts import setup_of, to_facts


class LiveFolds:
    def __init__(self, store: EventStore, capacity: int = 2048) -> None:
        self.store = store
        self.capacity = capacity
        self._folds: OrderedDict[str, Running[Any]] = OrderedDict()
        self._lock = threading.Lock()

    def current(self, game: Game[Any], match: MatchRecord) -> Running[Any]:
        """The fold of everything recorded so far for ``match``."""
        cached = self._get(match.match_id)
        if cached is not None:
            tail = to_facts(self.store.read(match.match_id, after_seq=cached.seq))
            if cached.accepts(tail):
                return self.put(match.match_id, cached.extend(game, tail) if tail else cached)
        facts = to_facts(self.store.read(match.match_id))
        return self.put(match.match_id, Running.start(game, setup_of(match), facts))

    def put(self, match_id: str, running: Running[Any]) -> Running[Any]:
        with self._lock:
            known = self._folds.get(match_id)
            if known is None or known.seq <= running.seq:
                self._folds[match_id] = running
            self._folds.move_to_end(match_id)
            while len(self._folds) > self.capacity:
                self._folds.popitem(last=False)
        return running

    def _get(self, match_id: str) -> Running[Any] | None:
        with self._lock:
            return self._folds.get(match_id)
