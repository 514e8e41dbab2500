"""How host rulings reshape a fold.

Rulings are ordinary events, appended at the end of the log (record time = now), but they act on
the past. Before a fold, the rulings in the log are resolved into :class:`RulingEffects`:

* ``ruling.void`` voids one earlier event; ``ruling.undo`` voids every event after a seq.
  A voided ruling has no effect, so rulings can be ruled on. Resolution runs from the newest
  ruling back, so each ruling is known to stand or fall before its own effects are applied.
* ``ruling.amend`` overrides the derived outcome of one event (the game says how to read it).
* ``ruling.adjust_score``, ``ruling.end_round`` and ``ruling.declare_result`` take effect at
  their game time (the envelope's ``occurred_at``, chosen by the host like a host-entered
  command's, default now); the fold places them on the timeline there, before any player event
  at the same instant. (Records made before rulings carried their game time on the envelope name
  it as the payload's ``at``; that is still honoured.)
* ``ruling.declare_result`` finishes the match at its game time: a round in progress ends there
  (reason ``result``), so no round or step clock runs on after a result (each game's evolve).
* ``ruling.note`` only records a remark.

A ruling that cannot act is refused, never recorded as a silent no-op (``check_ruling``): a void
or amend of a system event or of an unknown seq, an amend of an event without a graded outcome,
an undo with nothing after its seq, a ruling the game has no use for (``end_round`` in Zombego),
an end of round when none is in progress at its time.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Annotated, Any, Literal, assert_never

import msgspec
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from adjudicator.kernel.decider import BOOKKEEPING, HOST, Draft, Fact
from adjudicator.kernel.errors import InvalidCommand, NotPermitted, RuleViolation
from adjudicator.kernel.numbers import Int
from adjudicator.kernel.payloads import EventTypes, Unreadable
from adjudicator.kernel.times import Instant

PREFIX = "ruling."
TIMED = frozenset({"ruling.adjust_score", "ruling.end_round", "ruling.declare_result"})
Reason = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]


class _Ruling(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    reason: Reason
    occurred_at: Instant | None = Field(
        None,
        description="game time of the ruling (default now): where a timed ruling takes effect;"
        " never in the future",
    )


class Void(_Ruling):
    type: Literal["void"] = "void"
    target_seq: Int = Field(ge=1)


class Undo(_Ruling):
    """Void every event after ``to_seq`` (which itself stands)."""

    type: Literal["undo"] = "undo"
    to_seq: Int = Field(ge=1)


class Amend(_Ruling):
    """Override a graded outcome; ``outcome`` is read by the game (e.g. ``{"A": "correct"}``)."""

    type: Literal["amend"] = "amend"
    target_seq: Int = Field(ge=1)
    outcome: dict[str, Any]


class AdjustScore(_Ruling):
    type: Literal["adjust_score"] = "adjust_score"
    seat: str
    delta: Int = Field(ge=-1000, le=1000)


class EndRound(_Ruling):
    type: Literal["end_round"] = "end_round"


class DeclareResult(_Ruling):
    """Declare the result (``winner`` None is a draw), overriding whatever the rules derive."""

    type: Literal["declare_result"] = "declare_result"
    winner: str | None


class Note(_Ruling):
    type: Literal["note"] = "note"


RulingCommand = Annotated[
    Void | Undo | Amend | AdjustScore | EndRound | DeclareResult | Note,
    Field(discriminator="type"),
]
ALL = frozenset({"void", "undo", "amend", "adjust_score", "end_round", "declare_result", "note"})


RULINGS = frozenset(PREFIX + kind for kind in ALL)
"""Every ruling's event type."""


def is_ruling(event_type: str) -> bool:
    return event_type in RULINGS


class _Recorded(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, gc=False):
    """A ruling as recorded (its payload: the command's fields but ``type`` and ``occurred_at``),
    decoded once where the store's events become facts. Keys it does not name are ignored (a
    record made elsewhere or earlier may hold more); one that does not read is ``Unreadable``
    and has no effect. A key the record lacks stays absent when it is recorded again."""

    reason: str | msgspec.UnsetType = msgspec.UNSET


class Voided(_Recorded, frozen=True, kw_only=True):
    target_seq: int


class Undone(_Recorded, frozen=True, kw_only=True):
    to_seq: int


class Amended(_Recorded, frozen=True, kw_only=True):
    target_seq: int
    outcome: dict[str, Any]


class _Timed(_Recorded, frozen=True, kw_only=True):
    at: str | msgspec.UnsetType | None = msgspec.UNSET
    """The game time where a record made before rulings carried it on the envelope."""


class ScoreAdjusted(_Timed, frozen=True, kw_only=True):
    seat: str
    delta: int


class RoundEnded(_Timed, frozen=True, kw_only=True):
    pass


class ResultDeclared(_Timed, frozen=True, kw_only=True):
    winner: str | None


class Noted(_Recorded, frozen=True, kw_only=True):
    pass


Recorded = Voided | Undone | Amended | ScoreAdjusted | RoundEnded | ResultDeclared | Noted
"""Every ruling's recorded payload."""
TimedRuling = ScoreAdjusted | RoundEnded | ResultDeclared
"""The payloads of the rulings that act at their game time (a game's evolve reads them)."""

EVENTS = EventTypes(
    {
        PREFIX + "void": Voided,
        PREFIX + "undo": Undone,
        PREFIX + "amend": Amended,
        PREFIX + "adjust_score": ScoreAdjusted,
        PREFIX + "end_round": RoundEnded,
        PREFIX + "declare_result": ResultDeclared,
        PREFIX + "note": Noted,
    }
)


AnyRuling = Void | Undo | Amend | AdjustScore | EndRound | DeclareResult | Note


@dataclass(frozen=True, slots=True)
class RulingTarget:
    """What the log says about the seq a ruling names (``type`` None: no such event)."""

    seq: int
    type: str | None


def target_seq(ruling: AnyRuling) -> int | None:
    if isinstance(ruling, Void | Amend):
        return ruling.target_seq
    if isinstance(ruling, Undo):
        return ruling.to_seq
    return None


def decide_ruling(
    ruling: AnyRuling,
    *,
    actor: str,
    last_seq: int,
    seats: Sequence[str],
    target: RulingTarget | None = None,
    supported: frozenset[str] = frozenset(),
    amendable: frozenset[str] = frozenset(),
) -> Draft:
    """Validate a ruling against the log's shape and the game, and say what to record.

    ``target``: the event the ruling names (void, amend, undo); ``supported``: the ruling types
    the game acts on; ``amendable``: the event types whose graded outcome an amend may override.
    Whether a round is in progress at an ``end_round``'s time is the caller's check (it needs
    the fold at that time)."""
    if actor != HOST:
        raise NotPermitted("host_only", "only the host issues rulings")
    if ruling.type not in supported:
        raise InvalidCommand("ruling_not_applicable", f"{ruling.type} means nothing in this game")
    _check_target(ruling, last_seq, target, amendable)
    if isinstance(ruling, AdjustScore | DeclareResult):
        named = ruling.seat if isinstance(ruling, AdjustScore) else ruling.winner
        if named is not None and named not in seats:
            raise InvalidCommand("unknown_seat", f"{named!r} is not a seat of this match")
    payload = ruling.model_dump(mode="json", exclude={"type", "occurred_at"})
    return Draft(type=PREFIX + ruling.type, payload=payload)


def _check_target(
    ruling: AnyRuling, last_seq: int, target: RulingTarget | None, amendable: frozenset[str]
) -> None:
    seq = target_seq(ruling)
    if seq is None:
        return
    if seq > last_seq or target is None or target.type is None:
        raise InvalidCommand("unknown_seq", f"no event with seq {seq} in this match")
    if isinstance(ruling, Undo):
        if seq >= last_seq:
            raise RuleViolation("nothing_to_undo", f"no event was recorded after seq {seq}")
        return
    if target.type in BOOKKEEPING:
        raise InvalidCommand(
            "not_rulable", f"seq {seq} is a {target.type} record, not a play or a ruling"
        )
    if isinstance(ruling, Amend) and target.type not in amendable:
        raise InvalidCommand("not_amendable", f"a {target.type} event has no graded outcome")


@dataclass(frozen=True, slots=True)
class RulingEffects:
    voided: dict[int, str] = field(default_factory=dict)
    amended: dict[int, Mapping[str, Any]] = field(default_factory=dict)
    timed: list[Fact] = field(default_factory=list)


def resolve(facts: Sequence[Fact]) -> RulingEffects:
    """Resolve every ruling in ``facts`` (seq order), newest first."""
    effects = RulingEffects()
    for fact in reversed(facts):  # is_ruling inlined: this runs once per event
        if fact.type in RULINGS and fact.seq not in effects.voided:
            _apply(fact, facts, effects)
    effects.timed.reverse()
    return effects


def _apply(ruling: Fact, facts: Sequence[Fact], effects: RulingEffects) -> None:
    recorded: Recorded | Unreadable = ruling.payload
    match recorded:
        case Voided():
            effects.voided.setdefault(recorded.target_seq, _why(ruling.seq, recorded))
        case Undone():
            why = _why(ruling.seq, recorded)
            for fact in facts:
                if recorded.to_seq < fact.seq < ruling.seq:
                    effects.voided.setdefault(fact.seq, why)
        case Amended():
            effects.amended.setdefault(recorded.target_seq, recorded.outcome)
        case ScoreAdjusted() | RoundEnded() | ResultDeclared():
            at = effective_at(ruling.at, recorded)
            effects.timed.append(Fact(ruling.seq, ruling.type, ruling.actor, at, recorded))
        case Noted() | Unreadable():
            pass  # a remark, or a ruling that does not read (recorded elsewhere): no effect
        case _:
            assert_never(recorded)


def _why(seq: int, recorded: Voided | Undone) -> str:
    reason = "" if recorded.reason is msgspec.UNSET else recorded.reason
    return f"voided by ruling {seq}: {reason}"


def effective_at(recorded_at: datetime, recorded: TimedRuling) -> datetime:
    """Where a timed ruling acts: its game time ``recorded_at`` (the envelope's), or an older
    record's payload ``at`` when it names an aware instant."""
    if recorded.at is None or recorded.at is msgspec.UNSET:
        return recorded_at
    try:
        moment = datetime.fromisoformat(recorded.at)
    except ValueError:
        return recorded_at
    return moment if moment.tzinfo is not None else recorded_at
