"""A newcomer's first minute, on a service just started with nothing in it: the start page
says there are no matches yet and offers the create form; the operator creates a Zoom match
and gets one link per role; the host starts the round; a seat sees the grid and the targets.
The screenshots of each step are the README's "first minute" (``ADJUDICATOR_SCREENSHOTS``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import OPERATOR, serving, shot
from tests.browser.console import open_as

pytestmark = pytest.mark.slow


@pytest.fixture
def fresh(tmp_path: Path, chromium_path: Path) -> Iterator[str]:
    """A service of its own, started on an empty store."""
    with serving(tmp_path / "new.sqlite3") as base:
        yield base


def test_a_newcomer_creates_a_match_and_hands_out_the_links(fresh: str, contexts: Any) -> None:
    operator = contexts()
    operator.goto(f"{fresh}/")
    operator.wait_for_selector("#matches:has-text('No matches yet.')")
    assert operator.is_visible("#create-form button[type=submit]")
    assert operator.inner_text("h1") == "Matches"
    shot(operator, "first-minute-start")

    operator.fill("#operator-token", OPERATOR)
    operator.fill("#cfg-rounds", "1")
    operator.click("#create-form button[type=submit]")
    operator.wait_for_selector("#role-links a")
    roles = [a.get_attribute("data-role") for a in operator.query_selector_all("#role-links a")]
    assert roles == ["host", "seat alpha", "seat beta", "auditor", "spectator"]
    operator.wait_for_selector("#matches tbody tr")
    assert operator.locator("#matches tbody tr").count() == 1
    shot(operator, "first-minute-created")

    link = operator.get_attribute("#role-links a[data-role=host]", "href")
    host = open_as(contexts, link, "#start-round")
    host.click("#start-round")
    host.wait_for_selector("#grid")
    shot(host, "first-minute-host")

    seat_link = operator.get_attribute("#role-links a[data-role='seat alpha']", "href")
    seat = open_as(contexts, seat_link, "#grid")
    assert seat.locator(".target").count() > 0  # the round's targets, to be found
    shot(seat, "first-minute-seat")
    assert operator.errors == [] and host.errors == [] and seat.errors == []
