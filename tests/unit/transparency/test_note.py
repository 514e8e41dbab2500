"""Signed notes and cosignatures against the published vectors.

Vectors: golang.org/x/mod ``sumdb/note/note_test.go`` (BSD-3-Clause): the PeterNeumann skey and
vkey, its signed note, the EnochRoot signature, and the malformed notes ``Open`` must refuse;
c2sp.org/signed-note's example (``example.com/foo``); transparency-dev/formats
``note/note_cosigv1_test.go`` (Apache-2.0): a type 0x04 vkey, a vkey whose base64 holds a ``+``,
and a cosignature carrying the time 1727964367.
"""

from __future__ import annotations

import base64
import struct

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from events.transparency.note import (
    COSIGNATURE_V1,
    ED25519,
    CosignatureSigner,
    Note,
    NoteError,
    Signature,
    Signer,
    Verifier,
    add_signatures,
    cosignature_timestamp,
    key_id,
    open_note,
    parse_note,
)

PETER_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
PETER_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
ENOCH_VKEY = "EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop"
TEXT = (
    "If you think cryptography is the answer to your problem,\n"
    "then you don't know what your problem is.\n"
)
PETER_SIG = (
    "\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdng"
    "otpRZb6KE6RyyBwJnAM=\n"
)
ENOCH_SIG = (
    "\u2014 EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWL"
    "ox33WWd1RvMc+QQ=\n"
)
SPEC_VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
SPEC_NOTE = (
    "This is an example message.\n\n\u2014 example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppz"
    "i2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n"
)
COSIGNER_VKEY = "remora.n621.de+da77ade7+BOvN63jn/bLvkieywe8R6UYAtVtNbZpXh34x7onlmtw2"
PLUS_VKEY = "TEST+7997405c+AQcC+FTVKf0jlTdHDY3rbevmnKxxPjigCXlVtGe6RIr6"
TIMED_COSIGNATURE = (
    "ZGhGuQAAAABm/qTPeyKXD+R2rzyQsxPiP8mXum7qq/iF0u4vanlqJyocWODBt97w9uL+8qT7S5gxEHWWOworDcFiEBYJ"
    "XORmnFBOBA=="
)
CHECKPOINT = "example.com/log\n3\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"


def _peter() -> Verifier:
    return Verifier.from_vkey(PETER_VKEY)


def test_the_go_skey_gives_the_go_vkey_and_key_id() -> None:
    signer = Signer.from_skey(PETER_SKEY)
    assert signer.name == "PeterNeumann"
    assert signer.key_id.hex() == "c74f20a3"
    assert signer.vkey() == PETER_VKEY
    assert signer.skey() == PETER_SKEY
    assert signer.key_id == key_id("PeterNeumann", ED25519, signer.public_key)


def test_signing_reproduces_the_go_signed_note_byte_for_byte() -> None:
    assert Signer.from_skey(PETER_SKEY).sign(TEXT) == TEXT + "\n" + PETER_SIG


def test_the_specs_example_note_opens_with_its_vkey() -> None:
    opened = open_note(SPEC_NOTE, [Verifier.from_vkey(SPEC_VKEY)])
    assert opened.text == "This is an example message.\n"
    assert [s.name for s in opened.verified] == ["example.com/foo"]
    assert opened.verified[0].key_id.hex() == "530d903a"


def test_signatures_by_unknown_keys_are_ignored_and_known_ones_verified() -> None:
    opened = open_note(TEXT + "\n" + PETER_SIG + ENOCH_SIG, [_peter()])
    assert opened.text == TEXT
    assert [s.name for s in opened.verified] == ["PeterNeumann"]
    assert [s.name for s in opened.signatures] == ["PeterNeumann", "EnochRoot"]
    both = open_note(
        TEXT + "\n" + PETER_SIG + ENOCH_SIG, [_peter(), Verifier.from_vkey(ENOCH_VKEY)]
    )
    assert [s.name for s in both.verified] == ["PeterNeumann", "EnochRoot"]


def test_a_note_with_no_known_signature_is_refused_as_unknown_key() -> None:
    with pytest.raises(NoteError) as refused:
        open_note(TEXT + "\n" + PETER_SIG + ENOCH_SIG, [])
    assert refused.value.reason == "unknown_key"
    with pytest.raises(NoteError) as other:
        open_note(TEXT + "\n" + ENOCH_SIG, [_peter()])
    assert other.value.reason == "unknown_key"


def test_a_bad_signature_by_a_known_key_rejects_the_whole_note() -> None:
    bad = TEXT + "\n" + PETER_SIG[:60] + "ABCD" + PETER_SIG[60:]
    with pytest.raises(NoteError) as refused:
        open_note(bad, [_peter()])
    assert refused.value.reason == "bad_signature"
    changed = TEXT.replace("answer", "Answer") + "\n" + PETER_SIG
    with pytest.raises(NoteError, match="PeterNeumann\\+c74f20a3") as tampered:
        open_note(changed, [_peter()])
    assert tampered.value.reason == "bad_signature"


def test_duplicate_signatures_count_once_and_a_duplicated_verifier_is_ambiguous() -> None:
    opened = open_note(TEXT + "\n" + PETER_SIG + PETER_SIG, [_peter()])
    assert len(opened.verified) == 1 and len(opened.signatures) == 2
    enoch = Verifier.from_vkey(ENOCH_VKEY)
    with pytest.raises(NoteError) as refused:
        open_note(TEXT + "\n" + ENOCH_SIG, [enoch, _peter(), enoch])
    assert refused.value.reason == "ambiguous_key"
    open_note(TEXT + "\n" + PETER_SIG, [enoch, _peter(), enoch])


@pytest.mark.parametrize(
    ("note", "reason"),
    [
        (TEXT, "no_signature"),
        (TEXT + "\n", "no_signature"),
        (TEXT + "\n" + PETER_SIG[:-1], "malformed"),
        ("\x01" + TEXT + "\n" + PETER_SIG, "malformed"),
        (
            TEXT
            + "\n"
            + "\u2014 Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFY",
            "malformed",
        ),
        (TEXT + "\n" + PETER_SIG + "Unexpected line.\n", "malformed"),
        (TEXT + "\n" + PETER_SIG * 101, "malformed"),
        (TEXT + "\n\u2014 PeterNeumann \n", "malformed"),
        (TEXT + "\n\u2014 PeterNeumann AAAAAA==\n", "malformed"),
        (TEXT + "\n\u2014 a+b " + PETER_SIG.split(" ")[2], "malformed"),
        (TEXT + "\n\u2014 PeterNeumann x08go/ZJkuBS9UG\n", "malformed"),
        (TEXT + "\n- PeterNeumann " + PETER_SIG.split(" ")[2], "malformed"),
    ],
)
def test_malformed_notes_are_refused(note: str, reason: str) -> None:
    with pytest.raises(NoteError) as refused:
        open_note(note, [_peter()])
    assert refused.value.reason == reason


def test_a_note_must_be_utf8() -> None:
    with pytest.raises(NoteError) as refused:
        open_note(b"\xff" + (TEXT + "\n" + PETER_SIG).encode(), [_peter()])
    assert refused.value.reason == "malformed"
    assert open_note((TEXT + "\n" + PETER_SIG).encode(), [_peter()]).text == TEXT


def test_every_truncation_or_single_change_of_a_vkey_is_refused() -> None:
    for i in range(len(PETER_VKEY)):
        for cut in (PETER_VKEY[:i], PETER_VKEY[i + 1 :]):
            with pytest.raises(NoteError):
                Verifier.from_vkey(cut)
        changed = PETER_VKEY[:i] + chr(ord(PETER_VKEY[i]) + 1) + PETER_VKEY[i + 1 :]
        with pytest.raises(NoteError):
            Verifier.from_vkey(changed)


@pytest.mark.parametrize(
    "vkey",
    [
        "PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==",
        "PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
        "bananas.sigstore.dev+12344556",
        "rekor.sigstore.dev+12345678+THIS_IS_NOT_BASE64!",
        "rekor.sigstore.dev+12345678+AwEB",
        "PeterNeumann+C74F20A3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
    ],
)
def test_bad_vkeys_are_refused(vkey: str) -> None:
    with pytest.raises(NoteError) as refused:
        Verifier.from_vkey(vkey)
    assert refused.value.reason in {"bad_key", "bad_name"}


def test_every_truncation_or_single_change_of_an_skey_is_refused() -> None:
    for i in range(len(PETER_SKEY)):
        for cut in (PETER_SKEY[:i], PETER_SKEY[i + 1 :]):
            with pytest.raises(NoteError):
                Signer.from_skey(cut)
        changed = PETER_SKEY[:i] + chr(ord(PETER_SKEY[i]) + 1) + PETER_SKEY[i + 1 :]
        with pytest.raises(NoteError):
            Signer.from_skey(changed)


def test_vkeys_whose_base64_holds_a_plus_and_cosigner_vkeys_parse() -> None:
    plus = Verifier.from_vkey(PLUS_VKEY)
    assert (plus.name, plus.sig_type, plus.vkey()) == ("TEST", ED25519, PLUS_VKEY)
    cosigner = Verifier.from_vkey(COSIGNER_VKEY)
    assert (cosigner.sig_type, cosigner.key_id.hex()) == (COSIGNATURE_V1, "da77ade7")
    assert cosigner.vkey() == COSIGNER_VKEY


@pytest.mark.parametrize("name", ["", "a b", "a+b", "tab\there", "new\nline", "nbsp\u00a0"])
def test_key_names_without_spaces_or_plus(name: str) -> None:
    with pytest.raises(NoteError) as refused:
        Signer(name, Ed25519PrivateKey.from_private_bytes(bytes(32)))
    assert refused.value.reason == "bad_name"


def test_a_text_must_end_in_a_newline_to_be_signed() -> None:
    signer = Signer.from_skey(PETER_SKEY)
    for text in ("abc", "a\x01b\n"):
        with pytest.raises(NoteError) as refused:
            signer.sign(text)
        assert refused.value.reason == "malformed"


def test_the_published_cosignature_carries_its_time() -> None:
    raw = base64.b64decode(TIMED_COSIGNATURE)
    signature = Signature("w", raw[:4], raw[4:])
    assert cosignature_timestamp(signature) == 1727964367
    plain = parse_note(TEXT + "\n" + PETER_SIG).signatures[0]
    with pytest.raises(NoteError):
        cosignature_timestamp(plain)


def _witness() -> CosignatureSigner:
    return CosignatureSigner("witness.example/w1", Ed25519PrivateKey.from_private_bytes(b"w" * 32))


def test_a_cosignature_signs_the_spec_message_and_its_line_holds_id_time_signature() -> None:
    witness = _witness()
    line = witness.cosignature(CHECKPOINT, 1679315147)
    assert line.key_id == key_id("witness.example/w1", COSIGNATURE_V1, witness.public_key)
    assert struct.unpack(">Q", line.signature[:8]) == (1679315147,)
    message = f"cosignature/v1\ntime 1679315147\n{CHECKPOINT}".encode()
    Ed25519PublicKey.from_public_bytes(witness.public_key).verify(line.signature[8:], message)
    assert witness.vkey().split("+")[1] == line.key_id.hex()
    assert base64.b64decode(witness.vkey().split("+", 2)[2])[0] == COSIGNATURE_V1


def test_a_cosigned_checkpoint_opens_with_both_the_log_and_the_witness_keys() -> None:
    log = Signer("example.com/log", Ed25519PrivateKey.from_private_bytes(b"l" * 32))
    witness = _witness()
    cosigned = witness.cosign(log.sign(CHECKPOINT), 1679315147)
    opened = open_note(cosigned, [log.verifier(), witness.verifier()])
    assert [s.name for s in opened.verified] == ["example.com/log", "witness.example/w1"]
    assert cosignature_timestamp(opened.verified[1]) == 1679315147
    # the witness's line alone opens with its key; the log's key alone ignores it
    assert [s.name for s in open_note(cosigned, [witness.verifier()]).verified] == [witness.name]
    assert [s.name for s in open_note(cosigned, [log.verifier()]).verified] == [log.name]


def test_a_cosignature_does_not_verify_as_a_plain_signature_nor_at_another_time() -> None:
    witness = _witness()
    line = witness.cosignature(CHECKPOINT, 1679315147)
    assert not witness.verifier().verify(CHECKPOINT + "x\n", line.signature)
    moved = struct.pack(">Q", 1679315148) + line.signature[8:]
    assert not witness.verifier().verify(CHECKPOINT, moved)
    plain = Verifier(witness.name, witness.public_key, ED25519)
    assert plain.key_id != witness.key_id
    assert not plain.verify(CHECKPOINT, line.signature[8:])
    assert not witness.verifier().verify(CHECKPOINT, line.signature[8:])


def test_recosigning_replaces_the_witness_line() -> None:
    log = Signer("example.com/log", Ed25519PrivateKey.from_private_bytes(b"l" * 32))
    witness = _witness()
    once = witness.cosign(log.sign(CHECKPOINT), 100)
    twice = witness.cosign(once, 200)
    lines = parse_note(twice).signatures
    assert [s.name for s in lines] == [log.name, witness.name]
    assert cosignature_timestamp(lines[1]) == 200


def test_cosignature_times_out_of_range_are_refused() -> None:
    for timestamp in (-1, 2**63):
        with pytest.raises(NoteError) as refused:
            _witness().cosignature(CHECKPOINT, timestamp)
        assert refused.value.reason == "bad_timestamp"
    too_late = struct.pack(">Q", 2**63) + bytes(64)
    assert not _witness().verifier().verify(CHECKPOINT, too_late)


def test_add_signatures_keeps_other_keys_lines_in_order() -> None:
    parsed = parse_note(TEXT + "\n" + ENOCH_SIG + PETER_SIG)
    signer = Signer.from_skey(PETER_SKEY)
    again = add_signatures(Note(parsed.text, parsed.signatures), [signer.signature(TEXT)])
    assert again == TEXT + "\n" + ENOCH_SIG + PETER_SIG


def test_a_cosigner_takes_its_own_skey_or_an_ordinary_ed25519_one() -> None:
    witness = CosignatureSigner.from_skey(PETER_SKEY)
    assert witness.sig_type == COSIGNATURE_V1
    assert witness.key_id == key_id("PeterNeumann", COSIGNATURE_V1, witness.public_key)
    assert witness.key_id.hex() != "c74f20a3"
    again = CosignatureSigner.from_skey(witness.skey())
    assert (again.key_id, again.public_key) == (witness.key_id, witness.public_key)
    assert base64.b64decode(witness.skey().split("+", 4)[4])[0] == COSIGNATURE_V1
    with pytest.raises(NoteError):
        Signer.from_skey(witness.skey())  # a note signer does not sign with a cosigner's key
    wrong_id = witness.skey().replace(witness.key_id.hex(), "c74f20a3")
    with pytest.raises(NoteError):
        CosignatureSigner.from_skey(wrong_id)


def test_a_text_that_is_not_utf8_verifies_as_nothing() -> None:
    assert not _peter().verify("\ud800\n", bytes(64))
