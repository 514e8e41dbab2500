"""The transparency log in the store: leaves, the tree's nodes, signed checkpoints, proofs.

Every closed match is a leaf (:func:`match_leaf`), appended by the transaction that closes the
match (``EventStore.append`` with ``close``, and ``EventStore.import_match`` of a closed record),
so a closed match without its leaf cannot exist. A sealed tournament is a leaf
(:func:`tournament_leaf`), appended by the transaction that records its seal. A key rotation is
a leaf too. Leaves are
appended one at a time under a lock (PostgreSQL: the global-position counter's row, which a
close or an import holds already, see :func:`lock`; SQLite: its one writer), and each append
stores the perfect subtrees it completes (about two nodes), so any root or proof reads
O(log n) stored nodes in one query and never rehashes a leaf
(``events.transparency.merkle``; RFC 6962 / RFC 9162 §2.1).

A checkpoint (C2SP tlog-checkpoint) is signed with the current key and cosigned by the same key
(tlog-cosignature/v1), which gives it a signed time; each is kept verbatim, so the checkpoint of
a tree size never changes once signed. The log signs the size a close reaches at the close, and
any other size when first asked.
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, and_, func, insert, or_, select

from adjudicator.kernel.canonical import canonical_json, iso
from adjudicator.kernel.decider import MATCH_CLOSED
from events.envelope import StoredEvent
from events.record import PROOF_FORMAT, record_text, tournament_log_text
from events.records import MatchRecord
from events.signing import current_signer, timestamper
from events.tables import tlog_checkpoints, tlog_cosignatures, tlog_leaves, tlog_nodes
from events.transparency import merkle
from events.transparency.checkpoint import Checkpoint, format_checkpoint
from events.transparency.note import Signer, add_signatures, parse_note

CLOSED = MATCH_CLOSED


class NoCheckpoint(LookupError):
    """No key can sign a checkpoint (a configured key is expected but none was given)."""


@dataclass(frozen=True, slots=True)
class Leaf:
    index: int
    kind: str
    match_id: str | None
    leaf: bytes
    leaf_hash: bytes

    def as_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "kind": self.kind,
            "leaf": self.leaf.decode(),
            "leaf_hash": base64.b64encode(self.leaf_hash).decode(),
        }


def match_leaf(match: MatchRecord, events: Sequence[StoredEvent]) -> bytes:
    """The leaf of a closed match: the canonical JSON of ``{match_id, game, rules_version,
    closed_at, chain_head, record_sha256, result}``, where ``record_sha256`` is the SHA-256 of
    its full record's bytes (``events.record.record_text``) and ``result`` the one
    ``match.closed`` recorded (null when the closing batch has none)."""
    closed = next((e for e in reversed(events) if e.type == CLOSED), None)
    if match.closed_at is None:
        raise ValueError(f"match {match.match_id} is not closed")
    text = record_text(match, events)
    return canonical_json(
        {
            "match_id": match.match_id,
            "game": match.game,
            "rules_version": match.rules_version,
            "closed_at": iso(match.closed_at),
            "chain_head": events[-1].hash,
            "record_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
            "result": None if closed is None else closed.payload.get("result"),
        }
    )


def tournament_leaf(
    tournament_id: str, game: str, created_at: datetime, events: Sequence[StoredEvent]
) -> bytes:
    """The leaf of a sealed tournament (``events``: its whole log, the seal last): the
    canonical JSON of ``{tournament_id, name, game, sealed_at, chain_head, record_sha256,
    matches, standings, champion}``, where ``record_sha256`` is the SHA-256 of its log's bytes
    as a record (``events.record.tournament_log_text``), ``matches`` the seal's (each match's id
    and the hash of its last event, every one closed) and ``standings`` and ``champion`` the
    final ones the seal recorded (each player's rank). The log's chain and the matches' own
    leaves then vouch for the whole event."""
    sealed = events[-1]
    text = tournament_log_text(tournament_id, game, created_at, events, sealed.recorded_at)
    return canonical_json(
        {
            "tournament_id": tournament_id,
            "name": events[0].payload["name"],
            "game": game,
            "sealed_at": sealed.recorded_iso,
            "chain_head": sealed.hash,
            "record_sha256": hashlib.sha256(text.encode("utf-8")).hexdigest(),
            "matches": sealed.payload["matches"],
            "standings": sealed.payload["standings"],
            "champion": sealed.payload["champion"],
        }
    )


def lock(conn: Connection) -> None:
    """Serialise leaf appends until commit (SQLite's write transaction already does): on
    PostgreSQL by the global-position counter's row, which every append of events holds from
    its claim to its commit. A close or an import appends its leaf in the transaction that
    claimed its events' positions, so it holds the row already and need not call this; a
    key rotation and the start's backfill take it here. One lock for both orders: a leaf's
    index follows the commit order of the events' positions."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SELECT 1 FROM positions WHERE id = 1 FOR UPDATE")


def size(conn: Connection) -> int:
    """The log's size. Read after :func:`lock` (or a claim of positions), in a statement of its
    own, so that its snapshot sees every leaf committed before."""
    last = conn.execute(select(func.max(tlog_leaves.c.idx))).scalar_one()
    return 0 if last is None else int(last) + 1


def nodes(conn: Connection, wanted: Sequence[merkle.Node]) -> merkle.NodeMap:
    """The stored perfect subtrees ``wanted``, in one query."""
    return merkle.NodeMap(node_hashes(conn, wanted))


def node_hashes(conn: Connection, wanted: Sequence[merkle.Node]) -> dict[merkle.Node, bytes]:
    if not wanted:
        return {}
    # one indexed equality per node: SQLite plans ``(level, idx) IN (...)`` as a scan
    pairs = [and_(tlog_nodes.c.level == lv, tlog_nodes.c.idx == i) for lv, i in set(wanted)]
    query = select(tlog_nodes).where(or_(*pairs))
    return {(r.level, r.idx): bytes.fromhex(r.hash) for r in conn.execute(query)}


def append(
    conn: Connection, kind: str, match_id: str | None, leaf: bytes, recorded_at: datetime
) -> int:
    """Append ``leaf``; returns its index. Call inside the transaction that records its reason."""
    index, _ = append_reading(conn, kind, match_id, leaf, recorded_at)
    return index


def append_reading(
    conn: Connection,
    kind: str,
    match_id: str | None,
    leaf: bytes,
    recorded_at: datetime,
    locked: bool = False,
    tournament_id: str | None = None,
) -> tuple[int, merkle.NodeMap]:
    """:func:`append`, answering also the nodes the new tree's root needs (read in the same
    query as those the append needs: a close signs the new root at once); ``locked``: the
    transaction holds the lock already (see :func:`lock`)."""
    if not locked:
        lock(conn)
    index = size(conn)
    hashed = merkle.leaf_hash(leaf)
    wanted = [*merkle.nodes_for_append(index), *merkle.nodes_for_root(index + 1)]
    found = node_hashes(conn, wanted)
    new = merkle.new_nodes(index, hashed, merkle.NodeMap(found))
    conn.execute(
        insert(tlog_leaves).values(
            idx=index,
            kind=kind,
            match_id=match_id,
            tournament_id=tournament_id,
            leaf=leaf.decode(),
            leaf_hash=hashed.hex(),
            recorded_at=recorded_at,
        )
    )
    rows = [{"level": lv, "idx": i, "hash": h.hex()} for lv, i, h in new]
    conn.execute(insert(tlog_nodes), rows)
    known = {**found, **{(lv, i): h for lv, i, h in new}}
    return index, merkle.NodeMap(known)


def append_match(
    conn: Connection,
    match: MatchRecord,
    events: Sequence[StoredEvent],
    signer: Signer | None,
) -> int:
    """The closed match's leaf, and (with a signer) the checkpoint of the size it reaches. The
    transaction has claimed the positions of the match's events (a close, an import), so it
    holds the log's lock (:func:`lock`)."""
    assert match.closed_at is not None
    leaf = match_leaf(match, events)
    index, known = append_reading(conn, "match", match.match_id, leaf, match.closed_at, locked=True)
    if signer is not None:
        store_checkpoint(conn, index + 1, signer, match.closed_at, known)
    return index


def append_tournament(
    conn: Connection,
    tournament_id: str,
    game: str,
    created_at: datetime,
    events: Sequence[StoredEvent],
    signer: Signer | None,
) -> int:
    """The sealed tournament's leaf (see :func:`tournament_leaf`), appended under the log's
    lock in the transaction that records the seal, and (with a signer) the checkpoint of the
    size it reaches."""
    sealed_at = events[-1].recorded_at
    leaf = tournament_leaf(tournament_id, game, created_at, events)
    index, known = append_reading(
        conn, "tournament", None, leaf, sealed_at, tournament_id=tournament_id
    )
    if signer is not None:
        store_checkpoint(conn, index + 1, signer, sealed_at, known)
    return index


def root(conn: Connection, tree_size: int) -> bytes:
    return merkle.root_hash(nodes(conn, merkle.nodes_for_root(tree_size)), tree_size)


def origin_checkpoint(signer: Signer, tree_size: int, root_hash: bytes) -> Checkpoint:
    return Checkpoint(signer.name, tree_size, root_hash)


def store_checkpoint(
    conn: Connection,
    tree_size: int,
    signer: Signer,
    now: datetime,
    known: merkle.NodeMap | None = None,
) -> str:
    """Sign the checkpoint of ``tree_size`` at ``now`` and keep it (``known``: the nodes its
    root needs, when the caller has them)."""
    top = root(conn, tree_size) if known is None else merkle.root_hash(known, tree_size)
    text = format_checkpoint(origin_checkpoint(signer, tree_size, top))
    stamp = int(now.timestamp())
    signed = parse_note(signer.sign(text))
    note = add_signatures(signed, [timestamper(signer).cosignature(text, stamp)])
    conn.execute(
        insert(tlog_checkpoints).values(
            size=tree_size, note=note, signed_at=now, key_id=signer.key_id.hex()
        )
    )
    return note


def checkpoint(
    conn: Connection, tree_size: int, configured: Signer | None, now: datetime, sign: bool = True
) -> str:
    """The signed checkpoint of ``tree_size`` (signed now if it never was, unless ``sign`` is
    False: then, as when no key can sign, NoCheckpoint), with every witness cosignature
    recorded for it."""
    row = conn.execute(select(tlog_checkpoints.c.note).where(tlog_checkpoints.c.size == tree_size))
    note = row.scalar()
    if note is None:
        if not sign:
            raise NoCheckpoint(f"the checkpoint of size {tree_size} is not signed yet")
        signer = current_signer(conn, configured)
        if signer is None:
            raise NoCheckpoint("no signing key is configured for this log")
        note = store_checkpoint(conn, tree_size, signer, now)
    return with_cosignatures(conn, tree_size, note)


def with_cosignatures(conn: Connection, tree_size: int, note: str) -> str:
    query = select(tlog_cosignatures.c.line).where(tlog_cosignatures.c.size == tree_size)
    lines = [row.line for row in conn.execute(query.order_by(tlog_cosignatures.c.name))]
    return note + "".join(line + "\n" for line in lines)


def leaf_of_match(conn: Connection, match_id: str) -> Leaf | None:
    row = conn.execute(select(tlog_leaves).where(tlog_leaves.c.match_id == match_id)).first()
    return None if row is None else _leaf(row)


def leaf_of_tournament(conn: Connection, tournament_id: str) -> Leaf | None:
    query = select(tlog_leaves).where(tlog_leaves.c.tournament_id == tournament_id)
    row = conn.execute(query).first()
    return None if row is None else _leaf(row)


def _leaf(row: Any) -> Leaf:
    return Leaf(row.idx, row.kind, row.match_id, row.leaf.encode(), bytes.fromhex(row.leaf_hash))


def trailer(
    conn: Connection, leaf: Leaf, configured: Signer | None, now: datetime, sign: bool = True
) -> str | None:
    """The last line of the export of what ``leaf`` logs (a closed match's record, a sealed
    tournament's log): the leaf, the inclusion proof against the tree its append made (size =
    index + 1) and that tree's signed checkpoint (None when no key can sign it, or when it was
    never signed and ``sign`` is False)."""
    tree_size = leaf.index + 1
    try:
        note = checkpoint(conn, tree_size, configured, now, sign)
    except NoCheckpoint:
        return None
    proof = inclusion(conn, leaf.index, tree_size)
    line = {
        "format": PROOF_FORMAT,
        "leaf": leaf.leaf.decode(),
        "leaf_index": leaf.index,
        "tree_size": tree_size,
        "inclusion": b64(proof),
        "checkpoint": note,
    }
    return json.dumps(line, sort_keys=True, ensure_ascii=False) + "\n"


def entries(conn: Connection, start: int, end: int) -> list[Leaf]:
    """Leaves ``start`` (inclusive) to ``end`` (exclusive)."""
    query = select(tlog_leaves).where(tlog_leaves.c.idx >= start, tlog_leaves.c.idx < end)
    return [_leaf(row) for row in conn.execute(query.order_by(tlog_leaves.c.idx))]


def inclusion(conn: Connection, index: int, tree_size: int) -> list[bytes]:
    wanted = merkle.nodes_for_inclusion(index, tree_size)
    return merkle.inclusion_proof(nodes(conn, wanted), index, tree_size)


def consistency(conn: Connection, first: int, second: int) -> list[bytes]:
    wanted = merkle.nodes_for_consistency(first, second)
    return merkle.consistency_proof(nodes(conn, wanted), first, second)


def b64(hashes: Sequence[bytes]) -> list[str]:
    return [base64.b64encode(h).decode() for h in hashes]
