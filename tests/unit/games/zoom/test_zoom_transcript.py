"""Zoom posts in the phrasings players use, read as command bodies (or chatter)."""

from __future__ import annotations

import pytest

from adjudicator.games.zoom.transcript import parse_post

A_C4 = [{"target": "A", "at": "c4"}]
TWO = [{"target": "A", "at": "c4"}, {"target": "B", "at": "a1"}]


@pytest.mark.parametrize(
    ("text", "pairs"),
    [
        ("A c4", A_C4),
        ("a C4", A_C4),
        ("  A   c4  ", A_C4),
        ("buzz A c4", A_C4),
        ("A: c4, B: a1", TWO),
        ("a c4 b a1", TWO),
        ("A=c4 B@a1", TWO),
        ("🔥 **A c4** 🔥", A_C4),
        (":eyes: A at c4", A_C4),
        ("<@123> A c4", A_C4),
        ("B at f3", [{"target": "B", "at": "f3"}]),
    ],
)
def test_a_buzz_reads_in_every_phrasing(text: str, pairs: list[dict[str, str]]) -> None:
    assert parse_post(text, author_role="seat", seat="alpha") == {
        "type": "buzz",
        "seat": "alpha",
        "pairs": pairs,
    }


@pytest.mark.parametrize("text", ["lol", "I think it's c4", "close!", "A", "c4", "gg wp"])
def test_chatter_is_not_a_command(text: str) -> None:
    assert parse_post(text, author_role="seat", seat="alpha") is None


def test_priority_and_the_host_round_start() -> None:
    assert parse_post("I declare priority!", author_role="seat", seat="b") == {
        "type": "declare_priority",
        "seat": "b",
    }
    assert parse_post("Round 2 — GO!", author_role="host", seat=None) == {
        "type": "start_round",
        "round": 2,
    }
    assert parse_post("go", author_role="host", seat=None) == {"type": "start_round"}
    assert parse_post("round 3 was fun", author_role="host", seat=None) is None
    assert parse_post("A c4", author_role="spectator", seat=None) is None


def test_a_two_letter_label_needs_the_rounds_hint() -> None:
    hint = {"targets": ["AB"]}
    assert parse_post("ab c4", author_role="seat", seat="a") is None
    assert parse_post("ab c4", author_role="seat", seat="a", state_hint=hint) == {
        "type": "buzz",
        "seat": "a",
        "pairs": [{"target": "AB", "at": "c4"}],
    }
