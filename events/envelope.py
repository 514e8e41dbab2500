"""The event envelope: what a caller appends, what the store keeps, and the hash over it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from hashlib import sha256
from operator import itemgetter
from typing import Any, Generic, Literal, Protocol, TypeVar, overload

import orjson

from adjudicator.kernel.canonical import (
    fast_canonical_json,
    iso,
    plain,
    plain_canonical_json,
    stdlib_canonical_json,
)

GENESIS_HASH = "0" * 64
Visibility = Literal["public", "private"]
T = TypeVar("T")


class computed_once(Generic[T]):
    """``functools.cached_property`` without its lock: a value computed at its first read and
    kept in the instance's ``__dict__``, where every later read finds it as a plain attribute.
    Python 3.11's cached_property takes a lock on each first read, which cost a chain check
    over stored events (two times per event, formatted once each) more than the formatting;
    two threads that race on a first read only compute the same value twice."""

    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func, self.name = func, func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> computed_once[T]: ...
    @overload
    def __get__(self, instance: object, owner: type | None = None) -> T: ...
    def __get__(self, instance: object | None, owner: type | None = None) -> Any:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value


@dataclass(frozen=True)
class NewEvent:
    """An event to append. ``private_to`` names the seats that may see the payload (the host
    always can); ``None`` makes it public. ``source`` says where an entered event came from
    (a chat post: kind, channel and message id, author, posted and edited times), or None."""

    type: str
    actor: str
    occurred_at: datetime
    payload: dict[str, Any]
    private_to: tuple[str, ...] | None = None
    source: dict[str, Any] | None = None


@dataclass(frozen=True)
class StoredEvent:
    """An event as recorded. ``position`` is the global order in this store instance only.

    ``occurred_iso`` and ``recorded_iso`` are the two times as ``iso`` writes them (what the
    hash covers), formatted once per event; ``plain_json`` says whether every field the hash
    covers holds only plain JSON values (``canonical.plain``), found once per event. A record's
    parser, which reads the times in that form and checks each line's values, hands all three
    over (:func:`assembled`)."""

    match_id: str
    seq: int
    position: int
    type: str
    actor: str
    occurred_at: datetime
    recorded_at: datetime
    payload: dict[str, Any]
    private_to: tuple[str, ...] | None
    salt: str | None
    commitment: str | None
    idempotency_key: str | None
    prev_hash: str
    hash: str
    source: dict[str, Any] | None = None

    @property
    def visibility(self) -> Visibility:
        return "public" if self.private_to is None else "private"

    @computed_once
    def occurred_iso(self) -> str:
        return iso(self.occurred_at)

    @computed_once
    def recorded_iso(self) -> str:
        return iso(self.recorded_at)

    @computed_once
    def plain_json(self) -> bool:
        return _plain(_hashed(self))


class Disclosed(Protocol):
    """What an envelope line shows of its event's privacy (a parsed line of a record)."""

    @property
    def private_to(self) -> Sequence[str] | None: ...
    @property
    def payload(self) -> dict[str, Any] | None: ...
    @property
    def salt(self) -> str | None: ...
    @property
    def commitment(self) -> str | None: ...


def disclosure_problem(line: Disclosed) -> str:
    """What is wrong with what a record's envelope line shows ("" when nothing): a public
    event shows its payload and has no salt or commitment; a private one has a commitment and
    shows payload and salt together or withholds both (``payload`` None: withheld)."""
    if line.private_to is None:
        if line.payload is None:
            return "payload: a public event's payload is never withheld"
        if line.salt is not None or line.commitment is not None:
            return "salt: a public event has no salt or commitment"
        return ""
    if line.commitment is None:
        return "commitment: a private event carries a commitment"
    if line.payload is not None and line.salt is None:
        return "salt: a revealed private payload needs its salt to be checked"
    if line.payload is None and line.salt is not None:
        return "payload: withheld, yet its salt is shown"
    return ""


_new = object.__new__
_set = object.__setattr__


def assembled(fields: dict[str, Any]) -> StoredEvent:
    """The StoredEvent of ``fields``: every field by name, and optionally ``occurred_iso``,
    ``recorded_iso`` (which must be ``iso`` of its times) and ``plain_json`` (which must be
    what the property finds). Built without ``__init__``, which only assigns the fields one by
    one (a frozen dataclass's assignments are slow), and ``fields`` itself becomes the event's
    ``__dict__`` (the caller hands it over and keeps no hold on it): for a parser of many
    events that has checked each field itself."""
    event: StoredEvent = _new(StoredEvent)
    _set(event, "__dict__", fields)
    return event


def envelope_hash(
    *,
    match_id: str,
    seq: int,
    type: str,
    actor: str,
    occurred_at: datetime,
    recorded_at: datetime,
    payload: dict[str, Any] | None,
    private_to: tuple[str, ...] | None,
    commitment: str | None,
    idempotency_key: str | None,
    prev_hash: str,
    source: dict[str, Any] | None = None,
) -> str:
    """sha256 over the canonical envelope (``canonical_json``'s bytes). A private payload is
    hashed as null (its commitment stands for it), so a redacted export still verifies.
    ``source`` is hashed only when set, so every envelope recorded before it existed keeps its
    hash."""
    envelope = _envelope(
        match_id,
        seq,
        type,
        actor,
        iso(occurred_at),
        iso(recorded_at),
        payload,
        private_to,
        commitment,
        idempotency_key,
        prev_hash,
        source,
    )
    return sha256(_canonical(envelope)).hexdigest()


def _envelope(
    match_id: str,
    seq: int,
    type: str,
    actor: str,
    occurred_at: str,
    recorded_at: str,
    payload: dict[str, Any] | None,
    private_to: tuple[str, ...] | None,
    commitment: str | None,
    idempotency_key: str | None,
    prev_hash: str,
    source: dict[str, Any] | None,
) -> dict[str, Any]:
    """The envelope the hash covers, its times already in ``iso`` form."""
    envelope = {
        "match_id": match_id,
        "seq": seq,
        "type": type,
        "actor": actor,
        "occurred_at": occurred_at,
        "recorded_at": recorded_at,
        "visibility": "public" if private_to is None else "private",
        "private_to": None if private_to is None else list(private_to),
        "commitment": commitment,
        "idempotency_key": idempotency_key,
        "prev_hash": prev_hash,
        "payload": payload if private_to is None else None,
    }
    if source is not None:
        envelope["source"] = source
    return envelope


_STRINGS = frozenset({str, type(None)})
_FIXED = itemgetter("match_id", "type", "actor", "commitment", "idempotency_key", "prev_hash")


def _canonical(envelope: dict[str, Any], plain_json: bool | None = None) -> bytes:
    """``canonical_json(envelope)``, its ``plain`` check cut short (see ``_plain``), or left
    out when ``plain_json`` already says what it finds (None: not known)."""
    if plain_json is False:
        return stdlib_canonical_json(envelope)
    known = plain_json is True
    fast = plain_canonical_json(envelope) if known else fast_canonical_json(envelope, _plain)
    return stdlib_canonical_json(envelope) if fast is None else fast


def _plain(envelope: dict[str, Any]) -> bool:
    """``plain(envelope)``: the fixed fields checked by type at once, the others walked."""
    rest = (envelope["seq"], envelope["private_to"], envelope["payload"], envelope.get("source"))
    return _STRINGS.issuperset(map(type, _FIXED(envelope))) and plain(rest)


def hash_of(event: StoredEvent) -> str:
    """The hash ``event`` should carry, recomputed from its fields (``envelope_hash``): what
    ``_canonical(_hashed(event), event.plain_json)`` writes, hashed, in one call per event (a
    chain check makes one per event)."""
    envelope = _hashed(event)
    if event.plain_json:
        try:
            return sha256(_orjson(envelope, option=_SORT_KEYS)).hexdigest()
        except JSONEncodeError:  # what plain_canonical_json leaves to the stdlib
            pass
    return sha256(stdlib_canonical_json(envelope)).hexdigest()


_orjson = orjson.dumps
_SORT_KEYS = orjson.OPT_SORT_KEYS
JSONEncodeError = orjson.JSONEncodeError


def _hashed(event: StoredEvent) -> dict[str, Any]:
    """The envelope of ``event`` that its hash covers: ``_envelope``, the one place its fields
    are named, of the event's fields."""
    return _envelope(
        event.match_id,
        event.seq,
        event.type,
        event.actor,
        event.occurred_iso,
        event.recorded_iso,
        event.payload,
        event.private_to,
        event.commitment,
        event.idempotency_key,
        event.prev_hash,
        event.source,
    )
