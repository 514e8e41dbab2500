"""A Zombego game (hidden values) played by clicks to its end in two seats' browser contexts:
each seat sees its own pieces as their patterns and the other seat's as a plain "?", found by
their accessible names; nobody reads a value or a per-cell word on the page."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.conftest import shot
from tests.browser.console import create_match, open_as

pytestmark = pytest.mark.slow

PLIES = 6
PATTERN_PIECE = re.compile(r"^white's [a-z]+( \+ [a-z]+)* piece in hand$")
HIDDEN_PIECE = re.compile(r"^white's hidden piece in hand \(slot \d+\)$")


def play_one_ply(page: Any) -> str:
    """Choose the first piece this seat may play, check its destinations, play the first one."""
    page.locator(".hand button.slot, #zboard button.square:not(.dest)").first.click()
    destinations = page.locator("#zboard button.dest")
    destinations.first.wait_for()
    label: str = destinations.first.get_attribute("aria-label")
    assert re.match(r"^(place on|move to|capture|attack) ", label), label
    assert destinations.first.locator("svg.icon").count() == 1  # an icon, not a word
    destinations.first.click()
    return label


def test_a_zombego_game_played_by_clicks_to_its_end(server: str, contexts: Any) -> None:
    operator = contexts()
    links = create_match(
        operator, server, "zombego", {"ply_cap": str(PLIES)},
        {"board": "4", "ruleset": "Stratego Style with Zombies"},
    )  # fmt: skip
    white = open_as(contexts, links["seat white"], "#zboard")
    black = open_as(contexts, links["seat black"], "#zboard")
    watcher = open_as(contexts, links["spectator"], "#zboard")

    own = white.locator(".hand[data-seat=white] .slot")
    names = own.evaluate_all("(ns) => ns.map((n) => n.getAttribute('aria-label'))")
    assert names and all(PATTERN_PIECE.match(n) for n in names), names  # white sees its own
    assert white.locator(".hand[data-seat=white] svg .leap").count() > 0  # drawn as patterns
    for page in (black, watcher):
        hidden = page.locator(".hand[data-seat=white] .slot")
        labels = hidden.evaluate_all("(ns) => ns.map((n) => n.getAttribute('aria-label'))")
        assert labels and all(HIDDEN_PIECE.match(n) for n in labels), labels
        assert page.locator(".hand[data-seat=white] svg .leap").count() == 0
        assert set(hidden.all_inner_texts()) == {"?"}
    assert black.locator(".hand button.slot").count() == 0  # not black's turn: nothing to click
    for page in (white, black, watcher):
        assert "plain" not in page.inner_text("#zboard")  # no per-cell words
        assert page.inner_text("#zboard").split() == ["4", "3", "2", "1", "a", "b", "c", "d"]

    piece = white.locator(".hand button.slot").first  # by keyboard: Enter chooses, and again
    piece.focus()
    white.keyboard.press("Enter")
    assert white.evaluate("document.activeElement.getAttribute('aria-pressed')") == "true"
    assert white.locator("#zboard button.dest").count() == 16  # 4x4, an empty board
    white.keyboard.press("Enter")
    assert white.evaluate("document.activeElement.getAttribute('aria-pressed')") == "false"
    assert white.locator("#zboard button.dest").count() == 0

    seats = {"white": white, "black": black}
    for ply in range(PLIES):
        mover = "white" if ply % 2 == 0 else "black"
        page = seats[mover]
        page.wait_for_selector(f"#to-move:has-text('To move: {mover}')", timeout=2000)
        play_one_ply(page)
        if ply == 2:
            shot(page, "zombego")
    for page in (white, black, watcher):
        page.wait_for_selector("#result:has-text('draw')", timeout=2000)
        assert "Game over" in page.inner_text("#to-move")
        assert "draw" in page.inner_text("#to-move")
    assert watcher.locator("#history li").count() == PLIES
    assert re.search(r"place:\?:[a-d][1-4]", watcher.inner_text("#history"))  # hidden values
    for page in (white, black, watcher):
        assert page.errors == []
