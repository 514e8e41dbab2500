"""Verify a match record: pure, works offline on an export as well as on a store's events.

Four checks, each saying precisely what fails:

* ``chain`` — seq 1..n, ``prev_hash`` links and every envelope hash (events.verify_chain);
* ``commitments`` — every revealed private payload + salt against its public commitment; a
  closed match's record withholding a private payload fails (its full export reveals them all);
* ``header`` — the header's match id, event count, chain head, status (closed exactly when a
  ``match.closed`` is recorded), game, rules version and ``created_at`` (as ``match.created``
  says);
* ``refold`` — ``match.closed``, if recorded, is the one, last event; the events folded from the
  record's own setup with the game's current rules: ``game.result(state)`` must agree with the
  result recorded in ``match.closed`` (:func:`same_result`: it names a winner and a reason, and
  every key it has equals the re-folded one's, so a record made before results carried
  ``scores`` still verifies). A record made under another rules version is named in the
  check's detail, so a changed result is never silent.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from adjudicator.kernel.canonical import verify_commitment
from adjudicator.kernel.decider import Game
from adjudicator.kernel.fold import fold
from events import StoredEvent, verify_chain
from events.record import Header
from projections.facts import to_facts
from projections.record import CLOSED, CREATED, SetupMissing, first_of, setup_from_events


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    ok: bool
    detail: str
    first_bad_seq: int | None = None

    def as_json(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "detail": self.detail, "seq": self.first_bad_seq}


@dataclass(frozen=True, slots=True)
class VerifyReport:
    match_id: str
    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        return all(check.ok for check in self.checks)

    @property
    def first_bad_seq(self) -> int | None:
        bad = [c.first_bad_seq for c in self.checks if c.first_bad_seq is not None]
        return min(bad) if bad else None

    def as_json(self) -> dict[str, Any]:
        return {
            "match_id": self.match_id,
            "ok": self.ok,
            "first_bad_seq": self.first_bad_seq,
            "checks": [check.as_json() for check in self.checks],
        }


def verify_record(
    header: Header | None,
    events: Sequence[StoredEvent],
    games: Mapping[str, Game[Any, Any]],
    withheld: Collection[int] = (),
) -> VerifyReport:
    """Every check over one match's events (``header``: None when verifying a store directly)."""
    checks = [chain_check(events), commitment_check(events)]
    if header is not None:
        checks.append(header_check(header, events))
    checks.append(refold_check(events, games, withheld))
    match_id = header.match_id if header is not None else (events[0].match_id if events else "")
    return VerifyReport(match_id, tuple(checks))


def counting(count: int, noun: str) -> str:
    """``1 event``, ``2 events``: a count with its noun in the right number."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def chain_check(events: Sequence[StoredEvent]) -> Check:
    """Hashes and links only: salts are left to the commitment check."""
    report = verify_chain(events, commitments=False)
    if report.ok:
        counted = f"{counting(len(events), 'event')}, seq 1..{len(events)}, hashes linked"
        return Check("chain", True, counted)
    return Check(
        "chain", False, f"seq {report.first_bad_seq}: {report.problem}", report.first_bad_seq
    )


def commitment_check(events: Sequence[StoredEvent]) -> Check:
    """Every revealed payload + salt against its commitment; in a closed match's record every
    private event must be revealed (the full export shows them), so a withheld one fails."""
    revealed = [e for e in events if e.salt is not None]
    for event in revealed:
        if event.commitment is None or not verify_commitment(
            event.commitment, event.salt or "", event.payload
        ):
            detail = f"seq {event.seq}: commitment does not match the revealed payload and salt"
            return Check("commitments", False, detail, event.seq)
    withheld = [e.seq for e in events if e.private_to is not None and e.salt is None]
    if withheld and first_of(events, CLOSED) is not None:
        detail = (
            f"seq {withheld[0]}: the match is closed, yet the payload and salt of this private"
            f" event are withheld ({len(withheld)} withheld), so its commitment cannot be checked"
        )
        return Check("commitments", False, detail, withheld[0])
    matches = "match" if len(revealed) != 1 else "matches"
    detail = f"{counting(len(revealed), 'revealed commitment')} {matches}"
    return Check("commitments", True, detail + (f", {len(withheld)} withheld" if withheld else ""))


def header_check(header: Header, events: Sequence[StoredEvent]) -> Check:
    """The header's claims against the events: match id, count, chain head, status, game,
    rules version and creation time (only ``exported_at`` is the exporter's word alone)."""
    head = events[-1].hash if events else None
    if header.event_count != len(events):
        detail = f"header says {header.event_count} events, the record holds {len(events)}"
        return Check("header", False, detail)
    if head is not None and header.chain_head != head:
        return Check("header", False, "chain_head is not the last event's hash", events[-1].seq)
    strangers = [e.seq for e in events if e.match_id != header.match_id]
    if strangers:
        return Check("header", False, "an event belongs to another match", strangers[0])
    return _status_problem(header, events) or _setup_problem(header, events) or HEADER_OK


HEADER_OK = Check("header", True, "match id, count, chain head, status, game and creation agree")


def _status_problem(header: Header, events: Sequence[StoredEvent]) -> Check | None:
    closed = first_of(events, CLOSED)
    if header.status == "closed" and closed is None:
        return Check("header", False, "header says closed, but no match.closed event is recorded")
    if header.status != "closed" and closed is not None:
        detail = f"header says {header.status}, but seq {closed.seq} is match.closed"
        return Check("header", False, detail, closed.seq)
    return None


def _setup_problem(header: Header, events: Sequence[StoredEvent]) -> Check | None:
    created = first_of(events, CREATED)
    if created is None or created.private_to is not None:
        return None  # the refold check says the setup is missing
    said = (created.payload.get("game"), created.payload.get("rules_version"))
    if said != (header.game, header.rules_version):
        detail = (
            f"header says {header.game} {header.rules_version}, match.created (seq"
            f" {created.seq}) says {said[0]} {said[1]}"
        )
        return Check("header", False, detail, created.seq)
    if datetime.fromisoformat(header.created_at.upper()) != created.occurred_at:
        detail = f"header created_at is not when match.created (seq {created.seq}) occurred"
        return Check("header", False, detail, created.seq)
    return None


def refold_check(
    events: Sequence[StoredEvent], games: Mapping[str, Game[Any, Any]], withheld: Collection[int]
) -> Check:
    """Re-fold the events with the game's current rules; ``match.closed``, if any, must be the
    last event, and the result it records must be the one folded."""
    closing = close_problem(events)
    if closing is not None:
        return closing
    try:
        recorded = setup_from_events(events, withheld)
    except SetupMissing as missing:
        return Check("refold", False, f"cannot re-fold: {missing}")
    game = games.get(recorded.game)
    if game is None:
        return Check("refold", False, f"cannot re-fold: no game named {recorded.game!r} here")
    hidden = sorted(set(withheld) & {e.seq for e in events}) if withheld else []
    if hidden:
        return Check("refold", False, f"cannot re-fold: payload of seq {hidden[0]} is withheld")
    try:
        return _compare(game, recorded.rules_version, recorded.setup, events)
    except Exception as error:  # a record from elsewhere may hold anything: report, never crash
        return Check("refold", False, f"the fold failed: {error!r}")


def close_problem(events: Sequence[StoredEvent]) -> Check | None:
    """A failing refold check when ``match.closed`` is not the one, last event (else None)."""
    closes = [i for i, e in enumerate(events) if e.type == CLOSED]
    if len(closes) > 1:
        first, second = events[closes[0]].seq, events[closes[1]].seq
        detail = f"seq {second}: a second match.closed (the match closed at seq {first})"
        return Check("refold", False, detail, second)
    if closes and closes[0] != len(events) - 1:
        closed, after = events[closes[0]].seq, events[closes[0] + 1].seq
        detail = f"seq {after}: an event recorded after match.closed (seq {closed})"
        return Check("refold", False, detail, after)
    return None


RECORDED_KEYS = frozenset({"winner", "reason"})
"""What every recorded result has held, from the first record on."""


def same_result(recorded: object, folded: Mapping[str, Any] | None) -> bool:
    """Whether the re-folded result agrees with the one ``match.closed`` recorded: both None,
    or the recorded one names ``winner`` and ``reason`` and each of its keys equals the folded
    one's. Keys the folded result has beyond the recorded ones (``scores``, which older records
    lack) are not compared."""
    if recorded is None or folded is None:
        return recorded is None and folded is None
    if not isinstance(recorded, Mapping) or not recorded.keys() >= RECORDED_KEYS:
        return False
    return all(key in folded and folded[key] == value for key, value in recorded.items())


def _compare(
    game: Game[Any, Any], version: str, setup: Any, events: Sequence[StoredEvent]
) -> Check:
    rules = f"{game.name} rules {game.rules_version}"
    if version != game.rules_version:
        rules += f" (the match was recorded under {version})"
    closed = first_of(events, CLOSED)
    if closed is None:
        return Check("refold", True, f"not closed: no recorded result to compare; {rules}")
    played = [e for e in events if e.seq < closed.seq]
    state = fold(game, setup, to_facts(played), closed.occurred_at).state
    folded, expected = game.result(state), closed.payload.get("result")
    if not same_result(expected, folded):
        detail = f"re-folded result {folded} differs from the recorded {expected} under {rules}"
        return Check("refold", False, detail, closed.seq)
    return Check("refold", True, f"re-folded result equals the recorded one under {rules}")
