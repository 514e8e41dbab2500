"""Zombego posts: Ludii move strings and chat phrasings (``read_post``; the phrasing tables are
in ``tests/unit/transcripts/test_phrasings_zombego.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.games.zombego.transcript import read_post
from adjudicator.transcripts.reading import CHATTER

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
    assert read_post(text, author_role="seat", seat="w").body == {**body, "seat": "w"}


@pytest.mark.parametrize("text", ["gg", "nice move", "oops, I meant\nthis one:"])
def test_chatter(text: str) -> None:
    assert read_post(text, author_role="seat", seat="w") == CHATTER


@pytest.mark.parametrize("text", ["b1", "place it", "b1 c3 lol", "move b1"])
def test_a_post_that_looks_like_a_move_but_is_not_one_is_a_near_miss(text: str) -> None:
    assert read_post(text, author_role="seat", seat="w").near


def test_host_posts_are_never_moves() -> None:
    assert read_post("gg", author_role="host", seat=None) == CHATTER
    assert read_post("white: b1-c3", author_role="host", seat=None).near
    assert read_post("b1-c3", author_role="spectator", seat=None) == CHATTER
