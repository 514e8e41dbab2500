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
are not stored but taken from the initial state on decoding. Every game has a codec. A state's
history (Zoom's buzz outcomes, Zombego's plies) is stored apart, in pages shared by content
(table ``fold_pages``, ``projections.stored_pages``): the row names its pages, so the stored
states of a timeline, and of the timelines rulings make, hold each page once.

Writes happen off the command's path: a checkpoint first taken in memory is handed to one
background thread (:class:`FoldStore`), which encodes and inserts it in its own short
transaction with the pages it adds; a full queue drops it, and a failure is logged and ignored
(a missing row only costs a re-fold). The same thread takes checkpoints of matches played live
(whose fold is extended command by command and never passes through the checkpoints): see
``Checkpoints.appended``.
"""

from __future__ import annotations

import hashlib
import logging
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

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
from adjudicator.games.zoom.view import render_all
from adjudicator.kernel.decider import Game
from events import EventStore
from events.engine import binary_rows
from events.tables import fold_checkpoints, fold_heads, fold_pages
from projections.stored_pages import PAGE, Codec, Histories, Page, Pager

log = logging.getLogger(__name__)

CODEC_VERSION = 1
"""Bumped by hand whenever an encoding changes (the code digest catches most changes anyway)."""
QUEUE = 256
"""Jobs the writer holds at most; beyond, a checkpoint is not stored (a later one will be)."""
DECODED = 4
"""Stored checkpoints' states kept decoded (``FoldStore.decoded``): the reads into the past
right after a restart ask for the same one, first from the stored head, then from memory once
the log is read; decoding a 10,000-buzz Zoom state's pages again took about 18 ms."""
YIELD = 0.05
"""Seconds a background job waits at most for the requests in flight (``FoldStore.idle``):
under a steady load it runs this late, and the queue still drains."""
PRUNE_BATCH = 500
"""Rows of stale codecs deleted per transaction (``FoldStore.prune``)."""
STRIDE = 1000
"""Only checkpoints at a multiple of this many timeline facts are stored: a 10,000-event Zoom
match's state is about 1.1 MB encoded (114 bytes a buzz), nearly all of it the buzzes' pages,
which its ten stored states share (``projections.stored_pages``), and a first read after a
restart folds at most this many facts after the one it finds (about 6 ms of CPU for Zoom)
beside decoding it."""


def _enc_hook(value: object) -> object:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    raise NotImplementedError(f"cannot encode {type(value).__name__}")


def _dec_hook(kind: type, value: object) -> object:
    if isinstance(kind, type) and issubclass(kind, BaseModel):
        return kind.model_validate(value)
    raise NotImplementedError(f"cannot decode {kind}")


_ENCODER = msgspec.msgpack.Encoder(enc_hook=_enc_hook)


class ZoomCodec:
    """Zoom's state: bare, its configuration (a pydantic model) as JSON values; its history, the
    buzz outcomes (a cons list, as deep as the match is long). The memos that take no part in
    equality: a buzz's rendered view (JSON values) is kept, rendered first where it is not yet
    (so a page's bytes, hence its digest, do not depend on which buzzes a read had rendered,
    and a state read back renders none again), the board's hits are not."""

    _bare = msgspec.msgpack.Decoder(ZoomState, dec_hook=_dec_hook)
    _entries = msgspec.msgpack.Decoder(list[BuzzOutcome], dec_hook=_dec_hook)

    def split(self, state: ZoomState) -> tuple[bytes, Outcomes | None]:
        bare = replace(state, outcomes=None)
        if state.round is not None:  # the board's memo of hits grows as requests read it
            board = state.round.board
            fresh = Board(board.grid, board.targets, board.encoded_grid, board.encoded_targets)
            bare = replace(bare, round=replace(state.round, board=fresh))
        return _ENCODER.encode(bare), state.outcomes

    def pack(self, entries: list[Any]) -> bytes:
        render_all(entries)
        return _ENCODER.encode(entries)

    def unpack(self, blob: bytes) -> list[Any]:
        return self._entries.decode(blob)

    def join(
        self, bare: bytes, history: list[Any], initial: ZoomState, base: Outcomes | None = None
    ) -> ZoomState:
        node = base
        for outcome in history:
            node = Outcomes(outcome, node)
        return replace(self._bare.decode(bare), outcomes=node)


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

    def split(self, state: NoNotThatState) -> tuple[bytes, None]:
        bare = _ENCODER.encode(
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
        return bare, None

    def pack(self, entries: list[Any]) -> bytes:
        return _ENCODER.encode(entries)

    def unpack(self, blob: bytes) -> list[Any]:
        return []

    def join(
        self, bare: bytes, history: list[Any], initial: NoNotThatState, base: None = None
    ) -> NoNotThatState:
        return NoNotThatState(initial.fixed, *self._decoder.decode(bare))


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
    tuple[tuple[int, str], ...],
    list[tuple[int, int, int]],
    dict[str, Any] | None,
]


class ZombegoCodec:
    """Zombego's state without its fixed part (seats, configuration, seed and opening, taken from
    the initial state): bare, the position without its rules and the dealt pieces as (player,
    slot, value); its history, the plies (a cons list, as deep as the match is long)."""

    _decoder = msgspec.msgpack.Decoder(_ZombegoFields)
    _entries = msgspec.msgpack.Decoder(list[PlyRecord])

    def split(self, state: ZombegoState) -> tuple[bytes, Plies | None]:
        dealt = [(player, slot, value) for (player, slot), value in state.dealt.items()]
        declared = None if state.declared_result is None else dict(state.declared_result)
        bare = _ENCODER.encode((state.position[1:], state.voided, dealt, declared))
        return bare, state.plies

    def pack(self, entries: list[Any]) -> bytes:
        return _ENCODER.encode(entries)

    def unpack(self, blob: bytes) -> list[Any]:
        return self._entries.decode(blob)

    def join(
        self, bare: bytes, history: list[Any], initial: ZombegoState, base: Plies | None = None
    ) -> ZombegoState:
        board, voided, dealt, declared = self._decoder.decode(bare)
        node = base
        for ply in history:
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
_SOURCES = (
    "adjudicator/kernel",
    "adjudicator/rulings.py",
    "projections/checkpoints.py",
    "projections/stored_checkpoints.py",
    "projections/stored_heads.py",
    "projections/stored_pages.py",
)
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
    jobs) on one daemon thread of its own. Its pagers share the histories in memory
    (``projections.stored_pages.Histories``)."""

    def __init__(
        self, store: EventStore, size: int = QUEUE, stride: int = STRIDE, page: int = PAGE
    ) -> None:
        self.store, self.stride, self.page = store, stride, page
        self._jobs: queue.Queue[Callable[[], object] | None] = queue.Queue(size)
        self._thread: threading.Thread | None = None
        self._start = threading.Lock()
        self._closed = False
        self.dropped = 0
        self.histories = Histories()
        self._decoded: OrderedDict[tuple[str, str, int, bytes], Any] = OrderedDict()
        self._decoded_lock = threading.Lock()
        self.idle: Callable[[], bool] = lambda: True
        """Whether no request is in flight (the app sets it): each job waits for it, at most
        :data:`YIELD` seconds, so that its CPU is not shared with a request's."""

    def backing(self, match_id: str, game: Game[Any, Any], initial: Any) -> StoredFolds | None:
        """The stored checkpoints of one match (None when ``game``'s states are not stored)."""
        codec = codec_id(game)
        if codec is None:
            return None
        return StoredFolds(self, match_id, codec, self.pager(game, match_id), initial)

    def pager(self, game: Game[Any, Any], match_id: str) -> Pager:
        """A fresh :class:`Pager` of ``game``'s codec for ``match_id`` (one per match: it
        remembers pages), sharing the store's histories in memory."""
        scope = f"{match_id}\0{codec_id(game)}".encode()
        return Pager(CODECS[game.name], self.page, histories=self.histories, scope=scope)

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
                self._after_requests()
                job()
            except Exception:
                log.warning("fold checkpoint job failed (ignored)", exc_info=True)
            finally:
                self._jobs.task_done()

    def decoded(self, key: tuple[str, str, int, bytes]) -> Any | None:
        """A stored checkpoint's state decoded lately (by match, codec, ``k`` and prefix
        digest: a stored row never changes), or None."""
        with self._decoded_lock:
            state = self._decoded.get(key)
            if state is not None:
                self._decoded.move_to_end(key)
            return state

    def keep_decoded(self, key: tuple[str, str, int, bytes], state: Any) -> None:
        """Keep ``state`` among the last :data:`DECODED` states decoded."""
        with self._decoded_lock:
            self._decoded[key] = state
            self._decoded.move_to_end(key)
            while len(self._decoded) > DECODED:
                self._decoded.popitem(last=False)

    def _after_requests(self) -> None:
        """Wait while requests are in flight, :data:`YIELD` seconds at most (a job and a
        request share the GIL: a request beside a job of 10 ms waited several times that)."""
        deadline = time.monotonic() + YIELD
        while not self.idle() and time.monotonic() < deadline:
            time.sleep(0.001)

    def read(
        self, match_id: str, codec: str, candidates: Sequence[tuple[int, bytes]]
    ) -> tuple[int, bytes, bytes] | None:
        """The deepest of ``candidates`` (``k``, prefix digest) stored: (``k``, digest, blob)."""
        if not candidates:
            return None
        t = fold_checkpoints.c
        wanted = [(k, digest.hex()) for k, digest in candidates]
        query = (
            select(t.k, t.prefix, t.state)
            .where(t.match_id == match_id, t.codec == codec, tuple_(t.k, t.prefix).in_(wanted))
            .order_by(t.k.desc())
            .limit(1)
        )
        with self.store.engine.connect() as conn:
            rows = binary_rows(conn, query)
        if not rows:
            return None
        k, prefix, blob = rows[0]
        return int(k), bytes.fromhex(prefix), bytes(blob)

    def pages(self, match_id: str, codec: str, digests: Sequence[str]) -> dict[str, bytes]:
        """The stored pages among ``digests`` (``projections.stored_pages``), by digest."""
        t = fold_pages.c
        query = select(t.digest, t.entries).where(
            t.match_id == match_id, t.codec == codec, t.digest.in_(list(set(digests)))
        )
        with self.store.engine.connect() as conn:
            return {str(digest): bytes(entries) for digest, entries in binary_rows(conn, query)}

    def page_inserts(self, match_id: str, codec: str, pages: Sequence[Page]) -> list[Any]:
        """The INSERTs of ``pages`` (nothing where one is stored already), a few a statement."""
        rows = [
            {"match_id": match_id, "codec": codec, "digest": digest, "entries": blob}
            for digest, blob in pages
        ]
        return [
            self.insert(fold_pages).values(rows[i : i + 100]).on_conflict_do_nothing()
            for i in range(0, len(rows), 100)
        ]

    def checkpoint_insert(
        self, match_id: str, codec: str, k: int, digest: bytes, blob: bytes
    ) -> Any:
        """The INSERT of one checkpoint's row (nothing where it is stored already)."""
        row = {"match_id": match_id, "codec": codec, "k": k, "prefix": digest.hex(), "state": blob}
        return self.insert(fold_checkpoints).values(row).on_conflict_do_nothing()

    def save_state(
        self, match_id: str, codec: str, pager: Pager, state: Any, row: Callable[[bytes], Any]
    ) -> None:
        """Encode ``state`` by ``pager`` and write ``row(blob)`` (the statement storing its row)
        with the pages it adds, in one transaction; those pages are then known stored."""
        blob, pages = pager.encode(state)
        self.execute(*self.page_inserts(match_id, codec, pages), row(blob))
        pager.mark(digest for digest, _ in pages)

    def load_state(self, match_id: str, codec: str, pager: Pager, blob: bytes, initial: Any) -> Any:
        """The state of a stored row of ``match_id``, its pages read from the store."""
        return pager.decode(blob, lambda digests: self.pages(match_id, codec, digests), initial)

    def prune(self, current: Collection[str]) -> int:
        """Delete the stored checkpoints, heads and pages of every codec but ``current`` (the codecs
        of the running code's games: rows of any other are never read again, and a deploy
        names new codecs), ``PRUNE_BATCH`` rows a transaction, so that appends waiting for the
        write turn wait for one short delete at a time; returns how many rows went."""
        removed = 0
        for table in (fold_checkpoints, fold_heads, fold_pages):
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

    def execute(self, *statements: Any) -> None:
        """Run writes, in one transaction, through the store's writer: on SQLite it queues
        behind this process's appends instead of making them wait in SQLite's busy handler."""
        with self.store._writer() as conn:
            for statement in statements:
                conn.execute(statement)


class StoredFolds:
    """One match's stored checkpoints, as :class:`projections.checkpoints.MatchFolds` uses
    them: ``load`` on a miss in memory, ``save`` when a checkpoint is first taken."""

    def __init__(
        self, folds: FoldStore, match_id: str, codec: str, pager: Pager, initial: Any
    ) -> None:
        self.folds, self.match_id, self.codec, self.pager = folds, match_id, codec, pager
        self.initial = initial
        self._saved: set[tuple[int, bytes]] = set()
        self._lock = threading.Lock()

    def load(self, candidates: Sequence[tuple[int, bytes]]) -> tuple[int, bytes, Any] | None:
        """The deepest stored state among ``candidates``, decoded; None when none is stored
        or the store cannot be read (logged: the caller folds from what it has)."""
        candidates = [(k, digest) for k, digest in candidates if k % self.folds.stride == 0]
        if not candidates:
            return None
        k, digest = candidates[0]
        state = self.folds.decoded((self.match_id, self.codec, k, digest))
        if state is None:  # else the deepest one asked for, decoded lately: no better one
            found = self._read(candidates)
            if found is None:
                return None
            k, digest, state = found
        with self._lock:
            self._saved.add((k, digest))
        return k, digest, state

    def _read(self, candidates: Sequence[tuple[int, bytes]]) -> tuple[int, bytes, Any] | None:
        """The deepest stored state among ``candidates``, read and decoded (and kept decoded);
        None when none is stored or the store cannot be read (logged)."""
        try:
            found = self.folds.read(self.match_id, self.codec, candidates)
            if found is None:
                return None
            k, digest, blob = found
            state = self.folds.load_state(self.match_id, self.codec, self.pager, blob, self.initial)
        except Exception:
            log.warning("stored fold checkpoint unreadable (ignored)", exc_info=True)
            return None
        self.folds.keep_decoded((self.match_id, self.codec, k, digest), state)
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

        def row(blob: bytes) -> Any:
            return self.folds.checkpoint_insert(self.match_id, self.codec, k, digest, blob)

        def job() -> None:
            self.folds.save_state(self.match_id, self.codec, self.pager, state, row)

        if not self.folds.submit(job):
            with self._lock:
                self._saved.discard((k, digest))
