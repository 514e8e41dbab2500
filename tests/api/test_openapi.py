"""The OpenAPI document tells the truth: bearer authentication as a security scheme, and
/docs and /redoc that render with the network off (every asset comes from the app)."""

from __future__ import annotations

import re

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
