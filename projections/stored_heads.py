"""The live fold's head persisted beside the events (table ``fold_heads``), so the first read or
command of a long match after a restart reads only the events recorded after it, not the whole
log.

A head is what :class:`adjudicator.kernel.fold.Running` holds for a match's whole log up to an
event ``seq``: the state (encoded by the game's codec of ``projections.stored_checkpoints``),
the horizon, the last play and the rulings' effects; the row also names the hash of event
``seq``. The state's history is in pages shared with the match's stored checkpoints
(``projections.stored_pages``), so rewriting the head adds only the pages since the last.
One row per match and codec, rewritten (only ever forward) by the background thread
of :class:`~projections.stored_checkpoints.FoldStore` each time the log passes a multiple of its
stride and when the match closes, never on a command's path.

Used only when it is exactly right (:meth:`Heads.resume`): the codec is the running code's, the
store's event ``seq`` still has the hash named (so the row folds this very log, even after a
restore or a failover), and the events after it extend the fold as it stands
(:meth:`Running.accepts`: no ruling among them, none before the horizon). Otherwise the caller
folds the whole log as before.

The row also holds the head's *timeline index* (:class:`TimelineIndex`): the seq and game time
of each fact on the timeline of the whole log up to ``seq`` (``adjudicator.kernel.fold.timeline``,
in acting order) and the digest of each checkpointable prefix of it. A read of the state at a
past game time as known now, of a match not in memory (the first one after a restart), is then
answered without reading the log (:meth:`Heads.past`): the deepest stored checkpoint of that
timeline before the game time asked, and the events of the facts between the two, read by seq
(or, at a game time past the head's last fact, the head's own state and the facts after it).
Under the same conditions as :meth:`Heads.resume`: the events after ``seq`` only extend the
timeline at its end, so every prefix the index names is still the timeline's.
"""

from __future__ import annotations

import logging
from array import array
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec
from sqlalchemy import func, select

from adjudicator.kernel.decider import Fact, Game
from adjudicator.kernel.fold import Folded, Running, acts_on_game, apply
from adjudicator.registry import decode
from adjudicator.rulings import RulingEffects
from events import StoredEvent
from events.engine import binary_rows
from events.tables import fold_heads, matches
from projections.facts import to_facts
from projections.stored_checkpoints import FoldStore, codec_id
from projections.stored_pages import Pager

log = logging.getLogger(__name__)

Load = Callable[[Sequence[tuple[int, bytes]]], "tuple[int, bytes, Any] | None"]
"""(``k``, prefix digest) candidates, deepest first -> the deepest stored: (``k``, digest,
state); ``stored_checkpoints.StoredFolds.load``."""

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MICROSECOND = timedelta(microseconds=1)


@dataclass(frozen=True, slots=True)
class TimelineIndex:
    """The timeline of a head's log: its facts' seqs and game times (microseconds since the
    epoch), both as the bytes of an ``array("q")``, in acting order, and ``digests[j]``, the
    digest of its first ``j * every`` facts (``projections.checkpoints.digests``)."""

    every: int
    seqs: bytes
    times: bytes
    digests: list[bytes]

    @classmethod
    def of(cls, facts: Sequence[Fact], every: int, digests: Sequence[bytes]) -> TimelineIndex:
        seqs = array("q", (fact.seq for fact in facts))
        times = array("q", ((fact.at - EPOCH) // MICROSECOND for fact in facts))
        return cls(every, seqs.tobytes(), times.tobytes(), list(digests))


_Meta = tuple[
    datetime | None,
    datetime | None,
    dict[int, str],
    dict[int, dict[str, Any]],
    list[Fact],
    TimelineIndex | None,
]
_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(_Meta)


def encode_meta(running: Running[Any], index: TimelineIndex | None = None) -> bytes:
    effects = running.effects
    return _ENCODER.encode(
        (running.horizon, running.last_play, effects.voided, effects.amended, effects.timed, index)
    )


def decode_meta(blob: bytes, state: Any, seq: int) -> Running[Any]:
    """The fold's ``Running`` around ``state``."""
    return _decoded(blob, state, seq)[0]


def _decoded(blob: bytes, state: Any, seq: int) -> tuple[Running[Any], TimelineIndex | None]:
    """The fold's ``Running`` around ``state`` and the timeline index; the timed rulings'
    payloads (read back as mappings) decoded again as the store's events are
    (``registry.decode``)."""
    horizon, last_play, voided, amended, timed, index = _DECODER.decode(blob)
    timed = [replace(fact, payload=decode(fact.type, fact.payload)) for fact in timed]
    effects = RulingEffects(voided, dict(amended), timed)
    return Running(state, effects, seq, horizon, last_play), index


class Heads:
    """Stores and reads the heads of the live folds, through a :class:`FoldStore`."""

    def __init__(self, folds: FoldStore) -> None:
        self.folds = folds

    def save(
        self,
        match_id: str,
        game: Game[Any, Any],
        running: Running[Any],
        hash: str,
        pager: Pager | None = None,
        index: TimelineIndex | None = None,
    ) -> None:
        """Store ``running`` (the whole log up to event ``running.seq``, whose hash is
        ``hash``) and the ``index`` of its timeline unless a head at the same or a later seq
        is stored, with the pages of its state's history not stored yet (``pager``: the
        match's, which knows them; a fresh one by default). Runs on the caller's thread (the
        background thread's jobs call it)."""
        codec = codec_id(game)
        if codec is None or running.seq < 1:
            return
        meta = encode_meta(running, index)

        def row(state: bytes) -> Any:
            values = {"match_id": match_id, "codec": codec, "seq": running.seq, "hash": hash,
                      "meta": meta, "state": state}  # fmt: skip
            statement = self.folds.insert(fold_heads).values(values)
            return statement.on_conflict_do_update(
                index_elements=["match_id", "codec"],
                set_={k: statement.excluded[k] for k in ("seq", "hash", "meta", "state")},
                where=fold_heads.c.seq < statement.excluded.seq,
            )

        pager = pager or self.folds.pager(game, match_id)
        self.folds.save_state(match_id, codec, pager, running.state, row)

    def resume(
        self, game: Game[Any, Any], match_id: str, initial: Any
    ) -> tuple[Running[Any], Sequence[StoredEvent]] | None:
        """The live fold of the whole log, from the stored head and the events after it (read
        here, from the head's own event on): the fold and those events. None when no head
        applies (the caller folds the whole log); a store or decoding failure is logged."""
        codec = codec_id(game)
        if codec is None:
            return None
        try:
            found = self._read(match_id, codec)
            if found is None:
                return None
            seq, hash, meta, blob = found
            running = decode_meta(meta, None, seq)
            extension = self._extension(match_id, running, seq, hash)
            if extension is None:
                return None
            events, facts = extension
            state = self.folds.load_state(
                match_id, codec, self.folds.pager(game, match_id), blob, initial
            )
        except Exception:
            log.warning("stored fold head unreadable (ignored)", exc_info=True)
            return None
        stored = Running(state, running.effects, seq, running.horizon, running.last_play)
        return stored.extend(game, facts, events[-1].seq), events

    def past(
        self,
        game: Game[Any, Any],
        match_id: str,
        initial: Any,
        at: datetime,
        every: int,
        load: Load,
    ) -> tuple[Folded[Any], int] | None:
        """The fold of the whole log at game time ``at`` (as known now) and the log's last
        seq, without reading the log: before the stored head's last fact, from the deepest
        checkpoint of its timeline before ``at`` that ``load`` finds (it takes (``k``,
        digest) candidates, deepest first, as ``StoredFolds.load`` does) and the facts between,
        read by seq; at or after it, from the head's own state and the facts recorded after
        it up to ``at``. None when the head does not apply (see the module's docstring) or
        has no index of checkpoints every ``every`` facts; a store or decoding failure is
        logged."""
        codec = codec_id(game)
        if codec is None:
            return None
        try:
            found = self._read(match_id, codec, state=False)
            if found is None:
                return None
            seq, hash, meta, _ = found
            running, index = _decoded(meta, None, seq)
            extension = self._extension(match_id, running, seq, hash)
            if index is None or index.every != every or extension is None:
                return None
            events, after = extension
            times = array("q", index.times)
            limit = bisect_right(times, (at - EPOCH) // MICROSECOND)
            if limit == len(times):  # at or after the head's last fact
                state = self._head_state(game, match_id, codec, seq, initial)
                tail: list[Fact] | None = [f for f in after if acts_on_game(f) and f.at <= at]
            else:
                j = limit // every
                stored = load([(i * every, index.digests[i]) for i in range(j, 0, -1)])
                k, state = (0, initial) if stored is None else (stored[0], stored[2])
                seqs = array("q", index.seqs)
                tail = self._facts(match_id, running.effects, seqs[k:limit], times[k:limit])
        except Exception:
            log.warning("stored fold head's timeline unreadable (ignored)", exc_info=True)
            return None
        if tail is None or state is None:
            return None
        state = game.advance(apply(game, state, tail), at)
        return Folded(state, running.effects), events[-1].seq

    def _extension(
        self, match_id: str, running: Running[Any], seq: int, hash: str
    ) -> tuple[list[StoredEvent], list[Fact]] | None:
        """The events from ``seq`` on (read here) and the facts of those after it, when event
        ``seq`` still has ``hash`` (so the head folds this very log, even after a restore or a
        failover) and they only extend ``running`` (:meth:`Running.accepts`); else None."""
        events = self.folds.store.read(match_id, after_seq=seq - 1)
        if not events or events[0].seq != seq or events[0].hash != hash:
            return None
        facts = to_facts(events[1:])
        if not running.accepts(facts):
            return None
        return events, facts

    def _head_state(
        self, game: Game[Any, Any], match_id: str, codec: str, seq: int, initial: Any
    ) -> Any:
        """The state of the head at ``seq`` (None when the row has moved on since); its
        meta, read already, is not read again."""
        t = fold_heads.c
        query = select(t.state).where(t.match_id == match_id, t.codec == codec, t.seq == seq)
        with self.folds.store.engine.connect() as conn:
            rows = binary_rows(conn, query)
        if not rows:
            return None
        blob = rows[0][0]
        pager = self.folds.pager(game, match_id)
        return self.folds.load_state(match_id, codec, pager, bytes(blob), initial)

    def _facts(
        self, match_id: str, effects: RulingEffects, seqs: Sequence[int], times: Sequence[int]
    ) -> list[Fact] | None:
        """The timeline's facts of ``seqs`` as :func:`~adjudicator.kernel.fold.timeline` makes
        them (a timed ruling's from the effects, the others read, amended as ruled); None when
        one is missing or its game time is not the one indexed (nothing is served stale)."""
        timed = {fact.seq: fact for fact in effects.timed}
        wanted = [s for s in seqs if s not in timed]
        read: dict[int, Fact] = {}
        if wanted:
            events = self.folds.store.read(match_id, after_seq=min(wanted) - 1, to_seq=max(wanted))
            read = {fact.seq: fact for fact in to_facts(events)}
        out = []
        for s, time in zip(seqs, times, strict=True):
            fact = timed.get(s) or read.get(s)
            if fact is None or (fact.at - EPOCH) // MICROSECOND != time:
                return None
            amendment = effects.amended.get(s) if s not in timed else None
            out.append(fact if amendment is None else replace(fact, amendment=amendment))
        return out

    def open_matches(self) -> list[tuple[str, int]]:
        """The open matches with a stored head, newest first: (match id, the head's seq)."""
        t, m = fold_heads.c, matches.c
        query = (
            select(t.match_id, func.max(t.seq))
            .join(matches, m.match_id == t.match_id)
            .where(m.status == "open")
            .group_by(t.match_id, m.created_at)
            .order_by(m.created_at.desc())
        )
        with self.folds.store.engine.connect() as conn:
            return [(str(match_id), int(seq)) for match_id, seq in conn.execute(query)]

    def _read(
        self, match_id: str, codec: str, state: bool = True
    ) -> tuple[int, str, bytes, bytes] | None:
        """The head's row: seq, hash, meta and (unless ``state`` is False: b"") the state."""
        t = fold_heads.c
        columns = [t.seq, t.hash, t.meta, *([t.state] if state else [])]
        query = select(*columns).where(t.match_id == match_id, t.codec == codec)
        with self.folds.store.engine.connect() as conn:
            rows = binary_rows(conn, query)
        if not rows:
            return None
        row = rows[0]
        return int(row[0]), str(row[1]), bytes(row[2]), bytes(row[3]) if state else b""
