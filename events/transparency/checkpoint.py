"""C2SP tlog-checkpoint: the note text that states a log's tree head.

``<origin>\\n<tree size>\\n<base64 root hash>\\n`` then optional non-empty extension lines. The
size is ASCII decimal without leading zeros; the root is the standard base64 of the 32-byte
RFC 6962 root. Parsing is strict: anything else raises :class:`CheckpointError`.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from events.transparency.merkle import HASH_SIZE, MAX_SIZE, verify_consistency
from events.transparency.note import Note, Signer, Verifier, open_note

_SIZE: Final = re.compile(r"0|[1-9][0-9]{0,18}")


class CheckpointError(ValueError):
    """A checkpoint refused. ``reason`` is one of: ``malformed``, ``bad_origin``, ``bad_size``,
    ``bad_root``, ``bad_extension``, ``wrong_origin``, ``rollback``, ``fork``."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True)
class Checkpoint:
    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()


def format_checkpoint(cp: Checkpoint) -> str:
    """The checkpoint's note text (every line newline-terminated)."""
    _check_line(cp.origin, "bad_origin", "origin")
    if not 0 <= cp.size <= MAX_SIZE:
        raise CheckpointError("bad_size", f"tree size {cp.size} is not between 0 and 2**63 - 1")
    if len(cp.root) != HASH_SIZE:
        raise CheckpointError("bad_root", f"a root hash has {HASH_SIZE} bytes")
    for line in cp.extensions:
        _check_line(line, "bad_extension", "extension line")
    root = base64.b64encode(cp.root).decode("ascii")
    return "".join(f"{line}\n" for line in (cp.origin, str(cp.size), root, *cp.extensions))


def parse_checkpoint(text: str) -> Checkpoint:
    """The checkpoint in a note text; strict (:class:`CheckpointError` on any deviation)."""
    if not text.endswith("\n"):
        raise CheckpointError("malformed", "a checkpoint's text ends with a newline")
    lines = text[:-1].split("\n")
    if len(lines) < 3:
        raise CheckpointError("malformed", "a checkpoint has an origin, a size and a root")
    origin, size, root, *extensions = lines
    _check_line(origin, "bad_origin", "origin")
    for line in extensions:
        _check_line(line, "bad_extension", "extension line")
    return Checkpoint(origin, _parse_size(size), _parse_root(root), tuple(extensions))


def sign_checkpoint(cp: Checkpoint, signer: Signer) -> str:
    """The checkpoint as a signed note."""
    return signer.sign(format_checkpoint(cp))


def open_checkpoint(
    note: str | bytes, verifiers: Sequence[Verifier], origin: str | None = None
) -> tuple[Checkpoint, Note]:
    """Verify a signed checkpoint (:func:`open_note` rules) and parse it; with ``origin``, the
    checkpoint must be that log's. Raises :class:`NoteError` or :class:`CheckpointError`."""
    opened = open_note(note, verifiers)
    cp = parse_checkpoint(opened.text)
    if origin is not None and cp.origin != origin:
        raise CheckpointError("wrong_origin", f"checkpoint of {cp.origin!r}, not {origin!r}")
    return cp, opened


def check_extends(old: Checkpoint, new: Checkpoint, proof: Sequence[bytes]) -> None:
    """A witness's check: ``new`` is the same log as ``old`` and extends it (RFC 9162 consistency
    ``proof`` from ``old.size`` to ``new.size``). Raises :class:`CheckpointError` (``wrong_origin``;
    ``rollback``: ``new`` is smaller; ``fork``: the same size with another root) or
    :class:`~events.transparency.merkle.ProofError` (the proof does not show ``new`` extends
    ``old``: a fork too, or a bad proof; a witness cannot tell which and must refuse both)."""
    if new.origin != old.origin:
        raise CheckpointError("wrong_origin", f"checkpoint of {new.origin!r}, not {old.origin!r}")
    if new.size < old.size:
        raise CheckpointError("rollback", f"tree size {new.size} is below the {old.size} seen")
    if new.size == old.size and new.root != old.root:
        raise CheckpointError("fork", f"two roots for the tree size {new.size}")
    verify_consistency(old.size, new.size, old.root, new.root, proof)


def _parse_size(line: str) -> int:
    if not _SIZE.fullmatch(line) or int(line) > MAX_SIZE:
        raise CheckpointError("bad_size", f"bad tree size {line[:40]!r}")
    return int(line)


def _parse_root(line: str) -> bytes:
    try:
        root = base64.b64decode(line, validate=True)
    except (binascii.Error, ValueError) as error:
        raise CheckpointError("bad_root", "the root hash is not base64") from error
    if len(root) != HASH_SIZE or base64.b64encode(root).decode("ascii") != line:
        raise CheckpointError("bad_root", f"the root hash is not {HASH_SIZE} bytes in base64")
    return root


def _check_line(line: str, reason: str, what: str) -> None:
    if not line or any(c < " " for c in line):
        raise CheckpointError(reason, f"the {what} is empty or holds a control character")
