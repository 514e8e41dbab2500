"""A short Zoom match played by clicks in separate browser contexts (host, both seats, a
spectator), then travelled through, ruled on, closed and audited."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

from tests.browser.conftest import shot
from tests.browser.console import (
    create_match,
    find_target,
    host_state,
    match_id_of,
    open_as,
    token_of,
    wrong_cell,
)

LIVE_MS = 1000  # an action in one tab shows in the others within a second


def buzz(page: Any, pairs: list[tuple[str, str]]) -> str:
    for target, cell in pairs:
        page.click(f".target[data-target={target}]")
        page.click(f"#grid [data-cell={cell}]")
    page.click("#buzz")
    page.wait_for_function("document.querySelector('#buzz-outcome')?.textContent.length > 0")
    outcome: str = page.inner_text("#buzz-outcome")
    return outcome


def points(page: Any, seat: str) -> str:
    text: str = page.inner_text(f"#scores [data-seat={seat}] .points")
    return text


def wait_points(page: Any, seat: str, value: str) -> None:
    selector = f"#scores [data-seat={seat}] .points"
    page.wait_for_function(
        f"document.querySelector('{selector}')?.textContent === '{value}'", timeout=LIVE_MS * 2
    )


def test_a_zoom_match_played_by_clicks(server: str, contexts: Any) -> None:
    operator = contexts()
    links = create_match(
        operator, server, "zoom",
        {"rounds": "1", "targets_per_round": "3", "grid_height": "8", "grid_width": "8"},
    )  # fmt: skip
    assert set(links) == {"host", "seat alpha", "seat beta", "auditor", "spectator"}
    shot(operator, "match-list")
    requests: list[str] = []

    host = open_as(contexts, links["host"], "#start-round")
    alpha = open_as(contexts, links["seat alpha"], "#round-line")
    beta = open_as(contexts, links["seat beta"], "#round-line")
    watcher = open_as(contexts, links["spectator"], "#round-line", width=390)
    for page in (host, alpha, beta, watcher):
        page.on("request", lambda request: requests.append(request.url))
    assert host.inner_text("#acting") == "Acting as: host"
    assert alpha.inner_text("#acting") == "Acting as: seat alpha"
    assert watcher.inner_text("#acting") == "Acting as: spectator"

    with host.expect_response(lambda r: r.url.endswith("/commands")):
        host.click("#start-round")
    for page in (alpha, beta, watcher):
        page.wait_for_selector("#grid", timeout=LIVE_MS)
    answer = host_state(server, links)["state"]["round"]
    grid, targets = answer["grid"], answer["targets"]

    missed = buzz(alpha, [("A", wrong_cell(grid, targets["A"]))])
    assert "A at" in missed and "incorrect" in missed
    alpha.wait_for_selector(".target.locked[data-target=A]")
    watcher.wait_for_selector("#lockouts li:has-text('alpha locked out of A')", timeout=LIVE_MS)

    assert "correct" in buzz(beta, [("B", find_target(grid, targets["B"]))])
    alpha.wait_for_selector("#grid .outline:has-text('B · beta')", timeout=LIVE_MS)
    assert "found by beta" in alpha.inner_text(".target[data-target=B]")
    shot(alpha, "zoom-seat")

    both = [("A", find_target(grid, targets["A"])), ("C", find_target(grid, targets["C"]))]
    assert buzz(alpha, both).count(": correct") == 2
    for page in (host, alpha, beta, watcher):
        page.wait_for_selector("#result:has-text('alpha wins (points)')", timeout=LIVE_MS)
    assert points(watcher, "alpha") == "2" and points(watcher, "beta") == "1"
    assert host.query_selector("#start-round") is None  # the only round is over
    shot(watcher, "zoom-spectator-phone")

    the_past_shows_the_lockout(server, links, watcher)
    a_void_changes_the_score(server, links, host, watcher)
    closed_and_audited(host, links, contexts)
    tokens = [token_of(link) for role, link in links.items() if role != "spectator"]
    assert not [url for url in requests if any(token in url for token in tokens)]
    for page in (host, alpha, beta, watcher):
        assert page.errors == []


def _buzzes(server: str, links: dict[str, str]) -> list[dict[str, Any]]:
    buzzes: list[dict[str, Any]] = host_state(server, links)["state"]["buzzes"]
    return buzzes


def the_past_shows_the_lockout(server: str, links: dict[str, str], page: Any) -> None:
    page.fill("#at-slider", "0")  # the slider's start: the match as created
    page.wait_for_selector("#round-line:has-text('Next: round 1 of 1')")
    assert page.query_selector("#grid") is None and points(page, "alpha") == "0"
    buzzes = sorted(_buzzes(server, links), key=lambda b: b["seq"])
    at = next(i for i, b in enumerate(buzzes) if b["pairs"][0]["outcome"] == "incorrect")
    miss, then = (datetime.fromisoformat(b["when"]) for b in buzzes[at : at + 2])
    moment = miss + (then - miss) / 2  # after the miss, before beta's find releases the lockout
    page.fill("#at-input", moment.isoformat())
    page.click("#at-go")
    page.wait_for_selector(".past")
    page.wait_for_selector("#lockouts li:has-text('alpha locked out of A')")
    assert page.query_selector("#result") is None
    assert points(page, "beta") == "0"
    page.click("#at-live")
    page.wait_for_selector("#result")


def a_void_changes_the_score(server: str, links: dict[str, str], host: Any, page: Any) -> None:
    found = next(b for b in _buzzes(server, links) if b["seat"] == "beta")
    host.click(f"#event-list tr[data-seq='{found['seq']}'] button.rule")
    host.select_option("#ruling-type", "void")
    host.fill("#ruling-reason", "beta's post came after the round closed in chat")
    host.click("form.ruling button[type=submit]")
    wait_points(page, "beta", "0")
    host.wait_for_selector(f"#event-list tr.voided[data-seq='{found['seq']}']")
    shot(host, "host-console")

    ruling_seq = host_state(server, links)["last_seq"]
    page.select_option("#ruling-pick", str(ruling_seq))
    page.wait_for_selector("#changes li:has-text('state.scores.beta')")
    page.wait_for_selector("#scores [data-seat=beta].changed")
    page.check("#side-before")
    wait_points(page, "beta", "1")
    page.check("#side-after")
    wait_points(page, "beta", "0")
    shot(page, "time-travel")
    page.click("#at-live")


def closed_and_audited(host: Any, links: dict[str, str], contexts: Any) -> None:
    host.on("dialog", lambda dialog: dialog.accept())
    host.click("#close-match")
    host.wait_for_selector(".closed")
    auditor = open_as(contexts, links["auditor"], "#verify-summary")
    assert "the record verifies" in auditor.inner_text("#verify-summary")
    auditor.wait_for_selector("#secrets li:has-text('match.seeded')")
    assert "✔ verified" in auditor.inner_text("#secrets")
    assert "✘" not in auditor.inner_text("#verify-checks")
    with auditor.expect_download() as download:
        auditor.click("#export")
    with open(download.value.path(), encoding="utf-8") as record:
        first = record.readline()
    assert '"adjudicator-match/1"' in first and match_id_of(links["auditor"]) in first
    shot(auditor, "auditor")


def test_the_host_enters_a_buzz_with_the_chat_posts_time_by_keyboard(
    server: str, contexts: Any
) -> None:
    operator = contexts()
    fields = {"rounds": "1", "grid_height": "8", "grid_width": "8"}
    links = create_match(operator, server, "zoom", fields)
    host = open_as(contexts, links["host"], "#start-round")
    host.click("#start-round")
    host.wait_for_selector("#grid")
    started = datetime.fromisoformat(host_state(server, links)["state"]["round"]["started_at"])
    posted = started + timedelta(milliseconds=500)

    host.select_option("#buzz-seat", "beta")
    host.fill("#buzz-time", posted.isoformat().replace("+00:00", "Z"))
    host.focus(".target[data-target=A]")
    host.keyboard.press("Enter")
    host.focus("#grid .cell[tabindex='0']")
    for key in ("ArrowRight", "ArrowDown", "Enter"):
        host.keyboard.press(key)
    assert host.inner_text("#pairs") == "A at b2"
    time.sleep(max(0.0, (posted - datetime.now(UTC)).total_seconds()) + 0.05)  # never ahead
    host.click("#buzz")
    host.wait_for_selector("#buzz-outcome:has-text('A at b2'), main .error:not([hidden])")
    assert host.inner_text("#buzz-outcome").startswith("A at b2"), host.inner_text("main .error")
    host.wait_for_selector("#buzz-list li:has-text('beta (round 1): A b2')")
    entered = host_state(server, links)["state"]["buzzes"][0]
    assert entered["seat"] == "beta" and datetime.fromisoformat(entered["when"]) == posted
    assert host.errors == []
    the_list_filters(operator, match_id_of(links["host"]))


def the_list_filters(page: Any, match_id: str) -> None:
    page.reload()
    row = f"#matches tr[data-match='{match_id}']"
    page.wait_for_selector(row)
    page.select_option("#filter-status", "closed")
    page.wait_for_selector(row, state="detached")
    page.select_option("#filter-status", "open")
    page.select_option("#filter-game", "zoom")
    page.wait_for_selector(row)
    page.wait_for_function(  # the filtered list has replaced the whole one
        "() => [...document.querySelectorAll('#matches tbody td:first-child')]"
        ".every(cell => cell.innerText === 'Zoom')"
    )
    games = {c.inner_text() for c in page.query_selector_all("#matches tbody td:first-child")}
    assert games == {"Zoom"}  # the game's name in words (issue 26)


OVERLAPS = """async () => {
  const { gridView, outline } = await import("/console/static/zoomgrid.js");
  const grid = gridView(["RGBK", "KBGR", "RGBK", "KBGR"], { id: "probe" });
  document.querySelector("main").replaceChildren(grid);
  const boxes = [outline(grid, 0, 1, 2, 2, "A · alpha"), outline(grid, 2, 0, 2, 2, "B · beta")];
  const rect = (node) => node.getBoundingClientRect();
  const meet = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  const heads = [...grid.querySelectorAll(".colhead")].map(rect);
  return boxes.map((box) => {
    const caption = rect(box.querySelector(".caption"));
    const covers = heads.some((head) => meet(caption, head));
    return { covers, above: caption.bottom <= rect(box).top };
  });
}"""


def test_a_found_target_s_caption_never_covers_the_column_letters(
    server: str, contexts: Any
) -> None:
    page = contexts()
    page.goto(server)
    page.wait_for_selector("main")
    first_row, lower = page.evaluate(OVERLAPS)
    assert first_row == {"covers": False, "above": False}  # below its box
    assert lower == {"covers": False, "above": True}
    assert page.errors == []
