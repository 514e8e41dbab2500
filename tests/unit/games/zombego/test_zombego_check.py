"""Refused moves name the rule they break, with a stable code."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.games.zombego import notation
from adjudicator.games.zombego.check import check
from adjudicator.games.zombego.play import push, start
from adjudicator.games.zombego.position import MOVE, Move, Position, Rules
from adjudicator.kernel.errors import DomainError, InvalidCommand, RuleViolation

Cells = dict[str, tuple[int, int, bool]]
E2: Cells = {
    **{c: (1, v, False) for c, v in {"b1": 56, "c3": 2, "a8": 7, "b8": 15, "c8": 25}.items()},
    **{c: (1, v, False) for c, v in {"a7": 57, "b7": 101, "c7": 106}.items()},
    **{c: (2, v, False) for c, v in {"d3": 25, "h8": 2, "g8": 7, "f8": 56, "h7": 57}.items()},
    **{c: (2, v, False) for c, v in {"g7": 101, "f7": 106, "h6": 15}.items()},
}


def given(cells: Cells, hand1: list[Any], hand2: list[Any], **options: Any) -> Position:
    to_move = options.pop("to_move", 1)
    hands = [[h if isinstance(h, tuple) else (h, False) for h in hand] for hand in (hand1, hand2)]
    data = {"cells": cells, "hand1": hands[0], "hand2": hands[1]}
    return notation.position_from_json(Rules(**options), data, to_move)


def refusal(pos: Position, text: str) -> DomainError:
    with pytest.raises(DomainError) as caught:
        check(pos, notation.parse_move(text, pos.rules.board))
    return caught.value


def e5b() -> Position:
    cells: Cells = {"a1": (1, 55, False), "e5": (1, 16, False), "c3": (2, 12, False)}
    cells |= {"a5": (1, 12, True), "e1": (1, 17, True)}
    hand1 = [(26, True), (27, True)]
    return given(cells, hand1, [16], board=5, piece_set="(7) 8 Destinations")


def _e6() -> Position:
    cells = {c: p for c, p in E2.items() if c != "c7"}
    return given(cells, [106], [], board=8)


def _e6_with_zombie() -> Position:
    cells = {c: p for c, p in E2.items() if c not in {"c7", "c3"}}
    return given(cells, [106, (2, True)], [], board=8)


def _zombies_e4() -> Position:
    cells = E2 | {"b1": (1, 56, True), "d3": (2, 25, True)}
    return given(cells, [], [], board=8)


CASES: list[tuple[str, Any, str, type[DomainError]]] = [
    ("unknown_piece", lambda: start(Rules()), "place:3:a1", InvalidCommand),
    ("cell_attacked", lambda: given({"c3": (2, 2, False)}, [7], []), "place:7:c2", RuleViolation),
    ("cell_occupied", lambda: given({"c3": (2, 2, False)}, [7], []), "place:7:c3", RuleViolation),
    ("not_in_hand", lambda: given({"c3": (1, 2, False)}, [7], []), "place:2:f6", RuleViolation),
    ("not_in_hand", lambda: given({}, [7], []), "zombie:7:f6", RuleViolation),
    ("zombie_gate_closed", e5b, "zombie:26:c1", RuleViolation),
    ("placement_first", _e6, "move:b1-a1", RuleViolation),
    ("placement_first", _e6_with_zombie, "zombie:2:a1", RuleViolation),
    ("movement_first", lambda: given(E2, [(2, True)], [], board=8), "zombie:2:e1", RuleViolation),
    ("not_your_piece", lambda: given(E2, [], [], board=8), "move:d3-d4", RuleViolation),
    ("not_your_piece", lambda: given(E2, [], [], board=8), "move:d4-d5", RuleViolation),
    ("own_piece", lambda: given(E2, [], [], board=8), "move:b1-c3", RuleViolation),
    ("no_helper", lambda: given(E2, [], [], board=8), "move:c3-c4", RuleViolation),
    ("no_helper", lambda: given(E2, [], [], board=8), "move:b1-h1", RuleViolation),
    ("zombie_fight", _zombies_e4, "move:b1-d3", RuleViolation),
    ("bad_cell", lambda: start(Rules()), "place:2:g1", InvalidCommand),
    ("bad_cell", lambda: start(Rules()), "move:a1-a9", InvalidCommand),
    ("bad_move", lambda: start(Rules()), "jump:a1", InvalidCommand),
    ("bad_move", lambda: start(Rules()), "place:x:a1", InvalidCommand),
]


@pytest.mark.parametrize(("code", "make", "text", "kind"), CASES, ids=[c[0] for c in CASES])
def test_a_refused_move_names_its_rule(
    code: str, make: Any, text: str, kind: type[DomainError]
) -> None:
    error = refusal(make(), text)
    assert (error.code, type(error)) == (code, kind)


def test_a_finished_game_refuses_everything() -> None:
    pos = start(Rules(ply_cap=1))
    pos = push(pos, pos.moves[0])
    assert refusal(pos, "place:7:f6").code == "game_over"


def test_a_legal_move_passes() -> None:
    check(given(E2, [], [], board=8), Move(MOVE, 1, 0))


def test_a_hand_made_move_off_the_board_is_a_bad_cell() -> None:
    with pytest.raises(InvalidCommand) as caught:
        check(start(Rules()), Move(MOVE, 0, 99))
    assert caught.value.code == "bad_cell"
