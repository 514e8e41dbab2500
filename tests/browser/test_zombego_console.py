"""A Zombego game (hidden values) played by clicks to its end in two seats' browser contexts."""

from __future__ import annotations

from typing import Any

from tests.browser.conftest import shot
from tests.browser.console import create_match, open_as

PLIES = 6


def play_one_ply(page: Any) -> str:
    """Pick the first piece this seat may play, check its destinations, play the first one."""
    page.click("button.slot[data-source], #zboard button.square:not(.dest) >> nth=0")
    page.wait_for_selector("#zboard .square.dest")
    outcome: str = page.inner_text("#zboard .square.dest .outcome >> nth=0")
    assert outcome in {"plain", "attacker_dies", "defender_dies", "hidden"}
    page.click("#zboard .square.dest >> nth=0")
    return outcome


def test_a_zombego_game_played_by_clicks_to_its_end(server: str, contexts: Any) -> None:
    operator = contexts()
    links = create_match(
        operator, server, "zombego", {"ply_cap": str(PLIES)},
        {"board": "4", "ruleset": "Stratego Style with Zombies"},
    )  # fmt: skip
    white = open_as(contexts, links["seat white"], "#zboard")
    black = open_as(contexts, links["seat black"], "#zboard")
    watcher = open_as(contexts, links["spectator"], "#zboard")

    own = white.inner_text(".hand[data-seat=white]")
    assert any(ch.isdigit() for ch in own)  # white sees its own values
    for page in (black, watcher):
        hidden = page.query_selector_all(".hand[data-seat=white] .piece")
        assert hidden and all(p.inner_text() == "?" for p in hidden)
    assert black.query_selector("button.slot") is None  # not black's turn: nothing to click

    seats = {"white": white, "black": black}
    for ply in range(PLIES):
        mover = "white" if ply % 2 == 0 else "black"
        page = seats[mover]
        page.wait_for_selector(f"#to-move:has-text('To move: {mover}')", timeout=2000)
        play_one_ply(page)
        if ply == 2:
            shot(page, "zombego")
    for page in (white, black, watcher):
        page.wait_for_selector("#result:has-text('draw (ply_cap)')", timeout=2000)
        assert "Game over" in page.inner_text("#to-move")
    assert len(watcher.query_selector_all("#history li")) == PLIES
    for page in (white, black, watcher):
        assert page.errors == []
