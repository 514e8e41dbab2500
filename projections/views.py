"""What a viewer may see of a match: its state at (``at``, ``known_at``) and its events."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import Game, Viewer, seat_actor
from adjudicator.kernel.fold import Folded, fold
from events import MatchRecord, StoredEvent
from projections.facts import setup_of, to_facts


@dataclass(frozen=True, slots=True)
class Known:
    """Record time as a reader names it: an instant (``known_at``), the recording of a seq
    (``known_seq``: unambiguous even for two events in one microsecond), both, or now."""

    at: datetime | None = None
    seq: int | None = None

    @property
    def is_now(self) -> bool:
        return self.at is None and self.seq is None


NOW = Known()


def known_instant(known: Known, last_recorded: datetime | None, now: datetime) -> datetime:
    """The record time ``known`` stands for, at most now: ``known_at``, or when the last event
    known (by ``known_seq``) was recorded (``last_recorded``), whichever is earlier."""
    limit = now if known.at is None else min(known.at, now)
    if known.seq is not None and last_recorded is not None:
        limit = min(limit, last_recorded)
    return limit


def reveal_horizon(viewer: Viewer, at: datetime, known: datetime) -> datetime:
    """The game time a viewer may see the match folded at. Whoever does not see everything
    sees only what has been revealed by the record time asked about: ``at`` is cut to it, so a
    deadline that has not passed in real time (a lapsing window that would reveal a sealed
    solution, a verdict that would move the scores) reveals nothing. The host, and auditors
    of a closed match, may project the state to any instant."""
    return at if viewer.sees_everything else min(at, known)


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A match folded at a game time from the log as known at a record time."""

    match: MatchRecord
    folded: Folded[Any]
    at: datetime
    known: Known
    last_seq: int


def snapshot(
    game: Game[Any, Any],
    match: MatchRecord,
    events: Sequence[StoredEvent],
    at: datetime,
    known: Known = NOW,
) -> Snapshot:
    folded = fold(game, setup_of(match), to_facts(events), at)
    last = events[-1].seq if events else 0
    return Snapshot(match, folded, at, known, last)


def state_view(game: Game[Any, Any], snap: Snapshot, viewer: Viewer) -> dict[str, Any]:
    return {
        "match_id": snap.match.match_id,
        "game": snap.match.game,
        "rules_version": snap.match.rules_version,
        "status": snap.match.status,
        "at": iso(snap.at),
        "known_at": iso(snap.known.at) if snap.known.at else None,
        "known_seq": snap.known.seq,
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
        "occurred_at": event.occurred_iso,
        "recorded_at": event.recorded_iso,
        "visibility": event.visibility,
        "private_to": list(event.private_to) if event.private_to is not None else None,
        "commitment": event.commitment,
        "payload": event.payload if visible else None,
        "idempotency_key": event.idempotency_key if _own_key(event, viewer) else None,
        "prev_hash": event.prev_hash,
        "hash": event.hash,
        "source": event.source,
    }
    if visible and event.salt is not None and viewer.sees_everything:
        data["salt"] = event.salt
    return data


def _own_key(event: StoredEvent, viewer: Viewer) -> bool:
    """A request's idempotency key is shown to whoever sees everything and to the seat that
    sent it, never to another viewer (the event's hash still covers it)."""
    return viewer.sees_everything or (
        viewer.seat is not None and event.actor == seat_actor(viewer.seat)
    )
