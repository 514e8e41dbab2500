"""An app per test (its own database, SQLite and PostgreSQL) with a manual clock."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import datetime
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from api.service.settings import Settings
from tests.store.support import ManualClock

OPERATOR = "op_test_token"


class Api:
    """A thin client that speaks the service's HTTP API the way a real client does."""

    def __init__(self, client: TestClient, clock: ManualClock) -> None:
        self.client, self.clock = client, clock
        self.match_id = ""
        self.tokens: dict[str, Any] = {}

    @staticmethod
    def auth(token: str | None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"} if token else {}

    def create(self, **body: Any) -> dict[str, Any]:
        body = {"game": "zoom", "seats": ["alpha", "beta"], **body}
        response = self.client.post("/matches", json=body, headers=self.auth(OPERATOR))
        assert response.status_code == 201, response.text
        made: dict[str, Any] = response.json()
        self.match_id, self.tokens = made["match_id"], made["tokens"]
        return made

    def token(self, who: str) -> str | None:
        if who in ("host", "auditor"):
            return str(self.tokens[who])
        return str(self.tokens["seats"][who]) if who else None

    def command(self, who: str, body: dict[str, Any], key: str | None = None) -> httpx.Response:
        headers = self.auth(self.token(who)) | ({"Idempotency-Key": key} if key else {})
        url = f"/matches/{self.match_id}/commands"
        response: httpx.Response = self.client.post(url, json=body, headers=headers)
        return response

    def ok(self, who: str, body: dict[str, Any], key: str | None = None) -> dict[str, Any]:
        response = self.command(who, body, key)
        assert response.status_code == 201, response.text
        data: dict[str, Any] = response.json()
        return data

    def rule(self, body: dict[str, Any], who: str = "host") -> httpx.Response:
        url = f"/matches/{self.match_id}/rulings"
        response: httpx.Response = self.client.post(
            url, json=body, headers=self.auth(self.token(who))
        )
        return response

    def state(
        self, at: datetime | None = None, known_at: datetime | None = None, who: str = "host"
    ) -> dict[str, Any]:
        params = {k: v.isoformat() for k, v in (("at", at), ("known_at", known_at)) if v}
        url = f"/matches/{self.match_id}/state"
        response = self.client.get(url, params=params, headers=self.auth(self.token(who)))
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()
        return data

    def last_seq(self) -> int:
        seq: int = self.client.get(f"/matches/{self.match_id}").json()["last_seq"]
        return seq


def make_app(database_url: str, clock: ManualClock, **overrides: Any) -> Any:
    settings = Settings(
        database_url=database_url,
        operator_token=OPERATOR,
        upgrade_on_start=False,
        log_level="warning",
        **overrides,
    )
    return create_app(settings, clock=clock)


@pytest.fixture
def app(database_url: str, clock: ManualClock) -> Iterator[Any]:
    application = make_app(database_url, clock)
    yield application
    application.state.service.store.dispose()


@pytest.fixture
def api(app: Any, clock: ManualClock) -> Iterator[Api]:
    with TestClient(app) as client:
        yield Api(client, clock)
