"""Translate between the store's envelopes and the rules' values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.kernel.decider import Fact, Setup
from adjudicator.registry import decode
from events import MatchRecord, StoredEvent


def to_facts(events: Sequence[StoredEvent]) -> list[Fact]:
    """The events as the rules see them, each payload decoded once, here (``registry.decode``:
    a game's struct, or the recorded mapping)."""
    return [
        Fact(e.seq, e.type, e.actor, e.occurred_at, decode(e.type, e.payload), None, e.source)
        for e in events
    ]


def setup_of(match: MatchRecord) -> Setup:
    setup: dict[str, Any] = match.setup
    seats = setup["seats"]
    return Setup(
        match_id=match.match_id,
        seats=(seats[0], seats[1]),
        config=setup.get("config", {}),
        advantage=setup.get("advantage"),
        seed=setup.get("seed"),
        created_at=match.created_at,
    )
