"""The transparency log in the store, on both backends: a closing append appends the match's
leaf in the same transaction, closes racing on many threads give a gap-free tree whose proofs
verify, and the log's tables refuse every rewrite."""

from __future__ import annotations

import json
import threading
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DBAPIError

from events import EventStore, NewEvent
from events.errors import VersionConflict
from events.log_store import LogStore
from events.signing import generate
from events.tables import tlog_leaves
from events.transparency.checkpoint import open_checkpoint
from events.transparency.merkle import MemoryTree, leaf_hash
from tests.store.support import GAME_TIME, event, new_match

CLOSE = NewEvent("match.closed", "host", GAME_TIME + timedelta(hours=1), {"result": {"x": 1}})


def closed(store: EventStore) -> str:
    match_id = new_match(store)
    store.append(match_id, 0, [event(1), event(2)])
    store.append(match_id, 2, [CLOSE], close=True)
    return match_id


def leaves(store: EventStore) -> list[tuple[int, str]]:
    with store.engine.connect() as conn:
        rows = conn.execute(tlog_leaves.select().order_by(tlog_leaves.c.idx)).all()
    return [(row.idx, row.leaf) for row in rows]


def test_a_close_appends_its_leaf_and_signs_the_new_tree(store: EventStore) -> None:
    store.signer = generate()
    log = LogStore(store)
    log.start()
    match_id = closed(store)

    [(index, leaf)] = leaves(store)
    assert index == 0 and json.loads(leaf)["match_id"] == match_id
    cp, _ = open_checkpoint(log.checkpoint(), [store.signer.verifier()])
    tree = MemoryTree()
    tree.append(leaf.encode())
    assert (cp.size, cp.root) == (1, tree.root())


def test_a_refused_close_appends_no_leaf(store: EventStore) -> None:
    match_id = new_match(store)
    store.append(match_id, 0, [event(1)])
    with pytest.raises(VersionConflict):
        store.append(match_id, 0, [CLOSE], close=True)  # a stale expected seq
    assert leaves(store) == []
    assert store.get_match(match_id).status == "open"  # type: ignore[union-attr]


def test_racing_closes_give_a_gap_free_tree_whose_proofs_verify(store: EventStore) -> None:
    store.signer = generate()
    log = LogStore(store)
    log.start()
    ids = [new_match(store) for _ in range(12)]
    for match_id in ids:
        store.append(match_id, 0, [event(1)])
    errors: list[BaseException] = []

    def close(match_id: str) -> None:
        try:
            store.append(match_id, 1, [CLOSE], close=True)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)

    threads = [threading.Thread(target=close, args=(m,)) for m in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []

    found = leaves(store)
    assert [i for i, _ in found] == list(range(12))
    assert {json.loads(leaf)["match_id"] for _, leaf in found} == set(ids)
    tree = MemoryTree()
    for _, leaf in found:
        tree.append(leaf.encode())
    cp, _ = open_checkpoint(log.checkpoint(), [store.signer.verifier()])
    assert cp.root == tree.root()
    for match_id in ids:
        proof = log.inclusion(match_id)
        assert leaf_hash(proof["leaf"].encode()).hex() == tree.perfect(0, proof["index"]).hex()


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE tlog_leaves SET leaf = 'x'",
        "DELETE FROM tlog_leaves",
        "UPDATE tlog_nodes SET hash = 'x'",
        "DELETE FROM tlog_nodes",
        "UPDATE tlog_checkpoints SET note = 'x'",
        "DELETE FROM tlog_checkpoints",
        "DELETE FROM signing_keys",
        "UPDATE signing_keys SET public_key = 'x'",
    ],
)
def test_the_log_refuses_every_rewrite(store: EventStore, statement: str) -> None:
    store.signer = generate()
    LogStore(store).start()
    closed(store)
    with pytest.raises(DBAPIError), store.engine.begin() as conn:
        conn.execute(text(statement))


def test_a_proof_line_is_read_without_the_writer_and_signed_when_it_never_was(
    store: EventStore,
) -> None:
    """The proof line of a closed match is read in a read transaction (the checkpoint of its
    size was signed at the close); a match closed while no key could sign has a leaf and no
    checkpoint until one is asked for: then it is signed, once, and kept."""
    unsigned = closed(store)  # no key yet: its leaf, no checkpoint
    log = LogStore(store)
    assert log.trailer(unsigned) is None
    store.signer = generate()
    log.start()
    signed = closed(store)
    writes: list[str] = []
    writer = store._writer

    def counted() -> Any:
        writes.append("writer")
        return writer()

    store._writer = counted  # type: ignore[method-assign]
    line = log.trailer(signed)
    assert line is not None and writes == []  # read only
    late = log.trailer(unsigned)
    assert late is not None and writes == ["writer"]  # signed now
    assert log.trailer(unsigned) == late and writes == ["writer"]  # and kept
    for text_line in (line, late):
        proof = json.loads(text_line)
        cp, _ = open_checkpoint(proof["checkpoint"], [store.signer.verifier()])
        assert cp.size == proof["tree_size"] == proof["leaf_index"] + 1
