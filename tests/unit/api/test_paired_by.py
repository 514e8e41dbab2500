"""The match summary's ``tournament``: the setup's pairing as the service writes it, or None."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from api.service.reads import paired_by
from events import MatchRecord

WRITTEN = {"id": "t-1", "round": 2, "board": 4, "first": "p1", "second": "p2"}


def match(setup: dict[str, Any]) -> MatchRecord:
    created = datetime(2026, 12, 1, tzinfo=UTC)
    return MatchRecord("m-1", "zoom", "zoom/1", "open", created, setup, 3, None)


def test_a_tournament_s_match_names_its_tournament_round_board_and_players() -> None:
    assert paired_by(match({"seats": ["alpha", "beta"], "tournament": WRITTEN})) == {
        "tournament_id": "t-1", "round": 2, "board": 4, "first": "p1", "second": "p2",
    }  # fmt: skip


@pytest.mark.parametrize(
    "tournament",
    [None, "t-1", [], {}, {**WRITTEN, "round": "2"}, {**WRITTEN, "board": True},
     {**WRITTEN, "id": 7}, {**WRITTEN, "first": 1}],
)  # fmt: skip
def test_anything_else_names_no_tournament(tournament: Any) -> None:
    setup = {"seats": ["alpha", "beta"]} | (
        {} if tournament is None else {"tournament": tournament}
    )
    assert paired_by(match(setup)) is None
