"""Export, verify and import over HTTP: a tampered record is caught and refused, an untouched one
verifies and re-imports into a fresh instance as the very same match."""

from __future__ import annotations

import json
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from adjudicator.registry import GAMES
from api.cli.demo import ZoomScript
from api.service.audit import export_text, verify_text
from events.migrate import upgrade
from tests.api.conftest import OPERATOR, Api, make_app
from tests.unit.audit.records import HIDDEN, ZOOM, edited, events_of, rechained

NDJSON = {"content-type": "application/x-ndjson"}


def closed_zoom_match(api: Api, rounds: int = 3) -> None:
    """A generated Zoom match played to its end through the API, then closed by the host."""
    start = api.clock.now - timedelta(hours=1)
    script = ZoomScript(api.client, OPERATOR, seed=7, rounds=rounds, start=start)
    made = script.create()
    api.match_id, api.tokens = made["match_id"], made["tokens"]
    for number in range(1, rounds + 1):
        script.play_round(number)
    closed = api.client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
    assert closed.status_code == 201, closed.text


def export(api: Api, who: str = "host") -> str:
    response = api.client.get(f"/matches/{api.match_id}/export", headers=api.auth(api.token(who)))
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("application/x-ndjson")
    return str(response.text)


def lines_of(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def tamper_one_byte(text: str, seq: int) -> str:
    """Change one byte (the first digit) inside the payload of event ``seq`` (line ``seq + 1``)."""
    lines = text.splitlines(keepends=True)
    start = lines[seq].index('"payload": ')
    at = next(i for i in range(start, len(lines[seq])) if lines[seq][i].isdigit())
    changed = str((int(lines[seq][at]) + 1) % 10)
    lines[seq] = lines[seq][:at] + changed + lines[seq][at + 1 :]
    return "".join(lines)


def first_buzz_seq(text: str) -> int:
    return next(int(e["seq"]) for e in lines_of(text)[1:] if e.get("type") == "zoom.buzzed")


def test_an_untouched_export_verifies_offline_and_in_the_store(api: Api) -> None:
    closed_zoom_match(api)
    text = export(api)

    header, *events, proof = lines_of(text)
    assert header["format"] == "adjudicator-match/1"
    assert proof["format"] == "adjudicator-log-proof/1"  # a closed match's export ends so
    assert (header["match_id"], header["status"]) == (api.match_id, "closed")
    assert header["event_count"] == len(events) and header["chain_head"] == events[-1]["hash"]
    assert all("position" not in e for e in events)
    assert events[1]["salt"] and events[1]["payload"]["seed"] == 7
    offline = verify_text(text, GAMES)
    assert offline.ok, offline.as_json()
    stored = api.client.get(f"/matches/{api.match_id}/verify").json()
    assert stored["ok"] and [c["name"] for c in stored["checks"]] == [
        "chain",
        "commitments",
        "refold",
        "log_leaf",
        "log_signature",
        "log_key_valid",
        "log_inclusion",
    ]


def test_a_changed_payload_byte_fails_verification_naming_the_first_bad_seq(api: Api) -> None:
    closed_zoom_match(api)
    text = export(api)
    seq = first_buzz_seq(text)

    report = verify_text(tamper_one_byte(text, seq), GAMES)

    assert not report.ok and report.first_bad_seq == seq
    chain = report.checks[0]
    assert (chain.name, chain.ok, chain.first_bad_seq) == ("chain", False, seq)
    assert f"seq {seq}" in chain.detail


def test_a_changed_salt_or_commitment_fails_on_the_commitment(api: Api) -> None:
    closed_zoom_match(api)
    events = lines_of(export(api))
    for field in ("salt", "commitment"):
        edited = [dict(e) for e in events]
        value = edited[2][field]
        edited[2][field] = ("0" if value[0] != "0" else "1") + value[1:]
        text = "".join(json.dumps(e) + "\n" for e in edited)

        report = verify_text(text, GAMES)

        commitments = next(c for c in report.checks if c.name == "commitments")
        assert (commitments.ok, commitments.first_bad_seq) == (False, 2), field


def test_only_the_host_or_a_closed_match_auditor_exports(api: Api) -> None:
    api.create()
    url = f"/matches/{api.match_id}/export"
    for who, code in (("alpha", "export_forbidden"), ("auditor", "export_before_close")):
        refused = api.client.get(url, headers=api.auth(api.token(who)))
        assert (refused.status_code, refused.json()["code"]) == (403, code)
    anonymous = api.client.get(url)
    assert (anonymous.status_code, anonymous.json()["code"]) == (403, "export_forbidden")
    api.client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
    assert verify_text(export(api, "auditor"), GAMES).ok


def fresh_instance(tmp_path: Path, api: Api) -> TestClient:
    url = f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"
    upgrade(url)
    return TestClient(make_app(url, api.clock))


def post_import(client: TestClient, text: str, token: str = OPERATOR) -> Any:
    headers = NDJSON | {"Authorization": f"Bearer {token}"}
    return client.post("/matches/import", content=text.encode(), headers=headers)


def test_an_import_into_a_fresh_instance_reproduces_the_match(api: Api, tmp_path: Path) -> None:
    closed_zoom_match(api)
    text = export(api)
    with fresh_instance(tmp_path, api) as other:
        answer = post_import(other, text)
        assert answer.status_code == 201, answer.text
        made = answer.json()
        assert (made["match_id"], made["status"]) == (api.match_id, "closed")
        host = {"Authorization": f"Bearer {made['tokens']['host']}"}
        url = f"/matches/{api.match_id}"
        assert other.get(f"{url}/state", headers=host).json() == api.state()
        verified = [other.get(f"{url}/verify").json(), api.client.get(f"{url}/verify").json()]
        # the same checks; the log's name each service's own key
        assert [(c["name"], c["ok"]) for c in verified[0]["checks"]] == [
            (c["name"], c["ok"]) for c in verified[1]["checks"]
        ]
        assert [c for c in verified[0]["checks"] if not c["name"].startswith("log_")] == [
            c for c in verified[1]["checks"] if not c["name"].startswith("log_")
        ]
        again = other.get(f"{url}/export", headers=host).text
        # the same record, byte for byte; each service's log proves it with its own leaf
        assert again.rsplit("\n", 2)[0] == text.rsplit("\n", 2)[0]
        leaves = [json.loads(lines_of(t)[-1]["leaf"]) for t in (again, text)]
        assert leaves[0] == leaves[1]
        twice = post_import(other, text)
        assert (twice.status_code, twice.json()["code"]) == (409, "match_exists")
        other.app.state.service.store.dispose()  # type: ignore[attr-defined]


def test_a_tampered_record_is_refused_and_records_nothing(api: Api, tmp_path: Path) -> None:
    closed_zoom_match(api)
    text = export(api)
    seq = first_buzz_seq(text)
    with fresh_instance(tmp_path, api) as other:
        refused = post_import(other, tamper_one_byte(text, seq))
        assert (refused.status_code, refused.json()["code"]) == (422, "record_invalid")
        assert refused.json()["details"]["first_bad_seq"] == seq
        assert other.get(f"/matches/{api.match_id}").status_code == 404
        assert other.get("/matches").json() == []
        garbage = post_import(other, "not json\n")
        assert (garbage.status_code, garbage.json()["code"]) == (422, "record_invalid")
        other.app.state.service.store.dispose()  # type: ignore[attr-defined]


def test_importing_needs_the_operator_token(api: Api) -> None:
    closed_zoom_match(api)
    refused = post_import(api.client, export(api), token=str(api.token("host")))
    assert (refused.status_code, refused.json()["code"]) == (403, "not_operator")
    exists = post_import(api.client, export(api))
    assert (exists.status_code, exists.json()["code"]) == (409, "match_exists")


def test_a_changed_private_payload_fails_on_its_commitment_only(api: Api) -> None:
    closed_zoom_match(api)
    events = lines_of(export(api))
    events[2]["payload"]["seed"] += 1
    report = verify_text("".join(json.dumps(e) + "\n" for e in events), GAMES)

    failed = {c.name: c.first_bad_seq for c in report.checks if not c.ok}
    assert failed == {"commitments": 2}  # the chain hashes a private payload via its commitment


def test_an_open_record_without_its_private_payloads_verifies_its_chain_but_cannot_refold(
    api: Api,
) -> None:
    api.create()
    service = api.client.app.state.service  # type: ignore[attr-defined]
    text = export_text(service.store, api.match_id, reveal=False, exported_at=api.clock.now)

    report = verify_text(text, GAMES)

    checks = {c.name: c for c in report.checks}
    assert checks["chain"].ok and checks["header"].ok
    assert checks["commitments"].ok and "1 withheld" in checks["commitments"].detail
    assert not checks["refold"].ok and "withheld" in checks["refold"].detail


def test_a_closed_record_withholding_a_private_payload_fails_on_that_commitment(
    api: Api,
) -> None:
    closed_zoom_match(api)
    service = api.client.app.state.service  # type: ignore[attr-defined]
    text = export_text(service.store, api.match_id, reveal=False, exported_at=api.clock.now)

    report = verify_text(text, GAMES)

    checks = {c.name: c for c in report.checks}
    assert checks["chain"].ok and checks["header"].ok
    commitments = checks["commitments"]
    assert (commitments.ok, commitments.first_bad_seq) == (False, 2)
    assert "seq 2: the match is closed, yet the payload and salt" in commitments.detail
    assert not checks["refold"].ok and not report.ok


MALFORMED = [
    ("salt is a number", edited(HIDDEN, 5, "salt", 12345), "line 5: salt:"),
    ("salt withheld", edited(HIDDEN, 5, "salt", None), "line 5: salt:"),
    ("seq is a string", edited(ZOOM, 2, "seq", "1"), "line 2: seq:"),
    ("time without zone", edited(ZOOM, 4, "occurred_at", "2026-03-01T15:00:30"), "line 4:"),
    ("not an object", "[1, 2]\n", "line 1: each line is a JSON object"),
]


@pytest.mark.parametrize(
    ("text", "expected"), [m[1:] for m in MALFORMED], ids=[m[0] for m in MALFORMED]
)
def test_a_malformed_import_is_refused_with_the_line_and_field(
    api: Api, text: str, expected: str
) -> None:
    refused = post_import(api.client, text)

    assert (refused.status_code, refused.json()["code"]) == (422, "record_invalid")
    (check,) = refused.json()["details"]["checks"]
    assert check["name"] == "format" and check["detail"].startswith(expected)
    assert api.client.get("/matches").json() == []


def test_an_import_holding_a_nul_character_is_refused(api: Api) -> None:
    *played, closed = events_of(HIDDEN)
    note = replace(played[-1], type="ruling.note", actor="host", payload={"reason": "a\x00b"})
    text = rechained(HIDDEN, [*played, note, closed])
    assert verify_text(text, GAMES).ok  # a remark changes nothing: the record itself verifies

    refused = post_import(api.client, text)

    assert (refused.status_code, refused.json()["code"]) == (422, "record_invalid")
    check = refused.json()["details"]["checks"][0]
    assert check["detail"] == f"seq {len(played) + 1}: a NUL character (\\u0000) cannot be stored"
    assert api.client.get("/matches").json() == []


def test_a_golden_record_imports(api: Api) -> None:
    answer = post_import(api.client, HIDDEN.read_text(encoding="utf-8"))
    assert answer.status_code == 201, answer.text
