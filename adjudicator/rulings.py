"""How host rulings reshape a fold.

Rulings are ordinary events, appended at the end of the log (record time = now), but they act on
the past. Before a fold, the rulings in the log are resolved into :class:`RulingEffects`:

* ``ruling.void`` voids one earlier event; ``ruling.undo`` voids every event after a seq.
  A voided ruling has no effect, so rulings can be ruled on. Resolution runs from the newest
  ruling back, so each ruling is known to stand or fall before its own effects are applied.
* ``ruling.amend`` overrides the derived outcome of one event (the game says how to read it).
* ``ruling.adjust_score``, ``ruling.end_round`` and ``ruling.declare_result`` take effect at a
  game time named in their payload; the fold places them on the timeline there.
* ``ruling.note`` only records a remark.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, StringConstraints

from adjudicator.kernel.decider import HOST, Draft, Fact
from adjudicator.kernel.errors import InvalidCommand, NotPermitted

PREFIX = "ruling."
TIMED = frozenset({"ruling.adjust_score", "ruling.end_round", "ruling.declare_result"})
Reason = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]


class _Ruling(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    reason: Reason


class Void(_Ruling):
    type: Literal["void"] = "void"
    target_seq: int = Field(ge=1)


class Undo(_Ruling):
    """Void every event after ``to_seq`` (which itself stands)."""

    type: Literal["undo"] = "undo"
    to_seq: int = Field(ge=1)


class Amend(_Ruling):
    """Override a graded outcome; ``outcome`` is read by the game (e.g. ``{"A": "correct"}``)."""

    type: Literal["amend"] = "amend"
    target_seq: int = Field(ge=1)
    outcome: dict[str, Any]


class AdjustScore(_Ruling):
    type: Literal["adjust_score"] = "adjust_score"
    seat: str
    delta: int = Field(ge=-1000, le=1000)
    at: AwareDatetime


class EndRound(_Ruling):
    type: Literal["end_round"] = "end_round"
    at: AwareDatetime


class DeclareResult(_Ruling):
    """Declare the result (``winner`` None is a draw), overriding whatever the rules derive."""

    type: Literal["declare_result"] = "declare_result"
    winner: str | None
    at: AwareDatetime


class Note(_Ruling):
    type: Literal["note"] = "note"


RulingCommand = Annotated[
    Void | Undo | Amend | AdjustScore | EndRound | DeclareResult | Note,
    Field(discriminator="type"),
]


def is_ruling(event_type: str) -> bool:
    return event_type.startswith(PREFIX)


def decide_ruling(
    ruling: Void | Undo | Amend | AdjustScore | EndRound | DeclareResult | Note,
    *,
    actor: str,
    last_seq: int,
    seats: Sequence[str],
) -> Draft:
    """Validate a ruling against the log's shape and say what to record."""
    if actor != HOST:
        raise NotPermitted("host_only", "only the host issues rulings")
    target = getattr(ruling, "target_seq", None) or getattr(ruling, "to_seq", None)
    if target is not None and target > last_seq:
        raise InvalidCommand("unknown_seq", f"no event with seq {target} in this match")
    if isinstance(ruling, AdjustScore | DeclareResult):
        named = ruling.seat if isinstance(ruling, AdjustScore) else ruling.winner
        if named is not None and named not in seats:
            raise InvalidCommand("unknown_seat", f"{named!r} is not a seat of this match")
    payload = ruling.model_dump(mode="json", exclude={"type"})
    return Draft(type=PREFIX + ruling.type, payload=payload)


@dataclass(frozen=True, slots=True)
class RulingEffects:
    voided: dict[int, str] = field(default_factory=dict)
    amended: dict[int, Mapping[str, Any]] = field(default_factory=dict)
    timed: list[Fact] = field(default_factory=list)


def resolve(facts: Sequence[Fact]) -> RulingEffects:
    """Resolve every ruling in ``facts`` (seq order), newest first."""
    effects = RulingEffects()
    for fact in reversed(facts):
        if is_ruling(fact.type) and fact.seq not in effects.voided:
            _apply(fact, facts, effects)
    effects.timed.reverse()
    return effects


def _apply(ruling: Fact, facts: Sequence[Fact], effects: RulingEffects) -> None:
    why = f"voided by ruling {ruling.seq}: {ruling.payload.get('reason', '')}"
    kind = ruling.type
    if kind == "ruling.void":
        effects.voided.setdefault(int(ruling.payload["target_seq"]), why)
    elif kind == "ruling.undo":
        to_seq = int(ruling.payload["to_seq"])
        for fact in facts:
            if to_seq < fact.seq < ruling.seq:
                effects.voided.setdefault(fact.seq, why)
    elif kind == "ruling.amend":
        effects.amended.setdefault(int(ruling.payload["target_seq"]), ruling.payload["outcome"])
    elif kind in TIMED:
        at = _instant(ruling.payload["at"])
        effects.timed.append(Fact(ruling.seq, kind, ruling.actor, at, ruling.payload))


def _instant(value: Any) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
