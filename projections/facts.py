"""Translate between the store's envelopes and the rules' values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.kernel.decider import Fact, Setup
from events import MatchRecord, StoredEvent


def to_fact(event: StoredEvent) -> Fact:
    return Fact(
        event.seq, event.type, event.actor, event.occurred_at, event.payload, None, event.source
    )


def to_facts(events: Sequence[StoredEvent]) -> list[Fact]:
    return [Fact(e.seq, e.type, e.actor, e.occurred_at, e.payload, None, e.source) for e in events]


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
