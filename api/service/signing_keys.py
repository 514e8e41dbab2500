"""The log's signing key at the service's start: the configured one, or one the store generated
(its public key printed once, as the operator token is)."""

from __future__ import annotations

from pathlib import Path

import structlog

from events import EventStore
from events.log_store import LogStore
from events.transparency.note import NoteError, Signer


class SigningKeyInvalid(ValueError):
    """``ADJUDICATOR_SIGNING_KEY`` is neither a signer key nor a file holding one."""


def configured_signer(value: str | None) -> Signer | None:
    """The signer ``value`` names: a signed-note skey, or the path of a file holding one."""
    if not value:
        return None
    text = value.strip()
    if not text.startswith("PRIVATE+KEY+"):
        try:
            text = Path(text).read_text(encoding="utf-8").strip()
        except OSError as error:
            message = f"ADJUDICATOR_SIGNING_KEY: cannot read {value!r}: {error}"
            raise SigningKeyInvalid(message) from None
    try:
        return Signer.from_skey(text)
    except NoteError as error:
        raise SigningKeyInvalid(f"ADJUDICATOR_SIGNING_KEY is not a signer key: {error}") from None


def ensure_signing_key(store: EventStore, configured: str | None) -> None:
    """Attach the configured key to ``store`` and bring the log up to date (a current key; a
    leaf for every closed match). A key generated now is announced once."""
    store.signer = configured_signer(configured)
    generated = LogStore(store).start()
    if generated is not None:
        structlog.get_logger("api").warning("signing_key_created", key=generated.vkey())
        print(f"\nTransparency log key created; its public key: {generated.vkey()}\n", flush=True)
