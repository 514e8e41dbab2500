"""What the browser tests do through the console, and what they read beside it (as a referee
checking the answers would, through the same REST API)."""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qs, urlparse

import httpx

from tests.browser.conftest import OPERATOR


def create_match(
    page: Any, base: str, game: str, fields: dict[str, str], choices: dict[str, str] | None = None
) -> dict[str, str]:
    """Fill the operator's form on ``/`` (inputs by value, selects by their label) and return
    the role links by role name."""
    page.goto(f"{base}/")
    page.fill("#operator-token", OPERATOR)
    page.select_option("#create-game", game)
    for name, value in fields.items():
        page.fill(f"#cfg-{name}", value)
    for name, label in (choices or {}).items():
        page.select_option(f"#cfg-{name}", label=label)
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#role-links a")
    anchors = page.query_selector_all("#role-links a")
    return {a.get_attribute("data-role"): a.get_attribute("href") for a in anchors}


def token_of(link: str) -> str:
    return parse_qs(urlparse(link).fragment)["token"][0]


def match_id_of(link: str) -> str:
    return urlparse(link).path.rsplit("/", 1)[-1]


def host_state(base: str, links: dict[str, str]) -> dict[str, Any]:
    """The state as the host sees it (the test's answer key)."""
    url = f"{base}/matches/{match_id_of(links['host'])}/state"
    headers = {"Authorization": f"Bearer {token_of(links['host'])}"}
    state: dict[str, Any] = httpx.get(url, headers=headers).json()
    return state


def open_as(open_page: Any, link: str, ready: str, width: int = 1100) -> Any:
    page = open_page(width=width)
    page.goto(link)
    page.wait_for_selector(ready)
    page.wait_for_selector("#live-status:is([data-status=live], [data-status=closed])")
    return page


def find_target(grid: list[str], target: list[str]) -> str:
    """The top-left cell (e.g. ``c4``) where ``target`` occurs in ``grid``."""
    height, width = len(target), len(target[0])
    for r in range(len(grid) - height + 1):
        for c in range(len(grid[0]) - width + 1):
            if all(grid[r + i][c : c + width] == target[i] for i in range(height)):
                return f"{chr(97 + c)}{r + 1}"
    raise AssertionError("target not in grid")


def wrong_cell(grid: list[str], target: list[str]) -> str:
    right = find_target(grid, target)
    return "a1" if right != "a1" else "b1"
