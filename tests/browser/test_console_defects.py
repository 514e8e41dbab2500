"""The console's defects found in issue 26, each as a person meets it: a page for a match that
does not exist, a link whose token is refused, a ruling whose outcome is not JSON, the list's
status filter, a buzz's chips and the buzz list's numbers, the exchange's wording, an exact
time that is not a time, and a result that leaves a round clock ticking."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

import httpx
import pytest

from tests.api.test_nnt_over_http import EXAMPLE
from tests.api.test_transcript_zoom import CONFIG
from tests.browser.conftest import OPERATOR

pytestmark = pytest.mark.slow

SEATS = ["alpha", "beta"]


class Match:
    """A match made over HTTP, its tokens, and the role links a host hands out."""

    def __init__(self, base: str, game: str, config: dict[str, Any]) -> None:
        body = {"game": game, "seats": SEATS, "config": config}
        made = httpx.post(
            f"{base}/matches", json=body, headers={"Authorization": f"Bearer {OPERATOR}"}
        ).json()
        self.base, self.id, self.tokens = base, made["match_id"], made["tokens"]

    def token(self, role: str) -> str:
        token: str = (
            self.tokens["seats"][role.removeprefix("seat:")]
            if role.startswith("seat:")
            else self.tokens[role]
        )
        return token

    def link(self, role: str, token: str | None = None) -> str:
        fragment = urlencode({"role": role, "token": self.token(role) if token is None else token})
        return f"{self.base}/console/matches/{self.id}#{fragment}"

    def post(self, what: str, body: dict[str, Any] | None, role: str = "host") -> dict[str, Any]:
        answer = httpx.post(
            f"{self.base}/matches/{self.id}/{what}",
            json=body,
            headers={"Authorization": f"Bearer {self.token(role)}"},
        )
        assert answer.status_code == 201, answer.text
        data: dict[str, Any] = answer.json()
        return data


def opened(contexts: Any, link: str, ready: str) -> Any:
    page = contexts()
    page.goto(link)
    page.wait_for_selector(ready)
    return page


def zoom_in_round(server: str) -> Match:
    match = Match(server, "zoom", CONFIG)
    match.post("commands", {"type": "start_round", "round": 1})
    return match


def test_an_unknown_match_says_so_instead_of_loading_forever(server: str, contexts: Any) -> None:
    page = opened(contexts, f"{server}/console/matches/no-such-match#role=spectator", "#main")
    page.wait_for_selector("#main .error:has-text('No match')")
    assert "Loading" not in page.inner_text("#main")
    assert "unknown_match" in page.inner_text("#main .error")
    assert page.locator("#main a[href='/']").count() == 1
    assert page.errors == []


def test_a_refused_token_is_said_and_not_followed(server: str, contexts: Any) -> None:
    match = zoom_in_round(server)
    streams: list[str] = []
    page = contexts()
    page.on("request", lambda r: streams.append(r.url) if "/stream" in r.url else None)
    page.goto(match.link("seat:alpha", token="not-a-token"))
    page.wait_for_selector("#live-status[data-status=refused]")
    assert "seat alpha" not in page.inner_text("#acting")
    assert "refused" in page.inner_text("#acting")
    assert "invalid_token" in page.inner_text("#match-error")
    page.wait_for_timeout(2500)  # a reconnecting page would have asked again twice by now
    assert streams == []
    assert page.inner_text("#live-status") == "refused"
    assert page.errors == []


def test_a_ruling_whose_outcome_is_not_json_is_refused_in_its_form(
    server: str, contexts: Any
) -> None:
    match = zoom_in_round(server)
    pairs = [{"target": "A", "at": "a1"}]
    buzz = match.post("commands", {"type": "buzz", "pairs": pairs}, "seat:alpha")
    seq = buzz["events"][0]["seq"]
    host = opened(contexts, match.link("host"), f"#event-list tr[data-seq='{seq}']")
    host.click(f"#event-list tr[data-seq='{seq}'] button.rule")
    host.select_option("#ruling-type", "amend")
    host.fill("form.ruling input[name=outcome]", "{A: correct")
    host.fill("#ruling-reason", "a typo in the grid")
    host.click("form.ruling button[type=submit]")
    error = host.locator("form.ruling .error")
    error.wait_for()
    assert "outcome" in error.inner_text() and "JSON" in error.inner_text()
    assert host.is_visible("form.ruling")  # what was typed stays, to be fixed
    assert host.errors == []


def test_the_list_filters_finished_matches(server: str, contexts: Any) -> None:
    decided = zoom_in_round(server)
    decided.post("rulings", {"type": "declare_result", "winner": "beta", "reason": "forfeit"})
    Match(server, "zoom", CONFIG)  # an open one
    page = opened(contexts, f"{server}/", "#filter-status")
    options = page.locator("#filter-status option")
    values = [options.nth(i).get_attribute("value") for i in range(options.count())]
    assert values == ["", "open", "finished", "closed"]
    page.select_option("#filter-status", "finished")
    page.wait_for_function(  # the filtered list has replaced the whole one
        "() => { const cells = [...document.querySelectorAll("
        "'#matches tbody tr td:nth-child(3)')];"
        " return cells.length > 0 && cells.every((c) => c.innerText === 'finished'); }"
    )
    page.wait_for_selector(f"#matches tr[data-match='{decided.id}']")
    assert page.errors == []


def test_a_late_answer_to_an_older_filter_never_replaces_the_newer_list(
    server: str, contexts: Any
) -> None:
    Match(server, "zoom", CONFIG)
    Match(server, "no_not_that", {"rounds": [EXAMPLE]})
    page = opened(contexts, f"{server}/", "#matches tbody tr")
    held: list[Any] = []

    def hold_the_unfiltered_one(route: Any) -> None:
        if "game=zoom" in route.request.url:
            route.continue_()
        else:
            held.append(route)

    def listing(url: str) -> bool:
        return "/matches?" in url

    page.route(listing, hold_the_unfiltered_one)
    page.select_option("#filter-status", "open")  # asks for every game's open matches...
    page.select_option("#filter-game", "zoom")  # ...then for Zoom's, answered first
    page.wait_for_function(
        "() => { const cells = [...document.querySelectorAll('#matches tbody td:first-child')];"
        " return cells.length > 0 && cells.every((c) => c.innerText === 'Zoom'); }"
    )
    assert len(held) == 1
    held[0].continue_()  # the older list arrives last
    page.wait_for_timeout(300)
    games = {c.inner_text() for c in page.query_selector_all("#matches tbody td:first-child")}
    assert games == {"Zoom"}
    page.unroute(listing)
    assert page.errors == []


def test_a_sent_buzz_clears_its_chips_and_the_list_numbers_it_once(
    server: str, contexts: Any
) -> None:
    match = zoom_in_round(server)
    alpha = opened(contexts, match.link("seat:alpha"), "#grid")
    alpha.click(".target[data-target=A]")
    alpha.click("#grid [data-cell=b2]")
    assert alpha.locator("#pairs li").count() == 1
    alpha.click("#buzz")
    alpha.wait_for_function("document.querySelector('#buzz-outcome')?.textContent.length > 0")
    assert alpha.locator("#pairs li").count() == 0  # sent: no chip left as if pending
    entry = alpha.locator("#buzz-list li").first
    entry.wait_for()
    seq = entry.get_attribute("data-seq")
    marker = entry.evaluate("(li) => getComputedStyle(li).listStyleType")
    numbered_by_list = marker not in ("none", "disc", "circle", "square")
    assert entry.inner_text().count(f"#{seq}") + int(numbered_by_list) == 1
    assert alpha.errors == []


def test_the_exchange_is_one_point_for_two_nets(server: str, contexts: Any) -> None:
    match = Match(server, "no_not_that", {"rounds": [EXAMPLE, EXAMPLE]})
    match.post("commands", {"type": "start_round", "round": 1})
    match.post("rulings", {"type": "end_round", "reason": "the host ends it"})
    alpha = opened(contexts, match.link("seat:alpha"), "#exchange")
    label = alpha.inner_text("form:has(#exchange) label")
    assert label.startswith("Exchange 1 point for 2 safety nets")
    assert alpha.errors == []


def test_an_exact_time_that_is_not_a_time_is_said_in_words(server: str, contexts: Any) -> None:
    match = zoom_in_round(server)
    page = opened(contexts, match.link("spectator", token=""), "#at-input")
    page.fill("#at-input", "half past noon")
    page.click("#at-go")
    page.wait_for_selector("#at-error")
    said = page.inner_text("#at-error")
    assert "half past noon" in said and "2026-11-30T12:00:05Z" in said
    assert "Invalid time value" not in page.inner_text("body")
    assert page.errors == []


@pytest.mark.parametrize("game", ["zoom", "no_not_that"])
def test_a_decided_and_closed_match_shows_no_round_clock(
    server: str, contexts: Any, game: str
) -> None:
    if game == "zoom":
        match = zoom_in_round(server)
    else:
        match = Match(server, "no_not_that", {"rounds": [EXAMPLE]})
        match.post("commands", {"type": "start_round", "round": 1})
    match.post("rulings", {"type": "declare_result", "winner": "alpha", "reason": "forfeit"})
    match.post("close", None)
    page = opened(contexts, match.link("host"), "#result")
    page.wait_for_selector("#live-status[data-status=closed]")
    assert page.locator("#board [data-deadline]").count() == 0
    if game == "zoom":
        assert "ended (result)" in page.inner_text("#round-line")
    assert page.errors == []
