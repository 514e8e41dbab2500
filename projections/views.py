"""What a viewer may see of a match: its state at (``at``, ``known_at``) and its events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import Game, Viewer
from adjudicator.kernel.fold import Folded, fold
from events import MatchRecord, StoredEvent
from projections.facts import setup_of, to_facts


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A match folded at a game time from the log as known at a record time."""

    match: MatchRecord
    folded: Folded[Any]
    at: datetime
    known_at: datetime | None
    last_seq: int


def snapshot(
    game: Game[Any],
    match: MatchRecord,
    events: Sequence[StoredEvent],
    at: datetime,
    known_at: datetime | None = None,
) -> Snapshot:
    folded = fold(game, setup_of(match), to_facts(events), at)
    last = events[-1].seq if events else 0
    return Snapshot(match, folded, at, known_at, last)


def state_view(game: Game[Any], snap: Snapshot, viewer: Viewer) -> dict[str, Any]:
    return {
        "match_id": snap.match.match_id,
        "game": snap.match.game,
        "rules_version": snap.match.rules_version,
        "status": snap.match.status,
        "at": iso(snap.at),
        "known_at": iso(snap.known_at) if snap.known_at else None,
        "last_seq": snap.last_seq,
        "voided": {str(seq): why for seq, why in sorted(snap.folded.effects.voided.items())},
        "state": game.view(snap.folded.state, viewer),
    }


def event_view(event: StoredEvent, viewer: Viewer) -> dict[str, Any]:
    """The envelope as ``viewer`` may see it: a private payload is withheld, its commitment not."""
    visible = event.private_to is None or viewer.may_see_private(event.private_to)
    data: dict[str, Any] = {
        "seq": event.seq,
        "type": event.type,
        "actor": event.actor,
        "occurred_at": iso(event.occurred_at),
        "recorded_at": iso(event.recorded_at),
        "visibility": event.visibility,
        "private_to": list(event.private_to) if event.private_to is not None else None,
        "commitment": event.commitment,
        "payload": event.payload if visible else None,
        "idempotency_key": event.idempotency_key,
        "prev_hash": event.prev_hash,
        "hash": event.hash,
        "source": event.source,
    }
    if visible and event.salt is not None and viewer.sees_everything:
        data["salt"] = event.salt
    return data
