"""Checkpoints of the fold beside the store, in memory: the state at any (``at``, ``known``) of a
long match without reading or re-folding all of it.

Per match (:class:`MatchFolds`) we keep the facts of the events already read (they are
immutable, so a query reads only the tail after them; the envelopes are not kept, only those of
the events with a private payload), their record times (``known_at`` maps to a seq cutoff by
binary search: a match's record times never go backwards), and states of the fold taken every
``every`` facts of the *timeline* (``adjudicator.kernel.fold.timeline``).

A checkpoint is keyed by its position ``k`` on the timeline and a digest of the timeline prefix
before it: the seqs of its first ``k`` facts, in order, and their amendments. The fold after
those ``k`` facts depends on nothing else (the game and setup are the match's, and a fact of a
given seq never changes), so a ruling recorded later invalidates exactly the checkpoints whose
prefix it changes (a void drops a seq, an amend changes an amendment, a timed ruling inserts a
seq), and a query as known before that ruling still finds them. A query computes the timeline of
its knowledge cutoff, resumes from the deepest checkpoint whose key matches and whose last fact
is at or before ``at``, applies the rest exactly as ``replay`` does, then ``advance``\\ s to
``at``. States are immutable values in every game, so a checkpointed state is shared, never
changed.

Stored checkpoints (``projections.stored_checkpoints``): with a ``backing``, a checkpoint first
taken in memory is also handed to the store (written in the background), and a query whose
timeline has a deeper checkpoint than memory holds asks the store for it (the same key: ``k``
and the prefix's digest) before folding from the deepest one in memory. After a restart the
first read of a long match thus folds only the facts after its deepest stored checkpoint.

Memory bound: at most ``capacity`` matches and, beyond the most recently asked one, at most
``max_events`` events read in all (least recently used matches dropped first; about 2 kB a
Zoom event held, with its share of the timeline and of the fold's states and their rendered
buzzes: about 400 MB at the defaults; ``infra/bench/touch_memory_bench.py`` measures a server);
per match its facts and record times as read, at most ``per_match`` checkpoint states (least
recently used dropped first), the timelines of at most ``TIMELINES`` knowledge cutoffs and the
points of ``POINTS``.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from array import array
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from adjudicator import rulings
from adjudicator.kernel.canonical import canonical_json
from adjudicator.kernel.decider import MATCH_CLOSED, Fact, Game, Setup
from adjudicator.kernel.fold import Folded, Running, apply, states, timeline
from events import EventStore, MatchRecord, StoredEvent
from projections.collector import collector_paused
from projections.facts import setup_of, to_facts
from projections.stored_checkpoints import FoldStore, StoredFolds
from projections.stored_heads import Heads, TimelineIndex
from projections.views import Known

log = logging.getLogger(__name__)

EVERY = 200
READ_PART = 1000
"""Events a background read of a match's log (``Checkpoints._read_later``) reads a job."""
PER_MATCH = 64
TIMELINES = 8
POINTS = 2
Point = Callable[[Game[Any, Any], Any, Fact], dict[str, Any]]


class Backing(Protocol):
    """Where a match's checkpoints are kept beyond memory (``stored_checkpoints.StoredFolds``)."""

    def load(self, candidates: Sequence[tuple[int, bytes]]) -> tuple[int, bytes, Any] | None:
        """The deepest of ``candidates`` (``k``, prefix digest) kept: (``k``, digest, state)."""
        ...

    def save(self, k: int, digest: bytes, state: Any) -> None:
        """Keep the state after the ``k`` facts of prefix ``digest`` (may return before it is)."""
        ...


@dataclass(frozen=True, slots=True)
class Line:
    """The timeline of one knowledge cutoff: its facts in acting order, their game times, and
    the digest of each checkpointable prefix (``digests[j]``: the first ``j * every`` facts)."""

    effects: rulings.RulingEffects
    facts: list[Fact]
    times: list[datetime]
    digests: list[bytes]


def digests(facts: Sequence[Fact], every: int) -> list[bytes]:
    """``digests[j]`` names the prefix ``facts[: j * every]``: a hash chain over the seqs and
    amendments of each segment of ``every`` facts."""
    seqs = array("q", (fact.seq for fact in facts))
    out = [b""]
    for start in range(0, len(facts) - len(facts) % every, every):
        h = hashlib.blake2b(out[-1], digest_size=16)
        h.update(seqs[start : start + every].tobytes())
        for fact in facts[start : start + every]:
            if fact.amendment is not None:
                h.update(b"%d:%s;" % (fact.seq, canonical_json(fact.amendment)))
        out.append(h.digest())
    return out


class MatchFolds:
    """One match's facts as read so far and its checkpoints (pure: no store, no clock)."""

    def __init__(
        self,
        game: Game[Any, Any],
        setup: Setup,
        every: int = EVERY,
        per_match: int = PER_MATCH,
        backing: Backing | None = None,
    ) -> None:
        self.game, self.setup = game, setup
        self.every, self.per_match = every, per_match
        self.backing = backing
        self.private: list[StoredEvent] = []  # the events with a private payload
        self.facts: list[Fact] = []
        self.recorded: list[datetime] = []
        self.last_hash: str | None = None  # the hash of the last event read
        self._lines: OrderedDict[int, Line] = OrderedDict()
        self._states: OrderedDict[tuple[int, bytes], Any] = OrderedDict()
        self._points: OrderedDict[tuple[int, Point], tuple[list[bytes], list[Any]]] = OrderedDict()
        self._lock = threading.Lock()

    @property
    def last_seq(self) -> int:
        return self.facts[-1].seq if self.facts else 0

    def add(self, events: Sequence[StoredEvent]) -> None:
        """Remember events read after ``last_seq`` (in seq order; others are ignored)."""
        with self._lock:
            self._take([e for e in events if e.seq > self.last_seq])

    def follow(self, events: Sequence[StoredEvent]) -> bool:
        """Remember events just appended when they follow ``last_seq`` (some may be held
        already); otherwise nothing (a gap: a later read fills it). Whether they did."""
        with self._lock:
            fresh = [e for e in events if e.seq > self.last_seq]
            if not fresh or fresh[0].seq != self.last_seq + 1:
                return False
            self._take(fresh)
            return True

    def _take(self, fresh: Sequence[StoredEvent]) -> None:
        """``fresh`` (the events after ``last_seq``, in seq order) remembered (lock held)."""
        self._add(to_facts(fresh), [e.recorded_at for e in fresh])
        self.private.extend(e for e in fresh if e.private_to is not None)
        if fresh:
            self.last_hash = fresh[-1].hash

    def held(self) -> tuple[int, str | None]:
        """How many facts are held and the hash of the last one's event (None when unknown),
        read together: appends followed meanwhile (:meth:`follow`) move both."""
        with self._lock:
            return len(self.facts), self.last_hash

    def add_facts(self, facts: Sequence[Fact], recorded: Sequence[datetime]) -> None:
        """Remember facts (after ``last_seq``, in seq order) and their record times, without
        their envelopes (for a caller that holds only facts)."""
        with self._lock:
            self._add(facts, recorded)
            self.last_hash = None

    def _add(self, facts: Sequence[Fact], recorded: Sequence[datetime]) -> None:
        if len(facts) != len(recorded):
            raise ValueError("one record time per fact")
        if any(f.seq != self.last_seq + i + 1 for i, f in enumerate(facts)):
            raise ValueError("facts must follow the last seq read, one by one")
        self.facts.extend(facts)
        self.recorded.extend(recorded)

    def covers(self, known: Known) -> bool:
        """Whether every event ``known`` includes has been read already (no tail to read)."""
        if known.seq is not None and known.seq <= self.last_seq:
            return True
        return known.at is not None and bool(self.recorded) and self.recorded[-1] > known.at

    def cutoff(self, known: Known) -> int:
        """How many of the facts read ``known`` includes (seq at most ``known.seq``, recorded
        at or before ``known.at``). Seqs run 1, 2, … and record times never go backwards."""
        with self._lock:
            n = len(self.facts)
            if known.seq is not None:
                n = min(n, max(known.seq, 0))
            if known.at is not None:
                n = min(n, bisect_right(self.recorded, known.at))
            return n

    def line(self, n: int) -> Line:
        """The timeline of the first ``n`` facts (remembered for the last few cutoffs)."""
        with self._lock:
            found = self._lines.get(n)
            if found is not None:
                self._lines.move_to_end(n)
                return found
        facts = self.facts[:n]
        effects = rulings.resolve(facts)
        ordered = timeline(facts, effects)
        line = Line(effects, ordered, [f.at for f in ordered], digests(ordered, self.every))
        with self._lock:
            self._lines[n] = line
            while len(self._lines) > TIMELINES:
                self._lines.popitem(last=False)
        return line

    def fold(self, n: int, at: datetime) -> Folded[Any]:
        """The fold of the first ``n`` facts at game time ``at``: equal to
        ``fold(game, setup, facts[:n], at)``."""
        line = self.line(n)
        limit = bisect_right(line.times, at)
        start, state = self._resume(line, limit)
        state = self._apply(line, start, limit, state)
        return Folded(self.game.advance(state, at), line.effects)

    def points(self, n: int, point: Point) -> list[dict[str, Any]]:
        """``point(game, state, fact)`` for each fact of the timeline of the first ``n`` facts,
        ``state`` the fold right after that fact. Remembered for the last ``POINTS`` cutoffs and
        resumed from the longest remembered prefix that a checkpoint covers (a timeline as known
        now usually only grew at its end). The dicts are shared: never change them."""
        line = self.line(n)
        with self._lock:
            found = self._points.get((n, point))
            if found is not None:
                self._points.move_to_end((n, point))
                return found[1]
            start, state, done = self._resume_points(line, point)
        game, out = self.game, done[:start]
        walked = self._walk(line, start, len(line.facts), state)
        with collector_paused:  # a point for each fact: objects by the thousand
            out.extend(point(game, after, fact) for fact, after in walked)
        with self._lock:
            self._points[(n, point)] = (line.digests, out)
            while len(self._points) > POINTS:
                self._points.popitem(last=False)
        return out

    def _resume_points(self, line: Line, point: Point) -> tuple[int, Any, list[Any]]:
        """Where remembered points and a checkpoint let ``line``'s points resume (lock held)."""
        best: tuple[int, Any, list[Any]] = (0, self.game.initial(self.setup), [])
        for (_, used), (known, done) in self._points.items():
            if used is not point:
                continue
            j = min(len(known), len(line.digests), len(done) // self.every + 1) - 1
            while j > 0 and known[j] != line.digests[j]:  # a hash chain: all before match too
                j -= 1
            while j * self.every > best[0]:
                state = self._states.get((j * self.every, line.digests[j]))
                if state is not None:
                    best = (j * self.every, state, done)
                    break
                j -= 1
        return best

    def _resume(self, line: Line, limit: int) -> tuple[int, Any]:
        """The deepest checkpoint of ``line`` within its first ``limit`` facts (in memory, or
        deeper in the backing store), or the start."""
        top, found = limit // self.every, (0, None)
        with self._lock:
            for j in range(top, 0, -1):
                key = (j * self.every, line.digests[j])
                state = self._states.get(key)
                if state is not None:
                    self._states.move_to_end(key)
                    found = (key[0], state)
                    break
        if self.backing is not None and found[0] < top * self.every:
            deeper = [
                (j * self.every, line.digests[j]) for j in range(top, found[0] // self.every, -1)
            ]
            stored = self.backing.load(deeper)
            if stored is not None:
                k, digest, state = stored
                self._keep((k, digest), state, store=False)
                return k, state
        if found[1] is not None:
            return found
        return 0, self.game.initial(self.setup)

    def running(self, n: int) -> Running[Any]:
        """The first ``n`` facts folded as :meth:`Running.start` folds them, resumed from the
        deepest checkpoint of their timeline (checkpoints taken on the way)."""
        line = self.line(n)
        count = len(line.facts)
        start, state = self._resume(line, count)
        state = self._apply(line, start, count, state)
        plays = self.game.plays
        last_play = next((f.at for f in reversed(line.facts) if f.type in plays), None)
        horizon = line.facts[-1].at if line.facts else None
        seq = self.facts[n - 1].seq if n else 0
        return Running(state, line.effects, seq, horizon, last_play)

    def warm(self, n: int) -> None:
        """Take the checkpoints of the timeline of the first ``n`` facts up to its end."""
        line = self.line(n)
        limit = len(line.facts) - len(line.facts) % self.every
        start, state = self._resume(line, limit)
        self._apply(line, start, limit, state)

    def _apply(self, line: Line, start: int, stop: int, state: Any) -> Any:
        """``line``'s facts from ``start`` up to ``stop`` applied to ``state`` (the kernel's
        ``apply``, from checkpoint to checkpoint). Every checkpoint it passes is kept."""
        every, position = self.every, start
        for boundary in range((start // every + 1) * every, stop + 1, every):
            state = apply(self.game, state, line.facts, position, boundary)
            self._keep((boundary, line.digests[boundary // every]), state)
            position = boundary
        return apply(self.game, state, line.facts, position, stop)

    def _walk(self, line: Line, start: int, stop: int, state: Any) -> Iterator[tuple[Fact, Any]]:
        """The fold of ``line``'s facts from ``start`` up to ``stop``, begun at ``state``: each
        fact with the state right after it (the kernel's ``states``). Every checkpoint it
        passes is kept."""
        every, facts = self.every, line.facts
        for k, after in enumerate(states(self.game, state, facts, start, stop), start + 1):
            if k % every == 0:
                self._keep((k, line.digests[k // every]), after)
            yield facts[k - 1], after

    def _keep(self, key: tuple[int, bytes], state: Any, store: bool = True) -> None:
        with self._lock:
            fresh = key not in self._states
            self._states[key] = state
            self._states.move_to_end(key)
            while len(self._states) > self.per_match:
                self._states.popitem(last=False)
        if fresh and store and self.backing is not None:
            self.backing.save(key[0], key[1], state)


@dataclass(frozen=True, slots=True)
class KnownLog:
    """A match's log as known at a record time: the first ``n`` events read."""

    folds: MatchFolds
    n: int

    @property
    def last_recorded(self) -> datetime | None:
        """When the last event known was recorded (None when nothing is)."""
        return self.folds.recorded[self.n - 1] if self.n else None

    @property
    def last_seq(self) -> int:
        return self.folds.facts[self.n - 1].seq if self.n else 0

    def fold(self, at: datetime) -> Folded[Any]:
        return self.folds.fold(self.n, at)


Resolve = Callable[[str], tuple[Game[Any, Any], MatchRecord]]


class Checkpoints:
    """:class:`MatchFolds` of the most recently asked ``capacity`` matches, fed from the store.

    With ``stored`` (a ``stored_checkpoints.FoldStore``), each match's checkpoints are also kept
    in the store; with ``resolve`` too (a match id to its game and record), :meth:`appended`
    (an ``EventStore.on_append`` callback) has the background thread take the checkpoints of a
    match played live each time its log grows past a multiple of the store's stride.

    Bound: ``capacity`` matches and ``max_events`` events held (see the module's docstring);
    the stored checkpoints are bounded by the store's stride (one state per ``STRIDE`` facts
    of each timeline asked for), not by memory."""

    def __init__(
        self,
        store: EventStore,
        capacity: int = 64,
        every: int = EVERY,
        per_match: int = PER_MATCH,
        max_events: int = 200_000,
        stored: FoldStore | None = None,
        resolve: Resolve | None = None,
    ) -> None:
        self.store, self.capacity, self.max_events = store, capacity, max_events
        self.every, self.per_match = every, per_match
        self.stored, self.resolve = stored, resolve
        self._matches: OrderedDict[str, MatchFolds] = OrderedDict()
        self._lock = threading.Lock()
        self._queued: set[str] = set()  # matches whose store_all is queued, not yet begun
        self._reading: set[str] = set()  # matches whose log is being read in the background

    def running(
        self, game: Game[Any, Any], match: MatchRecord, events: Sequence[StoredEvent]
    ) -> Running[Any]:
        """``Running.start`` of the match's ``events`` (all of them, as just read), resumed
        from the deepest checkpoint (a ``LiveFolds`` start)."""
        folds = self._folds(game, match)
        folds.add(events)
        self._shrink()
        last = events[-1].seq if events else 0
        return folds.running(folds.cutoff(Known(None, last)))

    def appended(self, match_id: str, stored: Sequence[StoredEvent]) -> None:
        """After an append: the events join the match's log in memory when it is held and they
        follow it (a match played live: its folds were made when its live fold started), so
        that its checkpoints' job need not read them back from the store; when the log passed
        a multiple of the stride, take (and store) the match's checkpoints in the background.
        Never raises, never blocks. One job a match is queued at a time (it reads what its log
        in memory lacks when it begins, so it covers every append before); an append while the
        match's job runs queues the next one."""
        if self.stored is None or self.resolve is None or not stored:
            return
        with self._lock:
            folds = self._matches.get(match_id)
        if folds is not None:
            try:
                folds.follow(stored)
            except Exception:  # never the append's failure: a later read takes the events
                log.warning("appended events not followed in memory", exc_info=True)
        stride = self.stored.stride
        closed = any(e.type == MATCH_CLOSED for e in stored)
        if not closed and stored[-1].seq // stride == (stored[0].seq - 1) // stride:
            return
        self._shrink()  # the logs followed in memory grew: the bound, once a stride
        with self._lock:
            if match_id in self._queued:
                return
            self._queued.add(match_id)
        if not self.stored.submit(lambda: self._warm(match_id)):
            with self._lock:
                self._queued.discard(match_id)

    def _warm(self, match_id: str) -> None:
        with self._lock:
            self._queued.discard(match_id)  # begun: a later append queues another
        assert self.resolve is not None
        self.store_all(*self.resolve(match_id))

    def store_all(self, game: Game[Any, Any], match: MatchRecord) -> None:
        """Take the match's checkpoints up to its last event and, with a ``stored``, store them
        and the head of its fold, on the caller's thread: what the background thread does after
        an append (also for a tool that wrote the events through the store directly)."""
        log = self.known(game, match, Known(None, None))
        folds = log.folds
        folds.warm(log.n)
        n, last_hash = folds.held()  # the appends followed since the read included
        if n and last_hash and self.stored:
            head = folds.running(n)
            pager = folds.backing.pager if isinstance(folds.backing, StoredFolds) else None
            line = folds.line(n)
            index = TimelineIndex.of(line.facts, folds.every, line.digests)
            Heads(self.stored).save(match.match_id, game, head, last_hash, pager, index)

    def past(
        self, game: Game[Any, Any], match: MatchRecord, at: datetime
    ) -> tuple[Folded[Any], int] | None:
        """The whole log's fold at game time ``at`` and its last seq, for a match not in
        memory, from the stored head (its timeline index, and the checkpoints it names)
        without reading the log (``Heads.past``); None when that does not apply (the caller
        reads the log).
        The match's log is then read into memory in the background, for the reads after
        (until it is, they come here too: the log is read once)."""
        if self.stored is None or (self.holds(match.match_id) and not self.reading(match)):
            return None
        initial = game.initial(setup_of(match))
        backing = self.stored.backing(match.match_id, game, initial)
        if backing is None:
            return None
        found = Heads(self.stored).past(game, match.match_id, initial, at, self.every, backing.load)
        if found is not None:
            self._read_later(game, match)
        return found

    def _read_later(self, game: Game[Any, Any], match: MatchRecord) -> None:
        """Read the match's log into memory on the background thread (once at a time), a part
        of :data:`READ_PART` events a job: between two parts the thread lets the requests in
        flight run first (``FoldStore.idle``), so a read right after the first does not share
        the GIL with the whole log's read. Until the last part is in, the reads into the past
        still come from the stored head (:meth:`past`)."""
        with self._lock:
            if match.match_id in self._reading:
                return
            self._reading.add(match.match_id)
        self._read_part(game, match)

    def _read_part(self, game: Game[Any, Any], match: MatchRecord) -> None:
        def read() -> None:
            more = False
            try:
                more = self._read_more(self._folds(game, match), match, READ_PART) == READ_PART
            finally:
                if more:
                    self._read_part(game, match)
                else:
                    with self._lock:
                        self._reading.discard(match.match_id)

        assert self.stored is not None
        if not self.stored.submit(read):
            with self._lock:
                self._reading.discard(match.match_id)

    def reading(self, match: MatchRecord) -> bool:
        """Whether the match's log is being read into memory in the background."""
        with self._lock:
            return match.match_id in self._reading

    def known(self, game: Game[Any, Any], match: MatchRecord, known: Known) -> KnownLog:
        """The match's log as ``known`` (reads only the events after those already read, and
        nothing when those already read cover ``known``)."""
        folds = self._folds(game, match)
        if not folds.covers(known):
            self._read_more(folds, match)
        return KnownLog(folds, folds.cutoff(known))

    def _read_more(self, folds: MatchFolds, match: MatchRecord, limit: int | None = None) -> int:
        """Read the match's events after those ``folds`` holds (``limit`` at most) into them;
        how many were read."""
        after = folds.last_seq
        to_seq = None if limit is None else after + limit
        with collector_paused:  # a whole log, the first time: objects by the thousand
            events = self.store.read(match.match_id, after_seq=after, to_seq=to_seq)
            folds.add(events)
        self._shrink()
        return len(events)

    def __contains__(self, match_id: object) -> bool:
        with self._lock:
            return match_id in self._matches

    def holds(self, match_id: str) -> bool:
        """Whether the match's log is in memory (read, if only up to some seq)."""
        with self._lock:
            folds = self._matches.get(match_id)
        return folds is not None and folds.last_seq > 0

    def _shrink(self) -> None:
        """Drop the least recently asked matches while more than ``max_events`` are held (the
        most recently asked match stays, however long)."""
        with self._lock:
            held = sum(len(folds.facts) for folds in self._matches.values())
            while len(self._matches) > 1 and held > self.max_events:
                _, dropped = self._matches.popitem(last=False)
                held -= len(dropped.facts)

    def _folds(self, game: Game[Any, Any], match: MatchRecord) -> MatchFolds:
        with self._lock:
            folds = self._matches.get(match.match_id)
            if folds is None or folds.game is not game:
                setup = setup_of(match)
                backing = None
                if self.stored is not None:
                    backing = self.stored.backing(match.match_id, game, game.initial(setup))
                folds = MatchFolds(game, setup, self.every, self.per_match, backing)
                self._matches[match.match_id] = folds
            self._matches.move_to_end(match.match_id)
            while len(self._matches) > self.capacity:
                self._matches.popitem(last=False)
            return folds
