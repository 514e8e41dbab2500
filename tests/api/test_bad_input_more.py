"""More bad input: each case answered 500 (or was taken wrongly) and must get a clear 4xx with a
stable code, or a correct 2xx. Nothing here may ever reach the client as an unhandled error."""

from __future__ import annotations

import json
from collections.abc import Iterator
from importlib import import_module
from pathlib import Path
from pkgutil import iter_modules
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient

from api.http import routes
from api.http.strictjson import StrictJsonRoute
from events.engine import make_engine
from tests.api.conftest import OPERATOR, Api, make_app
from tests.api.test_transcript_zoom import CAST as ZOOM_CAST
from tests.api.test_transcript_zoom import FIXTURE as ZOOM_CHANNEL
from tests.api.test_zoom_over_http import supplied_match
from tests.store.support import ManualClock

LATE_WEST = "9999-12-31T23:59:59-14:00"
EARLY_EAST = "0001-01-01T00:00:00+14:00"
BIG = str(2**63)
NNT_ROUND = {
    "prompt_text": "a 4-letter word with exactly 1 vowel",
    "category_text": "consonants",
    "category": {"kind": "letters", "letters": "consonants"},
    "prompt": {"kind": "word", "length": 4, "vowels": 1, "free_letters": "AEIOU"},
}


def get(api: Api, route: str, who: str = "host", **params: str) -> httpx.Response:
    url = f"/matches/{api.match_id}{route}"
    response: httpx.Response = api.client.get(url, params=params, headers=api.auth(api.token(who)))
    return response


def clear(response: httpx.Response, status: int | None = None, code: str | None = None) -> None:
    """A JSON error with a code and message, never 5xx (and the given status and code)."""
    assert response.status_code < 500, (response.status_code, response.text)
    if response.status_code >= 400:
        body = response.json()
        assert body["code"] and body["message"], response.text
    if status is not None:
        assert response.status_code == status, response.text
    if code is not None:
        assert response.json()["code"] == code, response.text


def test_a_host_command_in_year_999_is_refused_or_every_read_still_answers(api: Api) -> None:
    api.create()
    posted = api.command("host", {"type": "start_round", "occurred_at": "0999-06-01T00:00:00Z"})
    clear(posted)
    for route in ("/events", "/state", "/timeline", "/verify", "/export", "/ludii"):
        clear(get(api, route))
    closed = api.client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
    clear(closed)


@pytest.mark.parametrize("moment", [LATE_WEST, EARLY_EAST])
@pytest.mark.parametrize(
    ("route", "param"),
    [
        ("/state", "at"),
        ("/state", "known_at"),
        ("/events", "known_at"),
        ("/diff", "before"),
        ("/diff", "after"),
        ("/diff", "at"),
        ("/timeline", "known_at"),
    ],
)
def test_times_that_overflow_in_utc_are_refused(
    api: Api, route: str, param: str, moment: str
) -> None:
    supplied_match(api)
    params = {param: moment} | ({"before": "2024-01-01T00:00:00Z"} if param != "before" else {})
    params = params if route == "/diff" else {param: moment}
    clear(get(api, route, **params), 422)


def test_a_no_not_that_state_at_the_end_of_time_answers(api: Api) -> None:
    api.create(game="no_not_that", seats=["Alpha", "Beta"], config={"rounds": [NNT_ROUND]})
    api.ok("host", {"type": "start_round", "round": 1})
    clear(get(api, "/state", at="9999-12-31T23:59:59Z"))


def test_a_naive_known_at_on_events_is_refused_like_the_others(api: Api) -> None:
    supplied_match(api)
    clear(get(api, "/events", known_at="2024-05-01T12:00:00"), 422, "naive_time")


@pytest.mark.parametrize(
    ("route", "param"),
    [("/matches/{id}/events", "after_seq"), ("/feed", "after_position"), ("/matches", "offset")],
)
def test_integers_past_64_bits_are_refused(api: Api, route: str, param: str) -> None:
    supplied_match(api)
    token = OPERATOR if route == "/feed" else api.token("host")
    url = route.replace("{id}", api.match_id)
    clear(api.client.get(url, params={param: BIG}, headers=api.auth(token)), 422)


def test_a_stream_after_a_seq_past_64_bits_is_refused(api: Api) -> None:
    supplied_match(api)
    clear(get(api, "/stream", after_seq=BIG), 422)


def test_a_ruling_cannot_break_the_timeline(api: Api) -> None:
    supplied_match(api)
    api.clock.advance(5)
    ruling = {"type": "end_round", "reason": "time", "occurred_at": "0001-01-01T00:00:00Z"}
    clear(api.rule(ruling))
    clear(get(api, "/timeline"))
    clear(get(api, "/state"))


def test_an_import_whose_salt_is_not_a_string_is_refused(api: Api) -> None:
    supplied_match(api)
    record = get(api, "/export").text.splitlines()
    lines = [_with_number_salt(line) for line in record]
    assert lines != record  # some envelope carried a salt
    url, body = "/matches/import", "\n".join(lines) + "\n"
    headers = api.auth(OPERATOR) | {"content-type": "application/x-ndjson"}
    clear(api.client.post(url, content=body.encode(), headers=headers), 422)


def _with_number_salt(line: str) -> str:
    data = json.loads(line)
    if data.get("salt"):
        data["salt"] = 12345
    return json.dumps(data)


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400", "-2E+999"])
def test_nan_and_infinity_in_a_body_are_refused(api: Api, literal: str) -> None:
    supplied_match(api)
    before = api.last_seq()
    at = api.clock.now.isoformat()
    body = f'{{"type": "adjust_score", "seat": "alpha", "delta": {literal}, "reason": "x",'
    body += f' "at": "{at}", "note": {literal}}}'
    headers = api.auth(api.token("host")) | {"content-type": "application/json"}
    url = f"/matches/{api.match_id}/rulings"
    clear(api.client.post(url, content=body.encode(), headers=headers), 422)
    assert api.last_seq() == before


@pytest.mark.parametrize("literal", ["NaN", "Infinity"])
def test_nan_in_a_transcript_body_is_refused(api: Api, literal: str) -> None:
    """The channel's export with one NaN added: previewed as it is, refused with the NaN."""
    supplied_match(api)
    export = json.loads(ZOOM_CHANNEL.read_text())
    headers = api.auth(api.token("host")) | {"content-type": "application/json"}
    url = f"/matches/{api.match_id}/transcript/preview"

    def body(extra: str) -> bytes:
        export["extra"] = "__EXTRA__"
        text = json.dumps({"exports": [{"format": "discord", "export": export}], **ZOOM_CAST})
        return text.replace('"__EXTRA__"', extra).encode()

    before = api.last_seq()
    assert api.client.post(url, content=body("1.5"), headers=headers).status_code == 200
    for step in ("preview", "enter"):
        url = f"/matches/{api.match_id}/transcript/{step}"
        clear(api.client.post(url, content=body(literal), headers=headers), 422)
    assert api.last_seq() == before


def test_every_route_of_every_router_parses_json_strictly() -> None:
    modules = [import_module(f"api.http.routes.{m.name}") for m in iter_modules(routes.__path__)]
    served = [r for m in modules for r in m.router.routes if isinstance(r, APIRoute)]
    assert len(served) > 20
    assert [r.path for r in served if not isinstance(r, StrictJsonRoute)] == []


def test_an_oversized_chunked_body_is_413(api: Api) -> None:
    supplied_match(api)

    def chunks() -> Iterator[bytes]:
        yield b'{"type": "buzz", "seat": "alpha", "pairs": [], "padding": "'
        for _ in range(40):
            yield b"x" * 10_000
        yield b'"}'

    headers = api.auth(api.token("alpha")) | {"content-type": "application/json"}
    url = f"/matches/{api.match_id}/commands"
    clear(api.client.post(url, content=chunks(), headers=headers), 413, "payload_too_large")


def test_an_unhandled_error_answers_json_with_a_request_id(
    database_url: str, clock: ManualClock
) -> None:
    app: FastAPI = make_app(database_url, clock)

    @app.get("/boom")
    def boom() -> dict[str, Any]:
        raise RuntimeError("a bug")

    try:
        with TestClient(app, raise_server_exceptions=False) as client:
            response = client.get("/boom", headers={"x-request-id": "req-42"})
    finally:
        app.state.service.store.dispose()
    assert response.status_code == 500
    assert response.headers["content-type"].startswith("application/json"), response.text
    body = response.json()
    assert body["code"] == "internal_error" and body["message"], body
    assert body["request_id"] == "req-42", body


@pytest.mark.parametrize(
    ("ruling", "code"),
    [
        ({"type": "void", "target_seq": 1, "reason": "x"}, "not_rulable"),
        ({"type": "amend", "target_seq": 1, "outcome": {}, "reason": "x"}, "not_rulable"),
        ({"type": "amend", "target_seq": 999, "outcome": {}, "reason": "x"}, "unknown_seq"),
    ],
)
def test_rulings_on_system_or_unknown_events_are_refused(
    api: Api, ruling: dict[str, Any], code: str
) -> None:
    supplied_match(api)
    before = api.last_seq()
    clear(api.rule(ruling), 422, code)
    assert api.last_seq() == before


def test_end_round_with_no_round_in_progress_is_refused(api: Api) -> None:
    api.create()
    before = api.last_seq()
    ruling = {"type": "end_round", "reason": "x", "occurred_at": api.clock.now.isoformat()}
    clear(api.rule(ruling), 409, "no_round_in_progress")
    assert api.last_seq() == before


def test_a_ruling_dated_in_the_future_is_refused(api: Api) -> None:
    supplied_match(api)
    before = api.last_seq()
    ruling = {"type": "end_round", "reason": "x", "occurred_at": "2999-01-01T00:00:00Z"}
    clear(api.rule(ruling), 422)
    assert api.last_seq() == before


@pytest.mark.parametrize("key", ["k\u0000", "k\x7f", "tab\tkey", b"cl\xe9", ""])
def test_an_idempotency_key_of_control_or_non_ascii_characters_is_refused(
    api: Api, key: str | bytes
) -> None:
    supplied_match(api)
    before = api.last_seq()
    headers: dict[str, Any] = api.auth(api.token("alpha")) | {"Idempotency-Key": key}
    body = {"type": "buzz", "pairs": [{"target": "A", "at": "b2"}]}
    answer = api.client.post(f"/matches/{api.match_id}/commands", json=body, headers=headers)
    clear(answer, 422, "invalid_request")
    assert api.last_seq() == before


@pytest.mark.parametrize(
    "path", ["", "/state", "/events", "/timeline", "/stream", "/verify", "/export"]
)
def test_a_match_id_holding_a_nul_is_an_unknown_match(api: Api, path: str) -> None:
    """PostgreSQL's text refuses NUL: such an id names no match, on either backend."""
    supplied_match(api)
    answer = api.client.get(f"/matches/a%00b{path}", headers=api.auth(OPERATOR))
    clear(answer, 404, "unknown_match")


def test_acting_on_a_match_id_holding_a_nul_changes_nothing(api: Api) -> None:
    supplied_match(api)
    body = {"type": "buzz", "pairs": [{"target": "A", "at": "b2"}]}
    answer = api.client.post(
        "/matches/a%00b/commands", json=body, headers=api.auth(api.token("alpha"))
    )
    clear(answer)
    assert answer.status_code in (403, 404)
    listed = api.client.get("/matches?game=zoom%00", headers=api.auth(OPERATOR))
    clear(listed, 200)
    assert listed.json() == []


def test_a_database_that_does_not_answer_is_a_503_and_a_keyed_retry_records_once(
    api: Api, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    supplied_match(api)
    store = api.client.app.state.service.store  # type: ignore[attr-defined]
    body = {"type": "buzz", "pairs": [{"target": "A", "at": "b2"}]}
    api.ok("alpha", body)  # the match, its tokens and its live fold are known to the service
    before, engine = api.last_seq(), store.engine
    gone = (
        f"sqlite:///{tmp_path}/no/such/dir/x.sqlite3"
        if engine.dialect.name == "sqlite"
        else engine.url.set(port=1)  # nothing listens there
    )
    store.engine = make_engine(gone)
    # the appends awaited on the loop (events.pg_async) reach the same server: leave them out,
    # and a command goes the engine's way (their own loss: tests/store/test_append_async.py)
    monkeypatch.setattr(store, "appends_on_loop", lambda: False)
    headers = api.auth(api.token("beta")) | {"Idempotency-Key": "retry-me"}
    url = f"/matches/{api.match_id}/commands"
    try:
        answer = api.client.post(url, json=body, headers=headers)
    finally:
        store.engine.dispose()
        store.engine = engine
        monkeypatch.undo()
    assert answer.status_code == 503, answer.text
    assert answer.json()["code"] == "store_unavailable" and answer.json()["message"]
    assert answer.headers["retry-after"] == "1"
    first = api.client.post(url, json=body, headers=headers)
    again = api.client.post(url, json=body, headers=headers)
    assert (first.status_code, again.status_code) == (201, 201)
    assert again.json()["replayed"] is True
    assert api.last_seq() == before + 1


@pytest.mark.parametrize("number", ["1e400", "-1E309"])
def test_a_number_too_large_for_a_double_is_refused_not_stored_as_null(
    api: Api, number: str
) -> None:
    """``amend``'s outcome takes any JSON: an overflowing number was read as infinity, then
    stored as null."""
    supplied_match(api)
    api.ok("alpha", {"type": "buzz", "pairs": [{"target": "A", "at": "b2"}]})
    before = api.last_seq()
    body = (
        f'{{"type": "amend", "target_seq": {before}, "outcome": {{"A": {number}}}, "reason": "x"}}'
    )
    headers = api.auth(api.token("host")) | {"content-type": "application/json"}
    answer = api.client.post(f"/matches/{api.match_id}/rulings", content=body, headers=headers)
    clear(answer, 422, "invalid_request")
    assert api.last_seq() == before


NOT_UTF8 = [
    pytest.param(b"\xff\xfe<", id="a UTF-16 byte-order mark, then garbage"),
    pytest.param('{"type": "note", "reason": "x"}'.encode("utf-16"), id="JSON in UTF-16"),
    pytest.param(b'{"type": "note", "reason": "\xc3("}', id="a broken UTF-8 sequence"),
]


@pytest.mark.parametrize("body", NOT_UTF8)
@pytest.mark.parametrize("path", ["/matches", "/matches/{id}/commands", "/matches/{id}/rulings"])
def test_a_body_that_is_not_utf8_is_invalid_json(api: Api, path: str, body: bytes) -> None:
    """JSON travels as UTF-8 (RFC 8259): anything else is refused as any malformed JSON is,
    422 ``invalid_request``, never a generic 400 nor read in another encoding."""
    supplied_match(api)
    before = api.last_seq()
    token = OPERATOR if path == "/matches" else api.token("host")
    headers = api.auth(token) | {"content-type": "application/json"}
    answer = api.client.post(path.replace("{id}", api.match_id), content=body, headers=headers)
    clear(answer, 422, "invalid_request")
    assert answer.json()["details"][0]["type"] == "json_invalid"
    assert api.last_seq() == before


@pytest.mark.parametrize("seq", [2**31, 2**40, 2**63, 2**70])
@pytest.mark.parametrize(
    "ruling",
    [
        {"type": "void", "reason": "x"},
        {"type": "amend", "reason": "x", "outcome": {"A": "correct"}},
        {"type": "undo", "reason": "x"},
    ],
)
def test_a_ruling_on_a_seq_past_the_store_s_integers_is_an_unknown_seq(
    api: Api, ruling: dict[str, Any], seq: int
) -> None:
    """A seq no match can hold (the store's seqs are 32-bit) is refused as any seq the match
    has not reached, never looked up (PostgreSQL refused the lookup: a 500)."""
    supplied_match(api)
    before = api.last_seq()
    field = "to_seq" if ruling["type"] == "undo" else "target_seq"
    clear(api.rule({**ruling, field: seq}), 422, "unknown_seq")
    assert api.last_seq() == before


@pytest.mark.parametrize("after_seq", [2**31 - 1, 2**31 - 500])
def test_a_page_of_events_that_would_end_past_the_store_s_integers_is_empty(
    api: Api, after_seq: int
) -> None:
    """The last page a seq allows: ``after_seq`` plus the page's size passes the store's 32-bit
    seqs (PostgreSQL refused the comparison: a 500); no event lies there."""
    supplied_match(api)
    answer = get(api, "/events", after_seq=str(after_seq))
    clear(answer, 200)
    assert answer.json() == []


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/rulings", {"type": "void", "target_seq": True, "reason": "x"}),
        ("/rulings", {"type": "adjust_score", "seat": "alpha", "delta": True, "reason": "x"}),
        ("/commands", {"type": "start_round", "round": True}),
    ],
)
def test_a_boolean_where_a_number_goes_is_refused_not_read_as_1(
    api: Api, path: str, body: dict[str, Any]
) -> None:
    """``target_seq: true`` voided seq 1 (pydantic's lax mode reads true as 1)."""
    supplied_match(api)
    before = api.last_seq()
    url = f"/matches/{api.match_id}{path}"
    refused = api.client.post(url, json=body, headers=api.auth(api.token("host")))
    clear(refused, 422, "invalid_request")
    assert "not a boolean" in refused.json()["message"]
    assert api.last_seq() == before


@pytest.mark.parametrize("config", [{"rounds": True}, {"rounds": 2, "grid_width": False}])
def test_a_boolean_in_a_config_is_refused(api: Api, config: dict[str, Any]) -> None:
    body = {"game": "zoom", "seats": ["alpha", "beta"], "config": config}
    made = api.client.post("/matches", json=body, headers=api.auth(OPERATOR))
    clear(made, 422, "invalid_config")
    assert api.client.get("/matches").json() == []


def test_a_swiss_of_true_rounds_is_refused(api: Api) -> None:
    players = [{"name": name} for name in ("Ada", "Bo", "Cy", "Di")]
    body = {"name": "Cup", "game": "zoom", "format": "swiss", "rounds": True, "players": players}
    made = api.client.post("/tournaments", json=body, headers=api.auth(OPERATOR))
    clear(made, 422, "invalid_request")
    assert made.json()["details"][0]["loc"] == ["body", "rounds"]


@pytest.mark.parametrize(
    ("path", "code"),
    [
        ("/matches/{id}/state", "unknown_match"),
        ("/matches/{id}/verify", "unknown_match"),
        ("/tournaments/{id}/standings", "unknown_tournament"),
    ],
)
def test_an_unknown_id_of_thousands_of_characters_is_not_sent_back_whole(
    api: Api, path: str, code: str
) -> None:
    """A 404 names the id it did not find by its start and its length, not all 6,000 characters
    the client sent (nor does a 422 naming a player or a seat: ``quoted``)."""
    answer = api.client.get(path.format(id="x" * 6000), headers=api.auth(OPERATOR))
    clear(answer, 404, code)
    message = answer.json()["message"]
    assert len(message) < 300 and "6,000 characters" in message, message
