"""``adjudicator demo --tournament``: the README's tournament walkthrough, through the real HTTP
API of a local server: an 8-player Zoom round robin run to the end, then a retroactive void in
round 2 that changes the champion, with the standings as known before the void and after it,
the diff that names the ruling, and the verify.

Every board's host declares its result with a ``declare_result`` ruling (Ada and Bo win every
game but the one between them; otherwise the pairing's first seat wins), except Ada v Bo in
round 2, which is played as a chat channel showed it, entered by its host with each post's game
time: Bo finds C at d4, Ada buzzes A at a1 (a miss: locked out) and then A at its true place d3
while locked out, and the round clock ends the match: Bo wins 1-0. Later the host voids the
buzz at a1 (a grid misprint): Ada's second buzz counts, 1-1, and Ada, who holds the Advantage as
the pairing's first, wins the tie and the tournament.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx

from api.cli.demo import buzz
from api.cli.entering import HostEntry, auth, ok
from api.cli.tournament import describe, standings_table

PLAYERS = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]
GRID = ["RGBRGB", "GBRGBR", "BRGYYY", "KKKWRG"]
TARGETS = {"A": ["YYY"], "B": ["KKK"], "C": ["W"], "D": ["RG"]}
CONFIG = {"rounds": 1, "supplied_rounds": {"1": {"grid": GRID, "targets": TARGETS}}}


@dataclass(frozen=True, slots=True)
class Walked:
    """The tournament once walked through: its id, the tokens and the text that tells it."""

    tournament_id: str
    organizer: str
    decisive_match: str
    decisive_host: str
    text: str


class TournamentScript:
    """Creates the tournament with the operator token, pairs every round as its organizer and
    referees every board as its host."""

    def __init__(self, client: httpx.Client, operator: str) -> None:
        self.client, self.operator = client, operator
        self.tournament_id = self.organizer = ""
        self.decisive: dict[str, Any] = {}
        self.wrong_buzz = 0  # the seq of Ada's buzz at a1, once played
        self.names: dict[str, str] = {}  # player id -> name, as the creation answered
        self.ada = self.bo = ""  # Ada's and Bo's player ids
        self.lines: list[str] = []

    def walk(self) -> Walked:
        self.create()
        for _ in range(7):
            self.play_round(self.pair())
        self.say("", "Standings at the end:", standings_table(self.standings()))
        before = self.void_a_round_2_buzz()
        now, believed = self.standings(), self.standings(known_at=before)
        self.say(
            "",
            "Standings now:",
            standings_table(now),
            "",
            f"Standings as known at {before} (before the void):",
            standings_table(believed),
            "",
            self.diff(before),
            "",
            verdict(self.get("/verify")),
        )
        return Walked(
            self.tournament_id,
            self.organizer,
            self.decisive["match_id"],
            self.decisive["tokens"]["host"],
            "\n".join(self.lines),
        )

    def say(self, *lines: str) -> None:
        self.lines.extend(lines)

    def create(self) -> None:
        body = {
            "name": "Zoom Winter Cup",
            "game": "zoom",
            "format": "round_robin",
            "tiebreaks": ["sonneborn_berger"],
            "players": [{"name": name} for name in PLAYERS],
            "config": CONFIG,
        }
        made = ok(self.client.post("/tournaments", json=body, headers=auth(self.operator)))
        self.tournament_id, self.organizer = made["tournament_id"], made["organizer_token"]
        self.names = {p["id"]: p["name"] for p in made["players"]}
        ids = {name: pid for pid, name in self.names.items()}
        self.ada, self.bo = ids["Ada"], ids["Bo"]
        self.say(
            f"Tournament demo: {made['name']}, an 8-player Zoom round robin (Berger tables,"
            " 7 rounds, 28 matches), tie-break Sonneborn-Berger"
        )

    def pair(self) -> dict[str, Any]:
        url = f"/tournaments/{self.tournament_id}/rounds"
        return ok(self.client.post(url, headers=auth(self.organizer)))

    def play_round(self, paired: dict[str, Any]) -> None:
        games, notes = [], []
        for board in paired["pairings"]:
            pair = {board["first"], board["second"]}
            if pair == {self.ada, self.bo}:
                self.decisive = board
                winner = self.play_the_decisive_match(board)
                notes.append(
                    f"  ({self.name(board['first'])}-{self.name(board['second'])}, played: Bo"
                    " finds C at d4; Ada buzzes A at a1, a miss that locks her out of A (seq"
                    f" {self.wrong_buzz}), then A at d3 while locked out; the round clock ends"
                    " it)"
                )
            else:
                ada, bo = self.ada, self.bo
                winner = ada if ada in pair else bo if bo in pair else board["first"]
                self.declare(board, winner)
            games.append(f"{self.name(board['first'])}-{self.name(board['second'])} "
                         f"{'1-0' if winner == board['first'] else '0-1'}")  # fmt: skip
        self.say(f"round {paired['round']}: " + ", ".join(games), *notes)

    def play_the_decisive_match(self, board: dict[str, Any]) -> str:
        """Ada v Bo, entered by its host from the channel's posts with their game times (an
        hour ago, so the round clock has long run out): Bo wins 1-0. Returns the winner."""
        match_id, host = board["match_id"], board["tokens"]["host"]
        start = datetime.now(UTC) - timedelta(hours=1)
        entry = HostEntry.of_match(self.client, match_id, host, start)
        seat = {board["first"]: "alpha", board["second"]: "beta"}
        entry.post({"type": "start_round"}, after=0)
        entry.post(buzz(seat[self.bo], "C", "d4"), after=5)
        wrong = entry.post(buzz(seat[self.ada], "A", "a1"), after=5)
        entry.post(buzz(seat[self.ada], "A", "d3"), after=5)
        self.wrong_buzz = wrong["events"][0]["seq"]  # the buzz the host will void
        state = ok(self.client.get(f"/matches/{match_id}/state", headers=auth(host)))["state"]
        winner: str = {"alpha": board["first"], "beta": board["second"]}[state["result"]["winner"]]
        return winner

    def declare(self, board: dict[str, Any], winner: str) -> None:
        seat = "alpha" if board["first"] == winner else "beta"
        body = {"type": "declare_result", "winner": seat, "reason": "played in the channel"}
        url = f"/matches/{board['match_id']}/rulings"
        ok(self.client.post(url, json=body, headers=auth(board["tokens"]["host"])))

    def void_a_round_2_buzz(self) -> str:
        """The round-2 host voids Ada's buzz at a1; returns a record time just before it."""
        time.sleep(0.01)
        before = datetime.now(UTC).isoformat().replace("+00:00", "Z")
        time.sleep(0.01)
        body = {"type": "void", "target_seq": self.wrong_buzz, "reason": "grid misprint at a1"}
        url = f"/matches/{self.decisive['match_id']}/rulings"
        ok(self.client.post(url, json=body, headers=auth(self.decisive["tokens"]["host"])))
        self.say(
            "",
            f"Then the round-2 host voids Ada's buzz at a1 (seq {self.wrong_buzz}): 'grid"
            " misprint at a1'. Ada's buzz at d3 counts, 1-1, and Ada holds the Advantage as the"
            " pairing's first: she wins the match, and the tournament.",
        )
        return before

    def standings(self, **params: str) -> dict[str, Any]:
        return self.get("/standings", **params)

    def diff(self, before: str) -> str:
        diff = self.get("/diff", before=before)
        lines = [f"Diff since {before}:"]
        for change in diff["results"]:
            rulings = ", ".join(
                f"{r['type']} seq {r['seq']} ({r['payload'].get('reason', '')!r})"
                for r in change["rulings"]
            )
            lines.append(
                f"  round {change['round']}, match {change['match_id']}: winner"
                f" {self.name(change['before']['winner'])} -> "
                f"{self.name(change['after']['winner'])}, by {rulings}"
            )
        champion = diff["champion"]
        lines.append(
            f"  champion: {self.name(champion['before'])} -> {self.name(champion['after'])}"
        )
        return "\n".join(lines)

    def get(self, path: str, **params: str) -> dict[str, Any]:
        return ok(self.client.get(f"/tournaments/{self.tournament_id}{path}", params=params))

    def name(self, player: str | None) -> str:
        return "nobody" if player is None else self.names.get(player, player)


def verdict(report: dict[str, Any]) -> str:
    """The verify report in a few lines: its checks counted by kind (every one, when one
    fails)."""
    if not report["ok"]:
        return describe(report)
    kinds = Counter(check["name"].split(" ")[0] for check in report["checks"])
    counted = ", ".join(f"{kind} {count}" for kind, count in kinds.items())
    return f"Verify: every check passes ({counted}): tournament {report['tournament_id']}"


def inspection(base: str, url: str, operator: str, walked: Walked) -> str:
    """What to read the kept tournament with: the console's pages, the tokens, the API."""
    page = f"{base}/console/tournaments/{walked.tournament_id}"
    api = f"{base}/tournaments/{walked.tournament_id}"
    return "\n".join(
        [
            f"tournament: {walked.tournament_id}",
            f"operator:   {operator}",
            f"organizer:  {walked.organizer}",
            f"console:    {page}",
            f"console, organizer: {page}#token={walked.organizer}",
            f"round-2 match (the void): {base}/console/matches/{walked.decisive_match}"
            f"#role=host&token={walked.decisive_host}",
            f"standings:  {api}/standings   (?known_at=, ?at=)",
            f"diff:       {api}/diff?before=<record time>",
            f"verify:     {api}/verify",
            f"OpenAPI:    {base}/docs",
            f"database:   {url}",
            "Serving until Ctrl-C.",
        ]
    )
