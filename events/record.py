"""The portable record of a match: JSON Lines, a header line then one envelope per line.

The header (``format: adjudicator-match/1``) names the match, its game and rules version, its
status, when it was created and exported, how many events follow and the hash of the last one
(``chain_head``). Each envelope line carries every field of :class:`StoredEvent` except
``position`` (the order inside one store instance only); ``source`` (where an entered event
came from) appears only on the envelopes that have one. A private payload the exporter may not
show is written as ``null`` with no salt; its commitment stays, so the chain still verifies.

Parsing is strict (pydantic, strict mode, unknown fields refused): a line passes only in the
exact form an exporter writes, so no other spelling of a hashed or committed value slips through
with the same hash. Envelope times are the canonical UTC form the hashes are computed over
(``2026-03-01T18:00:02.000000Z``); header times, which no hash covers, may be any RFC 3339 time
with a zone. A malformed line raises :class:`RecordFormatError` naming the line and the field.
Most lines are read faster by ``events.record_fast``, which leaves every line it is unsure of
to this strict reading, so the decisions and the messages are this reading's.

Pure: writing and parsing only, no store access.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from json.encoder import encode_basestring as _JSON_STRING
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    StringConstraints,
    ValidationError,
    model_validator,
)
from pydantic_core import PydanticCustomError

from adjudicator.kernel.canonical import iso
from events.envelope import GENESIS_HASH, StoredEvent, disclosure_problem
from events.record_fast import LineReader
from events.records import MatchRecord

FORMAT = "adjudicator-match/1"

_CANONICAL_TIME = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z")
_RFC3339 = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})"
)


class RecordFormatError(ValueError):
    """The text is not a match record (bad JSON, missing header or fields). ``line`` is 1-based."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line


def _instant(text: str, form: re.Pattern[str], name: str, shifted: bool) -> datetime:
    if not isinstance(text, str) or form.fullmatch(text) is None:
        raise PydanticCustomError("time_format", f"Input should be {name}")
    try:
        moment = datetime.fromisoformat(text.upper())
        if shifted:
            iso(moment)  # the UTC form must exist (years 1..9999 once shifted to UTC)
    except (ValueError, OverflowError) as error:
        raise PydanticCustomError("time_range", f"Input is not a valid time ({error})") from None
    return moment


def _canonical(value: Any) -> datetime:
    form = "a UTC time in the form 2026-03-01T18:00:02.000000Z"
    return _instant(value, _CANONICAL_TIME, form, shifted=False)


def _rfc3339(value: Any) -> str:
    _instant(value, _RFC3339, "an RFC 3339 time with a time zone", shifted=True)
    return str(value)


Hex64 = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{64}$")]
Salt = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{32}$")]  # secrets.token_hex(16)
MatchId = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}$")]
Name = Annotated[str, StringConstraints(pattern=r"^[!-~]{1,128}$")]  # printable ASCII, no space
Short = Annotated[str, StringConstraints(pattern=r"^[!-~]{1,64}$")]
Seat = Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,32}$")]  # as api SeatName
Key = Annotated[str, StringConstraints(pattern=r"^[^\x00-\x1f\x7f]{0,255}$")]
CanonicalTime = Annotated[datetime, PlainValidator(_canonical)]
Rfc3339Time = Annotated[str, PlainValidator(_rfc3339)]
STRICT = ConfigDict(strict=True, frozen=True, extra="forbid")
M = TypeVar("M", bound=BaseModel)


class Header(BaseModel):
    """The first line of a record."""

    model_config = STRICT

    format: Literal["adjudicator-match/1"] = "adjudicator-match/1"
    match_id: MatchId
    game: Short
    rules_version: Short
    status: Literal["open", "closed"]
    created_at: Rfc3339Time
    exported_at: Rfc3339Time
    event_count: Annotated[int, Field(ge=0)]
    chain_head: Hex64

    def as_json(self) -> dict[str, Any]:
        return self.model_dump()


class Envelope(BaseModel):
    """One envelope line: a public event shows its payload and has no salt or commitment; a
    private one has a commitment and shows payload and salt together or withholds both."""

    model_config = STRICT

    match_id: MatchId
    seq: Annotated[int, Field(ge=1)]
    type: Name
    actor: Name
    occurred_at: CanonicalTime
    recorded_at: CanonicalTime
    payload: dict[str, Any] | None
    private_to: list[Seat] | None
    salt: Salt | None
    commitment: Hex64 | None
    idempotency_key: Key | None
    prev_hash: Hex64
    hash: Hex64
    source: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _disclosure(self) -> Envelope:
        problem = disclosure_problem(self)
        if problem:
            raise PydanticCustomError("disclosure", problem)
        return self

    def stored(self) -> StoredEvent:
        private_to = self.private_to
        return StoredEvent(
            match_id=self.match_id,
            seq=self.seq,
            position=0,
            type=self.type,
            actor=self.actor,
            occurred_at=self.occurred_at,
            recorded_at=self.recorded_at,
            payload={} if self.payload is None else self.payload,
            private_to=None if private_to is None else tuple(private_to),
            salt=self.salt,
            commitment=self.commitment,
            idempotency_key=self.idempotency_key,
            prev_hash=self.prev_hash,
            hash=self.hash,
            source=self.source,
        )


class LogProof(BaseModel):
    """The last line of a closed match's export: its leaf in the service's transparency log,
    the RFC 9162 inclusion proof (base64 hashes) and the signed checkpoint (a C2SP signed note)
    of the tree it was proved in. It is not part of the hashed record (``record_sha256``)."""

    model_config = STRICT

    format: Literal["adjudicator-log-proof/1"]
    leaf: Annotated[str, StringConstraints(max_length=1 << 16)]
    leaf_index: Annotated[int, Field(ge=0, lt=1 << 62)]
    tree_size: Annotated[int, Field(ge=1, lt=1 << 62)]
    inclusion: Annotated[
        list[Annotated[str, StringConstraints(max_length=64)]], Field(max_length=64)
    ]
    checkpoint: Annotated[str, StringConstraints(max_length=1 << 16)]


PROOF_FORMAT = "adjudicator-log-proof/1"


@dataclass(frozen=True, slots=True)
class Signed:
    """The text a transparency-log leaf names: a record's ``text`` up to ``end`` (the start of
    its proof line). Hashed when a log check asks (``record_sha256``), not when the record is
    read: a verify without the log's key never asks, and hashing a 10,000-event record's 5 MB
    cost its reading a fifth more."""

    text: str
    end: int

    def sha256(self) -> str:
        return hashlib.sha256(self.text[: self.end].encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Record:
    """A parsed record. ``withheld`` holds the seqs whose private payload was not exported.
    ``log_proof``: the transparency log's line that ends a closed match's export, if any, and
    ``signed`` every byte before it (the bytes its leaf names, ``record_sha256``)."""

    header: Header
    events: list[StoredEvent]
    withheld: frozenset[int]
    log_proof: LogProof | None = None
    signed: Signed | None = None

    @property
    def record_sha256(self) -> str | None:
        """The SHA-256 of the bytes before the log proof's line (None without a proof)."""
        return None if self.signed is None else self.signed.sha256()


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
    return Header.model_validate(
        header_json(match_id, game, rules_version, status, created_at, exported_at, events)
    )


def header_json(
    match_id: str,
    game: str,
    rules_version: str,
    status: str,
    created_at: datetime,
    exported_at: datetime,
    events: Sequence[StoredEvent],
) -> dict[str, Any]:
    """The header line's fields (``Header`` checks them when a record is read)."""
    return {
        "format": FORMAT,
        "match_id": match_id,
        "game": game,
        "rules_version": rules_version,
        "status": status,
        "created_at": iso(created_at),
        "exported_at": iso(exported_at),
        "event_count": len(events),
        "chain_head": events[-1].hash if events else GENESIS_HASH,
    }


def envelope_line(event: StoredEvent, reveal: bool) -> dict[str, Any]:
    """One envelope as exported; ``reveal`` says whether a private payload and salt are shown."""
    shown = event.private_to is None or reveal
    line = {
        "match_id": event.match_id,
        "seq": event.seq,
        "type": event.type,
        "actor": event.actor,
        "occurred_at": event.occurred_iso,
        "recorded_at": event.recorded_iso,
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


def _json_writer() -> Callable[[object], str]:
    """``json.dumps(value, sort_keys=True, ensure_ascii=False)`` by one C encoder made once:
    ``JSONEncoder.encode`` makes a new one at every call, half of what a record line's payload
    cost (1.95 -> 0.91 us). It keeps no marks of the containers it is inside (values read from
    JSON or built by the rules hold no cycles). Where the C encoder is missing, the encoder's
    ``encode``."""
    stdlib = json.JSONEncoder(sort_keys=True, ensure_ascii=False)
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None:
        return stdlib.encode
    chunks = make(None, stdlib.default, _JSON_STRING, None, ": ", ", ", True,
                  False, True)  # fmt: skip
    return lambda value: "".join(chunks(value, 0))


_JSON = _json_writer()


def envelope_text(event: StoredEvent, reveal: bool) -> str:
    """``json.dumps(envelope_line(event, reveal), sort_keys=True, ensure_ascii=False)``, the
    line of a record, written field by field in the keys' order: what the verify of a closed
    match and every export spend most on (``tests/property/test_record_lines.py`` holds the
    two equal for any envelope)."""
    text, shown = _JSON_STRING, event.private_to is None or reveal
    private = event.private_to
    parts = [
        '{"actor": ', text(event.actor),
        ', "commitment": ', _nullable(event.commitment),
        ', "hash": ', text(event.hash),
        ', "idempotency_key": ', _nullable(event.idempotency_key),
        ', "match_id": ', text(event.match_id),
        ', "occurred_at": ', text(event.occurred_iso),
        ', "payload": ', _JSON(event.payload) if shown else "null",
        ', "prev_hash": ', text(event.prev_hash),
        ', "private_to": ', "null" if private is None else _JSON(list(private)),
        ', "recorded_at": ', text(event.recorded_iso),
        ', "salt": ', _nullable(event.salt if shown else None),
        ', "seq": ', int.__repr__(event.seq),
    ]  # fmt: skip
    if event.source is not None:
        parts += ', "source": ', _JSON(event.source)
    parts += ', "type": ', text(event.type), "}"
    return "".join(parts)


def _nullable(value: str | None) -> str:
    return "null" if value is None else _JSON_STRING(value)


def record_text(
    match: MatchRecord,
    events: Sequence[StoredEvent],
    *,
    reveal: bool = True,
    exported_at: datetime | None = None,
) -> str:
    """The record of ``match`` whose events are ``events``. A closed match's record is
    byte-stable: its ``exported_at`` is its close time, whoever exports it whenever, so the
    transparency log's ``record_sha256`` (the SHA-256 of exactly these UTF-8 bytes, with every
    payload and salt) can be recomputed by anyone holding the file. ``exported_at`` is used
    for an open match only (default: the last event's record time)."""
    if match.status == "closed" and match.closed_at is not None:
        exported_at = match.closed_at
    elif exported_at is None:
        exported_at = events[-1].recorded_at if events else match.created_at
    header = header_json(
        match.match_id,
        match.game,
        match.rules_version,
        match.status,
        match.created_at,
        exported_at,
        events,
    )
    return dumps(header, events, reveal)


TOURNAMENT_LOG = "tournament/1"
"""The ``rules_version`` of a tournament's log written as a record (its stream's own rules)."""
TOURNAMENT_SEALED = "tournament.sealed"
"""The event that seals a tournament: its log ends there, and is byte-stable from then on."""


def tournament_log_text(
    tournament_id: str,
    game: str,
    created_at: datetime,
    events: Sequence[StoredEvent],
    exported_at: datetime,
) -> str:
    """A tournament's log as a record (a match record's form; its header's ``match_id`` the
    tournament's id, ``rules_version`` :data:`TOURNAMENT_LOG`). A sealed log (its last event
    :data:`TOURNAMENT_SEALED`) is byte-stable, as a closed match's record is: status
    ``closed``, exported at the seal whoever exports it whenever, so the transparency log's
    ``record_sha256`` of it can be recomputed by anyone holding it."""
    sealed = bool(events) and events[-1].type == TOURNAMENT_SEALED
    if sealed:
        exported_at = events[-1].recorded_at
    status = "closed" if sealed else "open"
    header = header_json(
        tournament_id, game, TOURNAMENT_LOG, status, created_at, exported_at, events
    )
    return dumps(header, events)


def dumps(
    header: Header | dict[str, Any], events: Sequence[StoredEvent], reveal: bool = True
) -> str:
    """The record as text: the header, then each event's envelope line (``envelope_text``),
    one JSON object per line, keys sorted, newline-terminated."""
    first = _JSON(header.as_json() if isinstance(header, Header) else header)
    return "\n".join([first, *(envelope_text(event, reveal) for event in events), ""])


def loads(text: str) -> Record:
    """Parse a record; raises :class:`RecordFormatError` naming the first unreadable line.
    Lines end at ``\n`` alone (a ``\r`` before it is JSON whitespace): ``dumps`` writes text
    unescaped, so a payload may hold U+2028 or U+0085, which ``str.splitlines`` would also
    break a line at. A line of JSON whitespace only is skipped; anything else must parse.
    The text is split once; a log proof's line (the last line that is not blank) is cut off
    the list, not the text (a 5 MB record is not copied)."""
    every = text.split("\n")
    last = _last_index(every)
    proof, signed = _log_proof(text, every, last)
    if proof is not None:
        del every[last:]
    lines = enumerate(every, start=1)
    for number, line in lines:
        if line.strip(_JSON_SPACE):
            header = _header(number, line)
            break
    else:
        raise RecordFormatError(1, "the record is empty")
    events, withheld, read = [], set(), LineReader().read
    for number, line in lines:  # the lines after the header's
        if not line.strip(_JSON_SPACE):
            continue
        event, hidden = read(line) or _exact(number, line)
        events.append(event)
        if hidden:
            withheld.add(event.seq)
    return Record(header, events, frozenset(withheld), proof, signed)


def split_log_proof(text: str) -> tuple[str, LogProof | None, Signed | None]:
    """The record without its last line when that line is a :class:`LogProof`, the proof, and
    the text before it, which the log's leaf names (None, None when there is no such line)."""
    lines = text.split("\n")
    proof, signed = _log_proof(text, lines, _last_index(lines))
    if signed is None:
        return text, None, None
    return text[: signed.end], proof, signed


def _log_proof(text: str, lines: list[str], index: int) -> tuple[LogProof | None, Signed | None]:
    """The proof on ``lines[index]``, the last line of ``text`` that is not blank, if it is
    one, and the text before that line (``lines``: ``text`` split at each ``\n``)."""
    if index < 0:
        return None, None
    last = lines[index].rstrip(_JSON_SPACE)
    if not last.startswith('{"checkpoint"') or PROOF_FORMAT not in last:
        return None, None
    after = sum(len(line) + 1 for line in lines[index:])  # the line and the blank ones after
    return _validated(LogProof, index + 1, last), Signed(text, len(text) + 1 - after)


def _last_index(lines: list[str]) -> int:
    """The index of the last line that is not blank (-1: none is)."""
    index = len(lines) - 1
    while index >= 0 and not lines[index].strip(_JSON_SPACE):
        index -= 1
    return index


_JSON_SPACE = " \t\r"


def _header(number: int, line: str) -> Header:
    data = _object(number, line)
    if data.get("format") != FORMAT:
        raise RecordFormatError(number, f"the first line is a header with format {FORMAT!r}")
    return _validated(Header, number, data)


def _envelope(number: int, line: str) -> tuple[StoredEvent, bool]:
    """One envelope line: the event, and whether its payload is withheld: read by
    ``events.record_fast`` (msgspec) when it is sure, else by :func:`_exact`, so every line is
    accepted or refused as :class:`Envelope` decides, with the same error message."""
    return LineReader().read(line) or _exact(number, line)


def _exact(number: int, line: str) -> tuple[StoredEvent, bool]:
    """The line read by ``json`` then :class:`Envelope`: the reference, with its errors."""
    envelope = _validated(Envelope, number, line)
    return envelope.stored(), envelope.payload is None


def _validated(model: type[M], number: int, line: str | dict[str, Any]) -> M:
    data = _object(number, line) if isinstance(line, str) else line
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise RecordFormatError(number, _first_error(error)) from None


def _first_error(error: ValidationError) -> str:
    first = error.errors(include_url=False)[0]
    where = ".".join(str(part) for part in first["loc"])
    more = error.error_count() - 1
    return (f"{where}: " if where else "") + first["msg"] + (f" (+{more} more)" if more else "")


def _object(number: int, line: str) -> dict[str, Any]:
    try:
        data = _DECODER.decode(line)
    except json.JSONDecodeError as error:
        raise RecordFormatError(number, f"not JSON ({error.msg})") from None
    except (ValueError, RecursionError) as error:
        raise RecordFormatError(number, f"not JSON ({error})") from None
    if not isinstance(data, dict):
        raise RecordFormatError(number, "each line is a JSON object")
    if ("\\ud" in line or "\\uD" in line) and not _is_utf8(data):
        raise RecordFormatError(number, "not JSON text (a lone surrogate \\udxxx)")
    return data


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is out of range for a number")
    return value


_DECODER = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite)


def _is_utf8(data: dict[str, Any]) -> bool:
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
