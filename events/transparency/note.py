"""C2SP signed notes (c2sp.org/signed-note) with Ed25519, and tlog-cosignature/v1 cosignatures.

A note is a text ending in a newline, a blank line, then one or more signature lines
``— <key name> base64(key id || signature)``. A key is identified by its name and a 4-byte key
id, ``SHA-256(name || 0x0A || type || public key)[:4]``; type 0x01 signs the note text with
Ed25519, type 0x04 (a cosignature) signs ``cosignature/v1\\ntime <t>\\n`` + the text and carries
``t`` as 8 big-endian bytes before the Ed25519 signature. Verifier keys ("vkeys") are
``name+hex(key id)+base64(type || public key)``; signer keys ("skeys", golang.org/x/mod's
format) are ``PRIVATE+KEY+name+hex(key id)+base64(type || 32-byte seed)``.

Opening a note follows the spec and the Go reference: signatures by unknown keys are ignored, a
known key's signature must verify, and at least one must. Errors are :class:`NoteError` with a
stable ``reason``; see docs/transparency.md.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Self

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import (
    Encoding,
    NoEncryption,
    PrivateFormat,
    PublicFormat,
)

ED25519: Final = 0x01
COSIGNATURE_V1: Final = 0x04
MAX_SIGNATURES: Final = 100  # as golang.org/x/mod/sumdb/note; the spec asks for at least 16
MAX_TIMESTAMP: Final = 2**63 - 1

_DASH: Final = "\u2014 "
_SKEY_PREFIX: Final = "PRIVATE+KEY+"
_TYPES: Final = (ED25519, COSIGNATURE_V1)


class NoteError(ValueError):
    """A note, key or signature refused. ``reason`` is one of: ``malformed``, ``no_signature``,
    ``unknown_key``, ``bad_signature``, ``ambiguous_key``, ``bad_key``, ``bad_name``,
    ``bad_timestamp``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Signature:
    """One signature line: the key's name and id, and the signature bytes after the key id."""

    name: str
    key_id: bytes
    signature: bytes

    def line(self) -> str:
        payload = base64.b64encode(self.key_id + self.signature).decode("ascii")
        return f"{_DASH}{self.name} {payload}\n"


@dataclass(frozen=True)
class Note:
    """A parsed note: its text (with the final newline), every signature line in order, and —
    after :func:`open_note` — the signatures that verified."""

    text: str
    signatures: tuple[Signature, ...]
    verified: tuple[Signature, ...] = ()


def key_id(name: str, sig_type: int, public_key: bytes) -> bytes:
    """``SHA-256(name || 0x0A || type || public key)[:4]``."""
    return hashlib.sha256(name.encode() + b"\n" + bytes([sig_type]) + public_key).digest()[:4]


def is_valid_name(name: str) -> bool:
    """Non-empty UTF-8, no Unicode space, no ``+``, no control character (as the Go reference)."""
    if not name or "+" in name or any(c.isspace() or c < " " for c in name):
        return False
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def cosigned_message(text: str, timestamp: int) -> bytes:
    """What a tlog-cosignature/v1 signs: ``cosignature/v1\\ntime <t>\\n`` + the checkpoint text."""
    _check_timestamp(timestamp)
    return f"cosignature/v1\ntime {timestamp}\n{text}".encode()


def cosignature_timestamp(signature: Signature) -> int:
    """The POSIX time a cosignature (type 0x04) carries before its Ed25519 signature."""
    if len(signature.signature) != 8 + 64:
        raise NoteError("malformed", f"{signature.name}: not a cosignature/v1 signature")
    (timestamp,) = struct.unpack(">Q", signature.signature[:8])
    return int(timestamp)


class Verifier:
    """A known public key: Ed25519 note signatures (type 0x01) or cosignatures (type 0x04)."""

    def __init__(self, name: str, public_key: bytes, sig_type: int = ED25519) -> None:
        _check_name(name)
        if sig_type not in _TYPES:
            raise NoteError("bad_key", f"signature type {sig_type:#04x} is not supported")
        if len(public_key) != 32:
            raise NoteError("bad_key", "an Ed25519 public key has 32 bytes")
        self.name = name
        self.sig_type = sig_type
        self.public_key = bytes(public_key)
        self.key_id = key_id(name, sig_type, self.public_key)
        self._key = Ed25519PublicKey.from_public_bytes(self.public_key)

    @classmethod
    def from_vkey(cls, vkey: str) -> Verifier:
        """Parse ``name+hex(key id)+base64(type || public key)``; the key id must match."""
        parts = vkey.split("+", 2)
        if len(parts) != 3:
            raise NoteError("bad_key", "a verifier key is name+keyid+key")
        name, hex_id, encoded = parts
        raw = _b64decode(encoded, "bad_key")
        if not raw:
            raise NoteError("bad_key", "the verifier key has no key material")
        verifier = cls(name, raw[1:], raw[0])
        if hex_id != verifier.key_id.hex():
            raise NoteError("bad_key", f"key id {hex_id} does not match the key")
        return verifier

    def vkey(self) -> str:
        return _key_string(self.name, self.key_id, self.sig_type, self.public_key)

    def verify(self, text: str, signature: bytes) -> bool:
        """Whether ``signature`` (the bytes after the key id) signs ``text`` under this key."""
        try:
            message = text.encode()
        except UnicodeEncodeError:
            return False
        if self.sig_type == COSIGNATURE_V1:
            if len(signature) != 8 + 64:
                return False
            (timestamp,) = struct.unpack(">Q", signature[:8])
            if timestamp > MAX_TIMESTAMP:
                return False
            message, signature = cosigned_message(text, timestamp), signature[8:]
        try:
            self._key.verify(signature, message)
        except InvalidSignature:
            return False
        return True


class _KeyPair:
    """An Ed25519 private key under a name, for one signature type."""

    sig_type: int = ED25519

    def __init__(self, name: str, private_key: Ed25519PrivateKey) -> None:
        _check_name(name)
        self.name = name
        self._key = private_key
        self.public_key = private_key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.key_id = key_id(name, self.sig_type, self.public_key)

    @classmethod
    def from_skey(cls, skey: str) -> Self:
        """Parse golang.org/x/mod's ``PRIVATE+KEY+name+hex(key id)+base64(type || seed)``. A
        cosigner also takes an ordinary (0x01) Ed25519 skey, as transparency-dev/formats does."""
        if not skey.startswith(_SKEY_PREFIX):
            raise NoteError("bad_key", "a signer key starts with PRIVATE+KEY+")
        parts = skey[len(_SKEY_PREFIX) :].split("+", 2)
        if len(parts) != 3:
            raise NoteError("bad_key", "a signer key is PRIVATE+KEY+name+keyid+key")
        name, hex_id, encoded = parts
        raw = _b64decode(encoded, "bad_key")
        if len(raw) != 33 or raw[0] not in (ED25519, cls.sig_type):
            raise NoteError("bad_key", f"a signer key here is {cls.sig_type:#04x} + a 32-byte seed")
        signer = cls(name, Ed25519PrivateKey.from_private_bytes(raw[1:]))
        if hex_id != key_id(name, raw[0], signer.public_key).hex():
            raise NoteError("bad_key", f"key id {hex_id} does not match the key")
        return signer

    def skey(self) -> str:
        """The signer key string (secret): the private seed, to store in a key file."""
        seed = self._key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        return _SKEY_PREFIX + _key_string(self.name, self.key_id, self.sig_type, seed)

    def vkey(self) -> str:
        return _key_string(self.name, self.key_id, self.sig_type, self.public_key)

    def verifier(self) -> Verifier:
        return Verifier(self.name, self.public_key, self.sig_type)


class Signer(_KeyPair):
    """An Ed25519 note signer (type 0x01)."""

    sig_type: int = ED25519

    def signature(self, text: str) -> Signature:
        """The signature line for ``text`` (checked to be a valid note text)."""
        _check_text(text)
        return Signature(self.name, self.key_id, self._key.sign(text.encode()))

    def sign(self, text: str) -> str:
        """A complete signed note: ``text``, a blank line, this key's signature line."""
        return format_note(text, [self.signature(text)])


class CosignatureSigner(_KeyPair):
    """A witness's tlog-cosignature/v1 signer (type 0x04); the time is passed in."""

    sig_type: int = COSIGNATURE_V1

    def cosignature(self, text: str, timestamp: int) -> Signature:
        """The cosignature line over a checkpoint's text at POSIX time ``timestamp``."""
        _check_text(text)
        signed = self._key.sign(cosigned_message(text, timestamp))
        return Signature(self.name, self.key_id, struct.pack(">Q", timestamp) + signed)

    def cosign(self, note: str, timestamp: int) -> str:
        """The signed note with this witness's cosignature added (or replacing its previous one)."""
        parsed = parse_note(note)
        return add_signatures(parsed, [self.cosignature(parsed.text, timestamp)])


def format_note(text: str, signatures: Iterable[Signature]) -> str:
    """``text`` + a blank line + the signature lines, in the order given."""
    _check_text(text)
    lines = [s.line() for s in signatures]
    if not lines:
        raise NoteError("no_signature", "a signed note needs at least one signature")
    return text + "\n" + "".join(lines)


def add_signatures(note: Note, signatures: Iterable[Signature]) -> str:
    """The note re-encoded with ``signatures`` appended; an existing signature by the same key
    (name and key id) is dropped, as golang.org/x/mod's ``Sign`` does."""
    new = list(signatures)
    keys = {(s.name, s.key_id) for s in new}
    kept = [s for s in note.signatures if (s.name, s.key_id) not in keys]
    return format_note(note.text, kept + new)


def parse_note(note: str | bytes) -> Note:
    """Split a note into its text and signature lines, checking the syntax only."""
    text, block = _split(_as_text(note))
    lines = block[:-1].split("\n")
    if len(lines) > MAX_SIGNATURES:
        raise NoteError("malformed", f"more than {MAX_SIGNATURES} signatures")
    return Note(text, tuple(_parse_line(line) for line in lines))


def open_note(note: str | bytes, verifiers: Sequence[Verifier]) -> Note:
    """Parse and verify: every signature by a known key (name and key id) must verify, at least
    one must exist; others are ignored. ``verified`` lists the good ones (a repeat counted once)."""
    parsed = parse_note(note)
    verified: list[Signature] = []
    for sig in parsed.signatures:
        verifier = _find(verifiers, sig)
        if verifier is None or any(v.name == sig.name and v.key_id == sig.key_id for v in verified):
            continue
        if not verifier.verify(parsed.text, sig.signature):
            raise NoteError("bad_signature", f"invalid signature for key {_label(sig)}")
        verified.append(sig)
    if not verified:
        names = ", ".join(_label(s) for s in parsed.signatures)
        raise NoteError("unknown_key", f"no signature by a known key (signed by {names})")
    return Note(parsed.text, parsed.signatures, tuple(verified))


def _split(message: str) -> tuple[str, str]:
    if any(c < " " and c != "\n" for c in message):
        raise NoteError("malformed", "a note has no control characters but newlines")
    split = message.rfind("\n\n")
    if split < 0 or split + 2 == len(message):
        raise NoteError("no_signature", "the note has no signature block")
    text, block = message[: split + 1], message[split + 2 :]
    if not block.endswith("\n"):
        raise NoteError("malformed", "the signature block must end with a newline")
    return text, block


def _parse_line(line: str) -> Signature:
    if not line.startswith(_DASH):
        raise NoteError("malformed", f"not a signature line: {line[:40]!r}")
    name, _, encoded = line[len(_DASH) :].partition(" ")
    if not is_valid_name(name):
        raise NoteError("malformed", f"bad key name {name[:40]!r}")
    raw = _b64decode(encoded, "malformed")
    if len(raw) < 5:
        raise NoteError("malformed", f"signature by {name} is too short")
    return Signature(name, raw[:4], raw[4:])


def _find(verifiers: Sequence[Verifier], sig: Signature) -> Verifier | None:
    found = [v for v in verifiers if v.name == sig.name and v.key_id == sig.key_id]
    if len(found) > 1:
        raise NoteError("ambiguous_key", f"ambiguous key {_label(sig)}")
    return found[0] if found else None


def _as_text(note: str | bytes) -> str:
    if isinstance(note, bytes):
        try:
            return note.decode("utf-8")
        except UnicodeDecodeError as error:
            raise NoteError("malformed", "a note is UTF-8") from error
    try:
        note.encode("utf-8")
    except UnicodeEncodeError as error:
        raise NoteError("malformed", "a note is UTF-8") from error
    return note


def _check_text(text: str) -> None:
    if not text.endswith("\n"):
        raise NoteError("malformed", "a note's text ends with a newline")
    if any(c < " " and c != "\n" for c in text):
        raise NoteError("malformed", "a note has no control characters but newlines")
    _as_text(text)


def _check_name(name: str) -> None:
    if not is_valid_name(name):
        raise NoteError("bad_name", f"key name {name[:40]!r}: non-empty, no spaces, no '+'")


def _check_timestamp(timestamp: int) -> None:
    if not 0 <= timestamp <= MAX_TIMESTAMP:
        raise NoteError("bad_timestamp", f"timestamp {timestamp} is not between 0 and 2**63 - 1")


def _b64decode(encoded: str, reason: str) -> bytes:
    """Standard base64 with padding, canonical only (re-encoding gives the same string)."""
    try:
        raw = base64.b64decode(encoded, validate=True)
    except (binascii.Error, ValueError) as error:
        raise NoteError(reason, "not valid base64") from error
    if base64.b64encode(raw).decode("ascii") != encoded:
        raise NoteError(reason, "not canonical base64")
    return raw


def _key_string(name: str, kid: bytes, sig_type: int, key: bytes) -> str:
    return f"{name}+{kid.hex()}+{base64.b64encode(bytes([sig_type]) + key).decode('ascii')}"


def _label(sig: Signature) -> str:
    return f"{sig.name}+{sig.key_id.hex()}"
