"""The README's second walkthrough: a 16-player Zoom Swiss of 4 rounds run to the end, once by
the command line (``adjudicator tournament``) and once by the HTTP API, each result declared by
the board's host; the standings end finished with one champion, no pair met twice, and the
audit (the service's and the bundle's offline) verifies."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from api.cli.main import main, parser
from api.cli.tournament import tournament_command
from tests.api.conftest import OPERATOR, Api
from tests.api.tournament_client import Organizer, play_round

NAMES = [f"Player{n:02d}" for n in range(1, 17)]
ROUNDS = 4


def stronger(first: str, second: str) -> str:
    """The lower seed wins (p1 beats everyone): a champion is known in advance."""
    return min(first, second, key=lambda p: int(p[1:]))


def run(api: Api, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = tournament_command(parser().parse_args(["tournament", *argv]), client=api.client)
    out, err = capsys.readouterr()
    assert code == 0, err
    return code, out


def check_finished(standings: dict[str, Any], rounds: list[dict[str, Any]]) -> None:
    assert standings["finished"] and standings["champion"] == "p1"
    top = standings["rows"][0]
    assert (top["player"], top["points"]) == ("p1", float(ROUNDS))
    met = [frozenset((b["first"], b["second"])) for r in rounds for b in r["pairings"]]
    assert len(met) == len(set(met)) == ROUNDS * 8  # 8 boards a round, no rematch
    assert sum(row["points"] for row in standings["rows"]) == ROUNDS * 8


def test_a_sixteen_player_swiss_run_to_the_end_by_the_command_line(
    api: Api, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    players = [arg for name in NAMES for arg in ("--player", name)]
    _, out = run(
        api, capsys, "create", "--token", OPERATOR, "--name", "Zoom Swiss", "--game", "zoom",
        "--format", "swiss", "--rounds", str(ROUNDS), "--tiebreak", "buchholz",
        "--tiebreak", "sonneborn_berger", "--config", '{"rounds": 1}', *players,
    )  # fmt: skip
    made = json.loads(out)
    tid, token = made["tournament_id"], made["organizer_token"]
    rounds = []
    for _ in range(ROUNDS):
        _, paired = run(api, capsys, "pair", tid, "--token", token)
        rounds.append(json.loads(paired))
        play_round(api, rounds[-1], stronger)
    _, answer = run(api, capsys, "standings", tid, "--json")
    check_finished(json.loads(answer), rounds)
    _, table = run(api, capsys, "standings", tid)
    assert "finished, champion p1" in table

    _, report = run(api, capsys, "verify", tid)
    assert report.splitlines()[-1].endswith("verified")
    bundle = tmp_path / "swiss.json"
    run(api, capsys, "export", tid, "-o", str(bundle), "--token", token)
    assert main(["verify", "--jobs", "1", str(bundle)]) == 0


def test_a_sixteen_player_swiss_run_to_the_end_by_the_api(api: Api) -> None:
    organizer = Organizer(api)
    organizer.create(
        NAMES,
        format="swiss",
        rounds=ROUNDS,
        tiebreaks=["buchholz", "sonneborn_berger"],
        config={"rounds": 1},
    )
    for _ in range(ROUNDS):
        play_round(api, organizer.pair(), stronger)
    refused = organizer.post("/rounds")
    assert (refused.status_code, refused.json()["code"]) == (409, "tournament_finished")
    standings = organizer.standings()
    check_finished(standings, organizer.rounds)
    # Dutch round 1: the top half meets the bottom half in seed order (1-9, 2-10, ...)
    first_round = {frozenset((b["first"], b["second"])) for b in organizer.rounds[0]["pairings"]}
    assert first_round == {frozenset((f"p{n}", f"p{n + 8}")) for n in range(1, 9)}
    assert organizer.get("/verify")["ok"]
