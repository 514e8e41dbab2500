"""The host's screens in words (issue 26, item 3), as a host meets them: the event list as
sentences with each payload on request, a form per ruling type with its errors said in it, a
seed beyond 2^53 kept exact, the create form's editors (No, Not That!'s rounds, Zoom's pasted
grids, Advantage only for Zoom) and the match list's date, short id and search."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest

from adjudicator.games.no_not_that.events import EVENTS as NNT_EVENTS
from adjudicator.games.zombego.events import EVENTS as ZOMBEGO_EVENTS
from adjudicator.games.zoom.events import EVENTS as ZOOM_EVENTS
from adjudicator.rulings import ALL as RULINGS
from tests.browser.conftest import OPERATOR, shot
from tests.browser.console import host_state, match_id_of, token_of

pytestmark = pytest.mark.slow

SEATS = ["alpha", "beta"]
GRID = ["ABCD", "EFGH", "IJKL", "MNOP"]
SUPPLIED = {"1": {"grid": GRID, "targets": {"A": ["FG", "JK"], "B": ["AB"]}}}
ZOOM = {"rounds": 1, "targets_per_round": 2, "grid_height": 4, "grid_width": 4,
        "target_height": 2, "target_width": 2, "supplied_rounds": SUPPLIED}  # fmt: skip
TIMES, EN_DASH = "\u00d7", "\u2013"  # as the page writes them
RAW = ("zoom.", "ruling.", "match.", "no_not_that", "no_legal_move", "seat:", "target_seq", "{")


class Match:
    """A match made over HTTP, with its host's link."""

    def __init__(self, base: str, game: str, config: dict[str, Any]) -> None:
        body = {"game": game, "seats": SEATS, "config": config}
        headers = {"Authorization": f"Bearer {OPERATOR}"}
        made = httpx.post(f"{base}/matches", json=body, headers=headers).json()
        self.base, self.id, self.tokens = base, made["match_id"], made["tokens"]

    def post(self, what: str, body: dict[str, Any], role: str = "host") -> dict[str, Any]:
        token = self.tokens["seats"][role] if role in SEATS else self.tokens[role]
        answer = httpx.post(
            f"{self.base}/matches/{self.id}/{what}", json=body,
            headers={"Authorization": f"Bearer {token}"},
        )  # fmt: skip
        assert answer.status_code == 201, answer.text
        data: dict[str, Any] = answer.json()
        return data

    def host_link(self) -> str:
        return f"{self.base}/console/matches/{self.id}#role=host&token={self.tokens['host']}"


def played_zoom(server: str) -> tuple[Match, int, int]:
    """A Zoom round with alpha's correct buzz and beta's wrong one; their seqs."""
    match = Match(server, "zoom", ZOOM)
    match.post("commands", {"type": "start_round"})
    right = match.post("commands", {"type": "buzz", "seat": "alpha",
                                    "pairs": [{"target": "A", "at": "b2"}]}, "alpha")  # fmt: skip
    wrong = match.post("commands", {"type": "buzz", "seat": "beta",
                                    "pairs": [{"target": "B", "at": "c3"}]}, "beta")  # fmt: skip
    return match, right["events"][0]["seq"], wrong["events"][0]["seq"]


def host_page(contexts: Any, match: Match) -> Any:
    page = contexts()
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(match.host_link())
    page.wait_for_selector("#event-list tbody tr")
    return page


def row(page: Any, seq: int) -> Any:
    return page.locator(f"#event-list tr[data-seq='{seq}']")


def test_the_event_list_reads_as_sentences_with_the_payload_on_request(
    server: str, contexts: Any
) -> None:
    match, right, wrong = played_zoom(server)
    pairs = [{"target": "B", "at": "d4"}]
    typo = match.post("commands", {"type": "buzz", "seat": "alpha", "pairs": pairs}, "alpha")
    typo_seq = typo["events"][0]["seq"]
    void = match.post(
        "rulings", {"type": "void", "target_seq": typo_seq, "reason": "typo in the grid"}
    )
    page = host_page(contexts, match)
    said = " ".join(row(page, right).inner_text().split())
    assert re.match(rf"#{right} \d\d:\d\d:\d\d alpha buzzed A at b2 — correct details", said), said
    assert "beta buzzed B at c3 — incorrect" in row(page, wrong).inner_text()
    assert "(voided) alpha buzzed B at d4" in row(page, typo_seq).inner_text()
    ruling = row(page, void["events"][0]["seq"]).inner_text()
    assert f"host voided #{typo_seq}: typo in the grid" in ruling
    assert f"host started round 1 (4{TIMES}4 grid, 2 targets)" in page.inner_text("#event-list")
    assert "match created: Zoom, alpha vs beta" in page.inner_text("#event-list")
    shown = page.inner_text("#event-list")
    assert not [raw for raw in RAW if raw in shown], shown  # no identifiers, no JSON

    details = row(page, right).get_by_text("details")
    details.click()
    payload = row(page, right).locator("pre").inner_text()
    assert json.loads(payload)["payload"] == {
        "seat": "alpha",
        "pairs": [{"target": "A", "at": "b2"}],
    }
    note = match.post("rulings", {"type": "note", "reason": "a new event redraws the list"})
    row(page, note["events"][0]["seq"]).wait_for()
    assert row(page, right).locator("details[open] pre").is_visible()  # still open
    shot(page, "host-event-list")
    assert page.errors == []


SAMPLES: dict[str, Any] = {
    "match.created": {"game": "no_not_that", "seats": SEATS, "advantage": None},
    "match.seeded": {"seed": 2**60 + 1},
    "match.closed": {"result": {"winner": "alpha", "reason": "no_legal_move"}},
    "zoom.round_started": {"round": 2, "grid": [["A"]], "targets": {"A": [["A"]]}},
    "zoom.buzzed": {"seat": "alpha", "pairs": [{"target": "A", "at": "c4"}]},
    "zoom.priority_declared": {"seat": "beta"},
    "nnt.round_started": {"round": 1},
    "nnt.acted": {"seat": "alpha", "round": 1, "step": 2, "action": "submit", "object": "7"},
    "nnt.revealed": {"round": 1, "step": 2, "actions": {"alpha": {"action": "pass"}}},
    "nnt.solved": {"seat": "alpha", "tokens": ["W", "H", "I", "Z"]},
    "nnt.solution_revealed": {"solutions": {"alpha": ["W", "H", "I", "Z"]}},
    "nnt.challenged": {"seat": "beta"},
    "nnt.accepted": {"seat": "beta"},
    "nnt.item_used": {"seat": "alpha", "item": "life_ring"},
    "nnt.exchanged": {"seat": "alpha", "times": 1},
    "nnt.category_judged": {"object": "7", "fits": False, "target_seq": 5},
    "nnt.prompt_judged": {"seat": "beta", "meets": True, "target_seq": 9},
    "zombego.placed": {"seat": "white", "slot": 0, "cell": "c1"},
    "zombego.zombie_placed": {"seat": "black", "slot": 1, "cell": "d6"},
    "zombego.moved": {"seat": "white", "from": "c1", "to": "c3"},
    "zombego.piece_dealt": {"seat": "white", "slot": 2, "value": 57},
    "zombego.zombie_revealed": {"seat": "black", "cell": "d6", "value": 2, "dealt_seq": 12},
    "ruling.void": {"target_seq": 5, "reason": "typo in the grid"},
    "ruling.undo": {"to_seq": 5, "reason": "restart the step"},
    "ruling.amend": {"target_seq": 4, "outcome": {"A": "correct"}, "reason": "the grid was wrong"},
    "ruling.adjust_score": {"seat": "beta", "delta": -2, "reason": "time penalty"},
    "ruling.end_round": {"reason": "the host ends it"},
    "ruling.declare_result": {"winner": None, "reason": "agreed"},
    "ruling.note": {"reason": "beta's connection dropped"},
}
EXPECTED = {
    "match.created": "match created: No, Not That!, alpha vs beta",
    "match.seeded": f"seeded with {2**60 + 1}",
    "match.closed": "host closed the match — alpha wins (no legal move)",
    "zoom.buzzed": "alpha buzzed A at c4",
    "nnt.exchanged": "alpha exchanged 1 point for 2 safety nets",
    "nnt.item_used": "alpha used Life Ring",
    "zombego.moved": f"white moved c1{EN_DASH}c3",
    "ruling.void": "host voided #5: typo in the grid",
    "ruling.adjust_score": "host took 2 points from beta: time penalty",
    "ruling.declare_result": "host declared a draw: agreed",
}


def test_every_event_type_of_the_three_games_and_every_ruling_has_a_sentence(
    server: str, contexts: Any
) -> None:
    types = {"match.created", "match.seeded", "match.closed"} | {f"ruling.{k}" for k in RULINGS}
    types |= ZOOM_EVENTS.names | NNT_EVENTS.names | ZOMBEGO_EVENTS.names
    assert types == set(SAMPLES)
    page = contexts()
    page.goto(f"{server}/")
    page.wait_for_selector("#matches")
    said: dict[str, str] = page.evaluate(
        """async (samples) => {
          const words = await import('/console/static/words.js');
          const out = {};
          for (const [type, payload] of Object.entries(samples)) {
            const p = type === 'match.seeded' ? { seed: BigInt(payload.seed) } : payload;
            out[type] = words.eventSentence({ seq: 9, type, actor: 'host', payload: p });
          }
          const sealed = { seq: 3, type: 'nnt.acted', actor: 'seat:alpha', payload: null };
          out.sealed = words.eventSentence(sealed);
          out.listed = words.DESCRIBED_TYPES;
          return out;
        }""",
        {k: ({"seed": str(v["seed"])} if k == "match.seeded" else v) for k, v in SAMPLES.items()},
    )
    assert set(said.pop("listed")) == types
    assert said.pop("sealed") == "alpha acted (sealed until the step is revealed)"
    for event_type, sentence in said.items():
        assert not any(raw in sentence for raw in (*RAW, "_")), (event_type, sentence)
        assert sentence.split(":")[0] != "host", (event_type, sentence)  # not the fallback
    for event_type, sentence in EXPECTED.items():
        assert said[event_type] == sentence


def test_each_ruling_type_has_its_own_form_and_its_errors_are_said_there(
    server: str, contexts: Any
) -> None:
    match, right, _ = played_zoom(server)
    page = host_page(contexts, match)
    page.get_by_role("button", name="Record a ruling…").click()
    form = page.locator("form.ruling")
    kinds = {
        "Void an event": ["Event to void"],
        "Amend an outcome": ["Event to amend", "Outcome as sent (JSON)"],
        "Adjust a score": ["Seat", "Points (negative takes away)", "Game time (empty: now)"],
        "Undo back to an event": ["Keep everything up to"],
        "End the round": ["Game time (empty: now)"],
        "Declare the result": ["Winner", "Game time (empty: now)"],
        "Note": [],
    }
    for kind, labels in kinds.items():
        form.get_by_label("New ruling:").select_option(label=kind)
        for label in labels:
            assert form.get_by_label(label, exact=True).is_visible(), (kind, label)
        assert form.get_by_label("Reason").is_visible()

    # amend: the outcome as choices, per buzzed target
    form.get_by_label("New ruling:").select_option(label="Amend an outcome")
    form.get_by_label("Event to amend").select_option(str(right))
    form.get_by_label("A at b2").select_option("incorrect")
    assert json.loads(form.get_by_label("Outcome as sent (JSON)").input_value()) == {
        "A": "incorrect"
    }

    # adjust: seat, points; a time that is not a time is said in the form
    form.get_by_label("New ruling:").select_option(label="Adjust a score")
    form.get_by_label("Seat", exact=True).select_option("beta")
    form.get_by_label("Points (negative takes away)").fill("3")
    form.get_by_label("Game time (empty: now)").fill("yesterday-ish")
    form.get_by_label("Reason").fill("a bonus the chat agreed")
    form.get_by_role("button", name="Record ruling").click()
    alert = form.get_by_role("alert")
    alert.wait_for()
    assert "game time: not a time" in alert.inner_text()
    form.get_by_label("Game time (empty: now)").fill("")
    form.get_by_role("button", name="Record ruling").click()
    page.get_by_text("host gave 3 points to beta: a bonus the chat agreed").wait_for()
    assert host_state(server, {"host": match.host_link()})["state"]["scores"]["beta"] == 3

    # undo to the newest event: the service refuses it, and says so in the form
    last = host_state(server, {"host": match.host_link()})["last_seq"]
    row(page, last).get_by_role("button", name=f"Rule on #{last}").click()
    form = page.locator(f"form.ruling[data-seq='{last}']")
    form.get_by_label(f"Ruling on #{last}:").select_option(label="Undo back to an event")
    form.get_by_label("Reason").fill("nothing to undo")
    form.get_by_role("button", name="Record ruling").click()
    alert = form.get_by_role("alert")
    alert.wait_for()
    assert ":" in alert.inner_text()  # the service's code and message
    assert form.get_by_label("Reason").input_value() == "nothing to undo"  # kept, to be fixed
    assert page.locator("#match-error").inner_text() == ""

    # declare result: a draw, with its reason
    form.get_by_label(f"Ruling on #{last}:").select_option(label="Declare the result")
    form.get_by_label("Winner").select_option(label="draw (nobody wins)")
    form.get_by_label("Reason").fill("both seats agreed")
    form.get_by_role("button", name="Record ruling").click()
    page.get_by_text("host declared a draw: both seats agreed").wait_for()
    shot(page, "host-ruling-forms")
    assert page.errors == []


def test_zombego_offers_only_the_rulings_it_has_a_use_for(server: str, contexts: Any) -> None:
    match = Match(server, "zombego", {})
    page = host_page(contexts, match)
    page.get_by_role("button", name="Record a ruling…").click()
    page.wait_for_selector("#ruling-type")
    options = page.locator("#ruling-type option").all_inner_texts()
    assert options == ["Void an event", "Undo back to an event", "Declare the result", "Note"]


def fill_create(page: Any, server: str, game: str) -> None:
    page.goto(f"{server}/")
    page.get_by_label("Operator token").fill(OPERATOR)
    page.locator("#create-game").select_option(game)


def test_a_zoom_match_from_a_pasted_grid_and_a_seed_beyond_2_53_kept_exact(
    server: str, contexts: Any
) -> None:
    seed = 2**60 + 1
    page = contexts()
    page.on("dialog", lambda dialog: dialog.accept())
    fill_create(page, server, "zoom")
    assert page.get_by_label("Advantage").is_visible()
    page.get_by_label("Rounds", exact=True).fill("1")
    page.get_by_label("Targets Per Round").fill("1")
    page.get_by_label("Seed (optional)").fill(str(seed))
    page.get_by_role("button", name="Add a host-supplied grid").click()
    page.get_by_label("Grid (one row of letters a line)").fill("\n".join(GRID))
    page.get_by_label("Targets (a label, then its rows: A: FG JK)").fill("A: FG JK")
    supplied = json.loads(page.locator("#cfg-supplied_rounds").input_value())
    assert supplied == {"1": {"grid": GRID, "targets": {"A": ["FG", "JK"]}}}
    page.get_by_role("button", name="Create match").click()
    page.wait_for_selector("#role-links a")
    link = page.locator("#role-links a[data-role=host]").get_attribute("href")

    host = contexts()
    host.on("dialog", lambda dialog: dialog.accept())
    host.goto(link)
    host.click("#start-round")
    host.get_by_text(f"host started round 1 (4{TIMES}4 grid, 1 target)").wait_for()
    state = host_state(server, {"host": link})["state"]
    assert state["round"]["grid"] == GRID and state["round"]["targets"] == {"A": ["FG", "JK"]}
    host.get_by_role("button", name="Close match").click()
    host.get_by_text(f"seeded with {seed}").wait_for()
    seeded = host.locator("#event-list tr[data-type='match.seeded']")
    seeded.get_by_text("details").click()
    # opened, it stays open across the redraws the close and later events bring
    shown = seeded.locator("details[open] pre").inner_text()
    assert f'"seed": {seed}' in shown
    # the service holds the same number (no rounding anywhere on the way)
    events = httpx.get(
        f"{server}/matches/{match_id_of(link)}/events",
        headers={"Authorization": f"Bearer {token_of(link)}"},
    ).json()
    assert next(e for e in events if e["type"] == "match.seeded")["payload"]["seed"] == seed
    assert host.errors == [] and page.errors == []


def test_a_seed_that_is_not_a_whole_number_is_said_in_the_create_form(
    server: str, contexts: Any
) -> None:
    page = contexts()
    fill_create(page, server, "zoom")
    page.get_by_label("Seed (optional)").fill(str(2**63))
    page.get_by_role("button", name="Create match").click()
    alert = page.locator("#create-form").get_by_role("alert")
    alert.wait_for()
    assert "seed: a whole number" in alert.inner_text()


def test_no_not_that_rounds_as_rows_and_advantage_only_where_the_game_has_it(
    server: str, contexts: Any
) -> None:
    page = contexts()
    fill_create(page, server, "zombego")
    assert not page.get_by_label("Advantage").is_visible()
    page.locator("#create-game").select_option("no_not_that")
    assert not page.get_by_label("Advantage").is_visible()
    rounds = page.locator("#rows-rounds > li")
    assert rounds.count() == 1  # the example round
    page.get_by_role("button", name="Add a round").click()
    second = rounds.nth(1)
    second.get_by_label("Prompt Text").fill("a word of five letters")
    second.get_by_label("Category Text").fill("words of the dictionary")
    second.get_by_label("Category", exact=True).select_option("words")
    second.get_by_label("Min Length").fill("3")
    second.get_by_label("Prompt", exact=True).select_option("word")
    second.get_by_label("Length", exact=True).fill("5")
    page.get_by_role("button", name="Add a round").click()
    assert rounds.count() == 3
    rounds.nth(2).get_by_role("button", name="Remove this round").click()
    rounds.nth(0).get_by_role("button", name="Remove this round").click()
    assert rounds.count() == 1
    page.get_by_role("button", name="Create match").click()
    page.wait_for_selector("#role-links a")
    link = page.locator("#role-links a[data-role=host]").get_attribute("href")
    created = httpx.get(
        f"{server}/matches/{match_id_of(link)}/events",
        headers={"Authorization": f"Bearer {token_of(link)}"},
    ).json()[0]["payload"]
    assert created["advantage"] is None
    (only,) = created["config"]["rounds"]
    assert only["prompt_text"] == "a word of five letters"
    assert only["category"]["kind"] == "words" and only["category"]["min_length"] == 3
    assert only["prompt"]["kind"] == "word" and only["prompt"]["length"] == 5
    assert page.errors == []


def test_the_match_list_shows_date_and_short_id_and_searches(server: str, contexts: Any) -> None:
    zoom = Match(server, "zoom", ZOOM)
    body = {"game": "zombego", "seats": ["white", "black"], "config": {}}
    made = httpx.post(
        f"{server}/matches", json=body, headers={"Authorization": f"Bearer {OPERATOR}"}
    ).json()
    page = contexts()
    page.goto(f"{server}/")
    page.wait_for_selector(f"tr[data-match='{zoom.id}']")
    zoom_row = page.locator(f"tr[data-match='{zoom.id}']")
    assert zoom.id[:8] in zoom_row.inner_text() and zoom.id not in zoom_row.inner_text()
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", zoom_row.inner_text())
    assert "Zoom" in zoom_row.inner_text()
    search = page.get_by_label("Search")
    search.fill(zoom.id[:6])
    assert page.locator("#matches tbody tr").count() == 1
    search.fill("white")
    page.wait_for_selector(f"tr[data-match='{made['match_id']}']")
    assert page.locator(f"tr[data-match='{zoom.id}']").count() == 0
    search.fill("no, not")
    assert page.locator("#matches tbody tr").count() == 0 or all(
        "No, Not That!" in t for t in page.locator("#matches tbody tr").all_inner_texts()
    )
    search.fill("zombego")
    assert all("Zombego" in t for t in page.locator("#matches tbody tr").all_inner_texts())
    search.fill("nothing-like-this")
    page.get_by_text("No match fits").wait_for()
    assert page.errors == []
