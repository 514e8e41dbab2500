"""What every game's ``events.py`` builds on: one payload ``TypedDict`` per event type, checked.

A game lists its event types with their payload types in an :class:`EventTypes`; it then offers

* ``payload_of(type, data)``: ``data`` validated against the type's payload (strictly: the keys
  recorded, no others, each of its JSON type; a missing optional key stays missing), else
  :class:`~adjudicator.kernel.errors.InvalidCommand` ``invalid_event`` naming the first problem;
* ``upcast(type, version, data)``: a payload recorded under an older payload version rewritten as
  the current one. Every payload is at version 1 today (:data:`CURRENT_VERSION`), so version 1
  is returned as it is; any other version is refused (``invalid_event``). A game that changes a
  payload raises ``CURRENT_VERSION`` and adds the step from the old shape here, one function per
  (type, version), so old records still fold.

The fold does not validate (it must fold any recorded history without raising, voiding what it
cannot use); validation is for what comes from outside, an imported record or a test.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ConfigDict, TypeAdapter, ValidationError

from adjudicator.kernel.errors import InvalidCommand

CURRENT_VERSION = 1
"""The payload version every event type records today."""

STRICT = ConfigDict(extra="forbid", strict=True)
"""The pydantic config of every payload ``TypedDict``: no unknown keys, no coercion."""


class EventTypes:
    """One game's event types, each with its payload ``TypedDict`` (configured :data:`STRICT`)."""

    def __init__(self, payloads: Mapping[str, type]) -> None:
        self.payloads = dict(payloads)
        self._adapters: dict[str, TypeAdapter[Any]] = {
            name: TypeAdapter(payload) for name, payload in payloads.items()
        }

    @property
    def names(self) -> frozenset[str]:
        return frozenset(self.payloads)

    def payload_of(self, event_type: str, data: object) -> Mapping[str, Any]:
        """``data`` as a valid payload of ``event_type`` (the same keys and values)."""
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

    def upcast(self, event_type: str, version: int, data: Mapping[str, Any]) -> Mapping[str, Any]:
        """A payload recorded at ``version`` as the current version: version 1 is unchanged."""
        self._adapter(event_type)
        if version != CURRENT_VERSION:
            raise InvalidCommand(
                "invalid_event",
                f"{event_type} payloads have version {CURRENT_VERSION}, not {version}",
            )
        return data

    def _adapter(self, event_type: str) -> TypeAdapter[Any]:
        adapter = self._adapters.get(event_type)
        if adapter is None:
            known = ", ".join(sorted(self.payloads))
            raise InvalidCommand("invalid_event", f"no event type {event_type!r} (known: {known})")
        return adapter
