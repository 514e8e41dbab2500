"""The README's tournament walkthrough, step by step through the API, so it cannot rot: an
8-player Zoom round robin run to the end, then a retroactive void in round 2 that changes the
winner; the standings before (``known_at``) and after, and the diff naming the ruling; then
the seal, after which the bundle verifies with the service's keys (every match and the
tournament's own log in the transparency log)."""

from __future__ import annotations

from typing import Any

from api.cli.log import LogTrust
from api.service.tournament_audit import LOGGED_MATCH_OK, verify_bundle
from tests.api.conftest import Api
from tests.api.test_zoom_over_http import GRID, TARGETS, buzz
from tests.api.tournament_client import Organizer, declare

PLAYERS = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
CONFIG = {"rounds": 1, "supplied_rounds": {"1": {"grid": GRID, "targets": TARGETS}}}


def command(api: Api, board: dict[str, Any], who: str, body: dict[str, Any]) -> int:
    token = board["tokens"]["host"] if who == "host" else board["tokens"]["seats"][who]
    url = f"/matches/{board['match_id']}/commands"
    response = api.client.post(url, json=body, headers=api.auth(token))
    assert response.status_code == 201, response.text
    seq: int = response.json()["events"][0]["seq"]
    return seq


def play_the_decisive_match(api: Api, board: dict[str, Any]) -> int:
    """Beta finds C; alpha buzzes A at a1 (wrong: locked out), then A at d3 while locked out;
    the round clock ends the match: beta wins 1-0. Returns the seq of alpha's wrong buzz."""
    command(api, board, "host", {"type": "start_round"})
    api.clock.advance(5)
    command(api, board, "beta", buzz("beta", "C", "d4"))
    api.clock.advance(5)
    wrong = command(api, board, "alpha", buzz("alpha", "A", "a1"))
    api.clock.advance(5)
    command(api, board, "alpha", buzz("alpha", "A", "d3"))
    api.clock.advance(300)  # the round clock runs out: the one-round match is over
    return wrong


def test_an_eight_player_round_robin_and_a_retroactive_void_that_changes_the_winner(
    api: Api,
) -> None:
    org = Organizer(api)
    org.create(PLAYERS, name="Zoom Winter Cup", config=CONFIG, tiebreaks=["sonneborn_berger"])
    decisive: dict[str, Any] = {}
    wrong_buzz = 0
    for number in range(1, 8):
        paired = org.pair()
        assert paired["round"] == number
        for board in paired["pairings"]:
            pair = {board["first"], board["second"]}
            if pair == {"p1", "p2"}:
                assert number == 2  # Berger table, 8 players: 1-2 meet in round 2
                decisive, wrong_buzz = board, play_the_decisive_match(api, board)
            elif "p1" in pair or "p2" in pair:
                declare(api, board, "p1" if "p1" in pair else "p2")
            else:
                declare(api, board, board["first"])
    winner_after, winner_before = decisive["first"], decisive["second"]
    assert (winner_after, winner_before, wrong_buzz) == ("p1", "p2", 5)  # Ada, Bo (README)

    ended = org.standings()
    assert ended["finished"] and ended["champion"] == winner_before
    assert [r["points"] for r in ended["rows"][:2]] == [7, 6]
    assert org.post("/rounds").json()["code"] == "tournament_finished"

    before_the_void = api.clock.advance(3600)
    api.clock.advance(3600)
    url = f"/matches/{decisive['match_id']}/rulings"
    ruling = {"type": "void", "target_seq": wrong_buzz, "reason": "grid misprint at a1"}
    voided = api.client.post(url, json=ruling, headers=api.auth(decisive["tokens"]["host"]))
    assert voided.status_code == 201, voided.text

    now = org.standings()
    believed = org.standings(known_at=before_the_void)
    assert (believed["champion"], now["champion"]) == (winner_before, winner_after)
    assert [(r["player"], r["points"]) for r in now["rows"][:2]] == [
        (winner_after, 7),
        (winner_before, 6),
    ]
    assert [s["round"] for s in now["stale_pairings"]] == [3, 4, 5, 6, 7]
    assert believed["stale_pairings"] == []

    diff = org.get("/diff", before=before_the_void)
    [change] = diff["results"]
    assert (change["round"], change["match_id"]) == (2, decisive["match_id"])
    assert (change["before"]["winner"], change["after"]["winner"]) == (
        winner_before,
        winner_after,
    )
    [void] = change["rulings"]
    assert (void["type"], void["payload"]["reason"]) == ("ruling.void", "grid misprint at a1")
    assert void["seq"] == 7
    assert void["payload"]["target_seq"] == wrong_buzz
    assert diff["champion"] == {"before": winner_before, "after": winner_after}

    report = org.get("/verify")
    assert report["ok"], report

    # the README's last step: the organizer seals the finished event (its open matches closed
    # as their hosts would close them, its log signed), and the bundle verifies with the keys
    sealed = org.post("/seal", {"reason": "final standings"})
    assert sealed.status_code == 201, sealed.text
    assert org.standings()["champion"] == winner_after
    text = api.client.get(f"/tournaments/{org.id}/export", headers=api.auth(org.token)).text
    keys = LogTrust(api.client.get("/.well-known/adjudicator-keys").text)
    games = api.client.app.state.service.games  # type: ignore[attr-defined]
    offline = verify_bundle(text, games, log_checks=keys.checks)
    assert offline["ok"], [c for c in offline["checks"] if not c["ok"]]
    assert sum(c["detail"] == LOGGED_MATCH_OK for c in offline["checks"]) == 28
