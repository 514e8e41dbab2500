"""Known leaks of sealed facts, each reproduced through the HTTP API.

(a) a game time after a window's end folds that window shut, which reveals the opponent's sealed
    solution (or its verdict, through the scores) while the seat can still act in real time;
(b) a sealed Head Start shows in the seat's items before the step resolves;
(c) idempotency keys are public, and re-posting another seat's body with its key answers
    ``replayed`` (a right guess) or ``idempotency_key_reused`` (a wrong one): an oracle.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import httpx
import pytest

from tests.api.conftest import Api

SEATS = ["Alpha", "Beta"]
SECRET = "QXJVWKPL"  # a sealed object no answer can hold by accident
HOST_PROMPT = {"kind": "host"}
ROUND: dict[str, Any] = {
    "prompt_text": "a 4-letter word with exactly 1 vowel",
    "category_text": "anything the host accepts",
    "category": {"kind": "host"},
    "prompt": {"kind": "word", "length": 4, "vowels": 1, "free_letters": "AEIOU"},
}


def nnt(api: Api, prompt: dict[str, Any] | None = None, **config: Any) -> None:
    items = {seat: ["head_start", "life_ring"] for seat in SEATS}
    rnd = ROUND if prompt is None else {**ROUND, "prompt": prompt}
    body = {"rounds": [rnd], "items": items, "countdown_seconds": 0, **config}
    api.create(game="no_not_that", seats=SEATS, config=body)
    api.ok("host", {"type": "start_round", "round": 1})


def get(api: Api, route: str, who: str = "", **params: str) -> httpx.Response:
    url = f"/matches/{api.match_id}/{route}"
    response: httpx.Response = api.client.get(url, params=params, headers=api.auth(api.token(who)))
    return response


def both_claim_then_alpha_solves(api: Api, tokens: list[str] | None = None) -> None:
    api.clock.advance(2)
    api.ok("Alpha", {"type": "claim_prompt", "seat": "Alpha"})
    api.clock.advance(2)
    api.ok("Beta", {"type": "claim_prompt", "seat": "Beta"})
    api.clock.advance(5)
    body = {"type": "solve", "seat": "Alpha", "tokens": tokens or [SECRET, "I"]}
    solved = api.ok("Alpha", body)
    assert [e["type"] for e in solved["events"]] == ["nnt.solved"]  # sealed: Beta may solve


def scores(view: dict[str, Any]) -> dict[str, int]:
    return {seat: view["state"]["seats"][seat]["score"] for seat in SEATS}


def just_after_betas_window(api: Api) -> str:
    claims = get(api, "state", "Beta").json()["state"]["round"]["prompt_claims"]
    end = next(c["solution_deadline"] for c in claims if c["seat"] == "Beta")
    return (datetime.fromisoformat(end) + timedelta(milliseconds=1)).isoformat()


@pytest.mark.parametrize("prompt", [HOST_PROMPT, ROUND["prompt"]], ids=["host", "word"])
def test_a_game_time_past_the_window_does_not_reveal_a_sealed_solution(
    api: Api, prompt: dict[str, Any]
) -> None:
    """Beta may still solve (its window is open in real time): asking for the state just after
    Beta's window ends must show neither Alpha's solution nor its verdict (through the score)."""
    nnt(api, prompt, solution_seconds=60)
    both_claim_then_alpha_solves(api)
    later = just_after_betas_window(api)
    now = get(api, "state", "Beta")
    for who in ("Beta", ""):
        future = get(api, "state", who, at=later)
        assert future.status_code == 200, future.text
        assert SECRET.encode() not in future.content, future.text
        assert scores(future.json()) == scores(now.json()), future.text  # no verdict by points


@pytest.mark.parametrize("prompt", [HOST_PROMPT, ROUND["prompt"]], ids=["host", "word"])
def test_a_diff_at_a_game_time_past_the_window_does_not_reveal_it_either(
    api: Api, prompt: dict[str, Any]
) -> None:
    nnt(api, prompt, solution_seconds=60)
    before = api.clock.now.isoformat()
    both_claim_then_alpha_solves(api)
    later = just_after_betas_window(api)
    for who in ("Beta", ""):
        diff = get(api, "diff", who, before=before, at=later)
        assert diff.status_code == 200, diff.text
        assert SECRET.encode() not in diff.content, diff.text
        changed = {c["path"] for c in diff.json()["changes"]}
        assert not [p for p in changed if p.endswith(".score")], diff.text


def test_a_sealed_head_start_does_not_show_in_the_items_before_the_step_resolves(
    api: Api,
) -> None:
    nnt(api)
    api.clock.advance(2)
    api.ok("Alpha", {"type": "head_start", "seat": "Alpha", "object": SECRET})
    for who in ("Beta", "", "auditor"):
        answer = get(api, "state", who)
        alpha = answer.json()["state"]["seats"]["Alpha"]
        assert "head_start" not in alpha["items_used"], (who, answer.text)
        assert "head_start" in alpha["items"], (who, answer.text)
        assert SECRET.encode() not in answer.content


def test_another_seats_idempotency_keys_are_not_listed(api: Api) -> None:
    nnt(api)
    api.clock.advance(2)
    sealed = api.ok("Alpha", {"type": "submit", "seat": "Alpha", "object": SECRET}, key="a-1")
    seq = sealed["events"][0]["seq"]
    for who in ("Beta", "", "auditor"):
        event = next(e for e in get(api, "events", who).json() if e["seq"] == seq)
        assert event["idempotency_key"] is None, (who, event)


def test_another_seats_key_and_body_are_refused_before_any_replay(api: Api) -> None:
    nnt(api)
    api.clock.advance(2)
    body = {"type": "submit", "seat": "Alpha", "object": SECRET}
    api.ok("Alpha", body, key="a-1")
    right = api.command("Beta", body, key="a-1")
    wrong = api.command("Beta", {**body, "object": "ZZZZZZZZ"}, key="a-1")
    answers = [(r.status_code, r.json().get("code"), r.text) for r in (right, wrong)]
    assert [a[:2] for a in answers] == [(403, "wrong_seat")] * 2, answers


def test_a_seats_own_key_does_not_replay_for_the_other_seat(api: Api) -> None:
    """Keys are scoped to the acting token's role and seat: Beta's own command under the key
    Alpha used is a fresh command of Beta's, not a replay of Alpha's nor a key conflict."""
    nnt(api)
    api.clock.advance(2)
    api.ok("Alpha", {"type": "submit", "seat": "Alpha", "object": SECRET}, key="k-1")
    mine = api.command("Beta", {"type": "submit", "seat": "Beta", "object": "B"}, key="k-1")
    assert mine.status_code == 201, mine.text
    assert mine.json()["replayed"] is False, mine.text


def test_a_hidden_zombego_value_cannot_be_confirmed_by_replaying_a_key(api: Api) -> None:
    config = {"board": 5, "ruleset": "Stratego Style with Zombies"}
    api.create(game="zombego", seats=["white", "black"], config=config, seed=7)
    mine = api.state(who="white")["state"]
    move = next(m["move"] for m in mine["legal"] if m["move"].startswith("place:"))
    _, value, cell = move.split(":")
    body = {"type": "place", "seat": "white", "cell": cell, "value": int(value)}
    api.ok("white", body, key="w-1")
    guesses = [api.command("black", {**body, "value": v}, key="w-1") for v in (int(value), 99)]
    answers = [(g.status_code, g.json().get("code"), g.text) for g in guesses]
    assert [a[:2] for a in answers] == [(403, "wrong_seat")] * 2, answers
