"""The transparency log's commands: ``keys show|rotate``, ``log watch`` and ``log cosign``, and
what ``verify --key`` adds to a record's checks.

``keys`` works on the store itself (as ``export`` does); ``log watch`` and ``log cosign`` talk to
a running service over HTTP; ``verify --key`` is offline unless ``--log URL`` is given to fetch
a consistency proof to a trusted checkpoint of another size.
"""

from __future__ import annotations

import base64
import json
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from events import EventStore
from events.log_store import LogError, LogStore
from events.record import Record
from events.signing import generate
from events.transparency.checkpoint import (
    Checkpoint,
    CheckpointError,
    check_extends,
    open_checkpoint,
    parse_checkpoint,
)
from events.transparency.merkle import ProofError, leaf_hash, verify_inclusion
from events.transparency.note import (
    CosignatureSigner,
    NoteError,
    Verifier,
    open_note,
    parse_note,
)
from projections.log_checks import LeafCheck, PublicKey, log_checks, parse_keys
from projections.verify import Check

TIMEOUT = 10.0


@dataclass(frozen=True, slots=True)
class LogTrust:
    """What ``verify`` trusts: the log's keys (a vkey, vkey lines, or the JSON of
    ``/.well-known/adjudicator-keys``), optionally a checkpoint, and where to fetch proofs."""

    keys_text: str
    trusted: str | None = None
    log_url: str | None = None

    def checks(self, record: Record, leaf_check: LeafCheck | None = None) -> list[Check]:
        """``record``'s transparency-log checks (``projections.log_checks``; ``leaf_check``:
        how its leaf must name it, a closed match's record by default)."""
        try:
            keys = parse_keys(self.keys_text)
        except (NoteError, ValueError, KeyError) as error:
            return [Check("log_signature", False, f"the --key given is not a key: {error}")]
        fetch = None if self.log_url is None else _fetcher(self.log_url)
        return log_checks(record, keys, self.trusted, fetch, leaf_check)


def trust_from_args(
    key: str | None, checkpoint: str | None, log_url: str | None
) -> LogTrust | None:
    """``--key`` (a vkey or a file of keys), ``--checkpoint FILE``, ``--log URL``."""
    if key is None:
        if checkpoint is not None or log_url is not None:
            raise ValueError("--checkpoint and --log need --key")
        return None
    keys_text = _text_or_file(key)
    trusted = None if checkpoint is None else Path(checkpoint).read_text(encoding="utf-8")
    return LogTrust(keys_text, trusted, log_url)


def _text_or_file(value: str) -> str:
    path = Path(value)
    return path.read_text(encoding="utf-8") if "+" not in value and path.exists() else value


def _fetcher(url: str) -> Any:
    def fetch(first: int, second: int) -> list[bytes]:
        params = {"first": first, "second": second}
        answer = httpx.get(
            f"{url.rstrip('/')}/log/proof/consistency", params=params, timeout=TIMEOUT
        )
        answer.raise_for_status()
        return [base64.b64decode(h) for h in answer.json()["consistency"]]

    return fetch


# keys


def keys_show(database_url: str, as_json: bool) -> int:
    store = EventStore.from_url(database_url)
    try:
        keys = LogStore(store).signing_keys()
    finally:
        store.dispose()
    if as_json:
        print(json.dumps({"keys": [key.as_json() for key in keys]}, indent=2))
        return 0
    for key in keys:
        info = key.as_json()
        until = info["valid_until"] or "now"
        print(f"{info['vkey']}  valid {info['valid_from']} to {until}")
    if not keys:
        print("no key yet: the service creates one on its first start", file=sys.stderr)
    return 0


def keys_rotate(database_url: str, configured: str | None, output: str | None) -> int:
    """Rotate to a new key. With a configured key (``ADJUDICATOR_SIGNING_KEY``), the new signer
    key is written to ``output`` (it must then be configured); else the store keeps it."""
    from api.service.signing_keys import configured_signer

    store = EventStore.from_url(database_url)
    try:
        store.signer = configured_signer(configured)
        new = generate((store.signer.name if store.signer else None) or _current_name(store))
        if store.signer is not None and output is None:
            raise ValueError("a configured key is rotated with --output FILE for the new key")
        index = LogStore(store).rotate(new, keep_private=store.signer is None)
    except LogError as error:
        print(f"error: {error.message}", file=sys.stderr)
        return 1
    finally:
        store.dispose()
    if output is not None:
        Path(output).write_text(new.skey() + "\n", encoding="utf-8")
        Path(output).chmod(0o600)
    print(json.dumps({"rotated": True, "leaf_index": index, "new_key": new.vkey()}))
    return 0


def _current_name(store: EventStore) -> str | None:
    keys = LogStore(store).signing_keys()
    return keys[-1].name if keys else None


# witnesses


def watch(url: str, state_file: str, key: str | None, client: httpx.Client | None = None) -> int:
    """Fetch the log's checkpoint, check it extends the last one seen (kept in ``state_file``)
    and that each tournament leaf added since names matches whose own leaves agree
    (:func:`tournament_problems`), then keep it. Exit 0: consistent (or the first one seen);
    1: a fork, a rollback, a bad signature or a tournament leaf its match leaves contradict;
    2: the log cannot be reached."""
    base, http = url.rstrip("/"), client or httpx.Client(timeout=TIMEOUT)
    state = Path(state_file)
    try:
        verifiers = _watch_keys(http, base, key, state)
        note = http.get(f"{base}/log/checkpoint")
        note.raise_for_status()
        old = None
        if state.exists():
            seen = json.loads(state.read_text(encoding="utf-8"))
            old, _ = open_checkpoint(seen["checkpoint"], verifiers)
        entries = _entries(http, base, old.size if old else 0, note.text)
        verifiers += learned_keys(entries, verifiers)
        new, _ = open_checkpoint(note.text, verifiers)
        if old is not None:
            proof = _consistency(http, base, old.size, new.size) if new.size > old.size else []
            check_extends(old, new, proof)
        problems = tournament_problems(http, base, entries, new)
    except (httpx.HTTPError, OSError) as error:
        print(f"error: cannot read the log at {base}: {error}", file=sys.stderr)
        return 2
    except (NoteError, CheckpointError, ProofError) as error:
        print(f"FORK or bad log: {error} ({getattr(error, 'reason', '')})", file=sys.stderr)
        return 1
    if problems:
        for problem in problems:
            print(f"BAD tournament leaf: {problem}", file=sys.stderr)
        return 1
    keys = [v.vkey() for v in verifiers]
    state.write_text(json.dumps({"checkpoint": note.text, "keys": keys}), encoding="utf-8")
    print(f"ok: {new.origin} at size {new.size}")
    return 0


def _entries(http: httpx.Client, base: str, since: int, note: str) -> list[dict[str, Any]]:
    """The log's entries from index ``since`` to the size of the checkpoint ``note`` (none
    when it does not parse: its own check says why)."""
    try:
        size = parse_checkpoint(parse_note(note).text).size
    except (NoteError, CheckpointError):
        return []
    found: list[dict[str, Any]] = []
    for start in range(since, size, 1000):
        answer = http.get(
            f"{base}/log/entries", params={"start": start, "end": min(size, start + 1000)}
        )
        answer.raise_for_status()
        found += answer.json()["entries"]
    return found


def learned_keys(entries: list[dict[str, Any]], trusted: list[Verifier]) -> list[Verifier]:
    """The keys a rotation among ``entries`` introduced: a ``key_rotation`` leaf whose
    statement a trusted key signed hands trust on to the new key (its own signature must
    verify too). The new checkpoint is then still checked as an extension of the old one."""
    learned: list[Verifier] = []
    for entry in entries:
        if entry["kind"] == "key_rotation":
            learned += _rotation_key(json.loads(entry["leaf"]), [*trusted, *learned])
    return learned


def tournament_problems(
    http: httpx.Client, base: str, entries: list[dict[str, Any]], checkpoint: Checkpoint
) -> list[str]:
    """What contradicts each tournament leaf among ``entries``: every match it names must have
    a leaf of its own, earlier in the log, in the tree of ``checkpoint`` (its inclusion proof
    verified against that root), whose chain head is the hash the seal names. One request a
    match named."""
    problems = []
    for entry in entries:
        if entry["kind"] != "tournament":
            continue
        leaf, index = json.loads(entry["leaf"]), entry["index"]
        for match_id, head in sorted(leaf.get("matches", {}).items()):
            problem = _named_match_problem(http, base, checkpoint, index, match_id, head)
            if problem:
                problems.append(
                    f"leaf {index} ({leaf.get('tournament_id')}): match {match_id} {problem}"
                )
    return problems


def _named_match_problem(
    http: httpx.Client, base: str, cp: Checkpoint, index: int, match_id: str, head: str
) -> str:
    params: dict[str, Any] = {"match_id": match_id, "tree_size": cp.size}
    answer = http.get(f"{base}/log/proof/inclusion", params=params)
    if answer.status_code == 404:
        return "has no leaf in the log"
    answer.raise_for_status()
    found = answer.json()
    if found["index"] >= index:
        return "is logged after the tournament"
    if json.loads(found["leaf"]).get("chain_head") != head:
        return "has another last hash in its own leaf"
    try:
        hashes = [base64.b64decode(h) for h in found["inclusion"]]
        verify_inclusion(
            leaf_hash(found["leaf"].encode()), found["index"], cp.size, hashes, cp.root
        )
    except (ProofError, ValueError) as error:
        return f"has a leaf not in the tree: {error}"
    return ""


def _rotation_key(leaf: dict[str, Any], trusted: list[Verifier]) -> list[Verifier]:
    statement = {k: leaf[k] for k in ("at", "kind", "new", "old")}
    text = json.dumps(statement, sort_keys=True, separators=(",", ":")) + "\n"
    new = Verifier.from_vkey(leaf["new"])
    try:
        for key, by in (("old", trusted), ("new", [new])):
            if open_note(leaf["signatures"][key], by).text != text:
                return []
    except NoteError:
        return []
    return [new]


def _watch_keys(http: httpx.Client, base: str, key: str | None, state: Path) -> list[Verifier]:
    """The keys to trust: ``--key``; else those kept in the state file; else (first use) the
    log's own published keys."""
    if key is not None:
        return [k.verifier for k in parse_keys(_text_or_file(key))]
    if state.exists():
        return [Verifier.from_vkey(v) for v in json.loads(state.read_text())["keys"]]
    answer = http.get(f"{base}/.well-known/adjudicator-keys")
    answer.raise_for_status()
    return [k.verifier for k in parse_keys(answer.text)]


def _consistency(http: httpx.Client, base: str, first: int, second: int) -> list[bytes]:
    params = {"first": first, "second": second}
    answer = http.get(f"{base}/log/proof/consistency", params=params)
    answer.raise_for_status()
    return [base64.b64decode(h) for h in answer.json()["consistency"]]


def cosign(
    url: str, skey_file: str, operator_token: str | None, client: httpx.Client | None = None
) -> int:
    """Cosign the log's current checkpoint with a witness key (tlog-cosignature/v1) and print
    the cosigned note; with ``operator_token``, also record it at the service."""
    base, http = url.rstrip("/"), client or httpx.Client(timeout=TIMEOUT)
    witness = CosignatureSigner.from_skey(Path(skey_file).read_text(encoding="utf-8").strip())
    note = http.get(f"{base}/log/checkpoint")
    note.raise_for_status()
    cosigned = witness.cosign(note.text, int(datetime.now(UTC).timestamp()))
    if operator_token:
        body = {"note": cosigned, "vkey": witness.vkey()}
        headers = {"Authorization": f"Bearer {operator_token}"}
        answer = http.post(f"{base}/log/cosignatures", json=body, headers=headers)
        if answer.status_code != 200:
            print(f"error: {answer.text}", file=sys.stderr)
            return 1
    sys.stdout.write(cosigned)
    return 0


__all__ = [
    "LogTrust",
    "PublicKey",
    "cosign",
    "keys_rotate",
    "keys_show",
    "trust_from_args",
    "watch",
]
