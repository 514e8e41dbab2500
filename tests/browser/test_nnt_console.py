"""No, Not That!: a sealed action never reaches the opponent's browser (its DOM, nor any
response it fetched, nor its live stream), while the "acted" marker does; the host judges the
question the state names, by its ``target_seq``."""

from __future__ import annotations

import json
from typing import Any

import httpx

from tests.browser.conftest import shot
from tests.browser.console import create_match, host_state, match_id_of, open_as, token_of

SECRET = "quokka"
ROUNDS = [
    {
        "prompt_text": "two animals that could share a barn",
        "category_text": "animals",
        "category": {"kind": "host"},
        "prompt": {"kind": "host"},
    }
]


def stream_text(server: str, link: str) -> str:
    """What the seat's own stream sends (read beside the page, with the page's token)."""
    url = f"{server}/matches/{match_id_of(link)}/stream"
    headers = {"Authorization": f"Bearer {token_of(link)}"}
    chunks: list[str] = []
    try:
        with httpx.stream("GET", url, headers=headers, timeout=1.0) as response:
            for chunk in response.iter_text():
                chunks.append(chunk)
    except httpx.ReadTimeout:
        pass
    return "".join(chunks)


def drain(bodies: list[str]) -> list[str]:
    """The bodies of the responses fetched so far (the live stream is read separately)."""
    taken = list(bodies)
    bodies.clear()
    return taken


def opened(server: str, contexts: Any) -> tuple[dict[str, str], Any, Any, Any]:
    """A new one-round match: its links, and the host's and both seats' pages, open and live."""
    links = create_match(contexts(), server, "no_not_that", {"rounds": json.dumps(ROUNDS)})
    host = open_as(contexts, links["host"], "#start-round")
    alpha = open_as(contexts, links["seat Alpha"], "#round-line")
    beta = open_as(contexts, links["seat Beta"], "#round-line")
    return links, host, alpha, beta


def test_the_opponent_never_sees_a_sealed_action(server: str, contexts: Any) -> None:
    links, host, alpha, beta = opened(server, contexts)
    seen: list[str] = []

    def keep(route: Any) -> None:
        """Every response the opponent's page fetches, its body kept as it passes (read from
        the route, so no body is lost to the browser's cache)."""
        response = route.fetch()
        seen.append(response.text())
        route.fulfill(response=response)

    beta.route(lambda url: "/stream" not in url, keep)

    host.click("#start-round")
    alpha.wait_for_selector("#nnt-object", timeout=2000)
    beta.wait_for_selector("#nnt-object", timeout=2000)
    alpha.fill("#nnt-object", SECRET)
    alpha.click("#submit")
    alpha.wait_for_selector(f".own-action:has-text('submit {SECRET}')")
    beta.wait_for_selector("#scores [data-seat=Alpha] .acted.yes", timeout=2000)
    assert "your action" not in beta.inner_text("#scores [data-seat=Alpha]")
    bodies = drain(seen)
    beta.reload()
    beta.wait_for_selector("#scores [data-seat=Alpha] .acted.yes")
    beta.wait_for_selector("#live-status[data-status=live]")
    bodies += drain(seen)
    shot(beta, "nnt-opponent")

    assert SECRET not in beta.content()
    assert len(bodies) > 5 and not [b for b in bodies if SECRET in b]
    assert SECRET not in stream_text(server, links["seat Beta"])
    assert SECRET in stream_text(server, links["seat Alpha"])  # the check can fail
    for page in (host, alpha, beta):
        assert page.errors == []


def submit(page: Any, opponent: str, value: str) -> None:
    """Submit once the opponent's action has arrived (so the order of the two is certain)."""
    page.wait_for_selector(f"#scores [data-seat={opponent}] .acted.yes")
    page.fill("#nnt-object", value)
    page.click("#submit")


def test_the_host_judges_the_claim_the_state_names(server: str, contexts: Any) -> None:
    links, host, alpha, beta = opened(server, contexts)

    host.click("#start-round")
    alpha.wait_for_selector("#nnt-object")
    alpha.fill("#nnt-object", "cat")
    alpha.click("#submit")
    submit(beta, "Alpha", "table")
    alpha.wait_for_selector("#round-line:has-text('step 2')")
    alpha.click("#claim-invalid")
    beta.wait_for_selector("#round-line:has-text('step 2')")
    submit(beta, "Alpha", "dog")

    host.wait_for_selector("[id^=judge-category-]")
    waiting = host_state(server, links)["state"]["awaiting_ruling"]["category_questions"]
    assert [q["object"] for q in waiting] == ["TABLE"]
    host.click(f"#judge-category-{waiting[0]['target_seq']}-not")

    host.wait_for_selector("#scores [data-seat=Alpha] .points:has-text('1')")
    host.wait_for_selector("[id^=judge-category-]", state="detached")
    assert host_state(server, links)["state"]["phase"] == "step"
    for page in (host, alpha, beta):
        assert page.errors == []


def test_what_a_player_is_typing_survives_the_opponents_action(server: str, contexts: Any) -> None:
    """Every event redraws the board; the object being typed (and its focus and caret) stays,
    and a sent one goes."""
    _, host, alpha, beta = opened(server, contexts)

    host.click("#start-round")
    alpha.wait_for_selector("#nnt-object")
    alpha.click("#nnt-object")
    alpha.keyboard.type("quoka")
    alpha.keyboard.press("ArrowLeft")
    beta.wait_for_selector("#nnt-object")
    beta.fill("#nnt-object", "table")
    beta.click("#submit")
    alpha.wait_for_selector("#scores [data-seat=Beta] .acted.yes")

    assert alpha.input_value("#nnt-object") == "quoka"
    assert alpha.evaluate("document.activeElement.id") == "nnt-object"
    assert alpha.evaluate("document.activeElement.selectionStart") == 4
    alpha.keyboard.type("k")
    alpha.click("#submit")
    alpha.wait_for_selector("#round-line:has-text('step 2')")
    beta.wait_for_selector("#pool li:has-text('quokka')")
    alpha.wait_for_selector("#nnt-object")
    assert alpha.input_value("#nnt-object") == ""
    for page in (host, alpha, beta):
        assert page.errors == []
