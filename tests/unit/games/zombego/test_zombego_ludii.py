"""The pure Ludii conversions of a match: export of a fold, option checks, entry commands."""

from __future__ import annotations

import pytest

from adjudicator.games.zombego import ludii
from adjudicator.games.zombego.commands import ZombegoConfig
from adjudicator.games.zombego.notation import IllegalPly
from adjudicator.games.zombego.state import ZombegoState
from adjudicator.kernel.errors import InvalidCommand

OPTIONS = {"board": 6, "ruleset": "All Zombies", "piece_set": "(8) 12 Destinations"}


def fresh(seed: int | None = 5) -> ZombegoState:
    return ZombegoState.new(("w", "b"), ZombegoConfig(), seed)


def test_a_fresh_match_exports_as_an_empty_ludii_game() -> None:
    game = ludii.game_json(fresh())
    assert {k: game[k] for k in OPTIONS} == OPTIONS
    assert game["values"] == [2, 7, 15, 25, 56, 57, 101, 106]
    assert (game["moves"], game["result"], game["players"]) == ([], None, {"1": "w", "2": "b"})


def test_entry_commands_name_pieces_by_value_whatever_the_seeded_order() -> None:
    game = {**OPTIONS, "moves": ["place:101:a1", "place:2:f6"]}
    for seed in (None, 1, 99):
        assert ludii.entry_commands(fresh(seed), game) == [
            {"type": "place", "seat": "w", "value": 101, "cell": "a1"},
            {"type": "place", "seat": "b", "value": 2, "cell": "f6"},
        ]


def test_other_options_and_illegal_plies_are_refused() -> None:
    with pytest.raises(InvalidCommand) as other:
        ludii.entry_commands(fresh(), {**OPTIONS, "piece_set": "(7) 8 Destinations"})
    assert other.value.code == "options_mismatch"
    with pytest.raises(InvalidCommand) as values:
        ludii.entry_commands(fresh(), {**OPTIONS, "values": [1, 2]})
    assert values.value.code == "options_mismatch"
    with pytest.raises(IllegalPly) as illegal:
        ludii.entry_commands(fresh(), {**OPTIONS, "moves": ["place:2:a1", "place:2:a1"]})
    assert illegal.value.details == {"ply": 2, "move": "place:2:a1", "reason": "cell_occupied"}
