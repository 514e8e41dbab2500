"""Random No, Not That! play through the HTTP API, and the register of what is sealed.

``NntPlay`` creates a match with a known seed, lists the commands worth trying from the host's
view at the current instant, posts one, and keeps ``Sealed``: every unique string a seat sealed
(step objects, Head Start objects, solution tokens) with its owner, minus what has since been
made public (a public event's payload, or a solution the views may show at the real now).
Objects are random 8-letter upper-case tokens, so none can appear in an answer by accident.
"""

from __future__ import annotations

import json
import random
import string
import uuid
from dataclasses import dataclass, field
from typing import Any

from fastapi.testclient import TestClient

from tests.store.support import ManualClock

SEATS = ("Alpha", "Beta")
HOST = "host"
Move = tuple[str, dict[str, Any]]


def nnt_config() -> dict[str, Any]:
    host_judged = {"kind": "host"}
    rounds = [
        {"prompt_text": "anything the host likes", "category_text": "anything",
         "category": host_judged, "prompt": host_judged, "step_seconds": 10},
        {"prompt_text": "numbers summing to 10", "category_text": "letters",
         "category": {"kind": "letters", "letters": "all"},
         "prompt": {"kind": "sum", "target": 10}, "step_seconds": 10},
        {"prompt_text": "a 4-letter word", "category_text": "host's call",
         "category": host_judged,
         "prompt": {"kind": "word", "length": 4, "vowels": 1, "free_letters": "AEIOU"}},
    ]  # fmt: skip
    items = {seat: ["extra_safe", "life_ring", "head_start"] for seat in SEATS}
    return {"rounds": rounds, "items": items, "countdown_seconds": 0,
            "solution_seconds": 20, "extension_seconds": 15}  # fmt: skip


MIN_TRACKED = 6


@dataclass
class Sealed:
    """Unique strings sealed by each seat, still secret at the real now."""

    owner: dict[str, str] = field(default_factory=dict)
    public: set[str] = field(default_factory=set)

    def seal(self, token: str, seat: str) -> None:
        """Track ``token`` as sealed by ``seat``: only the fresh 8-letter tokens, since a short
        value (a letter, a digit) shows up in any response by accident."""
        if len(token) >= MIN_TRACKED:
            self.owner[token] = seat

    def hidden_from(self, viewer_seat: str | None) -> list[str]:
        return [t for t, s in self.owner.items() if s != viewer_seat and t not in self.public]


class NntPlay:
    def __init__(self, client: TestClient, clock: ManualClock, operator: str, seed: int) -> None:
        self.client, self.clock = client, clock
        body = {"game": "no_not_that", "seats": list(SEATS), "config": nnt_config(), "seed": seed}
        made = client.post("/matches", json=body, headers={"Authorization": f"Bearer {operator}"})
        assert made.status_code == 201, made.text
        self.match_id: str = made.json()["match_id"]
        self.tokens: dict[str, Any] = made.json()["tokens"]
        self.seed = seed
        self.sealed = Sealed()
        self.used: set[str] = set()

    def token(self, who: str | None) -> str | None:
        if who is None:
            return None
        if who in (HOST, "auditor"):
            return str(self.tokens[who])
        return str(self.tokens["seats"][who])

    def fresh(self, rng: random.Random) -> str:
        while True:
            token = "".join(rng.choice(string.ascii_uppercase) for _ in range(8))
            if token not in self.used:
                self.used.add(token)
                return token

    def host_view(self) -> dict[str, Any]:
        url = f"/matches/{self.match_id}/state"
        answer = self.client.get(url, headers={"Authorization": f"Bearer {self.token(HOST)}"})
        assert answer.status_code == 200, answer.text
        view: dict[str, Any] = answer.json()["state"]
        return view

    def post(self, who: str, body: dict[str, Any]) -> int:
        headers = {"Authorization": f"Bearer {self.token(who)}", "Idempotency-Key": uuid4()}
        url = f"/matches/{self.match_id}/commands"
        answer = self.client.post(url, json=body, headers=headers)
        assert answer.status_code < 500, (body, answer.status_code, answer.text)
        status: int = answer.status_code
        return status

    def play(self, who: str, body: dict[str, Any]) -> int:
        """Post ``body``; when it is recorded, register what it sealed."""
        status = self.post(who, body)
        if status == 201 and body["type"] in ("submit", "head_start"):
            self.sealed.seal(str(body["object"]), str(body["seat"]))
        if status == 201 and body["type"] == "solve":
            for token in body["tokens"]:
                if token in self.used:
                    self.sealed.seal(str(token), str(body["seat"]))
        return status

    def note_public(self, view: dict[str, Any]) -> None:
        """Mark public what the log's public payloads and the revealed solutions show."""
        url = f"/matches/{self.match_id}/events"
        events = self.client.get(url, headers={"Authorization": f"Bearer {self.token(HOST)}"})
        for event in events.json():
            if event["private_to"] is None:
                text = json.dumps(event["payload"])
                self.sealed.public |= {t for t in self.sealed.owner if t in text}
        claims = view["round"]["prompt_claims"] if view["round"] else []
        for claim in claims:
            if claim["solution"] is not None and not sealed_solution(claims, claim):
                self.sealed.public |= set(claim["solution"])

    def moves(self, view: dict[str, Any], rng: random.Random) -> list[Move]:
        phase = view["phase"]
        moves: list[Move] = []
        if phase in ("waiting", "between_rounds"):
            moves.append((HOST, {"type": "start_round", "round": view["rounds_played"] + 1}))
        if phase == "between_rounds":
            moves += [(s, {"type": "exchange", "seat": s}) for s in SEATS]
        if phase != "finished":
            for seat in SEATS:
                held = [i for i in view["seats"][seat]["items"] if i != "head_start"]
                moves += [(seat, {"type": "use_item", "seat": seat, "item": i}) for i in held]
        if phase == "step":
            moves += self._step_moves(view, rng)
        if phase == "claims":
            moves += self._claim_moves(view, rng)
        waiting = view["awaiting_ruling"]
        for question in waiting["category_questions"]:
            fits = rng.random() < 0.5
            target = question["target_seq"]
            moves.append((HOST, {"type": "judge_category", "target_seq": target, "fits": fits}))
        for value in waiting["category"]:
            fits = rng.random() < 0.5
            moves.append((HOST, {"type": "judge_value", "object": value, "fits": fits}))
        for claim in waiting["prompt_questions"]:
            meets = rng.random() < 0.5
            target = claim["target_seq"]
            moves.append((HOST, {"type": "judge_prompt", "target_seq": target, "meets": meets}))
        return moves

    def _step_moves(self, view: dict[str, Any], rng: random.Random) -> list[Move]:
        rnd, moves = view["round"], []
        for seat in SEATS:
            if view["seats"][seat]["acted"]:
                continue
            kinds = ["claim_prompt", "claim_invalid"]
            kinds += ["pass"] if rnd["last_step"] else ["submit", "submit", "submit"]
            if rnd["step"] == 1 and "head_start" in view["seats"][seat]["items"]:
                kinds.append("head_start")
            for kind in kinds:
                body: dict[str, Any] = {"type": kind, "seat": seat}
                if kind in ("submit", "head_start"):
                    body["object"] = self.fresh(rng) if rng.random() < 0.8 else rng.choice("37BE")
                moves.append((seat, body))
        return moves

    def _claim_moves(self, view: dict[str, Any], rng: random.Random) -> list[Move]:
        in_play = [o["object"] for o in view["round"]["pool"] if not o["removed"]]
        moves: list[Move] = []
        for claim in view["round"]["prompt_claims"]:
            seat = claim["seat"]
            if not claim["solved"] and claim["verdict"] is None:
                picked = rng.sample(in_play, min(len(in_play), rng.randint(0, 3)))
                head = view["seats"][seat].get("head_start")
                tokens = [
                    *picked,
                    self.fresh(rng),
                    *([head] if head and rng.random() < 0.5 else []),
                ]
                moves.append((seat, {"type": "solve", "seat": seat, "tokens": tokens}))
            if claim["verdict"] == "correct" and not claim["challenged"]:
                other = SEATS[1 - SEATS.index(seat)]
                moves += [(other, {"type": k, "seat": other}) for k in ("challenge", "accept")]
        return moves


def sealed_solution(claims: list[dict[str, Any]], claim: dict[str, Any]) -> bool:
    """Whether a solved claim's solution is still sealed: another claim of the step awaits its
    solution (the host's view of the real now)."""
    awaiting = [c for c in claims if c is not claim and not c["solved"] and c["verdict"] is None]
    return claim["solution"] is not None and bool(awaiting)


def uuid4() -> str:
    return str(uuid.uuid4())
