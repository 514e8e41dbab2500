"""Bearer tokens: random, shown once, stored only as sha256 hashes."""

from __future__ import annotations

import hashlib
import secrets

import structlog

from events import EventStore, TokenRecord


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


def ensure_operator_token(store: EventStore, configured: str | None) -> None:
    """Register the configured operator token; with none configured and none stored, create one
    and print it once (the embedded default is closed too)."""
    if configured:
        hashed = token_hash(configured)
        if not (store.operator_token_count() == 1 and store.has_operator_token(hashed)):
            store.replace_operator_tokens(hashed)  # a new configured token revokes the old
        return
    if store.operator_token_count() == 0:
        token = new_token("op")
        store.add_operator_token(token_hash(token))
        structlog.get_logger("api").warning("operator_token_created")  # never the token
        print(f"\nOperator token (shown once, keep it): {token}\n", flush=True)
