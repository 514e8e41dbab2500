"""Ludii notation over HTTP: both golden games entered into real matches and exported back."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest

from api.cli.main import main
from tests.api.conftest import Api

GOLDEN = Path(__file__).parents[1] / "golden" / "zombego" / "zombego-golden.jsonl"
GAMES = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line]
SEATS = ["white", "black"]


def ludii_game(golden: dict[str, Any], moves: list[str] | None = None) -> dict[str, Any]:
    played = [ply["played"] for ply in golden["plies"]]
    options = {key: golden[key] for key in ("board", "ruleset", "piece_set", "values")}
    return {**options, "moves": played if moves is None else moves}


def create(api: Api, golden: dict[str, Any], seed: int = 7, **config: Any) -> None:
    options = {key: golden[key] for key in ("board", "ruleset", "piece_set")}
    api.create(game="zombego", seats=SEATS, config={**options, **config}, seed=seed)


def enter(api: Api, game: dict[str, Any], who: str = "host") -> httpx.Response:
    url = f"/matches/{api.match_id}/ludii"
    response: httpx.Response = api.client.post(url, json=game, headers=api.auth(api.token(who)))
    return response


def export(api: Api, who: str = "") -> httpx.Response:
    url = f"/matches/{api.match_id}/ludii"
    response: httpx.Response = api.client.get(url, headers=api.auth(api.token(who)))
    return response


@pytest.mark.parametrize("seed", [7, 2**62 + 11])
@pytest.mark.parametrize("golden", GAMES, ids=lambda g: Path(g["source"]).stem)
def test_a_golden_game_goes_in_and_comes_back_out(
    api: Api, golden: dict[str, Any], seed: int
) -> None:
    create(api, golden, seed)
    entered = enter(api, ludii_game(golden))
    assert entered.status_code == 201, entered.text
    count, winner = len(golden["plies"]), SEATS[golden["result"]["winner"] - 1]
    data = entered.json()
    assert data["entered"] == count and data["last_seq"] - data["first_seq"] + 1 == count
    assert (data["result"]["winner"], data["result"]["reason"]) == (
        winner,
        golden["result"]["reason"],
    )
    state = api.state()["state"]
    assert state["result"] == data["result"]
    assert data["result"]["scores"] == {seat: state["counts"][seat]["living"] for seat in SEATS}

    out = export(api)
    assert out.status_code == 200, out.text
    game = out.json()
    assert game["moves"] == [ply["played"] for ply in golden["plies"]]
    assert game["result"] == golden["result"]
    assert game["final_position"] == json.loads(json.dumps(golden["final_position"]))
    assert (game["board"], game["ruleset"], game["piece_set"], game["values"]) == (
        golden["board"], golden["ruleset"], golden["piece_set"], golden["values"],
    )  # fmt: skip


def test_entered_moves_are_ordinary_commands_a_second_apart_ending_a_second_ago(api: Api) -> None:
    create(api, GAMES[0])
    api.clock.advance(3600)
    assert enter(api, ludii_game(GAMES[0])).status_code == 201
    events = api.client.get(f"/matches/{api.match_id}/events").json()
    plays = [e for e in events if e["type"] in ("zombego.placed", "zombego.moved")]
    plays += [e for e in events if e["type"] == "zombego.zombie_placed"]
    assert len(plays) == len(GAMES[0]["plies"])
    times = sorted(e["occurred_at"] for e in plays)
    assert times[-1] == (api.clock.now - timedelta(seconds=1)).isoformat().replace("+00:00", "Z")
    assert len(set(times)) == len(times)
    assert all(e["actor"] == "host" for e in plays)


def test_an_illegal_ply_is_named_and_nothing_is_recorded(api: Api) -> None:
    golden = GAMES[1]
    moves = [ply["played"] for ply in golden["plies"]]
    k = 12  # 1-based: replace ply 12 with a move that is not legal there
    legal = set(golden["plies"][k - 1]["legal"])
    illegal = next(f"move:{a}-{b}" for a in ("a1", "c3") for b in ("f6", "a6"))
    assert illegal not in legal
    create(api, golden)
    before = api.last_seq()
    refused = enter(api, ludii_game(golden, [*moves[: k - 1], illegal, *moves[k:]]))
    assert refused.status_code == 422, refused.text
    body = refused.json()
    assert body["code"] == "illegal_ply" and body["details"]["ply"] == k
    assert body["details"]["move"] == illegal
    assert api.last_seq() == before
    assert export(api).json()["moves"] == []


def test_unparsable_move_other_options_and_a_started_match_are_refused(api: Api) -> None:
    golden = GAMES[0]
    create(api, golden)
    garbled = enter(api, ludii_game(golden, ["place:2:a1", "jump:b2"]))
    assert garbled.status_code == 422
    assert garbled.json()["details"] == {"ply": 2, "move": "jump:b2", "reason": "bad_move"}
    other = enter(api, {**ludii_game(golden), "board": 8})
    assert (other.status_code, other.json()["code"]) == (422, "options_mismatch")
    seat = enter(api, ludii_game(golden), who="white")
    assert (seat.status_code, seat.json()["code"]) == (403, "host_only")
    api.ok("white", {"type": "place", "seat": "white", "value": 2, "cell": "a1"})
    started = enter(api, ludii_game(golden))
    assert (started.status_code, started.json()["code"]) == (409, "match_not_at_start")


def test_the_export_leaves_voided_moves_out(api: Api) -> None:
    golden = GAMES[0]
    create(api, golden)
    moves = [ply["played"] for ply in golden["plies"]]
    assert enter(api, ludii_game(golden, moves[:4])).status_code == 201
    last = api.last_seq()
    voided = api.rule({"type": "void", "target_seq": last, "reason": "mis-entered"})
    assert voided.status_code == 201, voided.text
    assert export(api).json()["moves"] == moves[:3]


def test_a_hidden_match_exports_to_the_host_only_until_closed(api: Api) -> None:
    golden = {**GAMES[0], "ruleset": "Stratego Style with Zombies"}
    create(api, golden)
    assert enter(api, ludii_game(golden, ["place:101:a1"])).status_code == 201
    for who in ("", "white", "auditor"):
        refused = export(api, who)
        assert (refused.status_code, refused.json()["code"]) == (403, "ludii_hidden")
    assert export(api, "host").json()["moves"] == ["place:101:a1"]
    closed = api.client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
    assert closed.status_code == 201, closed.text
    assert export(api).json()["moves"] == ["place:101:a1"]


def test_another_game_has_no_ludii_form(api: Api) -> None:
    api.create(game="zoom", seats=SEATS, config={"rounds": 1})
    response = export(api)
    assert (response.status_code, response.json()["code"]) == (422, "not_zombego")


def test_a_given_start_is_kept_never_in_the_future_and_the_match_verifies(api: Api) -> None:
    golden = GAMES[0]
    create(api, golden)
    count = len(golden["plies"])
    late = (api.clock.now - timedelta(seconds=count - 2)).isoformat()
    future = enter(api, {**ludii_game(golden), "start": late})
    assert (future.status_code, future.json()["code"]) == (422, "game_time_in_future")
    assert export(api).json()["moves"] == []
    start = api.clock.now - timedelta(hours=2)
    assert enter(api, {**ludii_game(golden), "start": start.isoformat()}).status_code == 201
    events = api.client.get(f"/matches/{api.match_id}/events").json()
    first = next(e for e in events if e["type"] == "zombego.placed")
    assert first["occurred_at"] == start.isoformat().replace("+00:00", "Z")
    closed = api.client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
    assert closed.status_code == 201, closed.text
    report = api.client.get(f"/matches/{api.match_id}/verify").json()
    assert report["ok"], report


def test_the_cli_writes_the_same_ludii_game(api: Api, database_url: str, tmp_path: Path) -> None:
    golden = GAMES[1]
    create(api, golden)
    assert enter(api, ludii_game(golden)).status_code == 201
    file = tmp_path / "game.json"
    argv = ["ludii-export", api.match_id, "--database-url", database_url, "-o", str(file)]
    assert main(argv) == 0
    assert json.loads(file.read_text(encoding="utf-8")) == export(api).json()
    assert main(["ludii-export", "no-such-match", "--database-url", database_url]) == 1
