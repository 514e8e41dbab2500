"""The envelope hash, without a database: what it covers and what it leaves out."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime

from events import GENESIS_HASH, StoredEvent, hash_of

AT = datetime(2024, 5, 1, 12, 0, 0, 5, tzinfo=UTC)
PUBLIC = StoredEvent(
    match_id="m-1",
    seq=1,
    position=7,
    type="zoom.buzzed",
    actor="seat:north",
    occurred_at=AT,
    recorded_at=AT,
    payload={"pairs": [[1, 2]]},
    private_to=None,
    salt=None,
    commitment=None,
    idempotency_key=None,
    prev_hash=GENESIS_HASH,
    hash="",
)


def test_the_hash_format_is_stable() -> None:
    # Pinned: exported logs are verified against this; changing it breaks every old export.
    assert hash_of(PUBLIC) == "71812b1ab81319932c968e28d7708be9dd6d304a139c5fe27ae0dcb77bb37798"


def test_position_and_salt_are_not_hashed() -> None:
    assert hash_of(replace(PUBLIC, position=99, salt="00")) == hash_of(PUBLIC)


def test_a_private_payload_is_hashed_through_its_commitment_only() -> None:
    private = replace(PUBLIC, private_to=("north",), commitment="c" * 64)

    assert hash_of(replace(private, payload={})) == hash_of(private)
    assert hash_of(replace(private, commitment="d" * 64)) != hash_of(private)
    assert hash_of(private) != hash_of(PUBLIC)


def test_every_envelope_field_is_covered() -> None:
    changes = [
        {"match_id": "m-2"},
        {"seq": 2},
        {"type": "zoom.other"},
        {"actor": "host"},
        {"occurred_at": AT.replace(microsecond=6)},
        {"recorded_at": AT.replace(microsecond=6)},
        {"payload": {"pairs": [[2, 1]]}},
        {"idempotency_key": "k"},
        {"prev_hash": "f" * 64},
    ]
    hashes = {hash_of(replace(PUBLIC, **change)) for change in changes}  # type: ignore[arg-type]
    assert len(hashes | {hash_of(PUBLIC)}) == len(changes) + 1
