"""Browser tests: a real uvicorn server of ``create_app`` (SQLite in a temporary directory, a
fixed operator token) and Debian's Chromium driven by Playwright.

Without ``/usr/bin/chromium`` they are skipped with the reason, except under CI (env ``CI``
set), where that is a failure. ``.ci/run`` installs Chromium when it is missing.
"""

from __future__ import annotations

import os
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from api.cli.demo import free_port
from api.http.app import create_app
from api.service.settings import Settings

CHROMIUM = Path("/usr/bin/chromium")
OPERATOR = "op_browser_test_token"
# Screenshots land in the temp dir, so a test run leaves the checkout as it found it; set
# ADJUDICATOR_SCREENSHOTS=docs/screenshots to refresh the README's pictures.
SCREENSHOTS = Path(
    os.environ.get("ADJUDICATOR_SCREENSHOTS")
    or Path(tempfile.gettempdir()) / "adjudicator-screenshots"
)
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
NO_CHROMIUM = "browser tests need Debian's Chromium at /usr/bin/chromium (apt-get install chromium)"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that needs Chromium is marked ``browser`` (``-m "not browser"`` leaves it)."""
    for item in items:
        if "chromium_path" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def chromium_path() -> Path:
    if CHROMIUM.exists():
        return CHROMIUM
    if os.environ.get("CI"):
        pytest.fail(f"{NO_CHROMIUM}; under CI these tests must run")
    pytest.skip(NO_CHROMIUM)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory, chromium_path: Path) -> Iterator[str]:
    """The whole app on a free port, in a thread, shared by the session; yields its base URL."""
    with serving(tmp_path_factory.mktemp("console") / "console.sqlite3") as base:
        yield base


@contextmanager
def serving(database: Path) -> Iterator[str]:
    """The whole app on a free port, in a thread, on the SQLite file ``database``."""
    settings = Settings(
        database_url=f"sqlite:///{database}", operator_token=OPERATOR, log_level="warning"
    )
    port = free_port()
    config = uvicorn.Config(
        create_app(settings), host="127.0.0.1", port=port, log_level="warning",
        timeout_graceful_shutdown=1,
    )  # fmt: skip
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 20
    while not running.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert httpx.get(f"{base}/health").status_code == 200
    yield base
    running.should_exit = True
    thread.join(10)


@pytest.fixture(scope="session")
def browser(chromium_path: Path) -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(chromium_path), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def contexts(browser: Any) -> Iterator[Any]:
    """Opens separate browser contexts (own storage: one person each), closed after the test."""
    opened: list[Any] = []

    def open_page(width: int = 1100, height: int = 900) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(8000)
        opened.append(context)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.errors = errors
        return page

    yield open_page
    for context in opened:
        context.close()


def shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)
