"""The host referees a Zoom match from its channel's export in the console: preview, then
enter, and the grid shows what the posts found."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import httpx

from tests.api.test_transcript_zoom import CONFIG, FIXTURE
from tests.browser.conftest import OPERATOR, shot


def host_link(base: str) -> str:
    """A match with the fixture's supplied grids, created over HTTP; the host's console link."""
    body = {"game": "zoom", "seats": ["alpha", "beta"], "advantage": "beta", "config": CONFIG}
    made = httpx.post(
        f"{base}/matches", json={**body, "seed": 5}, headers={"Authorization": f"Bearer {OPERATOR}"}
    ).json()
    fragment = urlencode({"role": "host", "token": made["tokens"]["host"]})
    return f"{base}/console/matches/{made['match_id']}#{fragment}"


def row(page: Any, message: str) -> Any:
    return page.locator(f"#transcript-rows tr[data-message='12000000000000000{message}']")


def test_the_host_previews_and_enters_a_zoom_export(server: str, contexts: Any) -> None:
    host = contexts()
    host.goto(host_link(server))
    host.wait_for_selector("#transcript-form")
    assert host.input_value("#transcript-seat-alpha") == "alpha"  # prefilled from the seats

    host.set_input_files("#transcript-files", str(FIXTURE))
    host.wait_for_selector("#transcript-file-list li:has-text('zoom-channel.json')")
    host.fill("#transcript-seat-alpha", "101")
    host.fill("#transcript-seat-beta", "bob")
    host.fill("#transcript-hosts", "Quizmaster")
    host.focus("#transcript-preview-button")
    host.keyboard.press("Enter")
    host.wait_for_selector("#transcript-rows")

    refused = row(host, "05")
    assert refused.get_attribute("data-status") == "refused"
    assert "refused outside_grid" in refused.locator(".becomes").inner_text()
    assert row(host, "01").locator(".becomes").inner_text() == "ignored: chatter"
    edited = row(host, "11").locator(".becomes").inner_text()
    assert "flagged edited" in edited and "2024-05-01T13:00:45+02:00" in edited
    assert row(host, "11").locator("input.exclude").count() == 1
    assert row(host, "10").locator("input.exclude").count() == 0
    assert "Nothing is recorded" in host.inner_text("#transcript-status")
    assert host.locator("#grid").count() == 0  # the preview recorded nothing
    shot(host, "transcript-preview")

    box = row(host, "11").locator("input.exclude")
    box.focus()
    host.keyboard.press("Space")
    host.click("#transcript-preview-button")
    host.wait_for_selector("#transcript-rows tr[data-status=excluded]")
    assert row(host, "11").get_attribute("data-status") == "excluded"
    row(host, "11").locator("input.exclude").uncheck()
    host.click("#transcript-preview-button")
    host.wait_for_selector("#transcript-rows tr[data-status=flagged]")

    host.click("#transcript-enter")
    host.wait_for_selector("#transcript-status:has-text('Entered 9 command(s).')")
    host.wait_for_selector("#grid .outline:has-text('A · alpha')")
    assert host.locator("#grid .outline:has-text('B · beta')").count() == 1
    assert host.errors == []
