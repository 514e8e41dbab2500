"""``demo --game zombego``: a seeded random player plays a whole game through the HTTP API."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from adjudicator.games.zombego.notation import command_body as command_for
from api.cli.demo_zombego import ZombegoScript, moves_text, result_line
from tests.api.conftest import OPERATOR, Api

SMALL = {"board": 4, "piece_set": "(6) Sum dist by type = 4", "ply_cap": 40}


def played(api: Api, seed: int) -> tuple[ZombegoScript, dict[str, Any]]:
    script = ZombegoScript(api.client, OPERATOR, seed, SMALL, api.clock.now - timedelta(hours=1))
    return script, script.play()


def test_a_seeded_random_player_plays_until_the_game_ends(api: Api) -> None:
    script, final = played(api, seed=11)

    assert final["result"] is not None and final["legal"] == []
    assert final["ply"] == len(script.played)
    assert [h["move"] for h in final["history"]] == [m for _, m, _ in script.played]
    assert result_line(final).endswith(f"reason={final['result']['reason']}")
    assert moves_text(script.played).splitlines()[0].startswith("   1  white")


def test_the_same_seed_plays_the_same_game_and_another_seed_another(api: Api) -> None:
    (first, _), (again, _) = played(api, seed=3), played(api, seed=3)
    assert first.match_id != again.match_id
    assert first.played == again.played
    assert played(api, seed=4)[0].played != first.played


def test_ludii_move_strings_become_commands() -> None:
    assert command_for("white", "move:b1-d3") == {
        "type": "move",
        "seat": "white",
        "from": "b1",
        "to": "d3",
    }
    assert command_for("black", "zombie:7:c3") == {
        "type": "place_zombie",
        "seat": "black",
        "value": 7,
        "cell": "c3",
    }
