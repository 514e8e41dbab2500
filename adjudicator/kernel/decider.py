"""The shape every game implements (after the "Decider" pattern), and the values it exchanges.

A game is a set of pure functions:

* ``initial(setup)`` — the state before anything happened;
* ``decide(state, command, ctx)`` — validate a command against the state at ``ctx.now`` and
  return the events to record, or raise a :class:`~adjudicator.kernel.errors.DomainError`;
* ``evolve(state, fact)`` — apply one recorded event (never raises on recorded history);
* ``advance(state, now)`` — apply every deadline at or before ``now``;
* ``view(state, viewer)`` — what that viewer may see, as JSON-ready data;
* ``outcome(state, seq)`` — the derived outcome of one recorded event, if it has one;
* ``result(state)`` — the match's result once there is one, in one shape in every game
  (:func:`match_result`): ``{"winner": seat | None, "reason": str, "scores": {seat: number}}``;
* ``summary(state)`` — a small public digest (phase, scores or counts, result) for timelines;
* ``in_round(state)`` — whether a round is in progress (what a host's ``end_round`` needs).

``Game[S, C]`` is generic over the game's state ``S`` and its command union ``C`` (each game's
``commands.py`` defines it); each ``decide`` matches over ``C`` and ends in ``assert_never``, so
``mypy --strict`` proves every command is handled. Callers that hold any game use
``Game[Any, Any]``. ``command_models`` (type name -> model) is derived from the union
(:func:`command_models`), so the two never disagree.

Each game also says which host rulings it acts on (``rulings``) and which event types carry a
graded outcome a host may ``amend`` (``amendable``); other rulings are refused, not recorded.
``plays`` names the game's own event types: the last of them sets the game time that host-
entered commands may not go back before (nothing matches on a type name's prefix).

What every game shares lives here once: the outcome of a voided event (:func:`void_outcome`),
the lookup of an event's outcome (:func:`lookup_outcome`), the result's shape
(:func:`match_result`) and the result a host's ``declare_result`` sets (:func:`declared_result`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any, ClassVar, Protocol, TypeVar, get_args

from pydantic import BaseModel

from adjudicator.kernel.errors import InvalidCommand, NotPermitted
from adjudicator.kernel.values import fast_init

HOST = "host"
SYSTEM = "system"
MATCH_CREATED = "match.created"
MATCH_SEEDED = "match.seeded"
MATCH_CLOSED = "match.closed"
BOOKKEEPING = frozenset({MATCH_CREATED, MATCH_SEEDED, MATCH_CLOSED})
"""The match's own records (created, seeded, closed): never a play, never on the timeline."""


def seat_actor(seat: str) -> str:
    return f"seat:{seat}"


class Role(StrEnum):
    HOST = "host"
    SEAT = "seat"
    AUDITOR = "auditor"
    SPECTATOR = "spectator"


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking. ``seat`` is set for the SEAT role; ``closed`` once the match is closed."""

    role: Role
    seat: str | None = None
    closed: bool = False

    @property
    def sees_everything(self) -> bool:
        return self.role is Role.HOST or (self.role is Role.AUDITOR and self.closed)

    def may_see_private(self, private_to: tuple[str, ...]) -> bool:
        return self.sees_everything or (self.seat is not None and self.seat in private_to)


@dataclass(frozen=True, slots=True)
class Setup:
    """Everything fixed when a match is created."""

    match_id: str
    seats: tuple[str, str]
    config: Mapping[str, Any]
    advantage: str | None = None
    seed: int | None = None
    created_at: datetime | None = None


@fast_init  # built once per event by every fold
@dataclass(frozen=True, slots=True)
class Fact:
    """A recorded event as the rules see it. ``payload`` is decoded once, where the store's
    events become facts (``projections.facts``): a game's struct (or ``Unreadable``), else the
    recorded mapping (``adjudicator.kernel.payloads``). ``amendment`` is a host ruling's override;
    ``source`` where a host-entered event came from (a chat post), which no rule reads: the
    fold only hands it on to what it derives from the event (a graded buzz, a timeline point)."""

    seq: int
    type: str
    actor: str
    at: datetime
    payload: Any  # its type's struct (``registry.decode``), ``Unreadable``, or a record's mapping
    amendment: Mapping[str, Any] | None = None
    source: Mapping[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class Draft:
    """An event ``decide`` wants recorded. ``private_to`` seats (plus host) see its payload,
    a game's struct or a dict, recorded as ``adjudicator.kernel.payloads.plain`` makes it."""

    type: str
    payload: object  # a game's struct, or a dict (a ruling's fields, ``rulings.decide_ruling``)
    private_to: tuple[str, ...] | None = None


@dataclass(frozen=True, slots=True)
class Context:
    """Who acts and when. ``now`` is the game time: server receipt or the host's entered time."""

    actor: str
    now: datetime
    seat: str | None = None

    @property
    def is_host(self) -> bool:
        return self.actor == HOST

    def acting_for(self, seats: tuple[str, ...], seat: str) -> str:
        """The seat a command acts for: a seat acts only for itself, the host for any seat."""
        if seat not in seats:
            raise InvalidCommand("unknown_seat", f"{seat!r} is not a seat of this match")
        if not self.is_host and self.seat != seat:
            raise NotPermitted("wrong_seat", f"you hold seat {self.seat!r}, not {seat!r}")
        return seat


S = TypeVar("S")
C_contra = TypeVar("C_contra", contravariant=True)


class Game(Protocol[S, C_contra]):
    """A game over states ``S`` and commands ``C_contra`` (the game's command union)."""

    name: ClassVar[str]
    rules_version: ClassVar[str]
    config_model: ClassVar[type[BaseModel]]
    command_models: ClassVar[dict[str, type[BaseModel]]]
    rulings: ClassVar[frozenset[str]]
    amendable: ClassVar[frozenset[str]]
    plays: ClassVar[frozenset[str]]

    def initial(self, setup: Setup) -> S: ...

    def decide(self, state: S, command: C_contra, ctx: Context) -> list[Draft]: ...

    def evolve(self, state: S, fact: Fact) -> S: ...

    def advance(self, state: S, now: datetime) -> S: ...

    def view(self, state: S, viewer: Viewer) -> dict[str, Any]: ...

    def outcome(self, state: S, seq: int) -> dict[str, Any] | None: ...

    def result(self, state: S) -> dict[str, Any] | None: ...

    def summary(self, state: S) -> dict[str, Any]: ...

    def in_round(self, state: S) -> bool: ...


def command_models(union: object) -> dict[str, type[BaseModel]]:
    """Type name -> model for every model of a command union (``Buzz | StartRound | ...``), in
    the union's order: what a game's ``command_models`` is, so it always matches ``decide``."""
    models: dict[str, type[BaseModel]] = {}
    for model in get_args(union):
        if not (isinstance(model, type) and issubclass(model, BaseModel)):
            raise TypeError(f"{model!r} is not a command model")
        models[model.model_fields["type"].default] = model
    return models


def void_outcome(reason: str) -> dict[str, Any]:
    """The one shape, in every game, of the outcome of an event folded as void."""
    return {"void": True, "reason": reason}


class EventRecord(Protocol):
    """A derived record of one event (a graded buzz, a ply): it knows its event's seq."""

    @property
    def seq(self) -> int: ...


R = TypeVar("R", bound=EventRecord)


def lookup_outcome(
    voided: Iterable[tuple[int, str]],
    seq: int,
    records: Iterable[R] | None,
    render: Callable[[R], dict[str, Any]],
) -> dict[str, Any] | None:
    """The outcome of event ``seq``, in every game: its voiding if it was folded as void, else
    its record among ``records`` (newest first, so the search stops once past ``seq``) as
    ``render`` shows it, else None (the event has no outcome)."""
    for voided_seq, reason in voided:
        if voided_seq == seq:
            return void_outcome(reason)
    for record in records or ():
        if record.seq == seq:
            return render(record)
        if record.seq < seq:
            return None
    return None


def post_of(source: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """The chat post an event was entered from, as derived records name it (None: none)."""
    if source is None or "message_id" not in source:
        return None
    return {"channel_id": source.get("channel_id"), "message_id": source["message_id"]}


def match_result(winner: str | None, reason: str, scores: Mapping[str, float]) -> dict[str, Any]:
    """The one shape, in every game, of a match's result: the winning seat (None: a draw), why,
    and each seat's score as the game counts it (points, or what its win condition counts)."""
    return {"winner": winner, "reason": reason, "scores": dict(scores)}


def declared_result(seq: int, winner: str | None, scores: Mapping[str, float]) -> dict[str, Any]:
    """The result a host's ``declare_result`` ruling sets, in every game: its winner, reason
    ``ruling``, the scores at the moment it takes effect, and the ``seq`` of the ruling."""
    return {**match_result(winner, "ruling", scores), "seq": seq}
