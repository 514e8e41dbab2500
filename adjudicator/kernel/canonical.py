"""Canonical JSON and the hashes built on it (event chain, commitments).

Canonical form: UTF-8, keys sorted, no insignificant whitespace, datetimes as ISO 8601 in UTC
with a four-digit year, microseconds and a ``Z``. Two equal values always give the same bytes.
"""

from __future__ import annotations

import hashlib
import json
from datetime import UTC, datetime
from typing import Any


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
    if moment.tzinfo is None:
        raise ValueError("naive datetimes are refused: every instant carries a time zone")
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds") + "Z"


def parse_iso(text: str) -> datetime:
    """The instant named by ``text`` in the form ``iso`` writes (any ISO 8601 form with an
    offset is read too), as an aware UTC datetime. Raises ValueError for anything else."""
    moment = datetime.fromisoformat(text)
    if moment.tzinfo is None:
        raise ValueError(f"an instant needs a time zone: {text!r}")
    return moment.astimezone(UTC)


def canonical_json(value: Any) -> bytes:
    text = json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_default
    )
    return text.encode("utf-8")


def sha256_hex(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def commitment(salt: str, payload: Any) -> str:
    """sha256 over the salt followed by the canonical payload: public before the reveal."""
    return sha256_hex(salt.encode("utf-8") + canonical_json(payload))


def verify_commitment(expected: str, salt: str, payload: Any) -> bool:
    return commitment(salt, payload) == expected
