"""The tournament page in Chromium: a 4-player Zoom round robin created through the API, opened
by its organizer, who pairs round 1; a board's match followed from its link and played to its
end by clicks as the two seats, closed by its host; the organizer's page (never reloaded) shows
the winner's point within a few polls; errors beside the organizer's controls, a forfeit, a
withdrawal, the record-time control, the audit badge, and the page at a phone's width."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from api.http.app import create_app
from api.service.settings import Settings
from api.service.tournaments import ORGANIZER
from events import EventStore, NewEvent
from events.tournaments import TournamentStore
from projections.tournaments import FORFEIT
from tests.browser.conftest import OPERATOR, serving, shot
from tests.browser.console import find_target, host_state, open_as
from tests.browser.test_phone_width import PHONE, assert_fits

LIVE_MS = 6000  # the page polls the standings every 2 s
PLAYERS = ["Ann", "Bob", "Cleo", "Dev"]
CONFIG = {"rounds": 1, "targets_per_round": 1, "grid_height": 6, "grid_width": 6}


def create_tournament(base: str) -> dict[str, Any]:
    body = {
        "name": "Console Cup",
        "game": "zoom",
        "format": "round_robin",
        "tiebreaks": ["sonneborn_berger", "buchholz"],
        "players": [{"name": n} for n in PLAYERS],
        "config": CONFIG,
    }
    headers = {"Authorization": f"Bearer {OPERATOR}"}
    response = httpx.post(f"{base}/tournaments", json=body, headers=headers)
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def points(page: Any, player: str) -> str:
    text: str = page.inner_text(f"#standings-table tr[data-player={player}] td.points")
    return text


def wait_points(page: Any, player: str, value: str, timeout: int = LIVE_MS) -> None:
    selector = f"#standings-table tr[data-player={player}] td.points"
    page.wait_for_function(
        f"document.querySelector('{selector}')?.textContent === '{value}'", timeout=timeout
    )


def local_input(page: Any, iso: str) -> str:
    """``iso`` as a datetime-local input's value in the browser's own zone."""
    value: str = page.evaluate(
        """(iso) => { const d = new Date(iso); const p = (n) => String(n).padStart(2, "0");
        return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}T` +
               `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`; }""",
        iso,
    )
    return value


@pytest.mark.slow
def test_a_round_paired_played_by_clicks_moves_the_standings_live(
    server: str, contexts: Any
) -> None:
    made = create_tournament(server)
    tid, names = made["tournament_id"], {p["id"]: p["name"] for p in made["players"]}
    page_url = f"{server}/console/tournaments/{tid}"

    start = contexts()  # the start page links the tournament
    start.goto(f"{server}/")
    start.click(f"#tournaments li[data-tournament='{tid}'] a")
    start.wait_for_selector("#tournament-name:has-text('Console Cup')")
    assert start.inner_text("#acting") == "Acting as: visitor (spectator)"
    assert start.query_selector("#pair-round") is None  # no organizer's controls without the token

    organizer = contexts()
    organizer.goto(f"{page_url}#token={made['organizer_token']}")
    organizer.wait_for_selector("#pair-round")
    assert "token" not in organizer.url  # the fragment is cleared once kept
    assert organizer.inner_text("#acting") == "Acting as: organizer"
    assert organizer.inner_text("#tournament-game") == "Zoom"
    assert organizer.inner_text("#tournament-format") == "round robin"
    heads = organizer.locator("#standings-table thead th").all_inner_texts()
    assert heads == ["Rank", "Player", "Points", "Sonneborn-Berger", "Buchholz", "Wins"]
    organizer.wait_for_selector("#audit-badge:has-text('verified')")
    organizer.evaluate("window.notReloaded = true")

    organizer.click("#pair-round")
    organizer.wait_for_selector("#rounds .round[data-round='1'] tr[data-board='2']")
    board = organizer.locator("#rounds .round[data-round='1'] tr[data-board='1']")
    first, second = (board.locator(f"td.{s}").inner_text() for s in ("first", "second"))
    first_id = next(p for p, n in names.items() if n == first)
    second_id = next(p for p, n in names.items() if n == second)
    links = {
        a.get_attribute("data-role"): server + a.get_attribute("href")
        for a in board.locator(".role-links a").element_handles()
    }
    assert set(links) == {"host", "alpha", "beta", "auditor"}
    assert board.locator("td.result-cell").inner_text() == "in play"
    assert organizer.locator("#crosstable tbody tr").count() == 4

    # a spectator follows the pairing's link from the tournament page to its match
    start.wait_for_selector("#rounds tr[data-board='1'] a.watch", timeout=LIVE_MS)
    start.click("#rounds tr[data-board='1'] a.watch")
    start.wait_for_selector("#round-line")
    assert "/console/matches/" in start.url

    play_board(server, links, contexts)

    wait_points(organizer, first_id, "1")  # polled: the organizer's page was never reloaded
    assert organizer.evaluate("window.notReloaded") is True
    assert points(organizer, second_id) == "0"
    assert organizer.inner_text(f"#standings-table tr[data-player={first_id}] td.rank") == "1"
    assert organizer.inner_text(f"#standings-table tr[data-player={first_id}] td.wins") == "1"
    assert board.locator("td.result-cell").inner_text().startswith(f"{first} wins")
    row = f"#crosstable tr[data-player={first_id}] td[data-opponent={second_id}]"
    assert organizer.inner_text(row) == "1"
    organizer.wait_for_selector("#audit-badge.ok:has-text('verified')")
    assert (organizer.get_attribute("#audit-badge", "title") or "").startswith("verify began ")

    start.go_back()  # back on the tournament page the spectator came from
    start.wait_for_selector("#standings-table")
    wait_points(start, first_id, "1")

    organizer_controls(organizer, names)
    record_time(organizer, server, tid, first_id)
    shot(organizer, "tournament-organizer")

    phone = contexts(width=PHONE, height=780)
    phone.goto(page_url)
    phone.wait_for_selector("#rounds .round[data-round='2']")
    phone.wait_for_selector("#audit-badge.ok")
    assert_fits(phone, "tournament page")
    shot(phone, "tournament-phone")
    for page in (start, organizer, phone):
        assert page.errors == []


def play_board(server: str, links: dict[str, str], contexts: Any) -> None:
    """Board 1's match played to its end by clicks: the first seat finds the only target, then
    its host closes the match."""
    host = open_as(contexts, links["host"], "#start-round")
    alpha = open_as(contexts, links["alpha"], "#round-line")
    beta = open_as(contexts, links["beta"], "#round-line")
    host.click("#start-round")
    alpha.wait_for_selector("#grid", timeout=LIVE_MS)
    answer = host_state(server, links)["state"]["round"]
    cell = find_target(answer["grid"], answer["targets"]["A"])
    alpha.click(".target[data-target=A]")
    alpha.click(f"#grid [data-cell={cell}]")
    alpha.click("#buzz")
    for page in (host, alpha, beta):
        page.wait_for_selector("#result:has-text('(alpha) wins')", timeout=LIVE_MS)  # "Ann (alpha)"
    host.on("dialog", lambda dialog: dialog.accept())
    host.click("#close-match")
    host.wait_for_selector(".closed")
    for page in (host, alpha, beta):
        assert page.errors == []


def organizer_controls(page: Any, names: dict[str, str]) -> None:
    """Pairing early is refused beside the button; a forfeit decides board 2; round 2 pairs;
    a withdrawal is shown in the standings."""
    page.click("#pair-round")
    page.wait_for_selector("#pair-error:has-text('round_not_finished')")
    assert page.query_selector("#rounds .round[data-round='2']") is None

    page.select_option("#forfeit-board", "1/2")
    winner = page.locator("#forfeit-winner option").first.get_attribute("value")
    page.select_option("#forfeit-winner", winner)
    page.fill("#forfeit-reason", "did not show up")
    page.click("#forfeit-submit")
    cell = "#rounds .round[data-round='1'] tr[data-board='2'] td.result-cell"
    page.wait_for_selector(f"{cell}:has-text('{names[winner]} wins by forfeit')")
    assert "did not show up" in page.inner_text(cell)
    wait_points(page, winner, "1")

    page.click("#pair-round")
    page.wait_for_selector("#rounds .round[data-round='2'] tr[data-board='2'] .role-links")
    assert page.locator("#pair-error").is_hidden()

    page.select_option("#forfeit-board", "2/1")
    page.fill("#forfeit-reason", "x")
    page.select_option("#forfeit-winner", "")
    page.click("#forfeit-submit")
    page.wait_for_selector(
        "#rounds .round[data-round='2'] tr[data-board='1'] td:has-text('double forfeit')"
    )
    page.select_option("#forfeit-board", "2/2")
    page.fill("#forfeit-reason", "")
    page.click("#forfeit-submit")  # the browser asks for a reason: nothing is sent
    assert page.locator("#forfeit-error").is_hidden()

    player = next(iter(names))
    page.select_option("#withdraw-player", player)
    page.fill("#withdraw-reason", "ill")
    page.click("#withdraw-submit")
    page.wait_for_selector(f"#standings-table tr.withdrawn[data-player={player}]")
    assert player not in page.locator("#withdraw-player option").evaluate_all(
        "(options) => options.map((o) => o.value)"
    )


def record_time(page: Any, server: str, tid: str, winner: str) -> None:
    """As known just after round 1 was paired (before any result), nobody had a point; back to
    live, the winner's point is there again."""
    summary = httpx.get(f"{server}/tournaments/{tid}").json()
    paired = datetime.fromisoformat(summary["rounds"][0]["recorded_at"])
    then = (paired.replace(microsecond=0) + timedelta(seconds=1)).isoformat()
    page.fill("#t-known", local_input(page, then))
    page.click("#t-go")
    page.wait_for_selector("#past .past")
    wait_points(page, winner, "0")
    assert page.locator("#rounds .round[data-round='2']").count() == 0
    assert page.get_attribute("#live-status", "data-status") == "past"
    page.click("#t-live")
    wait_points(page, winner, "1")
    assert page.locator("#past").is_hidden()
    page.fill("#t-at", local_input(page, then))  # game time: the results as they stood then
    page.click("#t-go")
    page.wait_for_selector("#past .past:has-text('game time')")
    wait_points(page, winner, "0")
    page.fill("#t-at", "")
    page.click("#t-go")
    wait_points(page, winner, "1")
    assert page.get_attribute("#live-status", "data-status") == "live"


def test_the_tournament_list_and_the_page_shell(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path}/t.sqlite3", operator_token=OPERATOR)
    client = TestClient(create_app(settings))
    assert client.get("/tournaments").json() == []
    body = {"name": "Cup", "game": "zombego", "format": "swiss", "rounds": 3,
            "players": [{"name": n} for n in PLAYERS]}  # fmt: skip
    auth = {"Authorization": f"Bearer {OPERATOR}"}
    ids = [
        client.post("/tournaments", json=body, headers=auth).json()["tournament_id"] for _ in "ab"
    ]
    listed = client.get("/tournaments").json()
    assert [t["tournament_id"] for t in listed] == ids[::-1]  # newest first
    assert listed[0]["name"] == "Cup" and listed[0]["game"] == "zombego"
    second = client.get("/tournaments", params={"limit": 1, "offset": 1}).json()
    assert [t["tournament_id"] for t in second] == ids[:1]
    assert client.get("/tournaments?limit=0").json()["code"] == "invalid_request"
    shell = client.get(f"/console/tournaments/{ids[0]}")
    assert shell.status_code == 200 and "/console/static/app.js" in shell.text


IN_PLAY = "in play"


@pytest.mark.slow
def knockout_round_one(
    server: str, winners: list[str | None]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A 4-player Zoom knockout, its round 1 paired and each board's result declared by its
    host (``winners``: the seat that won each board, None a draw, ``IN_PLAY`` none yet): the
    creation's answer and the round's."""
    headers = {"Authorization": f"Bearer {OPERATOR}"}
    body = {
        "name": "Knockout",
        "game": "zoom",
        "format": "single_elimination",
        "players": [{"name": n} for n in PLAYERS],
        "config": CONFIG,
    }
    made: dict[str, Any] = httpx.post(f"{server}/tournaments", json=body, headers=headers).json()
    organizer = {"Authorization": f"Bearer {made['organizer_token']}"}
    url = f"{server}/tournaments/{made['tournament_id']}/rounds"
    paired: dict[str, Any] = httpx.post(url, headers=organizer).json()
    for board, winner in zip(paired["pairings"], winners, strict=True):
        if winner == IN_PLAY:
            continue
        ruling = {"type": "declare_result", "winner": winner, "reason": "played in the channel"}
        host = {"Authorization": f"Bearer {board['tokens']['host']}"}
        url = f"{server}/matches/{board['match_id']}/rulings"
        assert httpx.post(url, json=ruling, headers=host).status_code == 201
    return made, paired


def test_a_bracket_an_unknown_tournament_and_a_wrong_token(server: str, contexts: Any) -> None:
    """A single elimination's bracket: the winners of round 1 marked, then paired into the
    final; an unknown id says so; a token that is not the organizer's is refused beside the
    button."""
    made, paired = knockout_round_one(server, ["alpha", "alpha"])
    tid, organizer = made["tournament_id"], {"Authorization": f"Bearer {made['organizer_token']}"}

    page = contexts()
    page.goto(f"{server}/console/tournaments/{tid}#token=org_not_this_one")
    page.wait_for_selector("#bracket .bracket-match")
    assert page.inner_text("#tournament-format") == "single elimination"
    assert page.query_selector("#crosstable") is None
    names = {p["id"]: p["name"] for p in made["players"]}
    winners = page.locator("#bracket .slot.won").all_inner_texts()
    assert sorted(winners) == sorted(names[b["first"]] for b in paired["pairings"])
    page.click("#pair-round")
    page.wait_for_selector("#pair-error:has-text('not_organizer')")
    assert "refused" in page.inner_text("#acting")
    assert page.query_selector("#rounds .round[data-round='2']") is None

    httpx.post(f"{server}/tournaments/{tid}/rounds", headers=organizer)
    page.wait_for_selector("#rounds .round[data-round='2']", timeout=LIVE_MS)
    page.wait_for_selector("#bracket [data-round='2'] .slot:has-text('Ann')")
    shot(page, "tournament-bracket")

    page.goto(f"{server}/console/tournaments/no-such-tournament")
    page.wait_for_selector("#tournament-error:has-text('unknown_tournament')")
    assert page.errors == []


def test_a_drawn_knockout_board_says_it_needs_a_winner(server: str, contexts: Any) -> None:
    """A knockout match whose host ruled a draw: its board says it needs a winner (not "in
    play"), and pairing the next round is refused beside the button, naming the board."""
    made, _ = knockout_round_one(server, [None, "alpha"])  # board 1 drawn
    tid, token = made["tournament_id"], made["organizer_token"]
    page = contexts()
    page.goto(f"{server}/console/tournaments/{tid}#token={token}")
    page.wait_for_selector("#rounds .result-cell:has-text('needs a winner')")
    assert page.locator("#rounds .result-cell:has-text('in play')").count() == 0
    page.click("#pair-round")
    page.wait_for_selector("#pair-error:has-text('round_not_finished')")
    assert "board 1" in page.inner_text("#pair-error")
    assert page.errors == []


def test_a_knockout_forfeit_naming_no_winner_says_so_not_drawn(
    tmp_path: Path, contexts: Any
) -> None:
    """A forfeit naming no winner on a knockout board, as an earlier version recorded it: the
    board says it was forfeited without a winner and needs one (not that its match was
    drawn), the organizer's reason beside it."""
    database = tmp_path / "legacy.sqlite3"
    with serving(database) as base:
        made, _ = knockout_round_one(base, [IN_PLAY, "alpha"])  # board 1's match not ended
        tid, token = made["tournament_id"], made["organizer_token"]
        store = EventStore.from_url(f"sqlite:///{database}")
        try:
            tournaments = TournamentStore(store)
            payload = {"round": 1, "board": 1, "winner": None, "reason": "both late"}
            legacy = NewEvent(FORFEIT, ORGANIZER, datetime.now(UTC), payload)
            tournaments.append(tid, tournaments.get(tid).last_seq, [legacy])
        finally:
            store.dispose()
        page = contexts()
        page.goto(f"{base}/console/tournaments/{tid}#token={token}")
        cell = "#rounds .round[data-round='1'] tr[data-board='1'] .result-cell"
        page.wait_for_selector(f"{cell}:has-text('needs a winner')")
        assert page.inner_text(cell).startswith("forfeited naming no winner: needs a winner")
        assert "both late" in page.inner_text(cell)
        assert page.errors == []


@pytest.mark.slow
def test_the_organizer_ends_an_event_early_by_the_form(server: str, contexts: Any) -> None:
    """A 4-player round robin with round 1 played: ending it is refused while round 2 is
    unfinished (the API's code beside the form), then, after round 2's results, the form ends
    it: the page says finished, names the leader and the organizer's reason."""
    made = create_tournament(server)
    tid, token = made["tournament_id"], made["organizer_token"]
    organizer = {"Authorization": f"Bearer {token}"}

    def pair_and_declare(declare: bool) -> None:
        paired = httpx.post(f"{server}/tournaments/{tid}/rounds", headers=organizer).json()
        for board in paired["pairings"] if declare else []:
            ruling = {"type": "declare_result", "winner": "alpha", "reason": "played"}
            host = {"Authorization": f"Bearer {board['tokens']['host']}"}
            url = f"{server}/matches/{board['match_id']}/rulings"
            assert httpx.post(url, json=ruling, headers=host).status_code == 201

    pair_and_declare(True)
    pair_and_declare(False)  # round 2 paired, not played
    page = contexts()
    page.goto(f"{server}/console/tournaments/{tid}#token={token}")
    page.wait_for_selector("#conclude-form")
    page.fill("#conclude-reason", "the venue closed")
    page.click("#conclude-submit")
    page.wait_for_selector("#conclude-error:has-text('round_not_finished')")
    assert page.query_selector("#champion") is None
    summary = httpx.get(f"{server}/tournaments/{tid}/standings").json()
    for board in summary["rounds"][1]["pairings"]:
        if board["match_id"]:
            body = {"round": 2, "board": board["board"], "winner": None, "reason": "no time"}
            forfeit = httpx.post(f"{server}/tournaments/{tid}/forfeits", json=body,
                                 headers=organizer)  # fmt: skip
            assert forfeit.status_code == 201, forfeit.text
    page.click("#conclude-submit")
    page.wait_for_selector("#champion:has-text('Finished')", timeout=LIVE_MS)
    assert "ended early: the venue closed" in page.inner_text("#champion")
    leader = httpx.get(f"{server}/tournaments/{tid}/standings").json()["rows"][0]["name"]
    assert leader in page.inner_text("#champion")
    assert page.errors == []


@pytest.mark.slow
def test_the_organizer_seals_a_finished_event_by_the_form(server: str, contexts: Any) -> None:
    """A 3-player round robin: the seal is disabled while rounds are left, and before the first
    standings arrive (it was enabled until then: a race CI once lost); once every round has
    its results, the form seals it: the page says sealed with the reason, every organizer's
    control is disabled, the audit badge verifies, and every match is closed."""
    body = {"name": "Seal Cup", "game": "zoom", "format": "round_robin",
            "players": [{"name": n} for n in PLAYERS[:3]], "config": CONFIG}  # fmt: skip
    made = httpx.post(f"{server}/tournaments", json=body,
                      headers={"Authorization": f"Bearer {OPERATOR}"}).json()  # fmt: skip
    tid, token = made["tournament_id"], made["organizer_token"]
    organizer = {"Authorization": f"Bearer {token}"}
    page = contexts()
    held: list[Any] = []  # the page's first standings request, held until the seal is seen
    # (a lambda: Playwright takes no builtin method as a handler)
    page.route("**/standings*", lambda route: held.append(route))  # noqa: PLW0108
    page.goto(f"{server}/console/tournaments/{tid}#token={token}")
    page.wait_for_selector("#seal-form")
    while not held:
        page.wait_for_timeout(20)
    assert page.is_disabled("#seal-submit")  # no standings yet
    for route in held:
        route.continue_()
    page.unroute("**/standings*")
    page.wait_for_selector("#standings-table")
    assert page.is_disabled("#seal-submit")  # nothing played yet
    hosts = {}
    for _ in range(3):
        paired = httpx.post(f"{server}/tournaments/{tid}/rounds", headers=organizer).json()
        for board in paired["pairings"]:
            if board["match_id"]:
                host = {"Authorization": f"Bearer {board['tokens']['host']}"}
                hosts[board["match_id"]] = host
                ruling = {"type": "declare_result", "winner": "alpha", "reason": "played"}
                url = f"{server}/matches/{board['match_id']}/rulings"
                assert httpx.post(url, json=ruling, headers=host).status_code == 201
    page.wait_for_selector("#champion:has-text('Finished')", timeout=LIVE_MS)
    page.wait_for_function("!document.getElementById('seal-submit').disabled", timeout=LIVE_MS)
    page.fill("#seal-reason", "results checked")
    page.click("#seal-submit")
    page.wait_for_selector("#sealed:has-text('results checked')", timeout=LIVE_MS)
    page.wait_for_selector("#organizer-finished:has-text('sealed')")
    for control in ("#pair-round", "#forfeit-submit", "#withdraw-submit", "#conclude-submit",
                    "#seal-submit"):  # fmt: skip
        assert page.is_disabled(control), control
    page.wait_for_selector("#audit-badge.ok:has-text('sealed in the transparency log')",
                           timeout=LIVE_MS)  # fmt: skip
    for match_id, host in hosts.items():
        match = httpx.get(f"{server}/matches/{match_id}", headers=host).json()
        assert match["status"] == "closed", match_id
    page.goto(f"{server}/")  # the start page's list says so too
    page.wait_for_selector(f"li[data-tournament='{tid}'] .sealed")
    assert page.errors == []


def test_a_finished_knockout_says_in_words_what_changed_and_locks_the_organizer_s_acts(
    server: str, contexts: Any
) -> None:
    """A 4-player knockout played to its champion, then a round-1 result changed by its host:
    the note on the final, paired on the old result, names the board, its players and both
    results in words (not the answer's JSON), and the organizer's acts, which the API would
    refuse, are disabled with a note saying why."""
    made, first = knockout_round_one(server, ["alpha", "alpha"])
    tid, token = made["tournament_id"], made["organizer_token"]
    organizer = {"Authorization": f"Bearer {token}"}
    final = httpx.post(f"{server}/tournaments/{tid}/rounds", headers=organizer).json()
    [board] = final["pairings"]
    for match, winner in ((board, "alpha"), (first["pairings"][0], "beta")):
        ruling = {"type": "declare_result", "winner": winner, "reason": "as ruled"}
        host = {"Authorization": f"Bearer {match['tokens']['host']}"}
        url = f"{server}/matches/{match['match_id']}/rulings"
        assert httpx.post(url, json=ruling, headers=host).status_code == 201
    names = {p["id"]: p["name"] for p in made["players"]}
    one = first["pairings"][0]
    first_name, second_name = names[one["first"]], names[one["second"]]

    page = contexts()
    page.goto(f"{server}/console/tournaments/{tid}#token={token}")
    page.wait_for_selector("#stale-pairings li[data-round='2']")
    note = page.inner_text("#stale-pairings li[data-round='2']")
    assert note == (
        f"Round 2 was paired when round 1, board 1 ({first_name} \u2013 {second_name}) stood at"
        f" {first_name} wins (0\u20130); it is now {second_name} wins (0\u20130)."
    )  # a points game: the game points as the rounds' table gives them (declared: 0-0)
    assert "{" not in page.inner_text("#stale-pairings")
    page.wait_for_selector("#organizer-finished:not([hidden])")
    for control in ("#pair-round", "#forfeit-submit", "#withdraw-submit", "#conclude-submit"):
        assert page.is_disabled(control), control
    assert page.errors == []


def test_a_tournament_s_match_page_names_its_players_and_links_the_tournament(
    server: str, contexts: Any
) -> None:
    """A knockout board's match page: the title names the two players with their seats (the
    pairing's first in the first seat), and a line links the tournament's page with the round
    and board; a match created on its own keeps its seats' names and has no such line."""
    made, paired = knockout_round_one(server, ["alpha", "beta"])
    names = {p["id"]: p["name"] for p in made["players"]}
    board = paired["pairings"][1]
    page = contexts()
    page.goto(f"{server}/console/matches/{board['match_id']}#role=spectator")
    page.wait_for_selector("#paired-by")
    first = page.inner_text(".match-title .seat-name[data-seat='alpha']")
    second = page.inner_text(".match-title .seat-name[data-seat='beta']")
    assert (first, second) == (
        f"{names[board['first']]} (alpha)",
        f"{names[board['second']]} (beta)",
    )
    assert page.inner_text("#paired-by") == "Knockout \u00b7 round 1, board 2"
    page.wait_for_selector("#result")
    assert page.inner_text("#result").startswith(f"Result: {names[board['second']]} (beta) wins")
    page.click("#paired-by a")
    page.wait_for_selector("#tournament-name:has-text('Knockout')")
    assert page.url == f"{server}/console/tournaments/{made['tournament_id']}"

    headers = {"Authorization": f"Bearer {OPERATOR}"}
    body = {"game": "zoom", "seats": ["alpha", "beta"], "config": CONFIG}
    alone = httpx.post(f"{server}/matches", json=body, headers=headers).json()["match_id"]
    page.goto(f"{server}/console/matches/{alone}#role=spectator")
    page.wait_for_selector(".match-title .seat-name[data-seat='beta']")
    assert page.inner_text(".match-title") == "Zoom: alpha vs beta"
    assert page.query_selector("#paired-by") is None
    assert page.errors == []


def test_the_match_list_names_a_tournament_s_players_and_finds_them(
    server: str, contexts: Any
) -> None:
    """The start page's list: a tournament's match shows its players by seat, the winner by
    name, and a link to its tournament with the round and board; the search finds it by a
    player's name."""
    made, paired = knockout_round_one(server, ["alpha", "beta"])
    names = {p["id"]: p["name"] for p in made["players"]}
    board = paired["pairings"][1]
    page = contexts()
    page.goto(f"{server}/")
    row = f"#matches tr[data-match='{board['match_id']}']"
    page.wait_for_selector(f"{row} .paired")
    seats = page.inner_text(f"{row} td.seats").splitlines()
    assert seats == [
        f"{names[board['first']]} vs {names[board['second']]}",
        "Knockout, round 1, board 2",
    ]
    page.wait_for_selector(f"{row} .result-cell:has-text('wins')")
    assert page.inner_text(f"{row} .result-cell").startswith(f"{names[board['second']]} wins")
    href = page.get_attribute(f"{row} .paired a", "href")
    assert href == f"/console/tournaments/{made['tournament_id']}"
    page.fill("#match-search", names[board["second"]].lower())  # other tests' Knockouts too
    page.wait_for_function(
        "[...document.querySelectorAll('#matches tbody td.seats')].every((td) =>"
        f" td.textContent.includes({names[board['second']]!r}))",
        timeout=LIVE_MS,
    )
    assert page.locator(row).count() == 1
    assert page.errors == []
