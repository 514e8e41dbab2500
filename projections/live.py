"""Live folds: each match's current fold kept in memory and extended with the events recorded
since, so a command costs the events it adds, not the length of the match.

Correct across replicas: a read (``current``) reads the store's tail after the cached seq; a
tail holding a ruling (which may reshape the past) or a fact earlier than the fold's horizon
re-folds the match. A command may decide against the cached fold without reading (``cached``):
its append names the seq it decided against, so if another replica got in first the append is
refused (version conflict) and the command is decided again against ``current``.

Each entry also remembers the hash and record time of the match's last event (``head``), so an
append need not read them back.

Memory bound: at most ``capacity`` matches and :data:`MAX_EVENTS` events folded in all, least
recently used dropped first.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from adjudicator.kernel.decider import Game
from adjudicator.kernel.fold import Running
from events import EventStore, MatchRecord, StoredEvent
from projections.collector import collector_paused
from projections.facts import setup_of, to_facts

MAX_EVENTS = 250_000
"""At most this many events folded by the folds held, in all (the most recently used one stays,
however long): a Zoom fold holds about 800 bytes an event once its buzzes are rendered, so about
200 MB. A fold dropped costs its next read a resume from its stored head (a few ms for every
1,000 events, plus the events after the head) or, without one, a fold of its whole log."""
Head = tuple[str, datetime]
Start = Callable[[Game[Any, Any], MatchRecord, Sequence[StoredEvent]], Running[Any]]
Resume = Callable[
    [Game[Any, Any], MatchRecord], "tuple[Running[Any], Sequence[StoredEvent]] | None"
]


@dataclass(frozen=True, slots=True)
class Live:
    running: Running[Any]
    head: Head | None  # hash and recorded_at of event ``running.seq`` (None: not known)


def head_of(events: Sequence[StoredEvent]) -> Head | None:
    return (events[-1].hash, events[-1].recorded_at) if events else None


class LiveFolds:
    def __init__(
        self,
        store: EventStore,
        capacity: int = 2048,
        start: Start | None = None,
        resume: Resume | None = None,
        max_events: int = MAX_EVENTS,
    ) -> None:
        """``start``: folds a match's whole log when none is cached (``Running.start`` unless
        given; the service resumes it from the fold's checkpoints). ``resume``: tried first
        when none is cached, the fold from a stored head and the events after it (the fold
        and those events; ``projections.stored_heads``), or None to fold the whole log."""
        self.store = store
        self.capacity, self.max_events = capacity, max_events
        self.start = start
        self.resume = resume
        self._held = 0  # the events folded by the folds held (the sum of their seqs)
        self._folds: OrderedDict[str, Live] = OrderedDict()
        self._lock = threading.Lock()

    def current(self, game: Game[Any, Any], match: MatchRecord) -> Running[Any]:
        """The fold of everything recorded so far for ``match`` (reads the store's tail)."""
        return self.current_live(game, match).running

    def current_live(self, game: Game[Any, Any], match: MatchRecord) -> Live:
        cached = self._get(match.match_id)
        if cached is not None:
            tail = self.store.read(match.match_id, after_seq=cached.running.seq)
            facts = to_facts(tail)
            if cached.running.accepts(facts):
                if not tail:
                    return cached
                return self.put(match.match_id, cached.running.extend(game, facts), head_of(tail))
        with collector_paused:  # a whole log (or a stored head) read and folded at once
            return self._whole(game, match, resume=cached is None)

    def _whole(self, game: Game[Any, Any], match: MatchRecord, resume: bool) -> Live:
        """The match's fold from its stored head (``resume``, when there is one) or from its
        whole log."""
        if resume and self.resume is not None:
            resumed = self.resume(game, match)
            if resumed is not None:
                return self.put(match.match_id, resumed[0], head_of(resumed[1]))
        events = self.store.read(match.match_id)
        if self.start is not None:
            running = self.start(game, match, events)
        else:
            running = Running.start(game, setup_of(match), to_facts(events))
        return self.put(match.match_id, running, head_of(events))

    def cached(self, game: Game[Any, Any], match: MatchRecord) -> Live:
        """The cached fold as it stands, without reading the store (``current`` if none)."""
        found = self._get(match.match_id)
        return found if found is not None else self.current_live(game, match)

    def peek(self, match_id: str) -> Live | None:
        """The cached fold as it stands, or None (never reads the store)."""
        return self._get(match_id)

    def put(self, match_id: str, running: Running[Any], head: Head | None = None) -> Live:
        live = Live(running, head)
        with self._lock:
            known = self._folds.get(match_id)
            if known is None or known.running.seq <= running.seq:
                self._folds[match_id] = live
                self._held += running.seq - (0 if known is None else known.running.seq)
            self._folds.move_to_end(match_id)
            while len(self._folds) > 1 and (
                len(self._folds) > self.capacity or self._held > self.max_events
            ):
                _, dropped = self._folds.popitem(last=False)
                self._held -= dropped.running.seq
        return live

    @property
    def held(self) -> tuple[int, int]:
        """The folds held and the events they fold, in all."""
        with self._lock:
            return len(self._folds), self._held

    def _get(self, match_id: str) -> Live | None:
        with self._lock:
            return self._folds.get(match_id)
