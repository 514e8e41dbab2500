"""Offline checks of a closed match's export against the service's transparency log.

Given the record's last line (``events.record.LogProof``) and the log's public keys, each check
is one :class:`~projections.verify.Check`:

- ``log_leaf``: the leaf names this record: its match, game, rules version, close time, chain
  head, result, and ``record_sha256`` equal to the SHA-256 of the bytes before the proof line;
- ``log_signature``: the checkpoint is a signed note by one of the keys;
- ``log_key_valid``: that key was valid at the checkpoint's signed time (the log cosigns its own
  checkpoints, tlog-cosignature/v1, which carries the time), per the keys' validity periods;
- ``log_inclusion``: the leaf's RFC 9162 inclusion proof leads to the checkpoint's root;
- ``log_trusted`` (with a checkpoint the verifier already trusts): the same tree, or one the
  export's tree is consistent with (RFC 9162 consistency proof, fetched by the caller).
"""

from __future__ import annotations

import base64
import binascii
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import MATCH_CLOSED
from events.record import Record
from events.transparency.checkpoint import Checkpoint, CheckpointError, open_checkpoint
from events.transparency.merkle import ProofError, leaf_hash, verify_consistency, verify_inclusion
from events.transparency.note import (
    COSIGNATURE_V1,
    NoteError,
    Verifier,
    cosignature_timestamp,
    open_note,
)
from projections.verify import Check

ConsistencyFetch = Callable[[int, int], list[bytes]]
"""Fetches the consistency proof between two tree sizes (from the log's /log/proof/consistency)."""
LeafCheck = Callable[[Record], Check]
"""The ``log_leaf`` check of a record that carries a proof: whether the leaf names it (a
closed match's record: :func:`match_leaf_check`; a sealed tournament's log:
``api.service.tournament_audit.seal_leaf_check``)."""


@dataclass(frozen=True, slots=True)
class PublicKey:
    """A log key as the verifier knows it; validity unknown when ``valid_from`` is None."""

    verifier: Verifier
    valid_from: datetime | None = None
    valid_until: datetime | None = None


def parse_keys(text: str) -> list[PublicKey]:
    """Keys from ``/.well-known/adjudicator-keys`` JSON (with validity) or from vkey lines."""
    stripped = text.strip()
    if stripped.startswith("{"):
        return [_from_json(key) for key in json.loads(stripped)["keys"]]
    return [PublicKey(Verifier.from_vkey(line.strip())) for line in stripped.splitlines() if line]


def _from_json(key: dict[str, Any]) -> PublicKey:
    until = key.get("valid_until")
    return PublicKey(
        Verifier.from_vkey(key["vkey"]),
        datetime.fromisoformat(key["valid_from"]),
        None if until is None else datetime.fromisoformat(until),
    )


def log_checks(
    record: Record,
    keys: Sequence[PublicKey],
    trusted: str | None = None,
    fetch: ConsistencyFetch | None = None,
    leaf_check: LeafCheck | None = None,
) -> list[Check]:
    """The checks of the module's docstring; ``leaf_check``: how the leaf must name the record
    (default :func:`match_leaf_check`)."""
    proof = record.log_proof
    if proof is None:
        return [Check("log_leaf", False, "the record carries no transparency-log proof")]
    checks = [(leaf_check or match_leaf_check)(record)]
    try:
        cp, opened = open_checkpoint(proof.checkpoint, [k.verifier for k in keys])
    except (NoteError, CheckpointError) as error:
        return [*checks, Check("log_signature", False, f"the checkpoint: {error}")]
    signer = next(k for k in keys if any(s.key_id == k.verifier.key_id for s in opened.verified))
    checks.append(Check("log_signature", True, f"signed by {signer.verifier.vkey()}"))
    checks.append(_validity_check(signer, proof.checkpoint))
    checks.append(_inclusion_check(record, cp))
    if trusted is not None:
        checks.append(_trusted_check(cp, trusted, keys, fetch))
    return checks


def match_leaf_check(record: Record) -> Check:
    """``log_leaf`` of a closed match's record: the leaf's fields are the record's."""
    closed = next((e for e in reversed(record.events) if e.type == MATCH_CLOSED), None)
    if record.header.status != "closed" or not record.events:
        return Check("log_leaf", False, "a record with a log proof is a closed match's")
    expected = {
        "match_id": record.header.match_id,
        "game": record.header.game,
        "rules_version": record.header.rules_version,
        "closed_at": iso(record.events[-1].recorded_at),
        "chain_head": record.events[-1].hash,
        "record_sha256": record.record_sha256,
        "result": None if closed is None else closed.payload.get("result"),
    }
    return leaf_names(record, expected)


def leaf_names(record: Record, expected: dict[str, Any]) -> Check:
    """``log_leaf``: the record's leaf (JSON) holds exactly ``expected``, no field more."""
    assert record.log_proof is not None
    try:
        leaf = json.loads(record.log_proof.leaf)
    except ValueError:
        return Check("log_leaf", False, "the leaf is not JSON")
    if not isinstance(leaf, dict):
        return Check("log_leaf", False, "the leaf is not a JSON object")
    wrong = sorted(k for k in expected.keys() | leaf.keys() if leaf.get(k) != expected.get(k))
    if wrong:
        return Check("log_leaf", False, f"the leaf does not match the record: {', '.join(wrong)}")
    return Check("log_leaf", True, f"leaf {record.log_proof.leaf_index} names this record")


def _validity_check(key: PublicKey, note: str) -> Check:
    stamp = _signed_time(key, note)
    if stamp is None:
        return Check("log_key_valid", False, "the checkpoint carries no signed time by its key")
    if key.valid_from is None:
        return Check("log_key_valid", True, f"signed at {iso(stamp)}; no validity period given")
    if stamp < key.valid_from or (key.valid_until is not None and stamp >= key.valid_until):
        until = "now" if key.valid_until is None else iso(key.valid_until)
        period = f"{iso(key.valid_from)} to {until}"
        return Check("log_key_valid", False, f"signed at {iso(stamp)}, outside the key's {period}")
    return Check("log_key_valid", True, f"signed at {iso(stamp)}, within the key's validity")


def _signed_time(key: PublicKey, note: str) -> datetime | None:
    """The time of the key's own cosignature (type 0x04) of the checkpoint, once verified."""
    verifier = key.verifier
    stamper = Verifier(verifier.name, verifier.public_key, COSIGNATURE_V1)
    try:
        opened = open_note(note, [stamper])
    except NoteError:
        return None
    return datetime.fromtimestamp(cosignature_timestamp(opened.verified[0]), UTC)


def _inclusion_check(record: Record, cp: Checkpoint) -> Check:
    proof = record.log_proof
    assert proof is not None
    if cp.size != proof.tree_size:
        return Check("log_inclusion", False, f"proof for size {proof.tree_size}, not {cp.size}")
    try:
        hashes = [_b64(h) for h in proof.inclusion]
        verify_inclusion(leaf_hash(proof.leaf.encode()), proof.leaf_index, cp.size, hashes, cp.root)
    except (ProofError, ValueError, binascii.Error) as error:
        return Check("log_inclusion", False, f"the inclusion proof fails: {error}")
    return Check("log_inclusion", True, f"leaf {proof.leaf_index} is in the tree of {cp.size}")


def _trusted_check(
    cp: Checkpoint, trusted: str, keys: Sequence[PublicKey], fetch: ConsistencyFetch | None
) -> Check:
    try:
        known, _ = open_checkpoint(trusted, [k.verifier for k in keys], origin=cp.origin)
    except (NoteError, CheckpointError) as error:
        return Check("log_trusted", False, f"the trusted checkpoint: {error}")
    if known.size == cp.size:
        same = known.root == cp.root
        detail = "the same tree" if same else f"a fork: two roots for size {cp.size}"
        return Check("log_trusted", same, detail)
    if fetch is None:
        return Check("log_trusted", False, "sizes differ: pass --log URL for a consistency proof")
    first, second = sorted((cp, known), key=lambda c: c.size)
    try:
        proof = fetch(first.size, second.size)
        verify_consistency(first.size, second.size, first.root, second.root, proof)
    except (ProofError, ValueError, OSError) as error:
        return Check("log_trusted", False, f"not consistent with the trusted checkpoint: {error}")
    return Check("log_trusted", True, f"consistent with the trusted tree of {known.size}")


def _b64(text: str) -> bytes:
    return base64.b64decode(text, validate=True)
