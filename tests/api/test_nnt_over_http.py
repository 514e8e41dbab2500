"""No, Not That! end to end over HTTP: the spec's worked example with its timings (golden), a
16-round match with timeouts, nets, items and host-judged rounds, sealed actions that no other
seat can read, and bad input refused with stable codes."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from api.cli.demo_nnt import NntScript, result_table
from tests.api.conftest import OPERATOR, Api

SEATS = ["Alpha", "Beta"]
EXAMPLE = {
    "prompt_text": "a 4-letter word with exactly 1 vowel, vowels A E I O U free",
    "category_text": "consonants",
    "category": {"kind": "letters", "letters": "consonants"},
    "prompt": {"kind": "word", "length": 4, "vowels": 1, "free_letters": "AEIOU"},
}


def nnt_match(api: Api, rounds: int = 1, **config: Any) -> None:
    api.create(game="no_not_that", seats=SEATS, config={"rounds": [EXAMPLE] * rounds, **config})
    api.ok("host", {"type": "start_round", "round": 1})


def act(api: Api, seat: str, kind: str, after: float = 2, **fields: Any) -> dict[str, Any]:
    api.clock.advance(after)
    return api.ok(seat, {"type": kind, "seat": seat, **fields})


def step(api: Api, alpha: tuple[str, ...], beta: tuple[str, ...]) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    for seat, (kind, *rest) in (("Alpha", alpha), ("Beta", beta)):
        fields: dict[str, Any] = {"object": rest[0]} if rest else {}
        answer = act(api, seat, kind, **fields)
    return answer


def test_the_worked_example_ends_the_round_alpha_4_beta_1(api: Api) -> None:
    t0 = api.clock.now
    nnt_match(api)
    step(api, ("submit", "Q"), ("submit", "W"))
    step(api, ("submit", "Z"), ("submit", "Z"))
    step(api, ("submit", "W"), ("submit", "A"))
    fourth = step(api, ("claim_invalid",), ("claim_invalid",))
    assert [e["type"] for e in fourth["events"]] == ["nnt.acted", "nnt.revealed"]
    assert fourth["outcome"]["verdict"] == "correct"  # Beta's claim: W is a duplicate
    step(api, ("submit", "Y"), ("submit", "H"))
    step(api, ("claim_prompt",), ("submit", "V"))
    solved = act(api, "Alpha", "solve", after=20, tokens=["W", "H", "I", "Z"])
    assert solved["outcome"] == {"verdict": "correct", "points": {"Alpha": 0, "Beta": 0}}
    assert [e["type"] for e in solved["events"]] == ["nnt.solved", "nnt.solution_revealed"]
    api.clock.advance(30)  # Beta does not challenge within the step time (30 s in round 1)
    state = api.state()["state"]
    assert {s: state["seats"][s]["score"] for s in SEATS} == {"Alpha": 4, "Beta": 1}
    assert state["round_results"] == [
        {
            "round": 1,
            "ended_at": state["round_results"][0]["ended_at"],
            "reason": "claim_points",
            "gained": {"Alpha": 4, "Beta": 1},
            "claim_points": {"Alpha": 4, "Beta": 1},
        }
    ]
    pool = [(o["object"], o["step"], o["removed"]) for o in state["round"]["pool"]]
    assert pool == [
        ("Q", 1, False),
        ("W", 1, False),
        ("Z", 2, False),
        ("W", 3, True),
        ("A", 3, True),
        ("Y", 5, False),
        ("H", 5, False),
    ]
    before_window_closed = t0 + timedelta(seconds=12 * 2 + 20 + 29)
    earlier = api.state(at=before_window_closed)["state"]
    assert {s: earlier["seats"][s]["score"] for s in SEATS} == {"Alpha": 1, "Beta": 1}
    assert earlier["round"]["prompt_claims"][0]["verdict"] == "correct"


def test_a_sealed_action_is_hidden_from_the_opponent_until_the_reveal(api: Api) -> None:
    nnt_match(api)
    sealed = act(api, "Alpha", "submit", object="Q")
    seq = sealed["events"][0]["seq"]
    beta_events = api.client.get(
        f"/matches/{api.match_id}/events", headers=api.auth(api.token("Beta"))
    ).json()
    event = next(e for e in beta_events if e["seq"] == seq)
    assert event["payload"] is None
    assert event["commitment"]
    beta_state = api.state(who="Beta")["state"]
    assert beta_state["seats"]["Alpha"]["acted"] is True
    assert "action" not in beta_state["seats"]["Alpha"]
    spectator = api.client.get(f"/matches/{api.match_id}/state").json()["state"]
    assert "action" not in spectator["seats"]["Alpha"]
    assert api.state(who="Alpha")["state"]["seats"]["Alpha"]["action"]["object"] == "Q"


def test_bad_input_is_refused_with_stable_codes_and_nothing_recorded(api: Api) -> None:
    nnt_match(api)
    last = api.last_seq()
    cases: list[tuple[str, dict[str, Any], int, str | None]] = [
        ("Alpha", {"type": "submit", "seat": "Alpha", "object": 7}, 422, None),
        ("Alpha", {"type": "submit", "seat": "Alpha", "object": "X" * 40}, 422, "bad_object"),
        ("Alpha", {"type": "submit", "seat": "Beta", "object": "Q"}, 403, "wrong_seat"),
        ("Alpha", {"type": "claim_invalid", "seat": "Alpha"}, 409, "nothing_to_accuse"),
        ("Beta", {"type": "challenge", "seat": "Beta"}, 409, "nothing_to_challenge"),
        ("Alpha", {"type": "use_item", "seat": "Alpha", "item": "life_ring"}, 409, "item_not_held"),
        ("Alpha", {"type": "exchange", "seat": "Alpha"}, 409, "exchange_between_rounds_only"),
        ("Alpha", {"type": "solve", "seat": "Alpha", "tokens": ["W"]}, 409, "no_solution_window"),
        ("Alpha", {"type": "judge_prompt", "target_seq": 1, "meets": True}, 403, "host_only"),
        (
            "host",
            {"type": "judge_category", "target_seq": 1, "fits": True},
            409,
            "nothing_to_judge",
        ),
        ("host", {"type": "judge_value", "object": "Q", "fits": True}, 409, "nothing_to_judge"),
        ("host", {"type": "judge_prompt", "seat": "Alpha", "meets": True}, 422, None),
    ]
    for who, body, status, code in cases:
        response = api.command(who, body)
        assert response.status_code == status, (body, response.text)
        if code is not None:
            assert response.json()["code"] == code
    act(api, "Alpha", "submit", object="Q")
    again = api.command("Alpha", {"type": "submit", "seat": "Alpha", "object": "W"})
    assert (again.status_code, again.json()["code"]) == (409, "already_acted")
    assert api.last_seq() == last + 1


def test_the_games_list_shows_the_config_schema_with_the_rule_library(api: Api) -> None:
    games = {g["name"]: g for g in api.client.get("/games").json()}
    schema = games["no_not_that"]["config_schema"]
    text = str(schema)
    for kind in ("letters", "integers", "list", "words", "host", "word", "sum", "product"):
        assert f"'{kind}'" in text
    assert "solve" in games["no_not_that"]["commands"]


def test_a_16_round_match_with_timeouts_nets_items_and_host_rulings(api: Api) -> None:
    start = api.clock.now - timedelta(hours=3)
    script = NntScript(api.client, OPERATOR, rounds=16, start=start)
    final = script.play()
    assert final["phase"] == "finished"
    gained = [(r["gained"]["Alpha"], r["gained"]["Beta"]) for r in final["round_results"]]
    word, total_sum, host, product = (3, 0), (1, 4), (3, 1), (3, 0)
    assert gained == [word, total_sum, host, product] * 3 + [word, total_sum, host, (3, -2)]
    alpha, beta = final["seats"]["Alpha"], final["seats"]["Beta"]
    assert (alpha["score"], beta["score"]) == (40, 17)  # Beta gave 1 point for 2 nets
    assert (beta["nets_lost"], beta["points_lost"], beta["safety_nets"]) == (5, 2, 0)
    assert (alpha["nets_lost"], alpha["safety_nets"]) == (0, 6)
    assert alpha["items_used"] == ["extra_safe", "head_start", "life_ring"]
    assert final["result"] == {
        "winner": "Alpha",
        "reason": "points",
        "scores": {"Alpha": 40, "Beta": 17},
    }
    assert [r["reason"] for r in final["round_results"]] == ["claim_points"] * 16
    assert "result: winner=Alpha reason=points" in result_table(final)
