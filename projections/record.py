"""A match's setup derived from its events alone, so a re-fold needs nothing but the record.

``match.created`` carries seats, Advantage, config, game and rules version; ``match.seeded``
carries the seed (private to the host until the match closes: a record without its payload
cannot be re-folded, and says so).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.kernel.decider import MATCH_CLOSED, MATCH_CREATED, MATCH_SEEDED, Setup
from events import MatchRecord, StoredEvent

CREATED, SEEDED, CLOSED = MATCH_CREATED, MATCH_SEEDED, MATCH_CLOSED
SEAT = re.compile(r"[A-Za-z0-9_-]{1,32}")  # as the API admits a seat name


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
    """The setup recorded in ``events``; ``withheld``: seqs whose payload is not known.
    Raises SetupMissing when it is absent, withheld or not in the shape the service writes."""
    created, seeded = first_of(events, CREATED), first_of(events, SEEDED)
    if created is None or created.seq in withheld:
        raise SetupMissing("the record has no readable match.created event")
    if seeded is not None and seeded.seq in withheld:
        raise SetupMissing("the seed (match.seeded) is withheld from this record")
    data: dict[str, Any] = created.payload
    _check_created(data, created.seq)
    seats = data["seats"]
    setup = Setup(
        match_id=created.match_id,
        seats=(seats[0], seats[1]),
        config=data.get("config", {}),
        advantage=data.get("advantage"),
        seed=None if seeded is None else seeded.payload.get("seed"),
        created_at=created.occurred_at,
    )
    return RecordedSetup(data["game"], data["rules_version"], setup)


def _check_created(data: dict[str, Any], seq: int) -> None:
    seats = data.get("seats")
    if not (
        isinstance(seats, list)
        and len(seats) == 2
        and seats[0] != seats[1]
        and all(_is_seat(s) for s in seats)
    ):
        raise SetupMissing(f"match.created (seq {seq}) does not name two different seats")
    for field in ("game", "rules_version"):
        if not isinstance(data.get(field), str):
            raise SetupMissing(f"match.created (seq {seq}) has no {field} string")
    if not isinstance(data.get("config", {}), dict):
        raise SetupMissing(f"match.created (seq {seq}) has a config that is not an object")


def _is_seat(value: object) -> bool:
    return isinstance(value, str) and SEAT.fullmatch(value) is not None


def setup_row(recorded: RecordedSetup) -> dict[str, Any]:
    """The store's ``matches.setup`` value for a recorded setup (as ``MatchService.new_match``
    drafts it)."""
    setup = recorded.setup
    return {
        "seats": list(setup.seats),
        "advantage": setup.advantage,
        "config": dict(setup.config),
        "seed": setup.seed,
    }


def match_row(events: Sequence[StoredEvent]) -> MatchRecord:
    """The store's row of the match whose whole log is ``events`` (a verified record's): its
    recorded setup, open or closed as its log says. Raises SetupMissing as
    :func:`setup_from_events` does."""
    recorded = setup_from_events(events)
    closed = first_of(events, CLOSED)
    return MatchRecord(
        match_id=events[0].match_id,
        game=recorded.game,
        rules_version=recorded.rules_version,
        status="open" if closed is None else "closed",
        created_at=recorded.setup.created_at or events[0].occurred_at,
        setup=setup_row(recorded),
        last_seq=len(events),
        closed_at=None if closed is None else closed.recorded_at,
    )
