"""What every game's ``events.py`` and the rulings build on: one payload struct per event type.

Payloads are frozen ``msgspec`` structs (:class:`Payload`). ``decide`` drafts them, the service
records them as JSON (:func:`plain`), and where the store's events become the rules' facts
(``projections.facts``) each recorded payload is decoded once, by :meth:`EventTypes.decode`,
into its struct, or :class:`Unreadable` when the recorded data is not one (the fold voids it:
it folds any recorded history without raising). A game lists its event types with their
structs in an :class:`EventTypes`; it then offers

* ``payload_of(type, data)``: ``data`` validated against the type's payload (strictly: the keys
  recorded, no others, each of its JSON type; a missing optional key stays missing), else
  :class:`~adjudicator.kernel.errors.InvalidCommand` ``invalid_event`` naming the first problem;
* ``decode(type, data)``: a recorded payload as the rules read it (above); a type with no
  struct (the match's own records) stays the mapping it is;
* ``upcast(type, version, data)``: a payload recorded under an older payload version rewritten as
  the current one. Every payload is at version 1 today (:data:`CURRENT_VERSION`), so version 1
  is returned as it is; any other version is refused (``invalid_event``). A game that changes a
  payload raises ``CURRENT_VERSION`` and adds the step from the old shape here, one function per
  (type, version), so old records still fold.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import msgspec

from adjudicator.kernel.errors import InvalidCommand, quoted

CURRENT_VERSION = 1
"""The payload version every event type records today."""


class Payload(
    msgspec.Struct, frozen=True, forbid_unknown_fields=True, omit_defaults=True, gc=False
):
    """The base of every game's payload: frozen, no keys but its fields, an optional field left
    out of the recorded payload while it holds its default. Not tracked by the cyclic garbage
    collector (``gc=False``): a payload holds JSON values, never a cycle, and a long match's
    fold holds one per event."""


class Unreadable(msgspec.Struct, frozen=True):
    """A recorded payload that is not its type's (an imported record may hold anything): the
    fold voids its event with ``reason``."""

    reason: str


def plain(payload: object) -> dict[str, Any]:
    """``payload`` (a struct, or the dict of a ruling or a match record) as the JSON-ready dict
    an event records."""
    if type(payload) is dict:  # a ruling's or a match record's, as drafted: recorded as it is
        return payload
    if isinstance(payload, msgspec.Struct):  # through JSON: its tuples become lists, as read
        data: dict[str, Any] = _decode_json(_encode_json(payload))
        return data
    if isinstance(payload, Mapping):
        return dict(payload)
    raise TypeError(f"a payload is a struct or a mapping, not {type(payload).__name__}")


def _where_what(error: msgspec.ValidationError) -> str:
    """msgspec's ``Expected `str`, got `int` - at `$.pairs[0].at``` as ``pairs.0.at: Expected
    `str`, got `int```."""
    what, _, where = str(error).partition(" - at `$")
    path = re.sub(r"\[(\d+)\]", r".\1", where.rstrip("`")).lstrip(".")
    return f"{path}: {what}" if path else what


_convert = msgspec.convert
_encode_json = msgspec.json.Encoder().encode
_decode_json = msgspec.json.Decoder().decode


class EventTypes:
    """Event types, each with its payload struct."""

    def __init__(self, structs: Mapping[str, type[msgspec.Struct]]) -> None:
        self.payloads = dict(structs)

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self.payloads)

    def payload_of(self, event_type: str, data: object) -> Mapping[str, Any]:
        """``data`` as a valid payload of ``event_type`` (the same keys and values)."""
        struct = self._struct(event_type)
        try:
            return plain(_convert(data, struct))
        except msgspec.ValidationError as error:
            message = f"{event_type} payload: {_where_what(error)}"
            raise InvalidCommand("invalid_event", message) from None

    def decode(self, event_type: str, data: object) -> object:
        """A recorded payload as the rules read it (see the module's docstring)."""
        struct = self.payloads.get(event_type)
        if struct is None:
            return data
        try:
            return _convert(data, struct)  # strict, msgspec's default: no str -> int and the like
        except msgspec.ValidationError as error:
            return Unreadable(str(error))

    def upcast(self, event_type: str, version: int, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """A payload recorded at ``version`` as the current version: version 1 is unchanged."""
        self._struct(event_type)
        if version != CURRENT_VERSION:
            raise InvalidCommand(
                "invalid_event",
                f"{event_type} payloads have version {CURRENT_VERSION}, not {version}",
            )
        return data

    def _struct(self, event_type: str) -> type[msgspec.Struct]:
        struct = self.payloads.get(event_type)
        if struct is None:
            known = ", ".join(sorted(self.payloads))
            raise InvalidCommand(
                "invalid_event", f"no event type {quoted(event_type)} (known: {known})"
            )
        return struct
