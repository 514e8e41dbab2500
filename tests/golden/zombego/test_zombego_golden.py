"""Both recorded Ludii games replay exactly: positions, legal moves, outcomes, counts, result."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from adjudicator.games.zombego import movegen, notation

GOLDEN = Path(__file__).parent / "zombego-golden.jsonl"


def _games() -> list[dict[str, Any]]:
    return [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines() if line]


GAMES = _games()


def test_the_copy_matches_the_shared_spec_when_it_is_beside_the_repo() -> None:
    shared = Path(__file__).parents[3] / ".." / "shared" / "spec" / "zombego-golden.jsonl"
    if not shared.exists():
        pytest.skip("the shared spec folder is not beside this checkout")
    assert shared.read_text(encoding="utf-8") == GOLDEN.read_text(encoding="utf-8")


@pytest.mark.parametrize("game", GAMES, ids=lambda g: Path(g["source"]).stem)
def test_every_ply_matches_ludii(game: dict[str, Any]) -> None:
    positions = notation.import_game(game)
    assert len(positions) == len(game["plies"]) + 1
    for ply, pos in zip(game["plies"], positions, strict=False):
        assert pos.to_move == ply["to_move"]
        assert notation.position_json(pos) == ply["position"]
        legal = notation.legal_with_outcomes(pos)
        assert len(legal) == len(pos.moves)
        assert sorted(legal) == sorted(ply["legal"])
        moves = {text: outcome for text, outcome in legal.items() if text.startswith("move:")}
        assert moves == ply["outcomes"]
        assert movegen.ludii_count(pos) == ply["ludii_legal_count"]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: Path(g["source"]).stem)
def test_the_final_position_and_result_match_ludii(game: dict[str, Any]) -> None:
    final = notation.import_game(game)[-1]
    assert notation.position_json(final) == game["final_position"]
    assert notation.result_json(final.result) == game["result"]
    assert final.moves == ()


@pytest.mark.parametrize("game", GAMES, ids=lambda g: Path(g["source"]).stem)
def test_export_gives_back_the_same_move_strings(game: dict[str, Any]) -> None:
    positions = notation.import_game(game)
    moves = [notation.parse_move(ply["played"], 6) for ply in game["plies"]]
    exported = notation.export_game(positions[0], moves)
    assert exported["moves"] == [ply["played"] for ply in game["plies"]]
    assert exported["result"] == game["result"]
    assert notation.import_game(exported)[-1] == positions[-1]
