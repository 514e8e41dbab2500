"""The read side, answered as the routes give it: match summaries and lists, what a command
recorded, a match's events, state, diff and timeline as the asking token may see them, and the
operator's feed. Each answer reads the match record once; the views are the projections'
(``projections.views``, ``projections.timetravel``)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import Role, Viewer
from adjudicator.kernel.errors import InvalidCommand
from adjudicator.kernel.times import checked
from api.service import access
from api.service.matches import Acted, MatchService
from events import MatchRecord, TokenGrant
from events.records import MatchStatus
from projections.timetravel import diff, known_timeline, rulings_recorded
from projections.views import NOW, Known, event_view, state_view


def summary(service: MatchService, match: MatchRecord) -> dict[str, Any]:
    """A match at a glance: setup, ``status`` (open, finished, closed), result and winner."""
    result = service.result_of(match)
    return {
        "match_id": match.match_id,
        "game": match.game,
        "rules_version": match.rules_version,
        "status": service.status_of(match, result),
        "result": result,
        "winner": None if result is None else result.get("winner"),
        "created_at": iso(match.created_at),
        "seats": match.setup["seats"],
        "advantage": match.setup.get("advantage"),
        "last_seq": match.last_seq,
        "tournament": paired_by(match),
    }


def paired_by(match: MatchRecord) -> dict[str, Any] | None:
    """The tournament that paired the match (its setup's ``tournament``, recorded in its
    ``match.created``): the tournament's id, the round, the board and the two players' ids
    (the first holds the first seat); None for a match created on its own, and for one whose
    setup says it otherwise than this service writes it (an imported record may say
    anything)."""
    paired = match.setup.get("tournament")
    if not isinstance(paired, dict):
        return None
    found = {
        "tournament_id": paired.get("id"),
        "round": paired.get("round"),
        "board": paired.get("board"),
        "first": paired.get("first"),
        "second": paired.get("second"),
    }
    kinds: dict[str, tuple[type, ...]] = {"tournament_id": (str,), "round": (int,)}
    kinds |= {"board": (int,), "first": (str, type(None)), "second": (str, type(None))}
    if any(type(found[key]) not in allowed for key, allowed in kinds.items()):
        return None
    return found


def match_summary(service: MatchService, match_id: str) -> dict[str, Any]:
    return summary(service, service.match(match_id))


def match_list(
    service: MatchService, game: str | None, status: str | None, limit: int, offset: int
) -> list[dict[str, Any]]:
    """Matches, newest first, filtered by game and status (``limit`` and ``offset`` page the
    stored matches before an open/finished filter)."""
    stored: MatchStatus | None = "closed" if status == "closed" else ("open" if status else None)
    found = [summary(service, m) for m in service.store.list_matches(game, stored, limit, offset)]
    return [m for m in found if status is None or m["status"] == status]


def acted(done: Acted) -> dict[str, Any]:
    """What a command, ruling or close recorded, as the token that acted may see it."""
    return {
        "events": [event_view(e, done.viewer) for e in done.events],
        "outcome": done.outcome,
        "replayed": done.replayed,
    }


def events(
    service: MatchService,
    match_id: str,
    grant: TokenGrant | None,
    known: Known = NOW,
    after_seq: int = 0,
    limit: int | None = None,
) -> list[dict[str, Any]]:
    """The log after ``after_seq`` (at most ``limit``) as recorded by ``known``, redacted."""
    match = service.match(match_id)
    viewer = access.viewer_of(match, grant)
    return [event_view(e, viewer) for e in service.events_of(match, known, after_seq, limit)]


def state(
    service: MatchService,
    match_id: str,
    grant: TokenGrant | None,
    at: datetime | None = None,
    known: Known = NOW,
) -> dict[str, Any]:
    """The state at game time ``at`` as known at ``known``, as ``grant`` may see it (``at``
    cut to the record time asked about for whoever does not see everything)."""
    match = service.match(match_id)
    viewer = access.viewer_of(match, grant)
    snap = service.snapshot_of(match, at, known, viewer)
    return state_view(service.game(match.game), snap, viewer)


def state_diff(
    service: MatchService,
    match_id: str,
    grant: TokenGrant | None,
    at: datetime | None,
    before: Known,
    after: datetime | None = None,
    after_seq: int | None = None,
) -> dict[str, Any]:
    """What changed in the state at ``at`` between record time ``before`` and the later one
    (``after`` or ``after_seq``, default now; checked once the match is found, 422
    ``naive_time``/``time_out_of_range``), and the rulings recorded in between that explain it."""
    match = service.match(match_id)
    viewer = access.viewer_of(match, grant)
    then = service.snapshot_of(match, at, before, viewer)
    now = service.snapshot_of(match, then.at, record_time(after, after_seq, "after"), viewer)
    if now.last_seq < then.last_seq:
        raise InvalidCommand("diff_backwards", "before knows more of the match than after")
    game = service.game(match.game)
    old, new = state_view(game, then, viewer), state_view(game, now, viewer)
    recorded = service.events_of(match, now.known, then.last_seq)
    return {
        "at": old["at"],
        "before": {
            "known_at": old["known_at"],
            "known_seq": old["known_seq"],
            "last_seq": then.last_seq,
        },
        "after": {
            "known_at": new["known_at"],
            "known_seq": new["known_seq"],
            "last_seq": now.last_seq,
        },
        "rulings": rulings_recorded(recorded),
        "changes": diff(old["state"], new["state"], "state")
        + diff(old["voided"], new["voided"], "voided"),
    }


def record_time(moment: datetime | None, seq: int | None, what: str) -> Known:
    """A record time given as an instant (checked: zone, range) or as a seq (or both)."""
    return Known(None if moment is None else checked(moment, what), seq)


def timeline(
    service: MatchService, match_id: str, grant: TokenGrant | None, known: Known = NOW
) -> tuple[dict[str, Any], bool]:
    """Score and key outcomes over game time, one point per event that acted on the game; and
    whether its points are the checkpoints' shared list (see ``known_timeline``)."""
    match = service.match(match_id)
    game, viewer = service.game(match.game), access.viewer_of(match, grant)
    log = service.checkpoints.known(game, match, known)
    points, shared = known_timeline(game, log, viewer)
    return {"match_id": match_id, "points": points}, shared


def feed(service: MatchService, after_position: int, limit: int) -> list[dict[str, Any]]:
    """Every match's events in global order after ``after_position``, as a spectator sees
    them (private payloads withheld)."""
    spectator = Viewer(Role.SPECTATOR)
    return [
        {"match_id": e.match_id, "position": e.position, **event_view(e, spectator)}
        for e in service.store.read_after(after_position, limit)
    ]
