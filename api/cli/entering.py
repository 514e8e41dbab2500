"""A host entering a match played elsewhere, through the real HTTP API: every command is posted
with its game time (as when refereeing a chat channel afterwards from the posts' timestamps).
The demos and the end-to-end tests drive their matches with it."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def ok(response: httpx.Response) -> dict[str, Any]:
    if response.status_code >= 400:
        raise RuntimeError(f"{response.status_code}: {response.text}")
    data: dict[str, Any] = response.json()
    return data


class HostEntry:
    """Creates a match with the operator token, then posts as its host, moving a game clock."""

    def __init__(self, client: httpx.Client, operator: str, start: datetime | None) -> None:
        self.client, self.operator = client, operator
        self.clock = start or datetime.now(UTC) - timedelta(hours=3)
        self.match_id = ""
        self.host = ""

    @classmethod
    def of_match(cls, client: httpx.Client, match_id: str, host: str, start: datetime) -> HostEntry:
        """The host of a match created elsewhere (a tournament's pairing), posting from
        ``start``."""
        entry = cls(client, "", start)
        entry.match_id, entry.host = match_id, host
        return entry

    def create_match(self, body: dict[str, Any]) -> dict[str, Any]:
        made = ok(self.client.post("/matches", json=body, headers=auth(self.operator)))
        self.match_id, self.host = made["match_id"], made["tokens"]["host"]
        return made

    def wait(self, seconds: float) -> None:
        self.clock += timedelta(seconds=seconds)

    def post(self, command: dict[str, Any], after: float = 1) -> dict[str, Any]:
        """Post ``command`` as the host, ``after`` seconds of game time after the last post."""
        self.wait(after)
        body = {**command, "occurred_at": self.clock.isoformat()}
        url = f"/matches/{self.match_id}/commands"
        return ok(self.client.post(url, json=body, headers=auth(self.host)))

    def state(self) -> dict[str, Any]:
        """The match as the host sees it at the current game time."""
        url = f"/matches/{self.match_id}/state"
        params = {"at": self.clock.isoformat()}
        answer = ok(self.client.get(url, params=params, headers=auth(self.host)))
        state: dict[str, Any] = answer["state"]
        return state
