"""No, Not That! posts in the phrasings players and hosts use (``read_post``; the phrasing
tables are in ``tests/unit/transcripts/test_phrasings_nnt.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.games.no_not_that.transcript import read_post
from adjudicator.transcripts.reading import CHATTER


@pytest.mark.parametrize(
    ("text", "body"),
    [
        ("submit WHIZ", {"type": "submit", "object": "WHIZ"}),
        ("object: cat", {"type": "submit", "object": "cat"}),
        ("head start: Q", {"type": "head_start", "object": "Q"}),
        ("No, not that!", {"type": "claim_invalid"}),
        ("that's invalid", {"type": "claim_invalid"}),
        ("claim prompt", {"type": "claim_prompt"}),
        ("pass", {"type": "pass"}),
        ("solution: W, H, I, Z", {"type": "solve", "tokens": ["W", "H", "I", "Z"]}),
        ("solve W H I Z", {"type": "solve", "tokens": ["W", "H", "I", "Z"]}),
        ("challenge!", {"type": "challenge"}),
        ("no challenge", {"type": "accept"}),
        ("use life ring", {"type": "use_item", "item": "life_ring"}),
        ("exchange x2", {"type": "exchange", "times": 2}),
    ],
)
def test_seat_posts(text: str, body: dict[str, Any]) -> None:
    assert read_post(text, author_role="seat", seat="a").body == {**body, "seat": "a"}


def test_a_bare_object_counts_only_in_direct_messages_during_a_step() -> None:
    private = {"private": True, "phase": "step"}
    assert read_post("K", author_role="seat", seat="a") == CHATTER
    assert read_post("K", author_role="seat", seat="a", state_hint=private).body == {
        "type": "submit",
        "seat": "a",
        "object": "K",
    }
    between = {"private": True, "phase": "between_rounds"}
    assert read_post("K", author_role="seat", seat="a", state_hint=between) == CHATTER


def test_a_short_direct_message_that_may_be_chatter_is_shown_to_the_host() -> None:
    """One word is the object (if the seat has acted, the rules refuse it); more words with
    chat in them are shown to the host; greetings only are chatter."""
    private = {"private": True, "phase": "step"}
    assert read_post("hmm, tough one", author_role="seat", seat="a", state_hint=private).near
    assert read_post("ok thanks", author_role="seat", seat="a", state_hint=private) == CHATTER
    assert read_post("ok", author_role="seat", seat="a", state_hint=private).body
    assert read_post("gg\nthanks", author_role="seat", seat="a", state_hint=private) == CHATTER


def test_a_command_word_that_does_not_read_whole_is_a_near_miss() -> None:
    for text in ("submit", "claim invalid lol", "Q is invalid", "submit Q?"):
        assert read_post(text, author_role="seat", seat="a").near, text
    assert read_post("gg", author_role="seat", seat="a") == CHATTER


def test_host_posts() -> None:
    hint = {"next_round": 3}
    assert read_post("next round", author_role="host", seat=None, state_hint=hint).body == {
        "type": "start_round",
        "round": 3,
    }
    pending = {"category_targets": {"Q": [7]}, "prompt_claims": {"Alpha": 9}}
    assert read_post("q doesn't fit", author_role="host", seat=None, state_hint=pending).body == {
        "type": "judge_category",
        "target_seq": 7,
        "fits": False,
    }
    assert read_post("Q doesn't fit", author_role="host", seat=None).body == {
        "type": "judge_value",
        "object": "Q",
        "fits": False,
    }
    assert read_post(
        "alpha meets the prompt", author_role="host", seat=None, state_hint=pending
    ).body == {
        "type": "judge_prompt",
        "target_seq": 9,
        "meets": True,
    }
    # A verdict on no pending claim looks like a command but is none: the host is shown it.
    assert read_post("alpha meets the prompt", author_role="host", seat=None).near
    assert read_post("well played", author_role="host", seat=None) == CHATTER
    assert read_post("submit Q", author_role="spectator", seat=None) == CHATTER
