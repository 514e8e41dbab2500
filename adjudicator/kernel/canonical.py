"""Canonical JSON and the hashes built on it (event chain, commitments).

Canonical form: UTF-8, keys sorted, no insignificant whitespace, datetimes as ISO 8601 in UTC
with a four-digit year, microseconds and a ``Z``. Two equal values always give the same bytes.

The form is the one ``json.dumps(sort_keys=True, separators=(",", ":"), ensure_ascii=False)``
writes. ``orjson`` writes the very same bytes, faster, for plain JSON values (strings, 64-bit
ints, booleans, None, and dicts with string keys, lists and tuples of those); anything else
(floats, which orjson spells differently, e.g. ``1e-05``; bigger ints; datetimes; sets; other
types) goes through the stdlib, so its bytes (and its errors) are exactly the stdlib's.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import orjson


def _default(value: Any) -> Any:
    if isinstance(value, datetime):
        return iso(value)
    if isinstance(value, tuple | frozenset | set):
        return list(value)
    raise TypeError(f"not JSON-serialisable: {type(value).__name__}")


def iso(moment: datetime) -> str:
    """The one textual form of an instant, always 27 characters: ``YYYY-MM-DDTHH:MM:SS.ffffffZ``
    in UTC (a four-digit year, zero-padded below 1000, microseconds, ``Z``), so the text sorts
    like the instants it names. Raises OverflowError when the instant leaves years 1-9999 in
    UTC (see ``adjudicator.kernel.times.checked``)."""
    if moment.tzinfo is UTC and type(moment) is datetime:  # already UTC: "+00:00" becomes "Z"
        return moment.isoformat(timespec="microseconds")[:-6] + "Z"
    if moment.tzinfo is None:
        raise ValueError("naive datetimes are refused: every instant carries a time zone")
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def iso_all(moments: Sequence[datetime]) -> list[str]:
    """``[iso(m) for m in moments]``, the usual ones written by orjson (C) in one call: an
    aware instant with a zero offset and a non-zero microsecond comes out of orjson as the 27
    characters ``iso`` writes (``OPT_UTC_Z``: ``Z`` for the offset); every other one (another
    offset, whole seconds, naive, out of range) is left to ``iso`` itself. datetime's
    ``isoformat`` costs ~1.5 us a call here, which made the two times of each stored event most
    of a chain check."""
    try:
        written = orjson.dumps(moments, option=orjson.OPT_UTC_Z).decode()
    except orjson.JSONEncodeError:  # not a list of datetimes orjson writes
        return [iso(moment) for moment in moments]
    texts = written[2:-2].split('","') if moments else []
    return [
        text if len(text) == 27 and text[-1] == "Z" else iso(moment)
        for text, moment in zip(texts, moments, strict=True)
    ]


def parse_iso(text: str) -> datetime:
    """The instant named by ``text`` in the form ``iso`` writes (any ISO 8601 form with an
    offset is read too), as an aware UTC datetime. Raises ValueError for anything else."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError(f"an instant needs a time zone: {text!r}")
    return moment.astimezone(UTC)


def canonical_json(value: Any) -> bytes:
    fast = fast_canonical_json(value)
    return stdlib_canonical_json(value) if fast is None else fast


def fast_canonical_json(value: Any, check: Callable[[Any], bool] | None = None) -> bytes | None:
    """orjson's bytes for ``value`` when they are the stdlib's, else None: when orjson refuses
    it (a lone surrogate, a key that is not exactly a ``str``, nesting deeper than 254 levels or
    a cycle) or ``check`` (``plain`` unless given) finds a value orjson may spell otherwise. The
    stdlib then decides, and raises its own error if it must."""
    text = plain_canonical_json(value)
    return text if text is not None and (check or plain)(value) else None  # no cycle to walk


def plain_canonical_json(value: Any) -> bytes | None:
    """:func:`fast_canonical_json` of a value known to be plain (``plain``, which is then not
    called): orjson's bytes, or None when orjson refuses it."""
    try:
        return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)
    except orjson.JSONEncodeError:
        return None


def stdlib_canonical_json(value: Any) -> bytes:
    """The reference form, for any value the stdlib ``json`` serialises."""
    text = json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_default
    )
    return text.encode("utf-8")


_INT_MIN, _INT_MAX = -(2**63), 2**64 - 1  # orjson's range of ints


def plain(value: Any) -> bool:
    """Whether ``value`` holds only plain JSON values (exact types, no subclasses): strings,
    ints in orjson's range (-2**63 .. 2**64-1), booleans, None, lists, tuples and dicts of those.
    Dict keys are left to orjson, which refuses any key but an exact ``str``; a string with a
    lone surrogate is plain, yet orjson refuses it too. Walks without end a value that holds
    itself: call it on what orjson has serialised (see ``fast_canonical_json``)."""
    pending: list[Any] = [(value,)]  # containers whose items are still to be looked at
    pop, push = pending.pop, pending.append
    while pending:
        container = pop()
        for item in container.values() if type(container) is dict else container:
            kind = type(item)
            if kind is str or kind is bool or item is None:
                continue
            if kind is dict or kind is list or kind is tuple:
                push(item)
            elif kind is not int or not _INT_MIN <= item <= _INT_MAX:
                return False
    return True


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def commitment(salt: str, payload: Any) -> str:
    """sha256 over the salt followed by the canonical payload: public before the reveal."""
    return sha256_hex(salt.encode("utf-8") + canonical_json(payload))


def verify_commitment(expected: str, salt: str, payload: Any) -> bool:
    return commitment(salt, payload) == expected
