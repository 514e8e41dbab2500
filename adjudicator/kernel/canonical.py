"""Canonical JSON and the hashes built on it (event chain, commitments).

Canonical form: UTF-8, keys sorted, no insignificant whitespace, datetimes as ISO 8601 in UTC
with microseconds and a ``Z``. Two equal values always give the same bytes.
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
    """The one textual form of an instant: UTC, microseconds, ``Z``."""
    if moment.tzinfo is None:
        raise ValueError("naive datetimes are refused: every instant carries a time zone")
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


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
