"""A thin client of the tournament routes for the tests (what a real client sends)."""

from __future__ import annotations

from typing import Any

import httpx

from tests.api.conftest import OPERATOR, Api


class Organizer:
    def __init__(self, api: Api) -> None:
        self.api = api
        self.id = ""
        self.token = ""
        self.players: dict[str, str] = {}  # name -> id
        self.rounds: list[dict[str, Any]] = []

    def create(self, names: list[str], **body: Any) -> dict[str, Any]:
        body = {
            "name": "Winter Open",
            "game": "zoom",
            "format": "round_robin",
            "tiebreaks": ["sonneborn_berger"],
            "players": [{"name": n} for n in names],
            **body,
        }
        response = self.api.client.post("/tournaments", json=body, headers=self.api.auth(OPERATOR))
        assert response.status_code == 201, response.text
        made: dict[str, Any] = response.json()
        self.id, self.token = made["tournament_id"], made["organizer_token"]
        self.players = {p["name"]: p["id"] for p in made["players"]}
        return made

    def post(self, path: str, body: Any = None, token: str | None = "") -> httpx.Response:
        token = self.token if token == "" else token
        url = f"/tournaments/{self.id}{path}"
        response: httpx.Response = self.api.client.post(
            url, json=body, headers=self.api.auth(token)
        )
        return response

    def pair(self) -> dict[str, Any]:
        response = self.post("/rounds")
        assert response.status_code == 201, response.text
        paired: dict[str, Any] = response.json()
        self.rounds.append(paired)
        return paired

    def get(self, path: str, **params: Any) -> dict[str, Any]:
        clean = {k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in params.items()}
        response = self.api.client.get(f"/tournaments/{self.id}{path}", params=clean)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    def standings(self, **params: Any) -> dict[str, Any]:
        return self.get("/standings", **params)


def declare(api: Api, board: dict[str, Any], winner_player: str | None) -> None:
    """The board's host declares the result (the winner named as a player id; None: a draw)."""
    seat = None
    if winner_player is not None:
        seat = "alpha" if board["first"] == winner_player else "beta"
    host = board["tokens"]["host"]
    url = f"/matches/{board['match_id']}/rulings"
    body = {"type": "declare_result", "winner": seat, "reason": "played in the channel"}
    response = api.client.post(url, json=body, headers=api.auth(host))
    assert response.status_code == 201, response.text


def play_round(api: Api, paired: dict[str, Any], winner: Any) -> None:
    """Declare every board of a paired round: ``winner(first, second)`` names the winner."""
    for board in paired["pairings"]:
        if board["second"] is not None and board["match_id"] is not None:
            declare(api, board, winner(board["first"], board["second"]))
