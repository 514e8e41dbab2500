"""A client written only from ``/openapi.json``, ``GET /games`` and the README: it finds its
routes in the OpenAPI document, builds every ruling from its schema, plays each game, issues
every ruling at a game time and reads the state as known by seq."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient

from tests.api.conftest import OPERATOR, Api
from tests.api.test_zoom_over_http import GRID, TARGETS


class SpecClient:
    """Knows nothing of the service but what the OpenAPI document and ``GET /games`` say."""

    def __init__(self, client: TestClient) -> None:
        self.http = client
        self.spec: dict[str, Any] = client.get("/openapi.json").json()
        self.games = {g["name"]: g for g in client.get("/games").json()}
        self.token = OPERATOR

    def path(self, suffix: str, method: str) -> str:
        found = [p for p, ops in self.spec["paths"].items() if p.endswith(suffix) and method in ops]
        assert len(found) == 1, (suffix, found)
        return str(found[0])

    def call(self, method: str, suffix: str, match: str = "", **kwargs: Any) -> Any:
        url = self.path(suffix, method).replace("{match_id}", match)
        headers = {"Authorization": f"Bearer {kwargs.pop('token', self.token)}"}
        answer = self.http.request(method.upper(), url, headers=headers, **kwargs)
        assert answer.status_code < 300, (method, url, answer.status_code, answer.text)
        return answer.json()

    def ruling_schemas(self) -> dict[str, dict[str, Any]]:
        body = self.spec["paths"][self.path("/rulings", "post")]["post"]["requestBody"]
        schema = body["content"]["application/json"]["schema"]
        mapping = schema["discriminator"]["mapping"]
        components = self.spec["components"]["schemas"]
        return {kind: components[ref.rsplit("/", 1)[1]] for kind, ref in mapping.items()}

    def command_fields(self, game: str, kind: str) -> set[str]:
        return set(self.games[game]["commands"][kind]["properties"])


def _fill(schema: dict[str, Any], values: dict[str, Any]) -> dict[str, Any]:
    """A body with every property the schema requires, plus its game time."""
    required = set(schema.get("required", [])) | {"occurred_at"}
    assert "occurred_at" in schema["properties"]  # every ruling lives on the game timeline
    return {name: values[name] for name in schema["properties"] if name in required | {"type"}}


def test_a_client_from_the_openapi_document_plays_and_rules_each_game(api: Api) -> None:
    client = SpecClient(api.client)
    assert client.command_fields("zoom", "buzz") >= {"type", "pairs"}
    config = {"rounds": 2, "supplied_rounds": {"1": {"grid": GRID, "targets": TARGETS}}}
    made = client.call(
        "post", "/matches", json={"game": "zoom", "seats": ["a", "b"], "config": config}
    )
    match, host = made["match_id"], made["tokens"]["host"]
    seat_a = made["tokens"]["seats"]["a"]
    client.call("post", "/commands", match, token=host, json={"type": "start_round"})
    started = api.clock.now
    api.clock.advance(5)
    wrong = {"type": "buzz", "pairs": [{"target": "A", "at": "a1"}]}
    buzzed = client.call("post", "/commands", match, token=seat_a, json=wrong)
    assert buzzed["outcome"]["pairs"][0]["outcome"] == "incorrect"
    buzz_seq = buzzed["events"][0]["seq"]
    api.clock.advance(5)
    before_rulings = client.call("get", "/matches/{match_id}", match)["last_seq"]
    values = {
        "reason": "ruled from the chat",
        "occurred_at": (started + timedelta(seconds=8)).isoformat(),
        "target_seq": buzz_seq,
        "to_seq": buzz_seq,
        "outcome": {"A": "correct"},
        "seat": "b",
        "delta": 1,
        "winner": "a",
    }
    schemas = client.ruling_schemas()
    order = ["note", "amend", "adjust_score", "void", "undo", "end_round", "declare_result"]
    assert set(order) == set(schemas)
    for kind in order:
        body = _fill(schemas[kind], {**values, "type": kind})
        recorded = client.call("post", "/rulings", match, token=host, json=body)
        assert recorded["events"][0]["occurred_at"].startswith(values["occurred_at"][:19])
    then = client.call("get", "/state", match, params={"known_seq": before_rulings})
    now = client.call("get", "/state", match)
    assert then["known_seq"] == before_rulings and then["state"]["result"] is None
    assert now["state"]["result"]["winner"] == "a"
    assert (
        then["state"]["round"]["lockouts"] and now["state"]["played"][0]["end_reason"] == "ruling"
    )


def test_the_same_client_plays_no_not_that_and_zombego(api: Api) -> None:
    client = SpecClient(api.client)
    texts = {"prompt_text": "a word", "category_text": "consonants"}
    rules = {
        "category": {"kind": "letters", "letters": "consonants"},
        "prompt": {"kind": "word", "length": 4, "vowels": 1, "free_letters": "AEIOU"},
    }
    nnt = client.call(
        "post",
        "/matches",
        json={
            "game": "no_not_that",
            "seats": ["A", "B"],
            "config": {"rounds": [{**texts, **rules}]},
        },
    )
    m, tokens = nnt["match_id"], nnt["tokens"]
    client.call("post", "/commands", m, token=tokens["host"], json={"type": "start_round"})
    for seat, letter in (("A", "W"), ("B", "H")):
        client.call(
            "post",
            "/commands",
            m,
            token=tokens["seats"][seat],
            json={"type": "submit", "object": letter},
        )
    seen = client.call("get", "/state", m)["state"]["round"]
    assert [o["object"] for o in seen["pool"]] == ["W", "H"]

    zombego = client.call("post", "/matches", json={"game": "zombego", "seats": ["w", "k"]})
    z, ztokens = zombego["match_id"], zombego["tokens"]
    legal = client.call("get", "/state", z, token=ztokens["seats"]["w"])["state"]["legal"]
    first = next(m["move"] for m in legal if m["move"].startswith("place:"))
    _, value, cell = first.split(":")
    placed = client.call(
        "post", "/commands", z, token=ztokens["seats"]["w"],
        json={"type": "place", "cell": cell, "value": int(value)},
    )  # fmt: skip
    assert placed["outcome"]["ply"] == 1
