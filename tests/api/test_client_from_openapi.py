"""A client written only from ``/openapi.json``, ``GET /games``, the README and ``docs/``: it
finds its routes in the OpenAPI document and builds every ruling from its schema; it plays each
game (No, Not That! and Zombego to their end, as their rules pages walk through them), acting as
a seat without naming it, issues every ruling the game takes at a game time (Zombego refuses
those it has no use for) and reads the state as known by seq, before the rulings."""

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


def _rule(
    client: SpecClient, match: str, host: str, kinds: list[str], values: dict[str, Any]
) -> int:
    """Issue each ruling of ``kinds``, built from its schema, at the game time in ``values``;
    the last seq recorded before them."""
    before = int(client.call("get", "/matches/{match_id}", match)["last_seq"])
    schemas = client.ruling_schemas()
    for kind in kinds:
        body = _fill(schemas[kind], {**values, "type": kind})
        recorded = client.call("post", "/rulings", match, token=host, json=body)
        assert recorded["events"][0]["occurred_at"].startswith(values["occurred_at"][:19])
    return before


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
    order = ["note", "amend", "adjust_score", "void", "undo", "end_round", "declare_result"]
    assert set(order) == set(client.ruling_schemas())
    before_rulings = _rule(client, match, host, order, values)
    then = client.call("get", "/state", match, params={"known_seq": before_rulings})
    now = client.call("get", "/state", match)
    assert then["known_seq"] == before_rulings and then["state"]["result"] is None
    assert now["state"]["result"]["winner"] == "a"
    assert (
        then["state"]["round"]["lockouts"] and now["state"]["played"][0]["end_reason"] == "ruling"
    )


WORKED_EXAMPLE = [  # the rules' worked example, as docs/rules/no-not-that.md walks through it
    (("submit", "Q"), ("submit", "W")),
    (("submit", "Z"), ("submit", "Z")),
    (("submit", "W"), ("submit", "A")),
    (("claim_invalid", None), ("claim_invalid", None)),
    (("submit", "Y"), ("submit", "H")),
    (("claim_prompt", None), ("submit", "V")),
]


def test_the_same_client_plays_no_not_that_to_its_end_and_rules_on_it(api: Api) -> None:
    client = SpecClient(api.client)
    assert client.command_fields("no_not_that", "judge_category") >= {"target_seq", "fits"}
    rules = {
        "prompt_text": "a 4-letter word with exactly 1 vowel (A E I O U are free)",
        "category_text": "consonants",
        "category": {"kind": "letters", "letters": "consonants"},
        "prompt": {"kind": "word", "length": 4, "vowels": 1, "free_letters": "AEIOU"},
    }
    made = client.call(
        "post",
        "/matches",
        json={"game": "no_not_that", "seats": ["A", "B"], "config": {"rounds": [rules]}},
    )
    m, tokens = made["match_id"], made["tokens"]
    seats = tokens["seats"]
    client.call("post", "/commands", m, token=tokens["host"], json={"type": "start_round"})
    started, acted = api.clock.now, {}
    for number, actions in enumerate(WORKED_EXAMPLE, start=1):
        for seat, (kind, obj) in zip(("A", "B"), actions, strict=True):
            api.clock.advance(1)
            body = {"type": kind} | ({"object": obj} if obj else {})
            answer = client.call("post", "/commands", m, token=seats[seat], json=body)
            acted[(number, seat)] = answer["events"][0]["seq"]
        if number == 1:
            seen = client.call("get", "/state", m)["state"]["round"]
            assert [o["object"] for o in seen["pool"]] == ["Q", "W"]
    api.clock.advance(1)
    solve = {"type": "solve", "tokens": ["W", "H", "I", "Z"]}
    client.call("post", "/commands", m, token=seats["A"], json=solve)
    client.call("post", "/commands", m, token=seats["B"], json={"type": "accept"})
    played = client.call("get", "/state", m)["state"]
    assert played["result"] == {"winner": "A", "reason": "points", "scores": {"A": 4, "B": 1}}

    api.clock.advance(5)
    beta_claim = acted[(4, "B")]  # right: Alpha's W repeats Beta's
    values = {
        "reason": "ruled from the chat",
        "occurred_at": (started + timedelta(seconds=9)).isoformat(),  # inside step 5
        "target_seq": beta_claim,
        "to_seq": acted[(6, "B")],
        "outcome": {"verdict": "incorrect"},
        "seat": "B",
        "delta": 1,
        "winner": "B",
    }
    order = ["note", "amend", "adjust_score", "void", "undo", "end_round", "declare_result"]
    before = _rule(client, m, tokens["host"], order, values)
    then = client.call("get", "/state", m, params={"known_seq": before})["state"]
    assert then["result"] == played["result"]
    assert client.call("get", "/state", m)["state"]["result"]["winner"] == "B"


def _ludii_body(move: str) -> dict[str, Any]:
    """A command for a Ludii move string of the state's ``legal`` list (the README's notation)."""
    kind, rest = move.split(":", 1)
    if kind == "move":
        origin, to = rest.split("-")
        return {"type": "move", "from": origin, "to": to}
    value, cell = rest.split(":")
    return {
        "type": "place_zombie" if kind == "zombie" else "place",
        "value": int(value),
        "cell": cell,
    }


def test_the_same_client_plays_zombego_to_its_end_and_rules_on_it(api: Api) -> None:
    client = SpecClient(api.client)
    options = {"board": 4, "piece_set": "(6) Sum dist by type = 4"}
    made = client.call(
        "post",
        "/matches",
        json={"game": "zombego", "seats": ["w", "k"], "seed": 1, "config": options},
    )
    z, tokens = made["match_id"], made["tokens"]
    seats, started = tokens["seats"], api.clock.now

    def play(seat: str, body: dict[str, Any]) -> int:
        api.clock.advance(1)
        return int(
            client.call("post", "/commands", z, token=seats[seat], json=body)["events"][0]["seq"]
        )

    plies = [play("w", {"type": "place", "value": 2, "cell": "b2"})]  # docs/rules/zombego.md
    url = client.path("/commands", "post").replace("{match_id}", z)
    attacked = {"type": "place", "value": 7, "cell": "c2"}  # 7 on c2 would see white's 2 on b2
    refused = api.client.post(url, json=attacked, headers=api.auth(seats["k"]))
    assert (refused.status_code, refused.json()["code"]) == (409, "cell_attacked")
    plies.append(play("k", {"type": "place", "value": 7, "cell": "d4"}))
    while (state := client.call("get", "/state", z)["state"])["result"] is None:
        plies.append(play(state["to_move"], _ludii_body(state["legal"][0]["move"])))
    assert (state["ply"], state["result"]["winner"]) == (46, "k")  # as the walkthrough says

    values = {
        "reason": "ruled from the chat",
        "occurred_at": (started + timedelta(seconds=10)).isoformat(),
        "target_seq": plies[-1],
        "to_seq": plies[-2],
        "winner": "w",
    }
    before = _rule(client, z, tokens["host"], ["note", "void", "undo", "declare_result"], values)
    rulings = client.path("/rulings", "post").replace("{match_id}", z)
    useless = {  # docs/rulings.md: Zombego has no use for these
        "adjust_score": {"seat": "w", "delta": 1},
        "end_round": {},
        "amend": {"target_seq": plies[0], "outcome": {}},
    }
    for kind, fields in useless.items():
        body = {"type": kind, "reason": "ruled from the chat", **fields}
        answer = api.client.post(rulings, json=body, headers=api.auth(tokens["host"]))
        assert (answer.status_code, answer.json()["code"]) == (422, "ruling_not_applicable")
    then = client.call("get", "/state", z, params={"known_seq": before})["state"]
    assert then["result"] == state["result"]
    assert client.call("get", "/state", z)["state"]["result"]["winner"] == "w"
