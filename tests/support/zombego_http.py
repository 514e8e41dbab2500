"""Random hidden-variant Zombego play through the HTTP API: the seat to move reads its own legal
moves (which only it may see) and posts one of them."""

from __future__ import annotations

import random
import uuid
from typing import Any

from fastapi.testclient import TestClient

from adjudicator.games.zombego.notation import command_body as command

HIDDEN = "Stratego Style with Zombies"
SEATS = ("white", "black")


class ZombegoPlay:
    def __init__(self, client: TestClient, operator: str, seed: int, board: int) -> None:
        self.client, self.seats = client, SEATS
        config = {"board": board, "ruleset": HIDDEN, "ply_cap": 60}
        body = {"game": "zombego", "seats": list(SEATS), "config": config, "seed": seed}
        made = client.post("/matches", json=body, headers={"Authorization": f"Bearer {operator}"})
        assert made.status_code == 201, made.text
        self.match_id: str = made.json()["match_id"]
        self.tokens: dict[str, Any] = made.json()["tokens"]

    def token(self, who: str | None) -> str | None:
        if who is None:
            return None
        if who in ("host", "auditor"):
            return str(self.tokens[who])
        return str(self.tokens["seats"][who])

    def _headers(self, who: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.token(who)}", "Idempotency-Key": str(uuid.uuid4())}

    def play_one(self, rng: random.Random) -> bool:
        """The seat to move plays a random legal move; False once the game is over."""
        url = f"/matches/{self.match_id}"
        view = self.client.get(f"{url}/state", headers=self._headers("host")).json()["state"]
        seat = view["to_move"]
        if seat is None or not view["legal"]:
            return False
        mine = self.client.get(f"{url}/state", headers=self._headers(seat)).json()["state"]
        move = rng.choice(mine["legal"])["move"]
        answer = self.client.post(
            f"{url}/commands", json=command(seat, move), headers=self._headers(seat)
        )
        assert answer.status_code == 201, (move, answer.text)
        return True
