"""The fast reading of a record's envelope lines, for ``events.record.loads``.

msgspec decodes a line in one step (in C) into :class:`_Line`, whose fields have plain types
only: it refuses what the strict reading would refuse for its type (a missing or unknown field,
a string where an int belongs, a bool as an int, bad JSON) and any float in the payload or
source (through ``float_hook``). What msgspec cannot check is checked after: the fixed strings'
patterns by one regular expression, the optional fields' by theirs, seq >= 1, the times by
``datetime.fromisoformat``, the disclosure rules. A line this reading is unsure of for any
reason (and one that may nest too deep: see ``_NESTING``) is left to the strict reading
(``events.record``'s ``Envelope``), which accepts or refuses it and words the error, so every
line is read as that reading reads it.

The event is built from the decoded fields without ``__init__`` (``envelope.assembled``), with
its times' canonical text, which ``iso`` would write back unchanged, and ``plain_json`` when
orjson serialises its seq, payload and source: msgspec gave exact JSON types and no float, so
orjson then writes them as the stdlib does (ints beyond 64 bits, which ``plain`` refuses, make
orjson refuse; the property is then left to find out).
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import msgspec
import orjson

from events.envelope import StoredEvent, assembled, disclosure_problem


class _Line(msgspec.Struct, forbid_unknown_fields=True, gc=False):
    """An envelope line's fields (``events.record.Envelope``'s), with plain types (short-lived
    and in no cycle, so the garbage collector need not track it)."""

    match_id: str
    seq: int
    type: str
    actor: str
    occurred_at: str
    recorded_at: str
    payload: dict[str, Any] | None
    private_to: list[str] | None
    salt: str | None
    commitment: str | None
    idempotency_key: str | None
    prev_hash: str
    hash: str
    source: dict[str, Any] | None = None


FIELDS = tuple(_Line.__struct_fields__)


class _Float(ValueError):
    """A float in the payload or source: the strict reading decides (``plain`` refuses it)."""


def _refuse_float(text: str) -> float:
    raise _Float(text)


_decode = msgspec.json.Decoder(_Line, float_hook=_refuse_float).decode

_TIME = r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z"
_HEX64 = r"[0-9a-f]{64}"
_NAME = r"[!-~]{1,128}"
_IS_HEAD = re.compile(  # match_id, type, actor
    rf"[0-9a-f]{{8}}(?:-[0-9a-f]{{4}}){{3}}-[0-9a-f]{{12}}\x00{_NAME}\x00{_NAME}"
).fullmatch
_IS_STAMP = re.compile(rf"{_HEX64}\x00{_TIME}(?:\x00{_TIME})?").fullmatch  # hash, times
_IS_HEX64 = re.compile(_HEX64).fullmatch
_IS_SALT = re.compile(r"[0-9a-f]{32}").fullmatch
_IS_KEY = re.compile(r"[^\x00-\x1f\x7f]{0,255}").fullmatch
_IS_SEAT = re.compile(r"[A-Za-z0-9_-]{1,32}").fullmatch
_NESTING = 256
"""A line read here nests at most this deep: msgspec and ``json`` both stop at Python's
recursion limit, from different depths of the stack, so a line nested near it is left to the
strict reading alone. (Valid JSON that nests d deep has 2d brackets: a shorter line passes.)"""

_from_iso = datetime.fromisoformat
_dumps = orjson.dumps


class LineReader:
    """Reads the envelope lines of one record, in order. It remembers the strings it found in
    their forms (a record's lines share a match id and a few types and actors, whose events
    then share one copy of each) and the last line's hash, which the next line's ``prev_hash``
    repeats (the two events then share it too), so most lines check only their own hash and
    times against a pattern."""

    def __init__(self) -> None:
        self._heads: dict[str, tuple[str, str, str]] = {}
        self._hash: str | None = None  # the last line's hash, once one is read

    def read(self, line: str) -> tuple[StoredEvent, bool] | None:
        """The event of an envelope line and whether its payload is withheld, or None for the
        strict reading to decide."""
        if len(line) >= 2 * _NESTING and line.count("[") + line.count("{") > _NESTING:
            return None
        try:
            read = _decode(line)
        except (ValueError, RecursionError):  # msgspec's errors, a float, a lone surrogate
            return None
        occurred, recorded = read.occurred_at, read.recorded_at
        head = f"{read.match_id}\x00{read.type}\x00{read.actor}"
        shared = self._heads.get(head)
        if shared is None:
            if _IS_HEAD(head) is None:
                return None
            shared = self._heads[head] = (read.match_id, read.type, read.actor)
        stamp = f"{read.hash}\x00{occurred}"
        if recorded != occurred:
            stamp = f"{stamp}\x00{recorded}"
        prev, last = read.prev_hash, self._hash
        if last is not None and prev == last:
            prev = last  # one copy of each hash, shared by its event and the next
        elif _IS_HEX64(prev) is None:
            return None
        if _IS_STAMP(stamp) is None:
            return None
        if read.seq < 1:
            return None
        plain_public = (  # the usual line: nothing optional to check
            read.private_to is None
            and read.salt is None
            and read.commitment is None
            and read.idempotency_key is None
            and read.payload is not None
        )
        if not plain_public and (not _optional_ok(read) or disclosure_problem(read)):
            return None
        event = _event(read, prev, *shared)
        if event is not None:
            self._hash = read.hash
        return event


def _event(
    read: _Line, prev_hash: str, match_id: str, type: str, actor: str
) -> tuple[StoredEvent, bool] | None:
    """The event of a line whose strings are in their forms (None: a time is not one), with
    the given copies of its prev_hash, match id, type and actor."""
    occurred, recorded = read.occurred_at, read.recorded_at
    try:
        occurred_at = _from_iso(occurred)
        recorded_at = occurred_at if recorded == occurred else _from_iso(recorded)
    except ValueError:  # the form holds, the date does not exist
        return None
    payload, private_to = read.payload, read.private_to
    fields = {
        "match_id": match_id,
        "seq": read.seq,
        "position": 0,
        "type": type,
        "actor": actor,
        "occurred_at": occurred_at,
        "recorded_at": recorded_at,
        "payload": {} if payload is None else payload,
        "private_to": None if private_to is None else tuple(private_to),
        "salt": read.salt,
        "commitment": read.commitment,
        "idempotency_key": read.idempotency_key,
        "prev_hash": prev_hash,
        "hash": read.hash,
        "source": read.source,
        "occurred_iso": occurred,  # canonical: iso gives the very text back
        "recorded_iso": recorded,
    }
    try:
        _dumps((read.seq, payload, read.source))
        fields["plain_json"] = True
    except orjson.JSONEncodeError:
        pass  # an int beyond 64 bits, or deep nesting: the property finds out
    return assembled(fields), payload is None


def _optional_ok(read: _Line) -> bool:
    """Whether the optional strings, where given, are in their forms."""
    salt, commitment, key, seats = read.salt, read.commitment, read.idempotency_key, read.private_to
    return (
        (salt is None or _IS_SALT(salt) is not None)
        and (commitment is None or _IS_HEX64(commitment) is not None)
        and (key is None or _IS_KEY(key) is not None)
        and (seats is None or all(_IS_SEAT(seat) is not None for seat in seats))
    )
