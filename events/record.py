"""The portable record of a match: JSON Lines, a header line then one envelope per line.

The header (``format: adjudicator-match/1``) names the match, its game and rules version, its
status, when it was created and exported, how many events follow and the hash of the last one
(``chain_head``). Each envelope line carries every field of :class:`StoredEvent` except
``position`` (the order inside one store instance only); ``source`` (where an entered event
came from) appears only on the envelopes that have one. A private payload the exporter may not
show is written as ``null`` with no salt; its commitment stays, so the chain still verifies.

Pure: writing and parsing only, no store access.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from adjudicator.kernel.canonical import iso
from events.envelope import GENESIS_HASH, StoredEvent

FORMAT = "adjudicator-match/1"


class RecordFormatError(ValueError):
    """The text is not a match record (bad JSON, missing header or fields). ``line`` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


@dataclass(frozen=True)
class Header:
    match_id: str
    game: str
    rules_version: str
    status: str
    created_at: str
    exported_at: str
    event_count: int
    chain_head: str
    format: str = FORMAT

    def as_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Record:
    """A parsed record. ``withheld`` holds the seqs whose private payload was not exported."""

    header: Header
    events: list[StoredEvent]
    withheld: frozenset[int]


def make_header(
    *,
    match_id: str,
    game: str,
    rules_version: str,
    status: str,
    created_at: datetime,
    exported_at: datetime,
    events: Sequence[StoredEvent],
) -> Header:
    return Header(
        match_id=match_id,
        game=game,
        rules_version=rules_version,
        status=status,
        created_at=iso(created_at),
        exported_at=iso(exported_at),
        event_count=len(events),
        chain_head=events[-1].hash if events else GENESIS_HASH,
    )


def envelope_line(event: StoredEvent, reveal: bool) -> dict[str, Any]:
    """One envelope as exported; ``reveal`` says whether a private payload and salt are shown."""
    shown = event.private_to is None or reveal
    line = {
        "match_id": event.match_id,
        "seq": event.seq,
        "type": event.type,
        "actor": event.actor,
        "occurred_at": iso(event.occurred_at),
        "recorded_at": iso(event.recorded_at),
        "payload": event.payload if shown else None,
        "private_to": None if event.private_to is None else list(event.private_to),
        "salt": event.salt if shown else None,
        "commitment": event.commitment,
        "idempotency_key": event.idempotency_key,
        "prev_hash": event.prev_hash,
        "hash": event.hash,
    }
    if event.source is not None:
        line["source"] = event.source
    return line


def dumps(header: Header, lines: Sequence[dict[str, Any]]) -> str:
    """The record as text: one compact JSON object per line, keys sorted, newline-terminated."""
    objects = [header.as_json(), *lines]
    return "".join(json.dumps(o, sort_keys=True, ensure_ascii=False) + "\n" for o in objects)


def loads(text: str) -> Record:
    """Parse a record; raises :class:`RecordFormatError` naming the first unreadable line."""
    rows = [(n, line) for n, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if not rows:
        raise RecordFormatError(1, "the record is empty")
    header = _header(*rows[0])
    events, withheld = [], set()
    for number, line in rows[1:]:
        event, hidden = _event(number, line)
        events.append(event)
        if hidden:
            withheld.add(event.seq)
    return Record(header, events, frozenset(withheld))


def _object(number: int, line: str) -> dict[str, Any]:
    try:
        data = json.loads(line)
    except json.JSONDecodeError as error:
        raise RecordFormatError(number, f"not JSON ({error.msg})") from None
    if not isinstance(data, dict):
        raise RecordFormatError(number, "each line is a JSON object")
    return data


def _header(number: int, line: str) -> Header:
    data = _object(number, line)
    if data.get("format") != FORMAT:
        raise RecordFormatError(number, f"the first line is a header with format {FORMAT!r}")
    try:
        return Header(**data)
    except TypeError as error:
        raise RecordFormatError(number, f"bad header: {error}") from None


def _event(number: int, line: str) -> tuple[StoredEvent, bool]:
    data = _object(number, line)
    try:
        private_to = data["private_to"]
        payload = data["payload"]
        event = StoredEvent(
            match_id=str(data["match_id"]),
            seq=int(data["seq"]),
            position=0,
            type=str(data["type"]),
            actor=str(data["actor"]),
            occurred_at=_instant(data["occurred_at"]),
            recorded_at=_instant(data["recorded_at"]),
            payload={} if payload is None else dict(payload),
            private_to=None if private_to is None else tuple(str(s) for s in private_to),
            salt=data["salt"],
            commitment=data["commitment"],
            idempotency_key=data["idempotency_key"],
            prev_hash=str(data["prev_hash"]),
            hash=str(data["hash"]),
            source=_source(data.get("source")),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise RecordFormatError(number, f"bad envelope: {error!r}") from None
    return event, payload is None


def _source(value: Any) -> dict[str, Any] | None:
    if value is not None and not isinstance(value, dict):
        raise ValueError("source is a JSON object or absent")
    return value


def _instant(text: Any) -> datetime:
    moment = datetime.fromisoformat(str(text))
    if moment.tzinfo is None:
        raise ValueError("an instant without a time zone")
    return moment
