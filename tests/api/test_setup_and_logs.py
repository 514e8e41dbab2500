"""First start (operator token), JSON logs with request and match ids, the CLI."""

from __future__ import annotations

import gc
import json
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from api.cli.main import main
from api.http.app import create_app, served
from api.service.settings import Settings
from tests.api.conftest import Api
from tests.api.test_zoom_over_http import supplied_match


def test_a_first_start_without_a_configured_token_creates_one_and_prints_it_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
    first = Settings(database_url=url, log_level="warning", log_json=True)
    create_app(first).state.service.store.dispose()
    printed = capsys.readouterr()
    token = printed.out.split("keep it): ")[1].split()[0]
    assert "operator_token_created" in printed.err
    assert token not in printed.err  # the log says a token was made, never which
    app = create_app(Settings(database_url=url, log_level="error"))
    assert "Operator token" not in capsys.readouterr().out
    with TestClient(app) as client:
        body = {"game": "zoom", "seats": ["a", "b"]}
        made = client.post("/matches", json=body, headers={"Authorization": f"Bearer {token}"})
        assert made.status_code == 201
        assert client.post("/matches", json=body).status_code == 401
    app.state.service.store.dispose()


def test_the_request_id_comes_back_and_log_lines_carry_it(
    api: Api, capsys: pytest.CaptureFixture[str]
) -> None:
    from api.http import logs

    logs.configure(json=True, level="info")
    supplied_match(api)
    response = api.client.get(f"/matches/{api.match_id}", headers={"X-Request-ID": "req-42"})
    assert response.headers["x-request-id"] == "req-42"
    lines = [json.loads(x) for x in capsys.readouterr().err.splitlines() if x.startswith("{")]
    mine = [x for x in lines if x.get("request_id") == "req-42"]
    assert mine and all(x["match_id"] == api.match_id for x in mine)


def test_serving_a_request_leaves_the_random_module_s_state_alone(api: Api) -> None:
    """A request's id comes from its own generator: the ``random`` module's shared state is
    not moved by serving (a test's Hypothesis, drawing while the app serves in another thread,
    refuses a state that moved under it), and every request gets a fresh id."""
    supplied_match(api)
    state = random.getstate()
    ids = {api.client.get(f"/matches/{api.match_id}").headers["x-request-id"] for _ in range(5)}
    assert random.getstate() == state
    assert len(ids) == 5 and all(len(i) == 32 for i in ids)


def test_db_upgrade_from_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = f"sqlite:///{tmp_path / 'sub' / 'cli.sqlite3'}"
    assert main(["db", "upgrade", "--database-url", url]) == 0
    assert "up to date" in capsys.readouterr().out
    assert (tmp_path / "sub" / "cli.sqlite3").exists()


def test_configuring_a_new_operator_token_revokes_the_old_one(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'ops.sqlite3'}"
    create_app(Settings(database_url=url, operator_token="op-old", log_level="error"))
    app = create_app(Settings(database_url=url, operator_token="op-new", log_level="error"))
    body = {"game": "zoom", "seats": ["a", "b"]}
    with TestClient(app) as client:
        old = client.post("/matches", json=body, headers={"Authorization": "Bearer op-old"})
        new = client.post("/matches", json=body, headers={"Authorization": "Bearer op-new"})
    assert (old.status_code, new.status_code) == (403, 201)
    app.state.service.store.dispose()


def test_the_connection_pool_is_sized_by_the_setting(database_url: str) -> None:
    if database_url.startswith("sqlite"):
        pytest.skip("SQLite's connections are not pooled by size")
    settings = Settings(database_url=database_url, db_pool_size=3, log_level="warning")
    app = create_app(settings)
    try:
        pool = app.state.service.store.engine.pool
        assert (pool.size(), pool._max_overflow) == (3, 3)
    finally:
        app.state.service.store.dispose()
    with pytest.raises(ValueError, match="db_pool_size"):
        Settings(database_url=database_url, db_pool_size=0)


def test_a_served_app_hides_what_start_up_built_from_the_cyclic_collector(app: Any) -> None:
    """``serve`` freezes the heap once the app is built: a full collection then walks only
    what serving allocated since (not the ~130,000 objects of start-up)."""
    frozen = gc.get_freeze_count()
    try:
        assert served(app) is app
        assert gc.get_freeze_count() > frozen
        assert len(gc.get_objects()) < 1_000  # what the collector still walks
    finally:
        gc.unfreeze()  # this test process builds many apps: let theirs be collected
