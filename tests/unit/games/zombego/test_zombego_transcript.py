"""Zombego posts: Ludii move strings and chat phrasings."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.games.zombego.transcript import parse_post

MOVE = {"type": "move", "from": "b1", "to": "c3"}


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("place:3:c2", {"type": "place", "cell": "c2", "value": 3}),
        ("place 3 at c2", {"type": "place", "cell": "c2", "value": 3}),
        ("3@c2", {"type": "place", "cell": "c2", "value": 3}),
        ("zombie:2:d4", {"type": "place_zombie", "cell": "d4", "value": 2}),
        ("z2 d4", {"type": "place_zombie", "cell": "d4", "value": 2}),
        ("slot 1 c2", {"type": "place", "cell": "c2", "slot": 1}),
        ("move:b1-c3", MOVE),
        ("b1-c3", MOVE),
        ("B1 to C3", MOVE),
        ("b1xc3", MOVE),
        ("b1 → c3", MOVE),
        ("move b1 c3", MOVE),
    ],
)
def test_moves(text: str, body: dict[str, Any]) -> None:
    assert parse_post(text, author_role="seat", seat="w") == {**body, "seat": "w"}


@pytest.mark.parametrize("text", ["gg", "nice move", "b1", "place it"])
def test_chatter(text: str) -> None:
    assert parse_post(text, author_role="seat", seat="w") is None
