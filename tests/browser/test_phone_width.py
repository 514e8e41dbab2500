"""At a 360-pixel-wide phone screen, no page of the console is wider than the screen: the match
list, the create form of each game, and each game's match page as a seat, the host, a spectator
and the auditor (nothing to scroll sideways, so nothing is cut off)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.browser.conftest import OPERATOR, shot
from tests.browser.console import create_match, match_id_of, open_as, token_of

pytestmark = pytest.mark.slow

PHONE = 360
GAMES = ("zoom", "no_not_that", "zombego")
READY = {"host": "#host-console > *", "auditor": "#verify-summary"}  # their consoles drawn too
WIDER = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [...document.querySelectorAll("body *")].filter((n) => {
    const box = n.getBoundingClientRect();
    return box.width > 0 && (box.right > width + 0.5 || box.left < -0.5);
  }).filter((n) => !n.closest("[hidden], details:not([open]) > :not(summary)"));
  return { scroll: document.documentElement.scrollWidth,
           wide: wide.slice(0, 5).map((n) => `${n.tagName.toLowerCase()}#${n.id}.${n.className}`) };
}"""


def assert_fits(page: Any, what: str) -> None:
    measured = page.evaluate(WIDER)
    assert measured["scroll"] <= PHONE, f"{what}: {measured['scroll']} px wide, {measured['wide']}"


def test_the_list_and_every_create_form_fit_a_phone(server: str, contexts: Any) -> None:
    for game in GAMES:
        create_match(contexts(), server, game, {})
    page = contexts(width=PHONE, height=780)
    page.goto(f"{server}/")
    page.wait_for_selector("#create-game")
    page.wait_for_selector("table.list tbody tr")
    assert_fits(page, "match list")
    shot(page, "list-phone")
    page.fill("#operator-token", OPERATOR)
    for game in GAMES:
        page.select_option("#create-game", game)
        assert_fits(page, f"create form ({game})")
    page.select_option("#create-game", "zombego")
    shot(page, "create-phone")
    assert page.errors == []


LONG_REASON = (
    "beta's connection dropped during the round and the referee agreed, after a long talk "
    "with both players and the spectators, to note it here for the record"
)


BIGGEST = {"board": "12", "piece_set": "(11) 12 plus Slides"}  # Zombego's largest board and set


@pytest.mark.parametrize(
    ("game", "choices"), [(game, {}) for game in GAMES] + [("zombego", BIGGEST)],
    ids=[*GAMES, "zombego-12x12"],
)  # fmt: skip
def test_every_match_page_fits_a_phone(
    server: str, contexts: Any, game: str, choices: dict[str, str]
) -> None:
    """With a ruling of a long reason recorded, so the record-time control lists it."""
    links = create_match(contexts(), server, game, {}, choices)
    answer = httpx.post(
        f"{server}/matches/{match_id_of(links['host'])}/rulings",
        json={"type": "note", "reason": LONG_REASON},
        headers={"Authorization": f"Bearer {token_of(links['host'])}"},
    )
    assert answer.status_code < 300, answer.text
    seat = next(role for role in links if role.startswith("seat "))
    for role in (seat, "host", "spectator", "auditor"):
        page = open_as(contexts, links[role], "#board > *", width=PHONE)
        page.wait_for_selector(READY.get(role, "#board > *"))
        page.wait_for_selector("#ruling-pick")
        assert_fits(page, f"{game} as {role}")
        shot(page, f"{game}{'-12x12' if choices else ''}-{role.split()[0]}-phone")
        if game == "zombego" and role == seat:
            page.locator(".hand button.slot").first.click()
            page.wait_for_selector("#zboard button.dest")
            assert_fits(page, f"{game} as {role}, a piece chosen")
        assert page.errors == []
