"""The fold's checkpoints persisted beside the events (table ``fold_checkpoints``), so the first
read of a long match after a restart resumes from a stored state instead of re-folding it all.

A stored checkpoint has the in-memory one's key (``projections.checkpoints``): the match, the
position ``k`` on the timeline and the digest of the timeline's first ``k`` facts (their seqs and
amendments), plus the *codec* that encoded it: the game's rules version, :data:`CODEC_VERSION`
and a digest of the source of the game's package, the fold and the rulings. A change to the
rules' code or to the state's shape therefore names a new codec, and old blobs are never
decoded (they are never asked for again; a service deletes them when it starts, a few hundred
rows a transaction: ``FoldStore.prune``, run after the start-up resume). A query uses a
stored state only when its own timeline has exactly that prefix, as the in-memory lookup does,
so nothing is served stale.

States are encoded with msgspec's MessagePack against the game's concrete state type (never
pickle: a row in the database must never become code execution). The parts of a state fixed by
the match's setup (No, Not That!'s configuration and word list, Zombego's rules and opening)
are not stored but taken from the initial state on decoding. Every game has a codec.

Writes happen off the command's path: a checkpoint first taken in memory is handed to one
background thread (:class:`FoldStore`), which encodes and inserts it in its own short
transaction; a full queue drops it, and a failure is logged and ignored (a missing row only
costs a re-fold). The same thread takes checkpoints of matches played live (whose fold is
extended command by command and never passes through the checkpoints): see
``Checkpoints.appended``.
"""

from __future__ import annotations

import hashlib
import logging
import queue
import threading
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, Protocol

import msgspec
from pydantic import BaseModel
from sqlalchemy import Table, delete, select, tuple_
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert

from adjudicator.games.no_not_that.state import NoNotThatState, Phase, RoundState, SeatState
from adjudicator.games.zombego.position import Move, Position, Result
from adjudicator.games.zombego.state import Plies, PlyRecord, ZombegoState
from adjudicator.games.zoom.grid import Board
from adjudicator.games.zoom.state import BuzzOutcome, Outcomes, ZoomState
from adjudicator.kernel.decider import Game
from events import EventStore
from events.tables import fold_checkpoints, fold_heads

log = logging.getLogger(__name__)

CODEC_VERSION = 1
"""Bumped by hand whenever an encoding changes (the code digest catches most changes anyway)."""
QUEUE = 256
"""Jobs the writer holds at most; beyond, a checkpoint is not stored (a later one will be)."""
PRUNE_BATCH = 500
"""Rows of stale codecs deleted per transaction (``FoldStore.prune``)."""
STRIDE = 1000
"""Only checkpoints at a multiple of this many timeline facts are stored: a 10,000-event Zoom
match's state is about 1.1 MB encoded (114 bytes a buzz), so its ten stored states take about
6 MB, and a first read after a restart folds at most this many facts after the one it finds
(about 6 ms of CPU for Zoom) beside decoding it. A Zoom state holds every buzz before it, so a
timeline's stored states grow with the square of the match (``docs/scaling.md``)."""


def _enc_hook(value: object) -> object:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    raise NotImplementedError(f"cannot encode {type(value).__name__}")


def _dec_hook(kind: type, value: object) -> object:
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return kind.model_validate(value)
    raise NotImplementedError(f"cannot decode {kind}")


_ENCODER = msgspec.msgpack.Encoder(enc_hook=_enc_hook)


class Codec(Protocol):
    """Encodes a game's states exactly: ``decode(encode(s), initial) == s``, of the same type
    (``initial``: the match's initial state, for the parts the setup fixes)."""

    def encode(self, state: Any) -> bytes: ...

    def decode(self, blob: bytes, initial: Any) -> Any: ...


class ZoomCodec:
    """Zoom's state, its buzz outcomes (a cons list, as deep as the match is long) flattened
    oldest first; its configuration (a pydantic model) as JSON values. The memos that take no
    part in equality: a buzz's rendered view (JSON values) is kept, the board's hits are not."""

    _decoder = msgspec.msgpack.Decoder(tuple[ZoomState, list[BuzzOutcome]], dec_hook=_dec_hook)

    def encode(self, state: ZoomState) -> bytes:
        outcomes = list(state.outcomes or ())
        outcomes.reverse()
        bare = replace(state, outcomes=None)
        if state.round is not None:  # the board's memo of hits grows as requests read it
            board = state.round.board
            fresh = Board(board.grid, board.targets, board.encoded_grid, board.encoded_targets)
            bare = replace(bare, round=replace(state.round, board=fresh))
        return _ENCODER.encode((bare, outcomes))

    def decode(self, blob: bytes, initial: ZoomState) -> ZoomState:
        state, outcomes = self._decoder.decode(blob)
        node: Outcomes | None = None
        for outcome in outcomes:
            node = Outcomes(outcome, node)
        return replace(state, outcomes=node)


_NntFields = tuple[
    Phase,
    Mapping[str, SeatState],
    RoundState | None,
    int,
    tuple[Mapping[str, Any], ...],
    Mapping[str, Any] | None,
    Mapping[int, Mapping[str, Any]],
    Mapping[int, str],
]


class NoNotThatCodec:
    """No, Not That!'s state without its fixed part (configuration, seats and word list, taken
    from the initial state)."""

    _decoder = msgspec.msgpack.Decoder(_NntFields, dec_hook=_dec_hook)

    def encode(self, state: NoNotThatState) -> bytes:
        return _ENCODER.encode(
            (
                state.phase,
                state.seats,
                state.round,
                state.rounds_played,
                state.round_results,
                state.result,
                state.outcomes,
                state.voided,
            )
        )

    def decode(self, blob: bytes, initial: NoNotThatState) -> NoNotThatState:
        fields = self._decoder.decode(blob)
        return NoNotThatState(initial.fixed, *fields)


_Board = tuple[
    tuple[int, ...],
    tuple[tuple[int, ...], tuple[int, ...]],
    tuple[int, int],
    int,
    int,
    int,
    Result | None,
    tuple[Move, ...],
]
"""A Zombego position without its rules (the match's, taken from the initial state)."""
_ZombegoFields = tuple[
    _Board,
    list[PlyRecord],
    tuple[tuple[int, str], ...],
    list[tuple[int, int, int]],
    dict[str, Any] | None,
]


class ZombegoCodec:
    """Zombego's state without its fixed part (seats, configuration, seed and opening, taken from
    the initial state): the position without its rules, the plies (a cons list, as deep as the
    match is long) flattened oldest first, and the dealt pieces as (player, slot, value)."""

    _decoder = msgspec.msgpack.Decoder(_ZombegoFields)

    def encode(self, state: ZombegoState) -> bytes:
        plies = list(state.plies or ())
        plies.reverse()
        dealt = [(player, slot, value) for (player, slot), value in state.dealt.items()]
        declared = None if state.declared_result is None else dict(state.declared_result)
        return _ENCODER.encode((state.position[1:], plies, state.voided, dealt, declared))

    def decode(self, blob: bytes, initial: ZombegoState) -> ZombegoState:
        board, plies, voided, dealt, declared = self._decoder.decode(blob)
        node: Plies | None = None
        for ply in plies:
            node = Plies(ply, node)
        position = Position(initial.position.rules, *board)
        return replace(
            initial,
            position=position,
            plies=node,
            voided=voided,
            dealt={(player, slot): value for player, slot, value in dealt},
            declared_result=declared,
        )


CODECS: dict[str, Codec] = {
    "zoom": ZoomCodec(),
    "no_not_that": NoNotThatCodec(),
    "zombego": ZombegoCodec(),
}
"""The games whose checkpoints are stored, by name."""

_ROOT = Path(__file__).resolve().parents[1]
_SOURCES = ("adjudicator/kernel", "adjudicator/rulings.py", "projections/stored_checkpoints.py")
_codec_ids: dict[str, str] = {}


def codec_id(game: Game[Any, Any]) -> str | None:
    """The name of the codec of ``game``'s stored states, or None when they are not stored: its
    rules version, :data:`CODEC_VERSION` and a digest of the code the states depend on."""
    if game.name not in CODECS:
        return None
    found = _codec_ids.get(game.name)
    if found is None:
        package = Path(type(game).__module__.replace(".", "/"))
        h = hashlib.blake2b(digest_size=8)
        for place in (str(package.parent), *_SOURCES):
            path = _ROOT / place
            for source in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
                h.update(source.relative_to(_ROOT).as_posix().encode() + b"\0")
                h.update(source.read_bytes() + b"\0")
        found = _codec_ids[game.name] = f"{game.rules_version}:{CODEC_VERSION}:{h.hexdigest()}"
    return found


class FoldStore:
    """Reads stored checkpoints on the caller's thread; writes them (and runs other background
    jobs) on one daemon thread of its own."""

    def __init__(self, store: EventStore, size: int = QUEUE, stride: int = STRIDE) -> None:
        self.store, self.stride = store, stride
        self._jobs: queue.Queue[Callable[[], object] | None] = queue.Queue(size)
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        self._closed = False
        self.dropped = 0

    def backing(self, match_id: str, game: Game[Any, Any], initial: Any) -> StoredFolds | None:
        """The stored checkpoints of one match (None when ``game``'s states are not stored)."""
        codec = codec_id(game)
        if codec is None:
            return None
        return StoredFolds(self, match_id, codec, CODECS[game.name], initial)

    def submit(self, job: Callable[[], object]) -> bool:
        """Run ``job`` on the background thread (False, and not run, when the queue is full
        or the store is closed)."""
        if not self._ensure_thread():
            return False
        try:
            self._jobs.put_nowait(job)
        except queue.Full:
            self.dropped += 1
            return False
        return True

    def flush(self) -> None:
        """Wait until every job submitted so far has run (for tests and benchmarks)."""
        if self._thread is not None:
            self._jobs.join()

    def close(self) -> None:
        """Take no more jobs, and stop the background thread once the queued ones have run
        (before the store's connections are closed: a job left running would open one)."""
        with self._start:
            self._closed, thread = True, self._thread
        if thread is not None:
            self._jobs.put(None)
            thread.join()
            self._thread = None

    def _ensure_thread(self) -> bool:
        """Start the background thread if need be; False once closed."""
        with self._start:
            if self._closed:
                return False
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._run, name="fold-checkpoints", daemon=True
                )
                self._thread.start()
            return True

    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            try:
                if job is None:
                    return
                job()
            except Exception:
                log.warning("fold checkpoint job failed (ignored)", exc_info=True)
            finally:
                self._jobs.task_done()

    def read(
        self, match_id: str, codec: str, candidates: Sequence[tuple[int, bytes]]
    ) -> tuple[int, bytes, bytes] | None:
        """The deepest of ``candidates`` (``k``, prefix digest) stored: (``k``, digest, blob)."""
        if not candidates:
            return None
        wanted = {k: digest.hex() for k, digest in candidates}
        t = fold_checkpoints.c
        mine = (t.match_id == match_id, t.codec == codec)
        with self.store.engine.connect() as conn:
            rows = conn.execute(select(t.k, t.prefix).where(*mine, t.k.in_(list(wanted))))
            found = sorted((int(k), prefix) for k, prefix in rows if wanted.get(int(k)) == prefix)
            if not found:
                return None
            k, prefix = found[-1]
            blob = conn.execute(
                select(t.state).where(*mine, t.k == k, t.prefix == prefix)
            ).scalar_one()
        return k, bytes.fromhex(prefix), bytes(blob)

    def write(self, match_id: str, codec: str, k: int, digest: bytes, blob: bytes) -> None:
        """Insert one checkpoint (nothing when it is stored already)."""
        row = {"match_id": match_id, "codec": codec, "k": k, "prefix": digest.hex(), "state": blob}
        self.execute(self.insert(fold_checkpoints).values(row).on_conflict_do_nothing())

    def prune(self, current: Collection[str]) -> int:
        """Delete the stored checkpoints and heads of every codec but ``current`` (the codecs
        of the running code's games: rows of any other are never read again, and a deploy
        names new codecs), ``PRUNE_BATCH`` rows a transaction, so that appends waiting for the
        write turn wait for one short delete at a time; returns how many rows went."""
        removed = 0
        for table in (fold_checkpoints, fold_heads):
            key = list(table.primary_key.columns)
            stale = select(*key).where(table.c.codec.not_in(list(current))).limit(PRUNE_BATCH)
            while True:
                with self.store.engine.connect() as conn:
                    rows = [tuple(row) for row in conn.execute(stale)]
                if not rows:
                    break
                self.execute(delete(table).where(tuple_(*key).in_(rows)))
                removed += len(rows)
        return removed

    def insert(self, table: Table) -> Any:
        """An INSERT into ``table`` in the store's dialect (both have ON CONFLICT)."""
        dialect = self.store.engine.dialect.name
        return (pg_insert if dialect == "postgresql" else sqlite_insert)(table)

    def execute(self, statement: Any) -> None:
        """Run a write through the store's writer: on SQLite it queues behind this process's
        appends instead of making them wait in SQLite's busy handler."""
        with self.store._writer() as conn:
            conn.execute(statement)


class StoredFolds:
    """One match's stored checkpoints, as :class:`projections.checkpoints.MatchFolds` uses
    them: ``load`` on a miss in memory, ``save`` when a checkpoint is first taken."""

    def __init__(
        self, folds: FoldStore, match_id: str, codec: str, impl: Codec, initial: Any
    ) -> None:
        self.folds, self.match_id, self.codec, self.impl = folds, match_id, codec, impl
        self.initial = initial
        self._saved: set[tuple[int, bytes]] = set()
        self._lock = threading.Lock()

    def load(self, candidates: Sequence[tuple[int, bytes]]) -> tuple[int, bytes, Any] | None:
        """The deepest stored state among ``candidates``, decoded; None when none is stored
        or the store cannot be read (logged: the caller folds from what it has)."""
        candidates = [(k, digest) for k, digest in candidates if k % self.folds.stride == 0]
        if not candidates:
            return None
        try:
            found = self.folds.read(self.match_id, self.codec, candidates)
            if found is None:
                return None
            k, digest, blob = found
            state = self.impl.decode(blob, self.initial)
        except Exception:
            log.warning("stored fold checkpoint unreadable (ignored)", exc_info=True)
            return None
        with self._lock:
            self._saved.add((k, digest))
        return k, digest, state

    def save(self, k: int, digest: bytes, state: Any) -> None:
        """Store the state after ``k`` facts of the prefix ``digest``, in the background (only
        at a multiple of the stride)."""
        if k % self.folds.stride:
            return
        with self._lock:
            if (k, digest) in self._saved:
                return
            self._saved.add((k, digest))
            if len(self._saved) > 4096:
                self._saved.clear()

        def job() -> None:
            self.folds.write(self.match_id, self.codec, k, digest, self.impl.encode(state))

        if not self.folds.submit(job):
            with self._lock:
                self._saved.discard((k, digest))
