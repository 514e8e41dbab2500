"""Bearer tokens: random, shown once, stored only as sha256 hashes."""

from __future__ import annotations

import hashlib
import secrets

from events import TokenRecord


def new_token(prefix: str) -> str:
    return f"{prefix}_{secrets.token_urlsafe(24)}"


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def issue_match_tokens(seats: tuple[str, str]) -> tuple[dict[str, object], list[TokenRecord]]:
    """One token per seat, one for the host, one read-only auditor token."""
    host, auditor = new_token("host"), new_token("audit")
    by_seat = {seat: new_token("seat") for seat in seats}
    records = [TokenRecord("host", token_hash(host)), TokenRecord("auditor", token_hash(auditor))]
    records += [TokenRecord("seat", token_hash(t), seat) for seat, t in by_seat.items()]
    return {"host": host, "auditor": auditor, "seats": by_seat}, records
