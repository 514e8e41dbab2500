"""A whole Zombego match played by clicks, from the first placement to the end, by two people in
their own browser contexts, finding pieces and cells by what a player sees: their accessible
names (owner, pattern, cell). The move chosen each ply comes from the host's view (the answer key),
preferring captures so the game ends by a rule; what the page offers is checked against it.

4x4, piece set "(6) Sum dist by type = 4": this line of play takes 24 plies and has every kind of
ply (placements, moves, a capture, a failed attack that makes a zombie, a zombie placement) and
ends because a seat has no legal move.
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.browser.conftest import shot
from tests.browser.console import create_match, host_state, match_id_of, open_as, token_of

pytestmark = pytest.mark.slow

PREFERENCE = {"defender_dies": 0, "attacker_dies": 1, "hidden": 2, "plain": 3}
WIDTHS = {"desktop": 1280, "phone": 360}
HIDDEN = "Stratego Style with Zombies"


def choose(legal: list[dict[str, str]]) -> dict[str, str]:
    return min(legal, key=lambda m: (PREFERENCE[m["outcome"]], m["move"]))


def piece_label(state: dict[str, Any], piece: dict[str, Any]) -> str:
    hidden = piece["value"] is None
    name = "hidden" if hidden else state["patterns"][str(piece["value"])]["name"]
    return f"{piece['owner']}'s {'zombie ' if piece['zombie'] else ''}{name} piece"


def destination_label(state: dict[str, Any], move: str, outcome: str) -> str:
    cell = re.split(r"[:-]", move)[-1]
    if not move.startswith("move:"):
        return f"place on {cell}"
    defender = state["board"].get(cell)
    target = f"{piece_label(state, defender)} at {cell}" if defender else cell
    return {
        "plain": f"move to {cell}",
        "defender_dies": f"capture {target}",
        "attacker_dies": f"attack {target}: the attacker becomes a zombie",
        "hidden": f"attack {target}: the outcome depends on its hidden pattern",
    }[outcome]


def source_label(state: dict[str, Any], move: str) -> str:
    """The accessible name of what the mover clicks first: a hand piece or a board piece."""
    kind, rest = move.split(":", 1)
    seat = state["to_move"]
    if kind == "move":
        origin = rest.split("-")[0]
        return f"{piece_label(state, state['board'][origin])} at {origin}"
    value = int(rest.split(":")[0])
    piece = {"owner": seat, "zombie": kind == "zombie", "value": value}
    return f"{piece_label(state, piece)} in hand"


def play_ply(page: Any, state: dict[str, Any], chosen: dict[str, str], shoot: str = "") -> None:
    """Click the piece, check the page's destinations and helpers against the key, click one
    (``shoot``: the name of a screenshot of the chosen piece, taken before the click)."""
    move, outcome = chosen["move"], chosen["outcome"]
    page.get_by_role("button", name=source_label(state, move), exact=True).click()
    prefix = move.split("-")[0] + "-" if move.startswith("move:") else move.rsplit(":", 1)[0] + ":"
    offered = [m for m in state["legal"] if m["move"].startswith(prefix)]
    board = page.locator("#zboard")
    assert board.locator("button.dest").count() == len(offered)
    for other in offered:
        label = destination_label(state, other["move"], other["outcome"])
        icon = "place" if not move.startswith("move:") else other["outcome"]
        assert (
            board.get_by_role("button", name=label, exact=True).locator(f"svg.icon.{icon}").count()
            == 1
        )
    if move.startswith("move:"):
        origin = move.split(":")[1].split("-")[0]
        shown = board.locator(".square.helper").evaluate_all(
            "(ns) => ns.map((n) => n.dataset.cell)"
        )
        assert sorted(shown) == sorted(state["helpers"][origin])
        for cell in shown:
            assert board.get_by_label(re.compile(f" at {cell}, helper$")).count() == 1
    if shoot:
        shot(page, shoot)
    page.get_by_role("button", name=destination_label(state, move, outcome), exact=True).click()


def test_a_whole_zombego_match_played_by_clicks(server: str, contexts: Any) -> None:
    operator = contexts()
    links = create_match(
        operator, server, "zombego", {},
        {"board": "4", "piece_set": "(6) Sum dist by type = 4", "ruleset": "All Zombies"},
    )  # fmt: skip
    seats = {
        "white": open_as(contexts, links["seat white"], "#zboard"),
        "black": open_as(contexts, links["seat black"], "#zboard", width=WIDTHS["phone"]),
    }
    watcher = open_as(contexts, links["spectator"], "#zboard")
    seen: set[str] = set()
    plies = 0
    shots = {  # each the first time it happens: a hand piece or a board piece chosen
        "place/white": "zombego-place-desktop", "place/black": "zombego-place-phone",
        "move/white": "zombego-move-desktop", "move/black": "zombego-move-phone",
    }  # fmt: skip
    while (state := host_state(server, links)["state"])["result"] is None:
        mover = state["to_move"]
        page = seats[mover]
        page.wait_for_selector(f"#to-move:has-text('To move: {mover}')")
        seat_view = host_state(server, links)["state"]
        chosen = choose(seat_view["legal"])
        seen.add(f"{chosen['move'].split(':')[0]}/{chosen['outcome']}")
        play_ply(page, seat_view, chosen, shots.pop(chosen["move"].split(":")[0] + f"/{mover}", ""))
        plies += 1
        page.wait_for_function(f"document.querySelectorAll('#history li').length === {plies}")
        assert plies < 60, "the game should have ended"
    result = state["result"]
    assert result["winner"] in seats and result["reason"] in {"no_legal_move", "zombie_majority"}
    assert seen >= {"place/plain", "move/plain", "move/defender_dies", "move/attacker_dies"}
    for page in (*seats.values(), watcher):
        page.wait_for_selector("#to-move:has-text('Game over')")
        text = page.inner_text("#to-move")
        assert f"{result['winner']} wins" in text
        assert f"after ply {plies}" in text
        assert page.locator("#history li").count() == plies
        assert page.locator("#zboard button").count() == 0  # nothing left to play
        assert page.errors == []
    last = re.split(r"[:-]", host_state(server, links)["state"]["history"][0]["move"])
    marked = watcher.locator("#zboard .square.last").evaluate_all(
        "(ns) => ns.map((n) => n.dataset.cell)"
    )
    assert sorted(marked) == sorted(last[1:] if last[0] == "move" else last[2:])
    shot(watcher, "zombego-end-desktop")
    shot(seats["black"], "zombego-end-phone")


def seat_state(base: str, link: str) -> dict[str, Any]:
    """The state as the seat of ``link`` sees it (its own legal moves, the rest hidden)."""
    url = f"{base}/matches/{match_id_of(link)}/state"
    answer = httpx.get(url, headers={"Authorization": f"Bearer {token_of(link)}"})
    state: dict[str, Any] = answer.json()["state"]
    return state


def labels(page: Any, selector: str) -> list[str]:
    found: list[str] = page.locator(selector).evaluate_all(
        "(ns) => ns.map((n) => n.getAttribute('aria-label'))"
    )
    return found


def test_hidden_pieces_with_slides_are_a_plain_question_mark_until_they_turn_zombie(
    server: str, contexts: Any
) -> None:
    """6x6, slides in the set, hidden values: played by clicks until a zombie stands on the
    board; each seat sees its own pieces' patterns, the other's living pieces as "?", and the
    zombie's pattern (revealed to all)."""
    links = create_match(
        contexts(), server, "zombego", {},
        {"board": "6", "piece_set": "(9) Sum 4 plus Slides", "ruleset": HIDDEN},
    )  # fmt: skip
    seats = {
        "white": open_as(contexts, links["seat white"], "#zboard"),
        "black": open_as(contexts, links["seat black"], "#zboard", width=WIDTHS["phone"]),
    }
    plies = 0
    while not any(p["zombie"] for p in host_state(server, links)["state"]["board"].values()):
        mover = "white" if plies % 2 == 0 else "black"
        page = seats[mover]
        page.wait_for_selector(f"#to-move:has-text('To move: {mover}')")
        state = seat_state(server, links[f"seat {mover}"])
        play_ply(page, state, choose(state["legal"]))
        plies += 1
        page.wait_for_function(f"document.querySelectorAll('#history li').length === {plies}")
        assert plies < 60, "a zombie should have entered the board"
    board = host_state(server, links)["state"]["board"]
    for seat, page in seats.items():
        page.wait_for_function(f"document.querySelectorAll('#history li').length === {plies}")
        shown = dict(
            zip(
                page.locator("#zboard .square").evaluate_all(
                    "(ns) => ns.map((n) => n.dataset.cell)"
                ),
                labels(page, "#zboard .square"),
                strict=True,
            )
        )
        for cell, piece in board.items():
            visible = piece["owner"] == seat or piece["zombie"]
            expected = piece_label(
                {"patterns": seat_state(server, links[f"seat {seat}"])["patterns"]},
                {**piece, "value": piece["value"] if visible else None},
            )
            assert shown[cell].startswith(f"{expected} at {cell}"), (cell, shown[cell], expected)
            art = page.locator(f"#zboard .square[data-cell={cell}] svg.art")
            assert (
                art.locator(".leap, .slide").count() > 0 if visible else art.text_content() == "?"
            )
            if visible and piece["value"] in (44, 49, 99):  # the slides: arrows, no squares
                assert art.locator(".leap").count() == 0 < art.locator(".slide").count()
        assert (
            page.locator("#legend .piece-set svg.art .slide").count() == 4 + 8 + 4
        )  # bishop, queen, rook
        assert page.errors == []
    shot(seats["white"], "zombego-hidden-desktop")
    shot(seats["black"], "zombego-hidden-phone")
