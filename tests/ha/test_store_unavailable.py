"""While the primary moves, what the store raises answers 503 ``store_unavailable`` with
``Retry-After``: a lost or refused connection, a pool that gave none in time, a write that
reached a server just turned standby. Any other internal database error stays a 500."""

from __future__ import annotations

import psycopg
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient
from sqlalchemy.exc import InterfaceError, InternalError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from api.http import errors

RAISED: dict[str, Exception] = {
    "lost": OperationalError("SELECT", None, psycopg.OperationalError("server closed")),
    "interface": InterfaceError("SELECT", None, psycopg.InterfaceError("connection closed")),
    "pool": PoolTimeout("QueuePool limit of size 20 overflow 20 reached"),
    "read_only": InternalError(
        "INSERT", None, psycopg.errors.ReadOnlySqlTransaction("read-only transaction")
    ),
    "other_internal": InternalError(
        "INSERT", None, psycopg.errors.InFailedSqlTransaction("transaction aborted")
    ),
}


@pytest.fixture(scope="module")
def client() -> TestClient:
    app = FastAPI()
    errors.install(app)

    @app.post("/raise/{name}")
    def _raise(name: str) -> None:
        raise RAISED[name]

    return TestClient(app, raise_server_exceptions=False)


@pytest.mark.parametrize("name", ["lost", "interface", "pool", "read_only"])
def test_a_store_that_cannot_take_the_write_answers_503_with_retry_after(
    client: TestClient, name: str
) -> None:
    answer = client.post(f"/raise/{name}")
    assert answer.status_code == 503
    assert answer.json()["code"] == "store_unavailable"
    assert answer.headers["Retry-After"] == "1"


def test_another_internal_database_error_is_still_a_500(client: TestClient) -> None:
    answer = client.post("/raise/other_internal")
    assert answer.status_code == 500
    assert answer.json()["code"] == "internal_error"
