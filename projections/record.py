"""A match's setup derived from its events alone, so a re-fold needs nothing but the record.

``match.created`` carries seats, Advantage, config, game and rules version; ``match.seeded``
carries the seed (private to the host until the match closes: a record without its payload
cannot be re-folded, and says so).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.kernel.decider import Setup
from events import StoredEvent

CREATED, SEEDED, CLOSED = "match.created", "match.seeded", "match.closed"


class SetupMissing(ValueError):
    """The events do not say how the match was set up (or withhold the seed)."""


@dataclass(frozen=True, slots=True)
class RecordedSetup:
    game: str
    rules_version: str
    setup: Setup


def first_of(events: Sequence[StoredEvent], type: str) -> StoredEvent | None:
    return next((e for e in events if e.type == type), None)


def setup_from_events(
    events: Sequence[StoredEvent], withheld: Collection[int] = ()
) -> RecordedSetup:
    """The setup recorded in ``events``; ``withheld``: seqs whose payload is not known."""
    created, seeded = first_of(events, CREATED), first_of(events, SEEDED)
    if created is None or created.seq in withheld:
        raise SetupMissing("the record has no readable match.created event")
    if seeded is not None and seeded.seq in withheld:
        raise SetupMissing("the seed (match.seeded) is withheld from this record")
    data: dict[str, Any] = created.payload
    seats = data["seats"]
    setup = Setup(
        match_id=created.match_id,
        seats=(seats[0], seats[1]),
        config=data.get("config", {}),
        advantage=data.get("advantage"),
        seed=None if seeded is None else seeded.payload.get("seed"),
        created_at=created.occurred_at,
    )
    return RecordedSetup(str(data["game"]), str(data["rules_version"]), setup)


def setup_row(recorded: RecordedSetup) -> dict[str, Any]:
    """The store's ``matches.setup`` value for a recorded setup (as ``create_match`` writes it)."""
    setup = recorded.setup
    return {
        "seats": list(setup.seats),
        "advantage": setup.advantage,
        "config": dict(setup.config),
        "seed": setup.seed,
    }
