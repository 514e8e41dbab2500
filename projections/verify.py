"""Verify a match record: pure, works offline on an export as well as on a store's events.

Four checks, each saying precisely what fails:

* ``chain`` — seq 1..n, ``prev_hash`` links and every envelope hash (events.verify_chain);
* ``commitments`` — every revealed private payload + salt against its public commitment;
* ``header`` — the header's match id, event count and chain head against the events;
* ``refold`` — the events folded from the record's own setup with the game's current rules:
  ``game.result(state)`` must equal the result recorded in ``match.closed``. A record made under
  another rules version is named in the check's detail, so a changed result is never silent.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from adjudicator.kernel.canonical import verify_commitment
from adjudicator.kernel.decider import Game
from adjudicator.kernel.fold import fold
from events import StoredEvent, verify_chain
from events.record import Header
from projections.facts import to_facts
from projections.record import CLOSED, SetupMissing, first_of, setup_from_events


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
    games: Mapping[str, Game[Any]],
    withheld: Collection[int] = (),
) -> VerifyReport:
    """Every check over one match's events (``header``: None when verifying a store directly)."""
    checks = [chain_check(events), commitment_check(events)]
    if header is not None:
        checks.append(header_check(header, events))
    checks.append(refold_check(events, games, withheld))
    match_id = header.match_id if header is not None else (events[0].match_id if events else "")
    return VerifyReport(match_id, tuple(checks))


def chain_check(events: Sequence[StoredEvent]) -> Check:
    """Hashes and links only: salts are left to the commitment check."""
    report = verify_chain([replace(e, salt=None) for e in events])
    if report.ok:
        return Check("chain", True, f"{len(events)} events, seq 1..{len(events)}, hashes linked")
    return Check(
        "chain", False, f"seq {report.first_bad_seq}: {report.problem}", report.first_bad_seq
    )


def commitment_check(events: Sequence[StoredEvent]) -> Check:
    revealed = [e for e in events if e.salt is not None]
    for event in revealed:
        if event.commitment is None or not verify_commitment(
            event.commitment, event.salt or "", event.payload
        ):
            detail = f"seq {event.seq}: commitment does not match the revealed payload and salt"
            return Check("commitments", False, detail, event.seq)
    withheld = sum(1 for e in events if e.private_to is not None and e.salt is None)
    detail = f"{len(revealed)} revealed commitments match"
    return Check("commitments", True, detail + (f", {withheld} withheld" if withheld else ""))


def header_check(header: Header, events: Sequence[StoredEvent]) -> Check:
    head = events[-1].hash if events else None
    if header.event_count != len(events):
        detail = f"header says {header.event_count} events, the record holds {len(events)}"
        return Check("header", False, detail)
    if head is not None and header.chain_head != head:
        return Check("header", False, "chain_head is not the last event's hash", events[-1].seq)
    strangers = [e.seq for e in events if e.match_id != header.match_id]
    if strangers:
        return Check("header", False, "an event belongs to another match", strangers[0])
    return Check("header", True, "match id, event count and chain head agree")


def refold_check(
    events: Sequence[StoredEvent], games: Mapping[str, Game[Any]], withheld: Collection[int]
) -> Check:
    try:
        recorded = setup_from_events(events, withheld)
    except SetupMissing as missing:
        return Check("refold", False, f"cannot re-fold: {missing}")
    game = games.get(recorded.game)
    if game is None:
        return Check("refold", False, f"cannot re-fold: no game named {recorded.game!r} here")
    hidden = sorted(set(withheld) & {e.seq for e in events})
    if hidden:
        return Check("refold", False, f"cannot re-fold: payload of seq {hidden[0]} is withheld")
    try:
        return _compare(game, recorded.rules_version, recorded.setup, events)
    except Exception as error:  # a record from elsewhere may hold anything: report, never crash
        return Check("refold", False, f"the fold failed: {error!r}")


def _compare(game: Game[Any], version: str, setup: Any, events: Sequence[StoredEvent]) -> Check:
    rules = f"{game.name} rules {game.rules_version}"
    if version != game.rules_version:
        rules += f" (the match was recorded under {version})"
    closed = first_of(events, CLOSED)
    if closed is None:
        return Check("refold", True, f"not closed: no recorded result to compare; {rules}")
    played = [e for e in events if e.seq < closed.seq]
    state = fold(game, setup, to_facts(played), closed.occurred_at).state
    folded, expected = game.result(state), closed.payload.get("result")
    if folded != expected:
        detail = f"re-folded result {folded} differs from the recorded {expected} under {rules}"
        return Check("refold", False, detail, closed.seq)
    return Check("refold", True, f"re-folded result equals the recorded one under {rules}")
