"""What every game's ``events.py`` builds on: one payload type per event type, checked.

A game's payload types are frozen ``msgspec`` structs (Zoom's; the games still on ``TypedDict``
payloads move to structs one by one, issue 21). A game lists its event types with their payload
types in an :class:`EventTypes`; it then offers

* ``payload_of(type, data)``: ``data`` validated against the type's payload (strictly: the keys
  recorded, no others, each of its JSON type; a missing optional key stays missing), else
  :class:`~adjudicator.kernel.errors.InvalidCommand` ``invalid_event`` naming the first problem;
* ``decode(type, data)``: a recorded payload as the rules read it, once, where the store's
  events become the rules' facts (``projections.facts``): the struct, or :class:`Unreadable`
  when the recorded data is not one (the fold voids it: it folds any recorded history without
  raising); a ``TypedDict`` payload stays the mapping it is;
* ``upcast(type, version, data)``: a payload recorded under an older payload version rewritten as
  the current one. Every payload is at version 1 today (:data:`CURRENT_VERSION`), so version 1
  is returned as it is; any other version is refused (``invalid_event``). A game that changes a
  payload raises ``CURRENT_VERSION`` and adds the step from the old shape here, one function per
  (type, version), so old records still fold.

:func:`plain` is a payload as the store records it (JSON-ready): what ``decide`` drafts, struct
or mapping, becomes an event's payload by it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import msgspec
from pydantic import ConfigDict, TypeAdapter, ValidationError

from adjudicator.kernel.errors import InvalidCommand

CURRENT_VERSION = 1
"""The payload version every event type records today."""

STRICT = ConfigDict(extra="forbid", strict=True)
"""The pydantic config of every payload ``TypedDict``: no unknown keys, no coercion."""


class Payload(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True, gc=False
):
    """The base of every struct payload: frozen, no keys but its fields, an optional field left
    out of the recorded payload while it holds its default. Not tracked by the cyclic garbage
    collector (``gc=False``): a payload holds JSON values, never a cycle, and a long match's
    fold holds one per event."""


class Unreadable(msgspec.Struct, frozen=True):
    """A recorded payload that is not its type's (an imported record may hold anything): the
    fold voids its event with ``reason``."""

    reason: str


def plain(payload: object) -> dict[str, Any]:
    """``payload`` (a struct or a mapping) as the JSON-ready dict an event records."""
    if type(payload) is dict:  # a TypedDict payload, as drafted: recorded as it is
        return payload
    if isinstance(payload, msgspec.Struct):  # through JSON: its tuples become lists, as read
        data: dict[str, Any] = _decode_json(_encode_json(payload))
        return data
    if isinstance(payload, Mapping):
        return dict(payload)
    raise TypeError(f"a payload is a struct or a mapping, not {type(payload).__name__}")


def _where_what(error: msgspec.ValidationError) -> str:
    """msgspec's ``Expected `str`, got `int` - at `$.pairs[0].at``` as the games on pydantic
    word it: ``pairs.0.at: Expected `str`, got `int```."""
    what, _, where = str(error).partition(" - at `$")
    path = re.sub(r"\[(\d+)\]", r".\1", where.rstrip("`")).lstrip(".")
    return f"{path}: {what}" if path else what


_convert = msgspec.convert
_encode_json = msgspec.json.Encoder().encode
_decode_json = msgspec.json.Decoder().decode


class EventTypes:
    """One game's event types, each with its payload type: a :class:`Payload` struct, or a
    ``TypedDict`` configured :data:`STRICT`."""

    def __init__(self, payloads: Mapping[str, type]) -> None:
        self.payloads = dict(payloads)
        self.structs: dict[str, type[msgspec.Struct]] = {
            name: payload
            for name, payload in payloads.items()
            if isinstance(payload, type) and issubclass(payload, msgspec.Struct)
        }
        self._adapters: dict[str, TypeAdapter[Any]] = {
            name: TypeAdapter(payload)
            for name, payload in payloads.items()
            if name not in self.structs
        }

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self.payloads)

    def payload_of(self, event_type: str, data: object) -> Mapping[str, Any]:
        """``data`` as a valid payload of ``event_type`` (the same keys and values)."""
        struct = self.structs.get(event_type)
        if struct is not None:
            try:
                return plain(msgspec.convert(data, struct, strict=True))
            except msgspec.ValidationError as error:
                raise InvalidCommand(
                    "invalid_event", f"{event_type} payload: {_where_what(error)}"
                ) from None
        adapter = self._adapter(event_type)
        try:
            checked: Mapping[str, Any] = adapter.validate_python(data)
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "payload"
            raise InvalidCommand(
                "invalid_event", f"{event_type} payload: {where}: {first['msg']}"
            ) from None
        return checked

    def decode(self, event_type: str, data: object) -> object:
        """A recorded payload as the rules read it (see the module's docstring)."""
        struct = self.structs.get(event_type)
        if struct is None:
            return data
        try:
            return _convert(data, struct)  # strict, msgspec's default: no str -> int and the like
        except msgspec.ValidationError as error:
            return Unreadable(str(error))

    def upcast(self, event_type: str, version: int, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """A payload recorded at ``version`` as the current version: version 1 is unchanged."""
        self._known(event_type)
        if version != CURRENT_VERSION:
            raise InvalidCommand(
                "invalid_event",
                f"{event_type} payloads have version {CURRENT_VERSION}, not {version}",
            )
        return data

    def _adapter(self, event_type: str) -> TypeAdapter[Any]:
        self._known(event_type)
        return self._adapters[event_type]

    def _known(self, event_type: str) -> None:
        if event_type not in self.payloads:
            known = ", ".join(sorted(self.payloads))
            raise InvalidCommand("invalid_event", f"no event type {event_type!r} (known: {known})")
