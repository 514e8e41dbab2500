"""Property: whatever an organizer and the hosts do, in any order, a tournament always answers.

Hypothesis runs random tournaments (every format, 2 to 9 players, every game) through the
HTTP API with the manual clock moving between acts: the organizer pairs, re-pairs, forfeits
(to a player, to nobody, a bye, a board decided), withdraws (a player, an unknown one),
concludes and seals (refused unless finished); each board's host declares results (a win, a
draw), also in matches whose round is long over, voids or undoes any event, rules in the past
and closes the match. After every act: no 5xx, and the standings answer with ranks 1..n. At
the end: the verify passes, the standings at every (game time, record time) of the
tournament's own events and the diff between any two answer, and the exported bundle verifies
offline; then the event is wound up (the last round's results, a conclusion) and sealed, and
its bundle verifies with the service's keys (every match and the log signed). On SQLite (the
tournament routes run the same code on both backends, which ``tests/api/test_tournaments.py``
runs on each).

Two defects this found: a drawn knockout match (or a knockout forfeit without a winner) made
every standings read answer 422 ``elimination_needs_winner`` for good, and a knockout result
changed after the next round was paired made them answer 422 ``bad_round``.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from api.cli.log import LogTrust
from api.service.tournament_audit import verify_bundle
from events.migrate import upgrade
from tests.api.conftest import OPERATOR, Api, make_app
from tests.store.support import ManualClock
from tests.support.nnt_http import nnt_config

FORMATS = ["round_robin", "double_round_robin", "swiss", "single_elimination", "double_elimination"]
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    phases=(Phase.explicit, Phase.generate),  # a failure is reported as found: no shrinking
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Api]:
    url = f"sqlite:///{tmp_path_factory.mktemp('walk') / 'store.sqlite3'}"
    upgrade(url)
    clock = ManualClock(datetime(2024, 5, 1, 12, 0, 0, 123456, tzinfo=UTC))
    app = make_app(url, clock)
    with TestClient(app) as client:
        yield Api(client, clock)
    app.state.service.store.dispose()


class Walk:
    """One random tournament: its ids, tokens and every board paired so far."""

    def __init__(self, api: Api, data: st.DataObject) -> None:
        self.api, self.draw = api, data.draw
        fmt = self.draw(st.sampled_from(FORMATS), "format")
        n = self.draw(st.integers(2, 9), "players")
        game = self.draw(st.sampled_from(["zoom", "zoom", "zombego", "no_not_that"]), "game")
        elimination = "elimination" in fmt
        body: dict[str, Any] = {
            "name": "Walk",
            "game": game,
            "format": fmt,
            "players": [{"name": f"P{i}"} for i in range(n)],
            "tiebreaks": ["wins"] if elimination else ["buchholz", "sonneborn_berger"],
        }
        if fmt == "swiss":
            body["rounds"] = self.draw(st.integers(1, max(1, n - 1)))
        if game == "zoom":
            body["config"] = {"rounds": 1}
            if body.get("rounds", 2) >= 2 and (n >= 3 or fmt.startswith("double")):
                body["round_configs"] = {"2": {"rounds": 2}}  # a round 2 is played
        if game == "no_not_that":
            body["config"] = nnt_config()
        made = self.answer(api.client.post("/tournaments", json=body, headers=api.auth(OPERATOR)))
        assert made.status_code == 201, made.text
        self.id, self.n = made.json()["tournament_id"], n
        self.organizer = api.auth(made.json()["organizer_token"])
        self.players = [p["id"] for p in made.json()["players"]]
        self.boards: list[dict[str, Any]] = []

    def answer(self, response: httpx.Response) -> httpx.Response:
        assert response.status_code < 500, response.text
        return response

    def post(self, path: str, body: Any = None, headers: Any = None) -> httpx.Response:
        self.api.clock.advance(self.draw(st.sampled_from([0, 1, 30])))
        return self.answer(self.api.client.post(path, json=body, headers=headers))

    def act(self) -> None:
        kind = self.draw(
            st.sampled_from(["pair", "pair", "result", "result", "ruling", "organizer"])
        )
        if kind == "pair" or not self.boards:
            self.pair()
        elif kind == "result":
            self.declare(self.draw(st.sampled_from(self.boards)))
        elif kind == "ruling":
            self.ruling(self.draw(st.sampled_from(self.boards)))
        else:
            self.organizer_act()
        self.check_standings()

    def pair(self) -> None:
        response = self.post(f"/tournaments/{self.id}/rounds", headers=self.organizer)
        if response.status_code == 201:
            paired = response.json()
            self.boards += [{**b, "round": paired["round"]} for b in paired["pairings"]]

    def declare(self, board: dict[str, Any]) -> None:
        if board["match_id"] is None or board["second"] is None:
            return
        winner = self.draw(st.sampled_from(["alpha", "beta", None]))
        body = {"type": "declare_result", "winner": winner, "reason": "played in the channel"}
        self.post(f"/matches/{board['match_id']}/rulings", body, self.host(board))

    def ruling(self, board: dict[str, Any]) -> None:
        if board["match_id"] is None:
            return
        url, host = f"/matches/{board['match_id']}", self.host(board)
        events = self.answer(self.api.client.get(f"{url}/events", headers=host)).json()
        kind = self.draw(st.sampled_from(["void", "undo", "close", "past"]))
        if kind == "close":
            self.post(f"{url}/close", None, host)
            return
        body: dict[str, Any] = {"reason": "the host's ruling"}
        if kind == "past":
            when = self.draw(st.sampled_from(events))["occurred_at"]
            body |= {"type": "declare_result", "winner": "beta", "occurred_at": when}
        else:
            seq = "to_seq" if kind == "undo" else "target_seq"
            body |= {"type": kind, seq: self.draw(st.integers(1, len(events) + 1))}
        self.post(f"{url}/rulings", body, host)

    def organizer_act(self) -> None:
        kind = self.draw(st.sampled_from(["forfeit", "withdraw", "repair", "conclude", "seal"]))
        base = f"/tournaments/{self.id}"
        if kind == "forfeit" and self.boards:
            board = self.draw(st.sampled_from(self.boards))
            winner = self.draw(st.sampled_from([board["first"], board["second"], None, "p99"]))
            body = {"round": board["round"], "board": board["board"], "winner": winner}
            self.post(f"{base}/forfeits", body | {"reason": "no show"}, self.organizer)
        elif kind == "withdraw":
            player = self.draw(st.sampled_from([*self.players, "p99"]))
            self.post(f"{base}/withdrawals", {"player": player, "reason": "left"}, self.organizer)
        elif kind == "repair":
            response = self.post(f"{base}/rounds/current/repair", {"reason": "x"}, self.organizer)
            if response.status_code == 201:
                paired = response.json()
                self.boards = [b for b in self.boards if b["round"] != paired["round"]]
                self.boards += [{**b, "round": paired["round"]} for b in paired["pairings"]]
        elif kind == "conclude":
            self.post(f"{base}/conclusion", {"reason": "the venue closed"}, self.organizer)
        elif kind == "seal":
            self.seal()

    def wind_up(self) -> None:
        """Give every board of the last round a result (its host declares the first seat the
        winner; a match closed without one is forfeited to the pairing's first), then conclude:
        an event left at any point of its walk is then finished, and sealing it must succeed."""
        rounds = self.get("/standings").json()["rounds"]
        for board in rounds[-1]["pairings"] if rounds else []:
            if board["result"] is not None or board["match_id"] is None or not board["second"]:
                continue
            host = next(b for b in self.boards if b["match_id"] == board["match_id"])
            ruling = {"type": "declare_result", "winner": "alpha", "reason": "wound up"}
            url = f"/matches/{board['match_id']}/rulings"
            if self.post(url, ruling, self.host(host)).status_code != 201:
                forfeit = {"round": board["round"], "board": board["board"],
                           "winner": board["first"], "reason": "wound up"}  # fmt: skip
                self.post(f"/tournaments/{self.id}/forfeits", forfeit, self.organizer)
        base = f"/tournaments/{self.id}"
        self.post(f"{base}/conclusion", {"reason": "wound up"}, self.organizer)

    def seal(self) -> None:
        """Sealing succeeds exactly when the event is finished (or concluded) and not sealed
        yet; nothing else answers but 409 ``tournament_not_finished`` or ``tournament_sealed``."""
        before = self.get("/standings").json()
        response = self.post(f"/tournaments/{self.id}/seal", {"reason": "final"}, self.organizer)
        if before["sealed"] is not None:
            assert response.json()["code"] == "tournament_sealed", response.text
        elif before["finished"]:
            assert response.status_code == 201, response.text
        else:
            assert response.json()["code"] == "tournament_not_finished", response.text

    def host(self, board: dict[str, Any]) -> dict[str, str]:
        return self.api.auth(board["tokens"]["host"])

    def get(self, path: str, **params: str) -> httpx.Response:
        return self.answer(self.api.client.get(f"/tournaments/{self.id}{path}", params=params))

    def check_standings(self, **params: str) -> None:
        response = self.get("/standings", **params)
        assert response.status_code == 200, response.text
        ranks = sorted(row["rank"] for row in response.json()["rows"])
        assert ranks == list(range(1, self.n + 1))

    def check_end(self) -> None:
        report = self.get("/verify").json()
        assert report["ok"], [c for c in report["checks"] if not c["ok"]]
        times = [e["recorded_at"] for e in self.get("/events").json()]
        for at in times:
            for known_at in (times[0], at, times[-1]):
                self.check_standings(at=at, known_at=known_at)
        for before in times:
            diff = self.get("/diff", before=before)
            assert diff.status_code == 200, diff.text
        bundle = self.answer(
            self.api.client.get(f"/tournaments/{self.id}/export", headers=self.organizer)
        )
        games = self.api.client.app.state.service.games  # type: ignore[attr-defined]
        offline = verify_bundle(bundle.text, games)
        assert offline["ok"], [c for c in offline["checks"] if not c["ok"]]
        self.wind_up()
        self.seal()
        if self.get("/standings").json()["sealed"] is None:
            return
        sealed = self.get("/verify").json()
        assert sealed["ok"], [c for c in sealed["checks"] if not c["ok"]]
        bundle = self.answer(
            self.api.client.get(f"/tournaments/{self.id}/export", headers=self.organizer)
        )
        keys = LogTrust(self.api.client.get("/.well-known/adjudicator-keys").text)
        proven = verify_bundle(bundle.text, games, log_checks=keys.checks)
        assert proven["ok"], [c for c in proven["checks"] if not c["ok"]]


@SETTINGS
@given(data=st.data(), acts=st.integers(5, 40))
def test_a_tournament_answers_whatever_its_organizer_and_hosts_do(
    api: Api, data: st.DataObject, acts: int
) -> None:
    walk = Walk(api, data)
    for _ in range(acts):
        walk.act()
    walk.check_end()
