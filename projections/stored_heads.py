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
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

import msgspec
from sqlalchemy import func, select

from adjudicator.kernel.decider import Fact, Game
from adjudicator.kernel.fold import Running
from adjudicator.registry import decode
from adjudicator.rulings import RulingEffects
from events import StoredEvent
from events.tables import fold_heads, matches
from projections.facts import to_facts
from projections.stored_checkpoints import FoldStore, codec_id
from projections.stored_pages import Pager

log = logging.getLogger(__name__)

_Meta = tuple[
    datetime | None, datetime | None, dict[int, str], dict[int, dict[str, Any]], list[Fact]
]
_ENCODER = msgspec.msgpack.Encoder()
_DECODER = msgspec.msgpack.Decoder(_Meta)


def encode_meta(running: Running[Any]) -> bytes:
    effects = running.effects
    return _ENCODER.encode(
        (running.horizon, running.last_play, effects.voided, effects.amended, effects.timed)
    )


def decode_meta(blob: bytes, state: Any, seq: int) -> Running[Any]:
    """The fold's ``Running`` around ``state``; the timed rulings' payloads (read back as
    mappings) decoded again as the store's events are (``registry.decode``)."""
    horizon, last_play, voided, amended, timed = _DECODER.decode(blob)
    timed = [replace(fact, payload=decode(fact.type, fact.payload)) for fact in timed]
    return Running(state, RulingEffects(voided, dict(amended), timed), seq, horizon, last_play)


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
    ) -> None:
        """Store ``running`` (the whole log up to event ``running.seq``, whose hash is
        ``hash``) unless a head at the same or a later seq is stored, with the pages of its
        state's history not stored yet (``pager``: the match's, which knows them; a fresh
        one by default). Runs on the caller's thread (the background thread's jobs call it)."""
        codec = codec_id(game)
        if codec is None or running.seq < 1:
            return
        meta = encode_meta(running)

        def row(state: bytes) -> Any:
            values = {"match_id": match_id, "codec": codec, "seq": running.seq, "hash": hash,
                      "meta": meta, "state": state}  # fmt: skip
            statement = self.folds.insert(fold_heads).values(values)
            return statement.on_conflict_do_update(
                index_elements=["match_id", "codec"],
                set_={k: statement.excluded[k] for k in ("seq", "hash", "meta", "state")},
                where=fold_heads.c.seq < statement.excluded.seq,
            )

        pager = pager or self.folds.pager(game)
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
            events = self.folds.store.read(match_id, after_seq=seq - 1)
            if not events or events[0].seq != seq or events[0].hash != hash:
                return None
            facts = to_facts(events[1:])
            running = decode_meta(meta, None, seq)
            if not running.accepts(facts):
                return None
            state = self.folds.load_state(match_id, codec, self.folds.pager(game), blob, initial)
        except Exception:
            log.warning("stored fold head unreadable (ignored)", exc_info=True)
            return None
        stored = Running(state, running.effects, seq, running.horizon, running.last_play)
        return stored.extend(game, facts, events[-1].seq), events

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

    def _read(self, match_id: str, codec: str) -> tuple[int, str, bytes, bytes] | None:
        t = fold_heads.c
        query = select(t.seq, t.hash, t.meta, t.state).where(
            t.match_id == match_id, t.codec == codec
        )
        with self.folds.store.engine.connect() as conn:
            row = conn.execute(query).first()
        if row is None:
            return None
        return int(row.seq), str(row.hash), bytes(row.meta), bytes(row.state)
