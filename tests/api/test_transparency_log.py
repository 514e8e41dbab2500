"""The transparency log through the API and the CLI: a closed match is a leaf, its export ends
with an inclusion proof and a signed checkpoint that verify offline with the public key, and
each way of breaking that is refused with its own reason."""

from __future__ import annotations

import base64
import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient

from api.cli import log as log_cli
from api.cli.main import main
from events.log_store import LogStore
from events.migrate import upgrade
from events.record import loads
from events.signing import generate
from events.transparency.checkpoint import open_checkpoint
from events.transparency.merkle import leaf_hash, verify_consistency, verify_inclusion
from events.transparency.note import CosignatureSigner, Signer, Verifier
from projections.log_checks import PublicKey, log_checks, parse_keys
from tests.api.conftest import OPERATOR, Api, make_app
from tests.api.test_audit import closed_zoom_match, export


def keys_json(api: Api) -> str:
    answer = api.client.get("/.well-known/adjudicator-keys")
    assert answer.status_code == 200
    return str(answer.text)


def verifiers(api: Api) -> list[Verifier]:
    return [key.verifier for key in parse_keys(keys_json(api))]


def failing(text: str, keys: list[PublicKey], **kw: Any) -> dict[str, str]:
    """The log checks that fail, by name, with their detail."""
    return {c.name: c.detail for c in log_checks(loads(text), keys, **kw) if not c.ok}


def test_a_closed_match_is_a_leaf_proved_in_the_signed_checkpoint(api: Api) -> None:
    closed_zoom_match(api)
    note = api.client.get("/log/checkpoint")
    assert note.status_code == 200 and note.headers["content-type"].startswith("text/plain")
    cp, _ = open_checkpoint(note.text, verifiers(api))
    assert cp.size == 1

    proof = api.client.get("/log/proof/inclusion", params={"match_id": api.match_id}).json()
    leaf = json.loads(proof["leaf"])
    assert leaf["match_id"] == api.match_id and leaf["result"]["winner"] in ("alpha", "beta")
    hashes = [base64.b64decode(h) for h in proof["inclusion"]]
    verify_inclusion(leaf_hash(proof["leaf"].encode()), proof["index"], cp.size, hashes, cp.root)

    entries = api.client.get("/log/entries", params={"start": 0}).json()
    assert [e["leaf"] for e in entries["entries"]] == [proof["leaf"]]


def test_the_export_is_byte_stable_and_verifies_offline_with_the_public_key(
    api: Api, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    closed_zoom_match(api)
    text = export(api)
    api.clock.advance(7200)
    assert export(api) == text  # the same bytes, whenever exported
    assert export(api, "auditor") == text
    file, keys = tmp_path / "match.jsonl", tmp_path / "keys.json"
    file.write_text(text, encoding="utf-8")
    keys.write_text(keys_json(api), encoding="utf-8")

    assert main(["verify", str(file), "--key", str(keys)]) == 0
    printed = capsys.readouterr().out
    for name in ("log_leaf", "log_signature", "log_key_valid", "log_inclusion"):
        assert f"ok   {name}" in printed

    vkey = json.loads(keys.read_text())["keys"][0]["vkey"]
    assert main(["verify", str(file), "--key", vkey]) == 0  # a bare vkey: no validity known
    stored = api.client.get(f"/matches/{api.match_id}/verify").json()
    assert stored["ok"] and "log_inclusion" in [c["name"] for c in stored["checks"]]


def test_each_way_of_breaking_the_proof_is_refused_with_its_own_reason(api: Api) -> None:
    closed_zoom_match(api)
    text = export(api)
    keys = parse_keys(keys_json(api))
    assert failing(text, keys) == {}

    record, proof_line = text.rsplit("\n", 2)[0] + "\n", text.rsplit("\n", 2)[1]
    changed = record.replace('"seed": 7', '"seed": 8', 1)
    assert "record_sha256" in failing(changed + proof_line + "\n", keys)["log_leaf"]

    proof = json.loads(proof_line)
    other_leaf = json.loads(proof["leaf"]) | {"result": None}
    forged = proof | {"leaf": json.dumps(other_leaf, sort_keys=True, separators=(",", ":"))}
    broken = failing(record + json.dumps(forged, sort_keys=True) + "\n", keys)
    assert set(broken) == {"log_leaf", "log_inclusion"}

    stranger = [PublicKey(generate().verifier())]
    assert "no signature by a known key" in failing(text, stranger)["log_signature"]
    assert "no transparency-log proof" in failing(record, keys)["log_leaf"]


def test_a_checkpoint_signed_by_a_rotated_out_key_after_its_end_is_refused(
    api: Api, tmp_path: Path
) -> None:
    closed_zoom_match(api)
    store = api.client.app.state.service.store  # type: ignore[attr-defined]
    log = LogStore(store)
    old_skey = store_skey(store)
    text = export(api)
    api.clock.advance(300)
    log.rotate(generate(log.signing_keys()[0].name), keep_private=True)
    keys = parse_keys(keys_json(api))
    old = next(k for k in keys if k.valid_until is not None)
    assert failing(text, keys) == {}  # the older record still verifies after the rotation

    # the old key signs a checkpoint dated after its validity ended: refused
    signer = Signer.from_skey(old_skey)
    proof = json.loads(text.rsplit("\n", 2)[1])
    body = open_checkpoint(proof["checkpoint"], [old.verifier])[1].text
    assert old.valid_until is not None
    late = int((old.valid_until + timedelta(minutes=1)).timestamp())
    note = CosignatureSigner.from_skey(old_skey).cosign(signer.sign(body), late)
    forged = proof | {"checkpoint": note}
    record = text.rsplit("\n", 2)[0] + "\n"
    broken = failing(record + json.dumps(forged, sort_keys=True) + "\n", keys)
    assert list(broken) == ["log_key_valid"] and "outside the key's" in broken["log_key_valid"]

    entries = api.client.get("/log/entries", params={"start": 0}).json()["entries"]
    rotation = json.loads(entries[1]["leaf"])
    assert rotation["kind"] == "key_rotation" and set(rotation["signatures"]) == {"old", "new"}


def store_skey(store: Any) -> str:
    from events.signing import current_row

    with store._reader() as conn:
        return str(current_row(conn).private_key)


def test_watch_finds_a_consistent_log_and_a_fork(api: Api, tmp_path: Path, clock: Any) -> None:
    state = tmp_path / "seen.json"
    closed_zoom_match(api)
    assert log_cli.watch("http://testserver", str(state), None, client=api.client) == 0
    closed_zoom_match(api)
    first = api.client.get("/log/proof/consistency", params={"first": 1, "second": 2}).json()
    two = open_checkpoint(api.client.get("/log/checkpoint").text, verifiers(api))[0]
    one = open_checkpoint(api.client.get("/log/checkpoint?tree_size=1").text, verifiers(api))[0]
    proof = [base64.b64decode(h) for h in first["consistency"]]
    verify_consistency(1, 2, one.root, two.root, proof)
    assert log_cli.watch("http://testserver", str(state), None, client=api.client) == 0

    # another service with the same key and another history: the watcher sees a fork
    skey = store_skey(api.client.app.state.service.store)  # type: ignore[attr-defined]
    elsewhere = f"sqlite:///{tmp_path / 'other.db'}"
    upgrade(elsewhere)
    other_app = make_app(elsewhere, clock, signing_key=skey)
    with TestClient(other_app) as other_client:
        other = Api(other_client, clock)
        closed_zoom_match(other, rounds=1)
        closed_zoom_match(other, rounds=1)
        assert log_cli.watch("http://testserver", str(state), None, client=other_client) == 1
    other_app.state.service.store.dispose()


def test_a_witness_cosignature_is_kept_with_the_checkpoint(api: Api, tmp_path: Path) -> None:
    closed_zoom_match(api)
    witness = CosignatureSigner("witness.example/w1", Ed25519PrivateKey.generate())
    skey = tmp_path / "witness.key"
    skey.write_text(witness.skey())
    assert log_cli.cosign("http://testserver", str(skey), OPERATOR, client=api.client) == 0
    served = api.client.get("/log/checkpoint").text
    assert "witness.example/w1" in served
    wrong = api.client.post(
        "/log/cosignatures",
        json={"note": served, "vkey": generate().vkey()},
        headers=api.auth(OPERATOR),
    )
    assert (wrong.status_code, wrong.json()["code"]) == (422, "bad_cosignature")
    anonymous = api.client.post("/log/cosignatures", json={"note": served, "vkey": "x"})
    assert anonymous.status_code == 401


@pytest.mark.parametrize(
    ("url", "status", "code"),
    [
        ("/log/proof/inclusion?match_id=nope", 404, "not_in_log"),
        ("/log/proof/inclusion?match_id=%00x", 404, "not_in_log"),  # PostgreSQL stores no NUL
        ("/log/checkpoint?tree_size=5", 422, "log_size_out_of_range"),
        ("/log/proof/consistency?first=2&second=1", 422, "log_size_out_of_range"),
        ("/log/proof/consistency?first=0&second=9", 422, "log_size_out_of_range"),
        ("/log/entries?start=3", 422, "log_size_out_of_range"),
        ("/log/entries?start=-1", 422, "invalid_request"),
        ("/log/checkpoint?tree_size=99999999999999999999999", 422, "invalid_request"),
    ],
)
def test_bad_log_requests_are_clear_4xx(api: Api, url: str, status: int, code: str) -> None:
    closed_zoom_match(api)
    answer = api.client.get(url)
    assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text


def test_an_open_match_has_no_leaf_and_its_export_no_proof(api: Api) -> None:
    api.create()
    answer = api.client.get("/log/proof/inclusion", params={"match_id": api.match_id})
    assert (answer.status_code, answer.json()["code"]) == (404, "not_in_log")
    assert loads(export(api)).log_proof is None
    assert api.client.get("/log/checkpoint").status_code == 200  # the empty tree, signed


def test_a_watcher_follows_a_key_rotation_signed_by_the_key_it_trusts(
    api: Api, tmp_path: Path
) -> None:
    state = tmp_path / "seen.json"
    closed_zoom_match(api)
    assert log_cli.watch("http://testserver", str(state), None, client=api.client) == 0
    api.clock.advance(60)
    log = LogStore(api.client.app.state.service.store)  # type: ignore[attr-defined]
    log.rotate(generate(log.signing_keys()[0].name), keep_private=True)
    closed_zoom_match(api)
    assert log_cli.watch("http://testserver", str(state), None, client=api.client) == 0
    assert len(json.loads(state.read_text())["keys"]) == 2

    # a key the log starts using without a rotation signed by the trusted key is refused
    stranger = tmp_path / "stranger.json"
    closed_zoom_match(api)
    stranger.write_text(
        json.dumps(
            {"checkpoint": api.client.get("/log/checkpoint").text, "keys": [generate().vkey()]}
        )
    )
    assert log_cli.watch("http://testserver", str(stranger), None, client=api.client) == 1


def test_the_stored_verify_makes_the_log_checks_the_offline_verify_makes(api: Api) -> None:
    """``audit.log_checks_of`` builds the export from the events it was given instead of
    parsing its text back: the same checks, with the same details, as the export read back."""
    from api.service import audit

    closed_zoom_match(api)
    service: Any = api.client.app.state.service  # type: ignore[attr-defined]
    match = service.store.get_match(api.match_id)
    keys = [
        PublicKey(k.verifier, k.valid_from, k.valid_until)
        for k in LogStore(service.store).signing_keys()
    ]
    text = audit.export_record(service.store, match, reveal=True, exported_at=match.created_at)
    offline = log_checks(loads(text), keys)
    assert [c.name for c in offline] == [
        "log_leaf",
        "log_signature",
        "log_key_valid",
        "log_inclusion",
    ]
    assert audit.log_checks_of(service.store, match) == offline
    assert all(check.ok for check in offline)
