"""Checkpoints: c2sp.org/tlog-checkpoint's example, a round trip, and the strict parse."""

from __future__ import annotations

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from events.transparency.checkpoint import (
    Checkpoint,
    CheckpointError,
    check_extends,
    format_checkpoint,
    open_checkpoint,
    parse_checkpoint,
    sign_checkpoint,
)
from events.transparency.merkle import EMPTY_ROOT, MemoryTree, ProofError, consistency_proof
from events.transparency.note import CosignatureSigner, NoteError, Signer

SPEC_TEXT = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
ROOT = "CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I="


def _log() -> Signer:
    return Signer("adjudicator.example/log", Ed25519PrivateKey.from_private_bytes(b"k" * 32))


def test_the_specs_example_parses_and_formats_back_to_the_same_bytes() -> None:
    cp = parse_checkpoint(SPEC_TEXT)
    assert (cp.origin, cp.size, cp.extensions) == ("example.com/behind-the-sofa", 20852163, ())
    assert cp.root.hex() == "0ac5186a91863e8e1d90c808014aa89bf5da8e3ee1d9f07630f0378f68f1ab62"
    assert format_checkpoint(cp) == SPEC_TEXT


def test_a_signed_checkpoint_of_a_real_tree_round_trips() -> None:
    tree = MemoryTree()
    for i in range(5):
        tree.append(b"match %d" % i)
    cp = Checkpoint("adjudicator.example/log", tree.size, tree.root(), ("ext one", "ext2"))
    note = sign_checkpoint(cp, _log())
    assert note.startswith(
        "adjudicator.example/log\n5\n"
        + format_checkpoint(cp).split("\n")[2]
        + "\next one\next2\n\n"
    )
    opened, signed = open_checkpoint(note, [_log().verifier()], origin="adjudicator.example/log")
    assert opened == cp and signed.verified[0].name == "adjudicator.example/log"


def test_the_empty_tree_has_size_zero() -> None:
    cp = Checkpoint("o", 0, EMPTY_ROOT)
    assert format_checkpoint(cp).split("\n")[1] == "0"
    assert parse_checkpoint(format_checkpoint(cp)) == cp


def test_a_checkpoint_of_another_log_or_an_unknown_key_is_refused() -> None:
    note = sign_checkpoint(parse_checkpoint(SPEC_TEXT), _log())
    with pytest.raises(CheckpointError) as wrong:
        open_checkpoint(note, [_log().verifier()], origin="adjudicator.example/log")
    assert wrong.value.reason == "wrong_origin"
    stranger = Signer("adjudicator.example/log", Ed25519PrivateKey.from_private_bytes(b"s" * 32))
    with pytest.raises(NoteError) as unknown:
        open_checkpoint(note, [stranger.verifier()])
    assert unknown.value.reason == "unknown_key"


def test_a_witness_cosignature_counts_as_a_signature_of_the_checkpoint() -> None:
    witness = CosignatureSigner("w.example", Ed25519PrivateKey.from_private_bytes(b"w" * 32))
    note = witness.cosign(sign_checkpoint(parse_checkpoint(SPEC_TEXT), _log()), 1_700_000_000)
    cp, opened = open_checkpoint(note, [_log().verifier(), witness.verifier()])
    assert cp.size == 20852163 and len(opened.verified) == 2


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("o\n1\n" + ROOT, "malformed"),
        ("o\n1\n", "malformed"),
        ("\n1\n" + ROOT + "\n", "bad_origin"),
        ("o\x01\n1\n" + ROOT + "\n", "bad_origin"),
        ("o\n01\n" + ROOT + "\n", "bad_size"),
        ("o\n-1\n" + ROOT + "\n", "bad_size"),
        ("o\n+1\n" + ROOT + "\n", "bad_size"),
        ("o\n 1\n" + ROOT + "\n", "bad_size"),
        ("o\n1.0\n" + ROOT + "\n", "bad_size"),
        ("o\n\u0661\n" + ROOT + "\n", "bad_size"),
        ("o\n9223372036854775808\n" + ROOT + "\n", "bad_size"),
        ("o\n1\n" + ROOT[:-1] + "\n", "bad_root"),
        ("o\n1\n" + ROOT[:-2] + "==\n", "bad_root"),
        ("o\n1\nAAAA\n", "bad_root"),
        ("o\n1\n" + ROOT + " \n", "bad_root"),
        ("o\n1\n" + ROOT.replace("/", "_") + "\n", "bad_root"),
        ("o\n1\n" + ROOT + "\n\n", "bad_extension"),
        ("o\n1\n" + ROOT + "\next\n\n", "bad_extension"),
    ],
)
def test_any_deviation_is_refused(text: str, reason: str) -> None:
    with pytest.raises(CheckpointError) as refused:
        parse_checkpoint(text)
    assert refused.value.reason == reason


@pytest.mark.parametrize(
    ("cp", "reason"),
    [
        (Checkpoint("", 1, EMPTY_ROOT), "bad_origin"),
        (Checkpoint("a\nb", 1, EMPTY_ROOT), "bad_origin"),
        (Checkpoint("o", -1, EMPTY_ROOT), "bad_size"),
        (Checkpoint("o", 2**63, EMPTY_ROOT), "bad_size"),
        (Checkpoint("o", 1, b"short"), "bad_root"),
        (Checkpoint("o", 1, EMPTY_ROOT, ("",)), "bad_extension"),
        (Checkpoint("o", 1, EMPTY_ROOT, ("a\nb",)), "bad_extension"),
    ],
)
def test_an_invalid_checkpoint_cannot_be_formatted(cp: Checkpoint, reason: str) -> None:
    with pytest.raises(CheckpointError) as refused:
        format_checkpoint(cp)
    assert refused.value.reason == reason


def _grown(leaves: list[bytes]) -> MemoryTree:
    tree = MemoryTree()
    for leaf in leaves:
        tree.append(leaf)
    return tree


def test_a_witness_accepts_a_checkpoint_that_extends_the_last_one_it_saw() -> None:
    tree = _grown([b"m%d" % i for i in range(11)])
    old, new = Checkpoint("o", 6, tree.root(6)), Checkpoint("o", 11, tree.root())
    check_extends(old, new, consistency_proof(tree, 6, 11))
    check_extends(new, new, [])
    check_extends(Checkpoint("o", 0, EMPTY_ROOT), new, [])


def test_a_witness_refuses_a_fork_a_rollback_or_another_log() -> None:
    tree = _grown([b"m%d" % i for i in range(11)])
    leaves = [b"m%d" % i for i in range(11)]
    forked = _grown([*leaves[:5], b"rewritten", *leaves[6:]])
    old = Checkpoint("o", 6, tree.root(6))
    other_history = Checkpoint("o", 11, forked.root())
    with pytest.raises(ProofError):
        check_extends(old, other_history, consistency_proof(forked, 6, 11))
    with pytest.raises(ProofError):
        check_extends(old, other_history, consistency_proof(tree, 6, 11))
    for new, proof, reason in (
        (Checkpoint("o", 6, forked.root(6)), [], "fork"),
        (Checkpoint("o", 5, tree.root(5)), [], "rollback"),
        (Checkpoint("p", 11, tree.root()), consistency_proof(tree, 6, 11), "wrong_origin"),
    ):
        with pytest.raises(CheckpointError) as refused:
            check_extends(old, new, proof)
        assert refused.value.reason == reason
