"""Whatever arrives (a note, a key, a checkpoint, a proof), the core answers with its own error
and a reason, never another exception: a route or the offline verifier maps those to a 4xx or a
named failed check. Also round trips of random valid checkpoints and notes."""

from __future__ import annotations

import base64
import hashlib

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from hypothesis import given, settings
from hypothesis import strategies as st

from events.transparency.checkpoint import (
    Checkpoint,
    CheckpointError,
    format_checkpoint,
    open_checkpoint,
    parse_checkpoint,
    sign_checkpoint,
)
from events.transparency.merkle import ProofError, verify_consistency, verify_inclusion
from events.transparency.note import (
    CosignatureSigner,
    NoteError,
    Signer,
    Verifier,
    open_note,
    parse_note,
)

FAST = settings(max_examples=60, deadline=None)
SIGNER = Signer("log.example/a", Ed25519PrivateKey.from_private_bytes(b"a" * 32))
WITNESS = CosignatureSigner("w.example", Ed25519PrivateKey.from_private_bytes(b"w" * 32))
TEXT = "log.example/a\n1\n" + base64.b64encode(hashlib.sha256(b"x").digest()).decode() + "\n"
GOOD = WITNESS.cosign(SIGNER.sign(TEXT), 1_700_000_000)

pieces = st.sampled_from(
    ["\n", "\n\n", "\u2014 ", "+", " ", "=", "log.example/a", "w.example", "AAAA", "\x00", "\ud800"]
)
noisy = st.lists(st.one_of(st.text(max_size=12), pieces), max_size=12).map("".join)


def _mangled(data: st.DataObject) -> str:
    """The good note with a slice replaced by noise."""
    start = data.draw(st.integers(0, len(GOOD)))
    end = data.draw(st.integers(start, len(GOOD)))
    return GOOD[:start] + data.draw(noisy) + GOOD[end:]


@FAST
@given(st.data())
def test_a_mangled_note_is_opened_or_refused_with_a_reason(data: st.DataObject) -> None:
    note = _mangled(data)
    try:
        opened = open_note(note, [SIGNER.verifier(), WITNESS.verifier()])
    except NoteError as refused:
        assert refused.reason
        return
    assert opened.text.startswith("log.example/a\n") or opened.verified


@FAST
@given(st.one_of(noisy, st.binary(max_size=64)))
def test_random_notes_are_refused_with_a_reason(note: str | bytes) -> None:
    try:
        parse_note(note)
    except NoteError as refused:
        assert refused.reason in {"malformed", "no_signature"}


@FAST
@given(st.data())
def test_a_mangled_checkpoint_is_read_or_refused_with_a_reason(data: st.DataObject) -> None:
    try:
        open_checkpoint(_mangled(data), [SIGNER.verifier()], origin="log.example/a")
    except (NoteError, CheckpointError) as refused:
        assert refused.reason
    text = TEXT[: data.draw(st.integers(0, len(TEXT)))] + data.draw(noisy)
    try:
        parse_checkpoint(text)
    except CheckpointError as refused:
        assert refused.reason


@FAST
@given(st.data())
def test_mangled_keys_are_refused_with_a_reason(data: st.DataObject) -> None:
    for key, parse in ((SIGNER.vkey(), Verifier.from_vkey), (SIGNER.skey(), Signer.from_skey)):
        start = data.draw(st.integers(0, len(key)))
        end = data.draw(st.integers(start, len(key)))
        mangled = key[:start] + data.draw(noisy) + key[end:]
        try:
            parse(mangled)
        except NoteError as refused:
            assert refused.reason in {"bad_key", "bad_name"}


def test_a_name_that_is_not_utf8_is_refused_as_a_bad_name() -> None:
    for make in (
        lambda: Verifier.from_vkey("\ud800+" + SIGNER.vkey().split("+", 1)[1]),
        lambda: Signer("\ud800", Ed25519PrivateKey.from_private_bytes(b"a" * 32)),
    ):
        try:
            make()
        except NoteError as refused:
            assert refused.reason == "bad_name"
        else:
            raise AssertionError("accepted a name with a lone surrogate")


@FAST
@given(st.binary(min_size=32, max_size=32), st.binary(max_size=80), st.text(max_size=20))
def test_any_32_bytes_make_a_verifier_that_refuses_garbage(
    key: bytes, signature: bytes, text: str
) -> None:
    verifier = Verifier("k", key)
    assert Verifier.from_vkey(verifier.vkey()).public_key == key
    assert verifier.verify(text + "\n", signature) is False
    assert Verifier("k", key, 0x04).verify(text + "\n", signature) is False


@FAST
@given(
    st.lists(st.binary(max_size=40), max_size=4),
    st.integers(-2, 2**64),
    st.integers(-2, 2**64),
    st.binary(max_size=40),
    st.binary(max_size=40),
)
def test_random_proofs_are_refused_with_a_reason(
    proof: list[bytes], a: int, b: int, one: bytes, two: bytes
) -> None:
    try:
        verify_inclusion(one, a, b, proof, two)
    except ProofError as refused:
        assert refused.reason
    try:
        verify_consistency(a, b, one, two, proof)
    except ProofError as refused:
        assert refused.reason


names = st.text(st.characters(codec="utf-8", min_codepoint=0x21), min_size=1).filter(
    lambda s: "+" not in s and not any(c.isspace() for c in s)
)
lines = st.text(st.characters(codec="utf-8", min_codepoint=0x20), min_size=1)


@FAST
@given(
    names,
    st.integers(0, 2**63 - 1),
    st.binary(min_size=32, max_size=32),
    st.lists(lines, max_size=3),
)
def test_random_checkpoints_round_trip_through_a_signed_note(
    origin: str, size: int, root: bytes, extensions: list[str]
) -> None:
    cp = Checkpoint(origin, size, root, tuple(extensions))
    assert parse_checkpoint(format_checkpoint(cp)) == cp
    signer = Signer(origin, Ed25519PrivateKey.from_private_bytes(b"r" * 32))
    note = WITNESS.cosign(sign_checkpoint(cp, signer), size % 2**40)
    opened, signed = open_checkpoint(note, [signer.verifier(), WITNESS.verifier()], origin)
    assert opened == cp and len(signed.verified) == 2
    assert Verifier.from_vkey(signer.vkey()).key_id == signer.key_id
    assert Signer.from_skey(signer.skey()).vkey() == signer.vkey()
