"""The console's look (issue 26, item 2) as a person meets it: dark mode from the system
setting, a Zoom grid as large as a desktop allows, player cards and a big clock, No, Not That!'s
objects as chips, the score plot a step chart over game time with an m:ss axis, a focus ring a
keyboard user sees, game names in words. Screenshots of both games' match pages, desktop and
phone (into ADJUDICATOR_SCREENSHOTS when it is set)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.api.test_nnt_over_http import EXAMPLE
from tests.browser.conftest import shot
from tests.browser.console import find_target, wrong_cell
from tests.browser.test_console_defects import Match, opened

pytestmark = pytest.mark.slow

ZOOM = {"rounds": 1, "targets_per_round": 3, "grid_height": 10, "grid_width": 14}


def zoom_with_scores(server: str) -> Match:
    """A Zoom round in progress: alpha missed A (locked out of it), then found B."""
    match = Match(server, "zoom", ZOOM)
    match.post("commands", {"type": "start_round", "round": 1})
    state = httpx.get(
        f"{server}/matches/{match.id}/state",
        headers={"Authorization": f"Bearer {match.token('host')}"},
    ).json()["state"]["round"]
    grid, targets = state["grid"], state["targets"]
    miss = {"target": "A", "at": wrong_cell(grid, targets["A"])}
    match.post("commands", {"type": "buzz", "seat": "alpha", "pairs": [miss]})
    hit = {"target": "B", "at": find_target(grid, targets["B"])}
    match.post("commands", {"type": "buzz", "seat": "alpha", "pairs": [hit]})
    return match


def nnt_with_objects(server: str) -> Match:
    """A No, Not That! round at step 2: both seats' first objects revealed, alpha acted again."""
    match = Match(server, "no_not_that", {"rounds": [EXAMPLE]})
    match.post("commands", {"type": "start_round", "round": 1})
    match.post("commands", {"type": "submit", "seat": "alpha", "object": "B"}, role="seat:alpha")
    match.post("commands", {"type": "submit", "seat": "beta", "object": "C"}, role="seat:beta")
    match.post("commands", {"type": "submit", "seat": "alpha", "object": "D"}, role="seat:alpha")
    return match


@pytest.fixture
def dark(browser: Any) -> Iterator[Any]:
    """A page whose system setting asks for dark colours."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    context.set_default_timeout(8000)
    yield context.new_page()
    context.close()


def luminance(page: Any, selector: str, prop: str = "backgroundColor") -> float:
    """Relative luminance (0 black … 1 white) of a computed colour."""
    colour: str = page.eval_on_selector(selector, f"(n) => getComputedStyle(n).{prop}")
    red, green, blue = (int(v) / 255 for v in re.findall(r"\d+", colour)[:3])
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def test_dark_mode_follows_the_system_setting(server: str, dark: Any, contexts: Any) -> None:
    match = zoom_with_scores(server)
    dark.goto(match.link("spectator", token=""))
    dark.wait_for_selector("#grid")
    assert luminance(dark, "html") < 0.2
    assert luminance(dark, "body", "color") > 0.7  # light text on it
    assert luminance(dark, "#scores .score") < 0.25  # the cards are dark too
    light = opened(contexts, match.link("spectator", token=""), "#grid")
    assert luminance(light, "html") > 0.8
    shot(dark, "zoom-dark-desktop")


def test_the_zoom_grid_fills_a_desktop_and_the_cards_and_clock_are_big(
    server: str, contexts: Any
) -> None:
    match = zoom_with_scores(server)
    page = contexts(width=1280, height=900)
    page.goto(match.link("seat:alpha"))
    page.wait_for_selector("#grid")
    width = page.eval_on_selector("#grid", "(n) => n.getBoundingClientRect().width")
    assert width >= 0.5 * 1280
    cell = page.eval_on_selector("#grid [data-cell=a1]", "(n) => n.getBoundingClientRect()")
    assert cell["width"] >= 30 and abs(cell["width"] - cell["height"]) < 1.5  # square cells
    header = page.eval_on_selector(
        "#grid .colhead", "(n) => parseFloat(getComputedStyle(n).fontSize)"
    )
    assert header >= 11  # the coordinates stay legible
    height = page.eval_on_selector("#grid", "(n) => n.getBoundingClientRect().height")
    assert height <= 900  # no taller than the window: the whole grid can be seen at once
    clock = page.eval_on_selector("#round-clock", "(n) => parseFloat(getComputedStyle(n).fontSize)")
    assert clock >= 36 and re.fullmatch(r"\d+:\d\d", page.inner_text("#round-clock"))
    card = page.locator("#scores [data-seat=alpha]")
    assert card.locator(".points").inner_text() == "1"
    assert "locked out of A" in card.locator(".card-state").inner_text()
    alpha_colour = card.evaluate("(n) => getComputedStyle(n).borderLeftColor")
    beta_colour = page.eval_on_selector(
        "#scores [data-seat=beta]", "(n) => getComputedStyle(n).borderLeftColor"
    )
    assert alpha_colour != beta_colour  # a colour per seat
    assert page.inner_text("h1").startswith("Zoom: ")
    page.check("#show-letters")  # symbols as letters, on request
    assert page.eval_on_selector("#grid .cell .sym", "(n) => getComputedStyle(n).visibility") == (
        "visible"
    )
    shot(page, "zoom-desktop")
    phone = contexts(width=360, height=740)
    phone.goto(match.link("seat:alpha"))
    phone.wait_for_selector("#grid")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    shot(phone, "zoom-phone")
    assert page.errors == [] and phone.errors == []


def test_the_score_plot_is_a_step_chart_over_game_time(server: str, contexts: Any) -> None:
    match = zoom_with_scores(server)
    page = opened(contexts, match.link("spectator", token=""), "#score-plot path.step")
    paths = page.eval_on_selector_all(
        "#score-plot path.step", "(ps) => ps.map((p) => p.getAttribute('d'))"
    )
    assert len(paths) == 2
    for d in paths:
        commands = re.findall(r"[A-Za-z]", d)
        assert commands[0] == "M" and set(commands[1:]) <= {"H", "V"}, d  # no slopes
    alpha = page.get_attribute("#score-plot path.step[data-seat=alpha]", "d")
    start = re.match(r"M[\d.]+,([\d.]+)", alpha)
    assert start is not None
    levels = {float(start.group(1))} | {float(v) for v in re.findall(r"V([\d.]+)", alpha)}
    assert len(levels) >= 2  # alpha's score jumps from 0 to 1
    ticks = page.eval_on_selector_all(
        "#score-plot .tick text", "(ts) => ts.map((t) => t.textContent)"
    )
    assert ticks[0] == "0:00" and all(re.fullmatch(r"\d+:\d\d", t) for t in ticks)
    assert page.errors == []


def test_a_button_shows_a_focus_ring_after_tab(server: str, contexts: Any) -> None:
    match = zoom_with_scores(server)
    page = opened(contexts, match.link("seat:beta"), "#buzz")
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.tagName") == "BUTTON":
            break
    ring = page.evaluate(
        "(() => { const s = getComputedStyle(document.activeElement);"
        " return [s.outlineStyle, parseFloat(s.outlineWidth)]; })()"
    )
    assert page.evaluate("document.activeElement.tagName") == "BUTTON"
    assert ring[0] != "none" and ring[1] >= 2
    assert page.errors == []


def test_no_not_that_shows_chips_the_sealed_marker_and_its_name(server: str, contexts: Any) -> None:
    match = nnt_with_objects(server)
    page = contexts(width=1280, height=900)
    page.goto(match.link("seat:beta"))
    page.wait_for_selector("#pool li.chip")
    assert page.inner_text("h1").startswith("No, Not That!: ")
    chips = page.locator("#pool li.chip")
    assert chips.count() == 2 and "B" in chips.first.inner_text()
    assert page.locator("#pool .chip .dot").count() == 2  # who played it, in the seat's colour
    page.wait_for_selector("#scores [data-seat=alpha] .acted.yes")
    assert "sealed" in page.inner_text("#scores [data-seat=alpha] .acted")
    assert "D" not in page.inner_text("#scores [data-seat=alpha]")  # sealed, not shown
    assert re.fullmatch(r"\d+:\d\d", page.inner_text("#step-clock"))
    shot(page, "no_not_that-desktop")
    phone = contexts(width=360, height=740)
    phone.goto(match.link("seat:beta"))
    phone.wait_for_selector("#pool li.chip")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    shot(phone, "no_not_that-phone")
    assert page.errors == [] and phone.errors == []
