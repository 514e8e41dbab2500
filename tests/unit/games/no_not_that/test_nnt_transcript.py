"""No, Not That! posts in the phrasings players and hosts use."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.games.no_not_that.transcript import parse_post


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
    assert parse_post(text, author_role="seat", seat="a") == {**body, "seat": "a"}


def test_a_bare_object_counts_only_in_direct_messages_during_a_step() -> None:
    private = {"private": True, "phase": "step"}
    assert parse_post("K", author_role="seat", seat="a") is None
    assert parse_post("K", author_role="seat", seat="a", state_hint=private) == {
        "type": "submit",
        "seat": "a",
        "object": "K",
    }


def test_host_posts() -> None:
    hint = {"next_round": 3}
    assert parse_post("next round", author_role="host", seat=None, state_hint=hint) == {
        "type": "start_round",
        "round": 3,
    }
    pending = {"category_targets": {"Q": [7]}, "prompt_claims": {"Alpha": 9}}
    assert parse_post("q doesn't fit", author_role="host", seat=None, state_hint=pending) == {
        "type": "judge_category",
        "target_seq": 7,
        "fits": False,
    }
    assert parse_post("Q doesn't fit", author_role="host", seat=None) == {
        "type": "judge_value",
        "object": "Q",
        "fits": False,
    }
    assert parse_post(
        "alpha meets the prompt", author_role="host", seat=None, state_hint=pending
    ) == {
        "type": "judge_prompt",
        "target_seq": 9,
        "meets": True,
    }
    assert parse_post("alpha meets the prompt", author_role="host", seat=None) is None
    assert parse_post("well played", author_role="host", seat=None) is None
