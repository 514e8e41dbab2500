"""The log's signing keys in the store: the one that signs now, every one that ever did, and
rotation.

A key is an Ed25519 key under a name, the log's origin (C2SP signed-note). The service signs with
the key configured by ``ADJUDICATOR_SIGNING_KEY`` (a signed-note skey, ``PRIVATE+KEY+...``; the
store keeps only its public half) or, when none is configured, with one it generated on first
start (the store keeps the skey, as the embedded operator token's hash is kept: a laptop install
signs with nothing else set up). Every key's validity is ``[valid_from, valid_until)``;
``valid_until`` is set once, when the key is rotated out, and a trigger refuses any other change.
"""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass
from datetime import datetime
from functools import lru_cache
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from sqlalchemy import Connection, insert, select, update

from adjudicator.kernel.canonical import iso
from events.tables import signing_keys
from events.transparency.note import CosignatureSigner, Signer, Verifier

DEFAULT_NAME_PREFIX = "adjudicator.local/log-"


@dataclass(frozen=True, slots=True)
class KeyInfo:
    """A key as ``/.well-known/adjudicator-keys`` publishes it."""

    name: str
    key_id: str  # hex, 4 bytes
    public_key: bytes
    valid_from: datetime
    valid_until: datetime | None

    @property
    def verifier(self) -> Verifier:
        return Verifier(self.name, self.public_key)

    def as_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "key_id": self.key_id,
            "algorithm": "ed25519",
            "public_key": base64.b64encode(self.public_key).decode(),
            "vkey": self.verifier.vkey(),
            "valid_from": iso(self.valid_from),
            "valid_until": None if self.valid_until is None else iso(self.valid_until),
        }

    def valid_at(self, moment: datetime) -> bool:
        return self.valid_from <= moment and (self.valid_until is None or moment < self.valid_until)


def generate(name: str | None = None) -> Signer:
    """A new Ed25519 signer; its name defaults to a fresh, unique log origin."""
    return Signer(name or DEFAULT_NAME_PREFIX + secrets.token_hex(4), Ed25519PrivateKey.generate())


def all_keys(conn: Connection) -> list[KeyInfo]:
    """Every key the log ever signed with, oldest first."""
    rows = conn.execute(select(signing_keys).order_by(signing_keys.c.valid_from)).all()
    return [_info(row) for row in rows]


def _info(row: Any) -> KeyInfo:
    return KeyInfo(
        row.name,
        row.key_id,
        base64.b64decode(row.public_key),
        row.valid_from,
        row.valid_until,
    )


def current_row(conn: Connection) -> Any:
    query = select(signing_keys).where(signing_keys.c.valid_until.is_(None))
    return conn.execute(query.order_by(signing_keys.c.valid_from.desc())).first()


def current_signer(conn: Connection, configured: Signer | None) -> Signer | None:
    """The signer of the key valid now: the configured one when it is the current key, else the
    generated key the store holds; None when the store holds no private half (a configured key
    is expected but none was given)."""
    row = current_row(conn)
    if row is None:
        return None
    if configured is not None and configured.key_id.hex() == row.key_id:
        return configured
    return None if row.private_key is None else _signer_of(row.private_key)


@lru_cache(maxsize=8)
def _signer_of(skey: str) -> Signer:
    """A stored key's signer, parsed once (each close signs with it: parsing the key and
    deriving its public half cost more than the signature)."""
    return Signer.from_skey(skey)


def ensure_key(conn: Connection, configured: Signer | None, now: datetime) -> Signer | None:
    """At start: make sure the store has a current key. Returns a newly generated signer (whose
    public key the caller prints once), or None when a key was there or was configured.

    A configured key that is not yet in the store becomes the current key: the previous one (if
    any) is rotated out now, without a rotation entry (the operator changed the configuration;
    ``adjudicator keys rotate`` is the recorded way)."""
    row = current_row(conn)
    if configured is not None:
        if row is None or row.key_id != configured.key_id.hex():
            if _known(conn, configured.key_id.hex()):
                return None  # a key rotated out earlier: it no longer signs
            _retire(conn, row, now)
            _insert(conn, configured, now, keep_private=False)
        return None
    if row is not None:
        return None
    signer = generate()
    _insert(conn, signer, now, keep_private=True)
    return signer


def _known(conn: Connection, key_id: str) -> bool:
    found = conn.execute(select(signing_keys.c.key_id).where(signing_keys.c.key_id == key_id))
    return found.first() is not None


def _second(moment: datetime) -> datetime:
    """Key validity is kept in whole seconds, the unit of a checkpoint's signed time."""
    return moment.replace(microsecond=0)


def _retire(conn: Connection, row: Any, now: datetime) -> None:
    now = _second(now)
    if row is not None:
        query = update(signing_keys).where(signing_keys.c.key_id == row.key_id)
        conn.execute(query.values(valid_until=now))


def _insert(conn: Connection, signer: Signer, now: datetime, keep_private: bool) -> None:
    conn.execute(
        insert(signing_keys).values(
            key_id=signer.key_id.hex(),
            name=signer.name,
            public_key=base64.b64encode(signer.public_key).decode(),
            private_key=signer.skey() if keep_private else None,
            valid_from=_second(now),
            valid_until=None,
        )
    )


def rotate(conn: Connection, old: Signer, new: Signer, now: datetime, keep_private: bool) -> None:
    """Retire ``old`` (the current key) and make ``new`` current from ``now``."""
    _retire(conn, current_row(conn), now)
    _insert(conn, new, now, keep_private=keep_private)


def timestamper(signer: Signer) -> CosignatureSigner:
    """The same key as a tlog-cosignature (0x04) signer: the log cosigns its own checkpoints, so
    each carries a signed time at which the key must be valid."""
    return _cosigner_of(signer.skey())


@lru_cache(maxsize=8)
def _cosigner_of(skey: str) -> CosignatureSigner:
    return CosignatureSigner.from_skey(skey)
