"""Zoom posts in the phrasings players use (``read_post``; the phrasing table is in
``tests/unit/transcripts/test_phrasings_zoom.py``)."""

from __future__ import annotations

import pytest

from adjudicator.games.zoom.transcript import read_post
from adjudicator.transcripts.reading import CHATTER, Reading

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
    assert read_post(text, author_role="seat", seat="alpha") == Reading(
        body={"type": "buzz", "seat": "alpha", "pairs": pairs}
    )


@pytest.mark.parametrize("text", ["lol", "close!", "A", "gg wp", "", "```A c4```"])
def test_chatter_is_not_a_command(text: str) -> None:
    assert read_post(text, author_role="seat", seat="alpha") == CHATTER


@pytest.mark.parametrize("text", ["I think it's c4", "c4", "A c4 lol", "buzz", "priority?"])
def test_a_post_that_looks_like_a_command_but_is_not_one_is_a_near_miss(text: str) -> None:
    reading = read_post(text, author_role="seat", seat="alpha")
    assert reading.body is None and reading.near, reading


def test_priority_and_the_host_round_start() -> None:
    assert read_post("I declare priority!", author_role="seat", seat="b").body == {
        "type": "declare_priority",
        "seat": "b",
    }
    assert read_post("Round 2 — GO!", author_role="host", seat=None).body == {
        "type": "start_round",
        "round": 2,
    }
    assert read_post("go", author_role="host", seat=None).body == {"type": "start_round"}
    assert read_post("round 3 was fun", author_role="host", seat=None) == CHATTER
    assert read_post("Round 3 starts in 5 minutes", author_role="host", seat=None).near
    assert read_post("A c4", author_role="spectator", seat=None) == CHATTER
    assert read_post("A c4", author_role="seat", seat=None) == CHATTER


def test_a_two_letter_label_needs_the_rounds_hint() -> None:
    hint = {"targets": ["AB"]}
    assert read_post("ab c4", author_role="seat", seat="a").body is None
    assert read_post("ab c4", author_role="seat", seat="a", state_hint=hint).body == {
        "type": "buzz",
        "seat": "a",
        "pairs": [{"target": "AB", "at": "c4"}],
    }
