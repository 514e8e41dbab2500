"""The transcript routes take the export files as a multipart/form-data upload, besides the
JSON body: the same answers, the readers' own errors, and a larger body limit of its own,
counted while the upload arrives."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.api.conftest import Api, make_app
from tests.api.test_transcript_nnt import BODY as NNT_BODY
from tests.api.test_transcript_zoom import CAST, CONFIG, FIXTURE, body, export
from tests.support.nnt_harness import make_config

FIXTURES = Path(__file__).parents[1] / "fixtures" / "transcripts"
BOUNDARY = "upload-boundary"

Files = list[tuple[str, tuple[str, bytes, str]]]


def upload(
    api: Api,
    action: str,
    files: Files,
    options: dict[str, Any] | str | None = None,
    who: str = "host",
    **params: Any,
) -> httpx.Response:
    url = f"/matches/{api.match_id}/transcript/{action}"
    data = {} if options is None else {"options": options}
    if isinstance(options, dict):
        data["options"] = json.dumps(options)
    response: httpx.Response = api.client.post(
        url, files=files, data=data, params=params, headers=api.auth(api.token(who))
    )
    return response


def send_json(api: Api, action: str, payload: dict[str, Any], **params: Any) -> httpx.Response:
    url = f"/matches/{api.match_id}/transcript/{action}"
    headers = api.auth(api.token("host"))
    response: httpx.Response = api.client.post(url, json=payload, params=params, headers=headers)
    return response


def zoom_files() -> Files:
    return [("export", ("zoom-channel.json", FIXTURE.read_bytes(), "application/json"))]


def nnt_files() -> Files:
    def one(part: str, name: str, channel: str) -> tuple[str, tuple[str, bytes, str]]:
        return (part, (f"{channel}.txt", (FIXTURES / name).read_bytes(), "text/plain"))

    return [
        one("export", "nnt-channel.txt", "nnt"),
        one("dm_export", "nnt-dm-alpha.txt", "dm-alpha"),
        one("dm_export", "nnt-dm-beta.txt", "dm-beta"),
    ]


NNT_OPTIONS = {"seats": NNT_BODY["seats"], "hosts": NNT_BODY["hosts"]}


def without_match(answer: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in answer.items() if k != "match_id"}


def test_an_uploaded_export_previews_as_the_json_body_does(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=5)

    as_json = send_json(api, "preview", body(export()), limit=5, offset=2)
    uploaded = upload(api, "preview", zoom_files(), CAST, limit=5, offset=2)

    assert uploaded.status_code == 200, uploaded.text
    assert uploaded.json() == as_json.json()
    assert uploaded.json()["limit"] == 5 and len(uploaded.json()["posts"]) == 5
    assert api.last_seq() == 2  # nothing recorded


def test_an_uploaded_export_enters_as_the_json_body_does(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=5)
    as_json = send_json(api, "enter", body(export()))
    json_events = api.client.get(f"/matches/{api.match_id}/events").json()
    api.create(config=CONFIG, advantage="beta", seed=5)

    uploaded = upload(api, "enter", zoom_files(), CAST)

    assert uploaded.status_code == 201, uploaded.text
    assert without_match(uploaded.json()) == without_match(as_json.json())
    events = api.client.get(f"/matches/{api.match_id}/events").json()
    assert [e["source"] for e in events] == [e["source"] for e in json_events]
    assert upload(api, "enter", zoom_files(), CAST).json()["entered"] == 0


def test_direct_messages_upload_as_dm_exports_named_by_their_files(api: Api) -> None:
    api.create(game="no_not_that", config=make_config(rounds=1))
    as_json = send_json(api, "preview", NNT_BODY)

    uploaded = upload(api, "preview", nnt_files(), NNT_OPTIONS)

    assert uploaded.status_code == 200, uploaded.text
    assert uploaded.json() == as_json.json()
    channels = uploaded.json()["channels"]
    assert [(c["channel_id"], c["dm"]) for c in channels] == [
        ("nnt", False),
        ("dm-alpha", True),
        ("dm-beta", True),
    ]
    entered = upload(api, "enter", nnt_files(), NNT_OPTIONS)
    assert entered.status_code == 201 and entered.json()["entered"] == 9


def test_corrections_and_exclusions_come_in_the_options(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=5)
    message_id = export()["messages"][0]["id"]
    start = {"type": "start_round", "round": 1}
    fix = {"message_id": message_id, "command": start, "reason": "the host meant it"}
    options = {**CAST, "corrections": [fix]}

    as_json = send_json(api, "preview", body(export(), corrections=[fix]))
    uploaded = upload(api, "preview", zoom_files(), options)

    assert uploaded.status_code == 200, uploaded.text
    assert uploaded.json() == as_json.json()
    excluded = upload(api, "preview", zoom_files(), {**CAST, "exclude": [message_id]})
    rows = {r["message_id"]: r for r in excluded.json()["posts"]}
    assert rows[message_id]["status"] == "excluded"


def test_a_file_the_reader_refuses_answers_the_readers_code(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=5)
    data = export()
    data["messages"][3]["timestamp"] = "2024-05-01T12:00"
    naive = [("export", ("c.json", json.dumps(data).encode(), "application/json"))]
    not_utf8 = [("export", ("c.txt", b"[2024-05-01T12:00:00Z] bob: \xff", "text/plain"))]
    not_json = [("export", ("c.json", b'{"messages": [', "application/json"))]

    refused = upload(api, "preview", naive, CAST)
    assert refused.status_code == 422
    mid = data["messages"][3]["id"]
    assert refused.json()["code"] == "timestamp_without_offset"
    assert refused.json()["details"] == {"message_id": mid}
    assert upload(api, "preview", not_utf8, CAST).json()["code"] == "not_a_transcript"
    assert upload(api, "preview", not_json, CAST).json()["code"] == "not_an_export"
    assert upload(api, "enter", naive, CAST).status_code == 422
    assert api.last_seq() == 2


def test_an_upload_without_options_or_export_is_invalid(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=5)
    dm_only = [("dm_export", ("dm.txt", b"[2024-05-01T12:00:00Z] bob: hi", "text/plain"))]
    stray = [*zoom_files(), ("extra", ("x.txt", b"x", "text/plain"))]
    cases: list[tuple[Files, Any, str]] = [
        (zoom_files(), None, "body.options"),
        (zoom_files(), "{not json", "body.options"),
        (zoom_files(), {"seats": ["alice"], "hosts": ["Quizmaster"]}, "body.options.seats"),
        (zoom_files(), {**CAST, "extra": 1}, "body.options.extra"),
        (dm_only, CAST, "body.export"),
        (stray, CAST, "body.extra"),
    ]
    for files, options, where in cases:
        for action in ("preview", "enter"):
            answer = upload(api, action, files, options)
            assert answer.status_code == 422, (where, answer.text)
            assert answer.json()["code"] == "invalid_request", answer.text
            assert answer.json()["message"].startswith(where), answer.text
    missing_export = upload(api, "preview", dm_only, CAST).json()["message"]
    assert "export" in missing_export and "needed" in missing_export
    assert api.last_seq() == 2


def test_the_upload_still_needs_the_hosts_token(api: Api) -> None:
    api.create(config=CONFIG, advantage="beta", seed=5)
    assert upload(api, "enter", zoom_files(), CAST, who="alpha").status_code == 403
    url = f"/matches/{api.match_id}/transcript/enter"
    data = {"options": json.dumps(CAST)}
    answer = api.client.post(url, files=zoom_files(), data=data, headers=api.auth("bad"))
    assert answer.status_code == 401
    assert api.last_seq() == 2


@pytest.fixture
def small(database_url: str, clock: Any) -> Iterator[Api]:
    """An app whose upload limit is 16 KiB and JSON transcript limit 8 KiB."""
    app = make_app(database_url, clock, max_upload_bytes=16384, max_transcript_bytes=8192)
    with TestClient(app) as client:
        yield Api(client, clock)
    app.state.service.store.dispose()


def multipart(files: list[tuple[str, str, bytes]], options: dict[str, Any]) -> bytes:
    """A multipart/form-data body, written out (so it can be sent in chunks)."""
    out = b""
    for name, filename, content in files:
        out += (
            (
                f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"; '
                f'filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n'
            ).encode()
            + content
            + b"\r\n"
        )
    out += (
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="options"\r\n\r\n'
        f"{json.dumps(options)}\r\n--{BOUNDARY}--\r\n"
    ).encode()
    return out


def chunks(data: bytes, size: int = 1000) -> Iterator[bytes]:
    for start in range(0, len(data), size):
        yield data[start : start + size]


def test_an_upload_over_its_limit_is_refused_and_records_nothing(small: Api) -> None:
    small.create(config=CONFIG, advantage="beta", seed=5)
    fixture = FIXTURE.read_bytes()
    assert 8192 < len(fixture) < 16384 - 1000  # over the JSON limit, within the upload one
    url = f"/matches/{small.match_id}/transcript/enter"
    auth = small.auth(small.token("host"))
    form = {"content-type": f"multipart/form-data; boundary={BOUNDARY}"}
    padded = fixture + b" " * 16384  # whitespace after the JSON: still the same export

    declared = small.client.post(url, content=multipart([("export", "c.json", padded)], CAST),
                                 headers=auth | form)  # fmt: skip
    assert declared.status_code == 413, declared.text
    assert declared.json() == {
        "code": "payload_too_large",
        "message": "bodies are limited to 16384 B",
    }
    streamed_body = multipart([("export", "c.json", padded)], CAST)
    streamed = small.client.post(url, content=chunks(streamed_body), headers=auth | form)
    assert streamed.status_code == 413, streamed.text
    assert streamed.json()["code"] == "payload_too_large"
    assert small.last_seq() == 2

    within = multipart([("export", "c.json", fixture)], CAST)
    assert small.client.post(url, content=chunks(within), headers=auth | form).status_code == 201
    indented = json.dumps(body(export()), indent=2).encode()
    assert len(indented) > 8192
    json_type = {"content-type": "application/json"}
    as_json = small.client.post(url, content=indented, headers=auth | json_type)
    assert as_json.status_code == 413  # the JSON body keeps its own (smaller) limit
