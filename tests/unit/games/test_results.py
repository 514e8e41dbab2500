"""Every game's result has one shape, ``{"winner", "reason", "scores"}``, whether the match was
finished by play or by a host's ``declare_result`` (which also names its ``seq`` and takes the
scores at its own game time). Pure: the rules through the test kit, no HTTP, no store."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from adjudicator.games.no_not_that import Phase
from adjudicator.games.zombego import ZombegoGame
from adjudicator.games.zoom.commands import Buzz, Pair
from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import Game, Role, Setup, Viewer
from tests.kit import Table
from tests.support.nnt_harness import make_config, started
from tests.support.zombego_play import command
from tests.unit.games.zoom.conftest import new_table, start

SPECTATOR = Viewer(Role.SPECTATOR)
ZOMBEGO_SEATS = ("white", "black")
ZOMBEGO_GOLDEN = Path(__file__).parents[2] / "golden" / "zombego" / "zombego-golden.jsonl"


def result_of(game: Game[Any, Any], state: Any) -> dict[str, Any]:
    """The result, checked to be the one shape and to be what the summary and a spectator see."""
    result = game.result(state)
    assert result is not None
    assert {"winner", "reason", "scores"} <= result.keys()
    assert game.summary(state)["result"] == result
    assert game.view(state, SPECTATOR)["result"] == result
    return result


# Zoom: the scores are the points ---------------------------------------------------------------


def buzz(table: Table, seat: str, target: str, at: str, t: float) -> None:
    table.act(Buzz(seat=seat, pairs=[Pair(target=target, at=at)]), seat=seat, t=t)


def test_a_zoom_match_finished_by_play_has_winner_reason_and_points() -> None:
    table = new_table(rounds=1)
    start(table)
    for t, (seat, target, at) in enumerate(
        [("alpha", "A", "d3"), ("alpha", "B", "a4"), ("beta", "C", "d4"), ("alpha", "D", "a1")]
    ):
        buzz(table, seat, target, at, t + 1)

    result = result_of(table.game, table.state(60))

    assert result == {"winner": "alpha", "reason": "points", "scores": {"alpha": 3, "beta": 1}}


def test_a_zoom_declared_result_keeps_the_points_at_its_game_time() -> None:
    table = new_table(rounds=2)
    start(table)
    buzz(table, "beta", "A", "d3", 1)
    buzz(table, "alpha", "B", "a4", 8)
    ruling = {"winner": "alpha", "reason": "beta left"}
    declared = table.record("ruling.declare_result", ruling, t=20, when=table.at(5))

    result = result_of(table.game, table.state(20))

    assert result == {
        "winner": "alpha",
        "reason": "ruling",
        "scores": {"alpha": 0, "beta": 1},
        "seq": declared.seq,
    }
    # the result ended the round at its game time: alpha's later buzz found no round to score in
    after = table.state(20)
    assert after.points() == {"alpha": 0, "beta": 1}
    latest = next(iter(after.outcomes or ()))
    assert (latest.seat, [pair.reason for pair in latest.pairs]) == ("alpha", ["round_over"])


# No, Not That!: the scores are the points ------------------------------------------------------


def test_a_no_not_that_match_finished_by_play_has_winner_reason_and_points() -> None:
    m = started(make_config(rounds=1))
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(4, Alpha=("submit", "B"), Beta=("claim_invalid",))
    m.step(6, Alpha=("submit", "C"), Beta=("claim_invalid",))
    m.step(8, Alpha=("submit", "D"), Beta=("claim_invalid",))  # Alpha's third claim point
    assert m.state(8).phase is Phase.FINISHED

    result = result_of(m.game, m.state(8))

    assert result == {"winner": "Alpha", "reason": "points", "scores": m.score(8)}
    assert result["scores"]["Alpha"] > result["scores"]["Beta"]


def test_a_no_not_that_declared_result_keeps_the_points_at_its_game_time() -> None:
    m = started(make_config(rounds=2))
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(4, Alpha=("submit", "B"), Beta=("claim_invalid",))  # incorrect: Alpha +1
    scores = m.score(4)
    ruling = {"type": "declare_result", "winner": None, "reason": "both agreed"}
    seq = m.rule(9, {**ruling, "at": iso(m.table.at(5))})

    result = result_of(m.game, m.state(9))

    assert result == {"winner": None, "reason": "ruling", "scores": scores, "seq": seq}
    assert scores == {"Alpha": 1, "Beta": 0}


# Zombego: the scores are each seat's living pieces on the board --------------------------------


def zombego_table() -> Table:
    return Table(ZombegoGame(), Setup(match_id="m", seats=ZOMBEGO_SEATS, config={}, seed=7))


def play(table: Table, texts: list[str]) -> None:
    for i, text in enumerate(texts):
        seat = ZOMBEGO_SEATS[i % 2]
        table.act(command(text, seat), seat=seat, t=i)


def living(table: Table, t: float) -> dict[str, int]:
    counts = table.game.view(table.state(t), SPECTATOR)["counts"]
    return {seat: counts[seat]["living"] for seat in ZOMBEGO_SEATS}


def test_a_zombego_game_finished_by_play_scores_the_living_pieces_on_the_board() -> None:
    game = json.loads(ZOMBEGO_GOLDEN.read_text(encoding="utf-8").splitlines()[0])
    table = zombego_table()
    play(table, [ply["played"] for ply in game["plies"]])
    end = len(game["plies"])

    result = result_of(table.game, table.state(end))

    winner = ZOMBEGO_SEATS[game["result"]["winner"] - 1]
    assert result == {"winner": winner, "reason": "no_legal_move", "scores": living(table, end)}
    last = table.game.outcome(table.state(end), table.last_seq)
    assert last is not None and last["result"] == result


def test_a_zombego_declared_result_scores_the_living_pieces_when_declared() -> None:
    table = zombego_table()
    play(table, ["place:2:c3", "place:2:f6", "place:7:a1"])
    declared = table.record("ruling.declare_result", {"winner": "black", "reason": "r"}, t=10)

    result = result_of(table.game, table.state(10))

    assert result == {
        "winner": "black",
        "reason": "ruling",
        "scores": {"white": 2, "black": 1},
        "seq": declared.seq,
    }


def test_a_hidden_zombego_result_shows_every_viewer_the_same_scores() -> None:
    setup = Setup("m", ZOMBEGO_SEATS, {"ruleset": "Stratego Style with Zombies"}, seed=7)
    table = Table(ZombegoGame(), setup)
    play(table, ["place:2:c3"])
    table.record("ruling.declare_result", {"winner": "white", "reason": "r"}, t=10)

    result = result_of(table.game, table.state(10))

    assert result["scores"] == {"white": 1, "black": 0}
    seat_view = table.game.view(table.state(10), Viewer(Role.SEAT, seat="black"))
    assert seat_view["result"] == result
