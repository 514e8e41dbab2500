"""The transparency log as the service reads and extends it: checkpoints, proofs, entries,
witnesses' cosignatures, key rotation, and the proof that ends a closed match's export.

Everything here runs in one transaction of the store (``events.tlog`` does the tree's work).
Errors are :class:`LogError` with a stable code (the API's table maps them to HTTP).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, select

from adjudicator.kernel.canonical import canonical_json, iso
from events import matches as match_queries
from events import rows, signing, tlog
from events.errors import StoreError
from events.record import PROOF_FORMAT
from events.store import EventStore, storable
from events.tables import matches, tlog_cosignatures, tlog_leaves
from events.transparency.checkpoint import CheckpointError, open_checkpoint
from events.transparency.merkle import ProofError
from events.transparency.note import (
    COSIGNATURE_V1,
    NoteError,
    Signer,
    Verifier,
    cosignature_timestamp,
    open_note,
    parse_note,
)

MAX_ENTRIES = 1000


class LogError(StoreError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class LogStore:
    """The log of ``store``."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    def _now(self) -> datetime:
        return self.store._now()

    # start

    def start(self) -> Signer | None:
        """At the service's start: a current key (a generated one is returned, to be printed
        once), and a leaf for every closed match that has none (one closed before this log
        existed), in the order they closed."""
        with self.store._writer() as conn:
            tlog.lock(conn)  # replicas starting at once: one generates the key, the others see it
            generated = signing.ensure_key(conn, self.store.signer, self._now())
            self._backfill(conn)
        return generated

    def _backfill(self, conn: Connection) -> None:
        logged = select(tlog_leaves.c.match_id).where(tlog_leaves.c.match_id.is_not(None))
        missing = conn.execute(
            select(matches.c.match_id)
            .where(matches.c.status == "closed", matches.c.match_id.not_in(logged))
            .order_by(matches.c.closed_at, matches.c.match_id)
        ).all()
        signer = signing.current_signer(conn, self.store.signer)
        for (match_id,) in missing:
            match = match_queries.get_match(conn, match_id)
            assert match is not None
            every = rows.read_stream(conn, match_id, None, None, 0)
            tlog.append_match(conn, match, every, signer)

    # reads

    def signing_keys(self) -> list[signing.KeyInfo]:
        with self.store._reader() as conn:
            return signing.all_keys(conn)

    def size(self) -> int:
        with self.store._reader() as conn:
            return tlog.size(conn)

    def checkpoint(self, tree_size: int | None = None) -> str:
        """The signed checkpoint of ``tree_size`` (default: the current size)."""
        with self.store._writer() as conn:
            current = tlog.size(conn)
            wanted = current if tree_size is None else tree_size
            _check_size(wanted, current, "tree_size")
            try:
                return tlog.checkpoint(conn, wanted, self.store.signer, self._now())
            except tlog.NoCheckpoint as error:
                raise LogError("no_signing_key", str(error)) from None

    def inclusion(self, match_id: str, tree_size: int | None = None) -> dict[str, Any]:
        with self.store._reader() as conn:
            leaf = tlog.leaf_of_match(conn, match_id) if storable(match_id) else None
            if leaf is None:
                raise LogError("not_in_log", f"match {match_id!r} has no leaf in the log")
            current = tlog.size(conn)
            wanted = current if tree_size is None else tree_size
            _check_size(wanted, current, "tree_size")
            if wanted <= leaf.index:
                raise LogError(
                    "log_size_out_of_range",
                    f"leaf {leaf.index} is not in a tree of size {wanted}",
                )
            proof = tlog.inclusion(conn, leaf.index, wanted)
        return {**leaf.as_json(), "tree_size": wanted, "inclusion": tlog.b64(proof)}

    def consistency(self, first: int, second: int) -> dict[str, Any]:
        with self.store._reader() as conn:
            current = tlog.size(conn)
            _check_size(second, current, "second")
            if not 0 <= first <= second:
                raise LogError("log_size_out_of_range", "first must be 0..second")
            proof = tlog.consistency(conn, first, second)
        return {"first": first, "second": second, "consistency": tlog.b64(proof)}

    def entries(self, start: int, end: int | None) -> dict[str, Any]:
        with self.store._reader() as conn:
            current = tlog.size(conn)
            stop = min(current, start + MAX_ENTRIES) if end is None else end
            if not 0 <= start <= stop <= current or stop - start > MAX_ENTRIES:
                raise LogError(
                    "log_size_out_of_range",
                    f"entries are 0 <= start <= end <= {current}, at most {MAX_ENTRIES} at once",
                )
            found = tlog.entries(conn, start, stop)
        return {"tree_size": current, "entries": [leaf.as_json() for leaf in found]}

    def trailer(self, match_id: str) -> str | None:
        """The last line of a closed match's export (``tlog.trailer``): the same bytes at
        every export (the checkpoint of a size is signed once and kept)."""
        return self._trailer(lambda conn: tlog.leaf_of_match(conn, match_id))

    def tournament_trailer(self, tournament_id: str) -> str | None:
        """The last line of a sealed tournament's log as a record (None: not sealed, or no
        key can sign)."""
        if not storable(tournament_id):
            return None
        return self._trailer(lambda conn: tlog.leaf_of_tournament(conn, tournament_id))

    def _trailer(self, find: Callable[[Connection], tlog.Leaf | None]) -> str | None:
        """The proof line of the leaf ``find`` reads, in a read transaction: the checkpoint of
        the size its append reached was signed then, whenever a key could sign. Only one never
        signed (no key at the close) takes a write transaction, to be signed now: a verify
        of a sealed tournament reads hundreds of these, and took the writer's lock for each."""
        with self.store._reader() as conn:
            leaf = find(conn)
            if leaf is None:
                return None
            line = tlog.trailer(conn, leaf, None, self._now(), sign=False)
        if line is not None:
            return line
        with self.store._writer() as conn:
            return tlog.trailer(conn, leaf, self.store.signer, self._now())

    # witnesses

    def cosign(self, note: str, vkey: str) -> dict[str, Any]:
        """Record a witness's cosignature of one of this log's checkpoints: ``note`` is the
        checkpoint as served with the witness's tlog-cosignature line added, ``vkey`` the
        witness's verifier key (type 0x04). Refused unless the checkpoint is this log's, for a
        size it reached, with the root it signed, and the cosignature verifies."""
        try:
            witness = Verifier.from_vkey(vkey)
        except NoteError as error:
            raise LogError("bad_cosignature", f"the witness key: {error}") from None
        if witness.sig_type != COSIGNATURE_V1:
            raise LogError("bad_cosignature", "a witness key is a cosignature (0x04) key")
        ours = [key.verifier for key in self.signing_keys()]
        try:
            cp, _ = open_checkpoint(note, ours)
            open_note(note, [witness])
        except (NoteError, CheckpointError) as error:
            raise LogError("bad_cosignature", str(error)) from None
        line = _witness_line(note, witness)
        with self.store._writer() as conn:
            _check_size(cp.size, tlog.size(conn), "tree_size")
            if tlog.root(conn, cp.size) != cp.root:
                raise LogError("bad_cosignature", "the checkpoint's root is not this log's")
            conn.execute(
                insert(tlog_cosignatures).values(
                    size=cp.size,
                    key_id=witness.key_id.hex(),
                    name=witness.name,
                    line=line,
                    recorded_at=self._now(),
                )
            )
        return {"tree_size": cp.size, "witness": witness.name}

    # rotation

    def rotate(self, new: Signer, keep_private: bool) -> int:
        """Rotate to ``new``: a ``key_rotation`` leaf saying so, signed by the old key and the
        new one, then the old key's validity ends and the new one's begins (one transaction).
        Returns the leaf's index."""
        now = self._now()
        with self.store._writer() as conn:
            old = signing.current_signer(conn, self.store.signer)
            if old is None:
                raise LogError("no_signing_key", "the current key's private half is not here")
            if new.name != old.name:
                raise ValueError(f"the new key must keep the log's name {old.name!r}")
            leaf = rotation_leaf(old, new, now)
            index = tlog.append(conn, "key_rotation", None, leaf, now)
            signing.rotate(conn, old, new, now, keep_private)
            tlog.store_checkpoint(conn, index + 1, new, now)
        return index


def rotation_statement(old: Signer, new: Signer, now: datetime) -> bytes:
    return canonical_json(
        {"kind": "key_rotation", "at": iso(now), "old": old.vkey(), "new": new.vkey()}
    )


def rotation_leaf(old: Signer, new: Signer, now: datetime) -> bytes:
    """The statement, with both keys' Ed25519 signatures over its canonical bytes."""
    statement = rotation_statement(old, new, now)
    text = statement.decode() + "\n"
    return canonical_json(
        {
            "kind": "key_rotation",
            "at": iso(now),
            "old": old.vkey(),
            "new": new.vkey(),
            "signatures": {"old": old.sign(text), "new": new.sign(text)},
        }
    )


def _witness_line(note: str, witness: Verifier) -> str:
    for signature in parse_note(note).signatures:
        if signature.key_id == witness.key_id and signature.name == witness.name:
            cosignature_timestamp(signature)
            return signature.line()
    raise LogError("bad_cosignature", "the note has no signature by the witness key")


def _check_size(wanted: int, current: int, name: str) -> None:
    if not 0 <= wanted <= current:
        raise LogError("log_size_out_of_range", f"{name} must be 0..{current} (the log's size)")


__all__ = ["PROOF_FORMAT", "LogError", "LogStore", "ProofError"]
