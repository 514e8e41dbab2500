"""The OpenAPI document tells the truth: bearer authentication as a security scheme, and
/docs and /redoc that render with the network off (every asset comes from the app)."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx

from tests.api.conftest import OPERATOR, Api


def test_docs_and_redoc_load_every_asset_from_the_app(api: Api) -> None:
    for page in ("/docs", "/redoc"):
        html = api.client.get(page)
        assert html.status_code == 200
        assert not re.search(r"https?://", html.text), f"{page} points outside the app"
        assets = re.findall(r'(?:src|href|url)\s*[:=]\s*[\'"]([^\'"]+)[\'"]', html.text)
        assert assets, page
        for asset in assets:
            answer = api.client.get(asset)
            assert answer.status_code == 200, (page, asset)
            assert len(answer.content) > 100, (page, asset)


def test_authentication_is_a_bearer_security_scheme(api: Api) -> None:
    spec = api.client.get("/openapi.json").json()
    schemes = spec["components"]["securitySchemes"]
    assert [s["scheme"].lower() for s in schemes.values()] == ["bearer"]
    for path, operations in spec["paths"].items():
        for operation in operations.values():
            names = {p["name"].lower() for p in operation.get("parameters", [])}
            assert "authorization" not in names, path


def test_the_operator_token_reads_every_match_as_an_auditor(api: Api) -> None:
    api.create(game="no_not_that", seats=["Alpha", "Beta"], config=_one_round())
    api.ok("host", {"type": "start_round"})
    api.clock.advance(1)
    api.ok("Alpha", {"type": "submit", "object": "QX"})
    headers = api.auth(OPERATOR)
    state = api.client.get(f"/matches/{api.match_id}/state", headers=headers)
    assert state.status_code == 200 and "QX" not in state.text
    events = api.client.get(f"/matches/{api.match_id}/events", headers=headers)
    assert events.status_code == 200 and "QX" not in events.text
    acting = api.client.post(
        f"/matches/{api.match_id}/commands", json={"type": "start_round"}, headers=headers
    )
    assert (acting.status_code, acting.json()["code"]) == (403, "read_only_token")
    early = api.client.get(f"/matches/{api.match_id}/export", headers=headers)
    assert (early.status_code, early.json()["code"]) == (403, "export_before_close")
    api.client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
    closed = api.client.get(f"/matches/{api.match_id}/export", headers=headers)
    assert closed.status_code == 200 and "QX" in closed.text


def _one_round() -> dict[str, object]:
    rule = {"kind": "letters", "letters": "consonants"}
    prompt = {"kind": "word", "length": 4, "vowels": 1, "free_letters": "AEIOU"}
    texts = {"prompt_text": "a word", "category_text": "consonants"}
    return {"rounds": [{**texts, "category": rule, "prompt": prompt}]}


def test_the_match_list_shows_status_result_and_winner_and_filters(api: Api) -> None:
    api.create(game="zombego", seats=["white", "black"], config={"board": 3})
    zombego, zombego_host = api.match_id, api.token("host")
    api.rule({"type": "declare_result", "winner": "black", "reason": "forfeit"})
    api.create(config={"rounds": 2})
    listed = {m["match_id"]: m for m in api.client.get("/matches").json()}
    assert listed[zombego]["status"] == "finished"
    assert listed[zombego]["winner"] == "black"
    assert listed[api.match_id]["status"] == "open" and listed[api.match_id]["result"] is None
    finished = api.client.get("/matches", params={"status": "finished"}).json()
    assert [m["match_id"] for m in finished] == [zombego]
    zooms = api.client.get("/matches", params={"game": "zoom", "status": "open"}).json()
    assert [m["match_id"] for m in zooms] == [api.match_id]
    api.client.post(f"/matches/{zombego}/close", headers=api.auth(zombego_host))
    assert api.client.get(f"/matches/{zombego}").json()["status"] == "closed"


def _spec(api: Api) -> dict[str, Any]:
    spec: dict[str, Any] = api.client.get("/openapi.json").json()
    return spec


def _operations(spec: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (method.upper(), path, operation)
        for path, operations in spec["paths"].items()
        for method, operation in operations.items()
    ]


def _resolve(spec: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    if ref is None:
        return schema
    found: dict[str, Any] = spec["components"]["schemas"][ref.rsplit("/", 1)[1]]
    return found


def _typed(spec: dict[str, Any], schema: dict[str, Any]) -> bool:
    """A schema that says something: an object with declared properties, a list of such, or
    a string with a description (a JSON Lines record, a stream of server-sent events)."""
    schema = _resolve(spec, schema)
    if schema.get("type") == "array":
        return _typed(spec, schema["items"])
    if schema.get("type") == "string":
        return bool(schema.get("description"))
    return bool(schema.get("properties")) and schema.get("additionalProperties") is not True


def test_every_route_has_a_typed_success_answer(api: Api) -> None:
    spec = _spec(api)
    for method, path, operation in _operations(spec):
        successes = [s for s in operation["responses"] if s.startswith("2")]
        assert len(successes) == 1, (method, path, successes)
        content = operation["responses"][successes[0]].get("content", {})
        assert content, (method, path)
        for media, body in content.items():
            assert _typed(spec, body.get("schema", {})), (method, path, media, body)


def test_every_route_lists_its_error_answers_as_error_bodies(api: Api) -> None:
    spec = _spec(api)
    error_body = {"$ref": "#/components/schemas/ErrorBody"}
    for method, path, operation in _operations(spec):
        answers = operation["responses"]
        errors = {int(s) for s in answers if s[0] in "45"}
        where = (method, path, sorted(errors))
        assert {413, 500} <= errors, where  # the body limit and a failure: any route
        if operation.get("security"):
            assert 401 in errors, where
        if "{match_id}" in path:
            assert 404 in errors, where
        if any(p["in"] == "query" for p in operation.get("parameters", [])):
            assert 422 in errors, where
        if "requestBody" in operation:
            assert 422 in errors, where
        for status in errors:
            assert answers[str(status)]["content"]["application/json"]["schema"] == error_body
    assert "HTTPValidationError" not in spec["components"]["schemas"]


def test_every_reference_in_the_document_resolves(api: Api) -> None:
    spec = _spec(api)
    refs = set(re.findall(r'"\$ref": "#/components/schemas/([^"]+)"', json.dumps(spec)))
    assert refs and refs <= set(spec["components"]["schemas"])


def test_the_import_body_is_documented_as_a_json_lines_record(api: Api) -> None:
    spec = _spec(api)
    body = spec["paths"]["/matches/import"]["post"]["requestBody"]
    record = body["content"]["application/x-ndjson"]
    assert body["required"] and "JSON Lines" in body["description"]
    lines = {ref["$ref"].rsplit("/", 1)[1] for ref in record["itemSchema"]["anyOf"]}
    assert lines == {"RecordHeader", "RecordEnvelope"}
    header = spec["components"]["schemas"]["RecordHeader"]["properties"]
    assert header["format"]["const"] == "adjudicator-match/1"
    assert header["created_at"]["format"] == "date-time"
    exported = spec["paths"]["/matches/{match_id}/export"]["get"]["responses"]["200"]["content"]
    assert exported["application/x-ndjson"]["itemSchema"] == record["itemSchema"]


def _route(spec: dict[str, Any], method: str, path: str) -> dict[str, Any] | None:
    for template, operations in spec["paths"].items():
        if re.fullmatch(re.sub(r"\{[^}]+\}", "[^/]+", template), path):
            found: dict[str, Any] | None = operations.get(method.lower())
            return found
    return None


def test_every_status_a_route_answers_is_listed(api: Api) -> None:
    """Drive every route the ways a client gets each of its answers (as itself, as the wrong
    role, with a bad token, bad parameters, an unknown match, too large a body) and check the
    route's documented responses list every status it gave."""
    seen: list[tuple[str, str, int]] = []

    def record(response: httpx.Response) -> None:
        seen.append((response.request.method, response.request.url.path, response.status_code))

    api.client.event_hooks["response"].append(record)
    _drive(api)
    spec = _spec(api)
    undocumented = set()
    for method, path, status in seen:
        operation = _route(spec, method, path)
        if operation is not None and str(status) not in operation["responses"]:
            undocumented.add((method, path.replace(api.match_id, "{id}"), status))
    assert not undocumented
    statuses = {status for _, _, status in seen}
    assert {200, 201, 401, 403, 404, 409, 413, 422} <= statuses


def _drive(api: Api) -> None:
    c, unknown = api.client, "/matches/00000000-0000-4000-8000-000000000000"
    for path in ("/health", "/ready", "/games", "/matches", "/feed"):
        c.get(path, headers=api.auth(OPERATOR))
    c.get("/feed")
    c.get("/feed", headers=api.auth(api.token("host") if api.tokens else "nobody"))
    c.get("/matches", params={"status": "lost"})
    c.get("/health", headers={"content-length": str(10**9)})
    c.post("/matches", json={"game": "chess", "seats": ["a", "b"]}, headers=api.auth(OPERATOR))
    c.post("/matches", json={"game": "zoom", "seats": ["a", "b"]})
    api.create(game="zombego", seats=["white", "black"], config={"board": 5})
    zombego = dict(api.tokens), api.match_id
    api.create(game="no_not_that", seats=["Alpha", "Beta"], config=_one_round())
    api.ok("host", {"type": "start_round"})
    base = f"/matches/{api.match_id}"
    for who in ("host", "Alpha", "auditor", None):
        headers = api.auth(api.token(who) if who else None)
        for route in ("", "/state", "/events", "/timeline", "/verify", "/export", "/ludii"):
            c.get(base + route, headers=headers)
        c.get(base + "/diff", params={"before_seq": 1}, headers=headers)
    for route in ("/state", "/events", "/timeline", "/diff", "/verify", "/export", "/stream"):
        c.get(unknown + route)
        c.get(base + route, params={"at": "yesterday", "after_seq": -1}, headers=api.auth("bad"))
    c.get(base + "/diff")
    c.post(base + "/commands", json={"type": "start_round"}, headers=api.auth(api.token("Alpha")))
    c.post(base + "/commands", json={"type": "nothing"}, headers=api.auth(api.token("host")))
    c.post(base + "/commands", json={"type": "submit"})
    c.post(base + "/commands", json={"type": "start_round"}, headers=api.auth(OPERATOR))
    c.post(base + "/rulings", json={"type": "note", "reason": "x"}, headers=api.auth(OPERATOR))
    api.rule({"type": "note", "reason": "x"}, who="Alpha")
    api.rule({"type": "void", "target_seq": 99, "reason": "x"})
    api.rule({"type": "note", "reason": "noted"})
    body = {"exports": [{"format": "text", "text": "[2030-01-01T00:00:00Z] a: hi"}], "seats": {}}
    for action in ("preview", "enter"):
        c.post(f"{base}/transcript/{action}", json=body, headers=api.auth(api.token("host")))
        c.post(f"{base}/transcript/{action}", json=body, headers=api.auth(api.token("Alpha")))
        c.post(f"{base}/transcript/{action}", json={"exports": []}, headers=api.auth("bad"))
        c.post(f"{unknown}/transcript/{action}", json=body, headers=api.auth(api.token("host")))
    c.post(base + "/ludii", json={"board": 5}, headers=api.auth(api.token("host")))
    c.post(base + "/close", headers=api.auth(api.token("Alpha")))
    c.post(base + "/close", headers=api.auth(api.token("host")))
    c.post(base + "/close", headers=api.auth(api.token("host")))
    c.post(base + "/commands", json={"type": "start_round"}, headers=api.auth(api.token("host")))
    record = c.get(base + "/export", headers=api.auth(api.token("auditor"))).text
    ndjson = {"content-type": "application/x-ndjson"}
    for token, text in ((OPERATOR, record), (OPERATOR, "{}"), (None, record), ("bad", record)):
        c.post("/matches/import", content=text.encode(), headers=api.auth(token) | ndjson)
    c.post("/matches/import", content=record.encode(), headers=api.auth(api.token("host")) | ndjson)
    tokens, match_id = zombego
    ludii = c.get(f"/matches/{match_id}/ludii").json()
    c.post(f"/matches/{match_id}/ludii", json=ludii, headers=api.auth(tokens["host"]))
    c.post(f"/matches/{match_id}/ludii", json=ludii, headers=api.auth(tokens["host"]))
    c.post(f"/matches/{match_id}/ludii", json=ludii, headers=api.auth(tokens["auditor"]))
    c.post(f"/matches/{match_id}/ludii", json={"board": "x"}, headers=api.auth(tokens["host"]))
    c.post(f"/matches/{match_id}/close", headers=api.auth(tokens["host"]))
    with c.stream("GET", f"/matches/{match_id}/stream") as stream:
        assert stream.status_code == 200 and "match.closed" in stream.read().decode()
