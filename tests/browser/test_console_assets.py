"""The console's assets, without a browser: served by the app, all local (no CDN), and one
module alone calls the API."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from api.http.console import STATIC
from api.service.settings import Settings

SVG_NAMESPACE = "http://www.w3.org/2000/svg"


@pytest.fixture
def client(tmp_path: Path) -> TestClient:
    settings = Settings(database_url=f"sqlite:///{tmp_path}/c.sqlite3", operator_token="op_x")
    return TestClient(create_app(settings))


def test_the_shell_is_served_at_the_root_and_at_each_match_page(client: TestClient) -> None:
    for path in ("/", "/console/matches/some-match"):
        response = client.get(path)
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/html")
        assert '<script type="module" src="/console/static/app.js">' in response.text
    assert client.get("/matches/some-match").json()["code"] == "unknown_match"  # API untouched


def test_every_asset_is_served_by_the_app(client: TestClient) -> None:
    names = sorted(p.name for p in STATIC.iterdir())
    assert {"api.js", "app.js", "console.css", "index.html"} <= set(names)
    for name in names:
        assert client.get(f"/console/static/{name}").status_code == 200, name
    assert client.get("/console/static/missing.js").status_code == 404


def test_no_asset_reaches_outside_the_app() -> None:
    for path in STATIC.iterdir():
        text = path.read_text(encoding="utf-8").replace(SVG_NAMESPACE, "")
        assert not re.search(r"https?://|//cdn|@import", text), path.name


def test_every_module_import_resolves() -> None:
    for path in STATIC.glob("*.js"):
        for target in re.findall(r'from "\./([\w-]+\.js)"', path.read_text(encoding="utf-8")):
            assert (STATIC / target).exists(), f"{path.name} imports {target}"


def test_only_api_js_calls_the_service() -> None:
    callers = [
        p.name
        for p in STATIC.glob("*.js")
        if re.search(r"\bfetch\(|XMLHttpRequest|EventSource", p.read_text(encoding="utf-8"))
    ]
    assert callers == ["api.js"]
