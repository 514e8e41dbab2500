"""The Merkle tree against the published RFC 6962 vectors, and its edge cases.

Vectors: transparency-dev/merkle (Apache-2.0), ``testonly/constants.go`` (leaves, node hashes,
roots for sizes 0-8) and ``proof/verify_test.go`` (inclusion and consistency proofs, and the
corruptions every verifier must refuse); the same vectors as
google/certificate-transparency-go's ``merkletree`` tests. Their leaf numbers are 1-based; ours
are 0-based.
"""

from __future__ import annotations

import hashlib

import pytest

from events.transparency.merkle import (
    EMPTY_ROOT,
    MemoryTree,
    NodeMap,
    ProofError,
    consistency_proof,
    inclusion_proof,
    leaf_hash,
    new_nodes,
    node_hash,
    nodes_for_append,
    nodes_for_consistency,
    nodes_for_inclusion,
    nodes_for_root,
    root_hash,
    verify_consistency,
    verify_inclusion,
)

LEAVES = [
    bytes.fromhex(h)
    for h in (
        "",
        "00",
        "10",
        "2021",
        "3031",
        "40414243",
        "5051525354555657",
        "606162636465666768696a6b6c6d6e6f",
    )
]
NODES = [
    [
        "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
        "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
        "0298d122906dcfc10892cb53a73992fc5b9f493ea4c9badb27b791b4127a7fe7",
        "07506a85fd9dd2f120eb694f86011e5bb4662e5c415a62917033d4a9624487e7",
        "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        "4271a26be0d8a84f0bd54c8c302e7cb3a3b5d1fa6780a40bcce2873477dab658",
        "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
        "46f6ffadd3d06a09ff3c5860d2755c8b9819db7df44251788c7d8e3180de8eb1",
    ],
    [
        "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
        "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
        "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
        "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
    ],
    [
        "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
    ],
    ["5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328"],
]
ROOTS = [
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
    "fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125",
    "aeb6bcfe274b70a14fb067a5e5578264db0fa9b51af5e0ba159158f329e06e77",
    "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
    "4e3bbb1f7b478dcfe71fb631631519a3bca12c9aefca1612bfce4c13a86264d4",
    "76e67dadbcdf1e10e1b74ddc608abd2f98dfb16fbce75277b5232a127f2087ef",
    "ddb89be403809e325750d3d263cd78929c2942b7942a34b77e122c9594a74c8c",
    "5dc9da79a70659a9ad559cb701ded9a2ab9d823aad2f4960cfe370eff4604328",
]
# (leaf index 0-based, tree size, proof)
INCLUSION = [
    (0, 1, []),
    (
        0,
        8,
        [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        5,
        8,
        [
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
    (2, 3, ["fac54203e7cc696cf0dfcb42c92a1d9dbaf70ad9e621f4bd8d98662f00e3c125"]),
    (
        1,
        5,
        [
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
]
# (first, second, proof)
CONSISTENCY = [
    (1, 1, []),
    (
        1,
        8,
        [
            "96a296d224f285c67bee93c30f8a309157f0daa35dc5b87e410b78630a09cfc7",
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "6b47aaf29ee3c2af9af889bc1fb9254dabd31177f16232dd6aab035ca39bf6e4",
        ],
    ),
    (
        6,
        8,
        [
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "ca854ea128ed050b41b35ffc1b87b8eb2bde461e9e3b5596ece6b9d5975a0ae0",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
    (
        2,
        5,
        [
            "5f083f0a1a33ca076a95279832580db3e0ef4584bdff1f54c8a360f50de3031e",
            "bc1a0643b12e4d2d7c77918f44e0f4f79a838b6cf9ec5b5c283e1f4d88599e6b",
        ],
    ),
    (
        6,
        7,
        [
            "0ebc5d3437fbe2db158b9f126a1d118e308181031d0a949f8dededebc558ef6a",
            "b08693ec2e721597130641e8211e7eedccb4c26413963eee6c1e2ed16ffb1a5f",
            "d37ee418976dd95753c1c73862b9398fa2a2cf9b4ff0fdfe8b30cd95209614b7",
        ],
    ),
]
SOME_HASH = bytes.fromhex("abacaba000000000000000000000000000000000000000000060061e00123456")


def _tree() -> MemoryTree:
    tree = MemoryTree()
    for leaf in LEAVES:
        tree.append(leaf)
    return tree


def _hexes(hashes: list[bytes]) -> list[str]:
    return [h.hex() for h in hashes]


def _root(size: int) -> bytes:
    return bytes.fromhex(ROOTS[size])


def test_hashing_is_rfc_6962s_domain_separated_sha256() -> None:
    assert leaf_hash(b"") == hashlib.sha256(b"\x00").digest()
    assert (
        node_hash(b"L" * 32, b"R" * 32) == hashlib.sha256(b"\x01" + b"L" * 32 + b"R" * 32).digest()
    )
    assert EMPTY_ROOT.hex() == ROOTS[0]


def test_every_perfect_node_matches_the_published_ones() -> None:
    tree = _tree()
    for level, row in enumerate(NODES):
        assert [tree.perfect(level, i).hex() for i in range(len(row))] == row


@pytest.mark.parametrize("size", range(9))
def test_the_root_at_every_size_matches_the_published_one(size: int) -> None:
    assert root_hash(_tree(), size).hex() == ROOTS[size]


@pytest.mark.parametrize(("index", "size", "proof"), INCLUSION)
def test_inclusion_proofs_match_the_published_ones(index: int, size: int, proof: list[str]) -> None:
    made = inclusion_proof(_tree(), index, size)
    assert _hexes(made) == proof
    verify_inclusion(leaf_hash(LEAVES[index]), index, size, made, _root(size))


@pytest.mark.parametrize(("first", "second", "proof"), CONSISTENCY)
def test_consistency_proofs_match_the_published_ones(
    first: int, second: int, proof: list[str]
) -> None:
    made = consistency_proof(_tree(), first, second)
    assert _hexes(made) == proof
    verify_consistency(first, second, _root(first), _root(second), made)


def _inclusion_corruptions(
    index: int, size: int, proof: list[bytes], root: bytes, hashed: bytes
) -> list[tuple[str, int, int, list[bytes], bytes, bytes]]:
    """verify_test.go's ``corruptInclusionProof``: each must fail."""
    probes = [
        ("index - 1", index - 1, size, proof, root, hashed),
        ("index + 1", index + 1, size, proof, root, hashed),
        ("index ^ 2", index ^ 2, size, proof, root, hashed),
        ("size * 2", index, size * 2, proof, root, hashed),
        ("size // 2", index, size // 2, proof, root, hashed),
        ("wrong leaf", index, size, proof, root, leaf_hash(b"WrongLeaf")),
        ("empty root", index, size, proof, EMPTY_ROOT, hashed),
        ("random root", index, size, proof, SOME_HASH, hashed),
        ("trailing garbage", index, size, [*proof, b""], root, hashed),
        ("trailing root", index, size, [*proof, root], root, hashed),
        ("preceding garbage", index, size, [b"", *proof], root, hashed),
        ("preceding root", index, size, [root, *proof], root, hashed),
    ]
    for i in range(len(proof)):
        flipped = [*proof]
        flipped[i] = bytes([proof[i][0] ^ 8]) + proof[i][1:]
        probes.append((f"proof[{i}] bit 3", index, size, flipped, root, hashed))
    if proof:
        probes.append(("removed component", index, size, proof[:-1], root, hashed))
    if len(proof) > 1:
        probes.append(("inserted", index, size, [proof[0], SOME_HASH, *proof[1:]], root, hashed))
    return probes


@pytest.mark.parametrize(("index", "size", "proof"), INCLUSION[1:])
def test_every_corrupted_inclusion_proof_is_refused(
    index: int, size: int, proof: list[str]
) -> None:
    hashes = [bytes.fromhex(h) for h in proof]
    probes = _inclusion_corruptions(index, size, hashes, _root(size), leaf_hash(LEAVES[index]))
    for desc, i, n, path, root, hashed in probes:
        with pytest.raises(ProofError):
            verify_inclusion(hashed, i, n, path, root)
            pytest.fail(desc)


def _consistency_corruptions(
    first: int, second: int, proof: list[bytes]
) -> list[tuple[str, int, int, bytes, bytes, list[bytes]]]:
    """verify_test.go's ``corruptConsistencyProof``: each must fail."""
    r1, r2 = _root(first), _root(second)
    wrong = hashlib.sha256(b"WrongRoot").digest()
    probes = [
        ("first - 1", first - 1, second, r1, r2, proof),
        ("first + 1", first + 1, second, r1, r2, proof),
        ("first ^ 2", first ^ 2, second, r1, r2, proof),
        ("second * 2", first, second * 2, r1, r2, proof),
        ("second // 2", first, second // 2, r1, r2, proof),
        ("wrong root1", first, second, wrong, r2, proof),
        ("wrong root2", first, second, r1, wrong, proof),
        ("swapped roots", first, second, r2, r1, proof),
        ("empty proof", first, second, r1, r2, []),
        ("trailing garbage", first, second, r1, r2, [*proof, b""]),
        ("trailing root1", first, second, r1, r2, [*proof, r1]),
        ("trailing root2", first, second, r1, r2, [*proof, r2]),
        ("preceding garbage", first, second, r1, r2, [b"", *proof]),
        ("preceding root1", first, second, r1, r2, [r1, *proof]),
        ("preceding root2", first, second, r1, r2, [r2, *proof]),
        ("preceding proof[0]", first, second, r1, r2, [proof[0], *proof]),
        ("truncated", first, second, r1, r2, proof[:-1]),
    ]
    for i in range(len(proof)):
        flipped = [*proof]
        flipped[i] = bytes([proof[i][0] ^ 16]) + proof[i][1:]
        probes.append((f"proof[{i}] bit 4", first, second, r1, r2, flipped))
    return probes


@pytest.mark.parametrize(("first", "second", "proof"), CONSISTENCY[1:])
def test_every_corrupted_consistency_proof_is_refused(
    first: int, second: int, proof: list[str]
) -> None:
    hashes = [bytes.fromhex(h) for h in proof]
    for desc, n1, n2, r1, r2, path in _consistency_corruptions(first, second, hashes):
        with pytest.raises(ProofError):
            verify_consistency(n1, n2, r1, r2, path)
            pytest.fail(desc)


@pytest.mark.parametrize(
    ("first", "second", "root1", "root2", "proof", "reason"),
    [
        (0, 0, EMPTY_ROOT, SOME_HASH, [], "root_mismatch"),
        (1, 1, SOME_HASH, EMPTY_ROOT, [], "root_mismatch"),
        (0, 1, SOME_HASH, SOME_HASH, [], "first_root_mismatch"),
        (1, 0, SOME_HASH, SOME_HASH, [], "sizes_out_of_order"),
        (2, 1, SOME_HASH, SOME_HASH, [], "sizes_out_of_order"),
        (1, 2, SOME_HASH, SOME_HASH, [], "wrong_proof_length"),
        (0, 0, EMPTY_ROOT, EMPTY_ROOT, [EMPTY_ROOT], "wrong_proof_length"),
        (0, 1, EMPTY_ROOT, SOME_HASH, [EMPTY_ROOT], "wrong_proof_length"),
        (1, 1, SOME_HASH, SOME_HASH, [EMPTY_ROOT], "wrong_proof_length"),
        (1, 2, b"short", SOME_HASH, [SOME_HASH], "bad_hash_length"),
        (-1, 2, SOME_HASH, SOME_HASH, [], "bad_size"),
        (1, 2**64, SOME_HASH, SOME_HASH, [], "bad_size"),
    ],
)
def test_degenerate_consistency_checks_have_their_own_reasons(
    first: int, second: int, root1: bytes, root2: bytes, proof: list[bytes], reason: str
) -> None:
    with pytest.raises(ProofError) as refused:
        verify_consistency(first, second, root1, root2, proof)
    assert refused.value.reason == reason


def test_sizes_that_are_always_consistent_verify_with_an_empty_proof() -> None:
    verify_consistency(0, 0, EMPTY_ROOT, EMPTY_ROOT, [])
    verify_consistency(0, 5, EMPTY_ROOT, _root(5), [])
    verify_consistency(3, 3, _root(3), _root(3), [])
    assert consistency_proof(_tree(), 0, 8) == []
    assert consistency_proof(_tree(), 8, 8) == []


@pytest.mark.parametrize(
    ("index", "size", "reason"),
    [(0, 0, "index_out_of_range"), (1, 1, "index_out_of_range"), (-1, 4, "index_out_of_range")],
)
def test_inclusion_outside_the_tree_is_refused(index: int, size: int, reason: str) -> None:
    with pytest.raises(ProofError) as made:
        inclusion_proof(_tree(), index, size)
    assert made.value.reason == reason
    with pytest.raises(ProofError) as checked:
        verify_inclusion(SOME_HASH, index, size, [], SOME_HASH)
    assert checked.value.reason == reason


def test_a_one_leaf_tree_proves_its_leaf_with_no_hashes() -> None:
    hashed = leaf_hash(b"data")
    verify_inclusion(hashed, 0, 1, [], hashed)
    with pytest.raises(ProofError, match="bytes"):
        verify_inclusion(b"", 0, 1, [], hashed)
    with pytest.raises(ProofError) as refused:
        verify_inclusion(hashed, 0, 1, [], EMPTY_ROOT)
    assert refused.value.reason == "root_mismatch"


def test_a_wrong_length_proof_says_so() -> None:
    proof = inclusion_proof(_tree(), 5, 8)
    with pytest.raises(ProofError) as short:
        verify_inclusion(leaf_hash(LEAVES[5]), 5, 8, proof[:-1], _root(8))
    with pytest.raises(ProofError) as long:
        verify_inclusion(leaf_hash(LEAVES[5]), 5, 8, [*proof, SOME_HASH], _root(8))
    assert short.value.reason == long.value.reason == "wrong_proof_length"


def test_consistency_sizes_out_of_order_cannot_be_proved() -> None:
    with pytest.raises(ProofError) as refused:
        consistency_proof(_tree(), 5, 3)
    assert refused.value.reason == "sizes_out_of_order"


def test_new_nodes_lists_the_completed_subtrees_level_zero_first() -> None:
    tree = _tree()
    tree_of_7 = MemoryTree()
    for leaf in LEAVES[:7]:
        tree_of_7.append(leaf)
    added = new_nodes(7, leaf_hash(LEAVES[7]), tree_of_7)
    assert [(level, index) for level, index, _ in added] == [(0, 7), (1, 3), (2, 1), (3, 0)]
    assert [h for _, _, h in added] == [tree.perfect(level, i) for level, i, _ in added]
    assert new_nodes(6, leaf_hash(LEAVES[6]), tree_of_7) == [(0, 6, leaf_hash(LEAVES[6]))]


def test_appends_write_about_two_nodes_each() -> None:
    tree = MemoryTree()
    written = 0
    for i in range(1024):
        written += len(new_nodes(i, leaf_hash(b"%d" % i), tree))
        tree.append(b"%d" % i)
    assert written == 2 * 1024 - 1


class _Synthetic:
    """A 'tree' whose perfect nodes are made up on demand, counting reads: proofs over huge
    sizes without building them."""

    def __init__(self) -> None:
        self.reads = 0

    def perfect(self, level: int, index: int) -> bytes:
        self.reads += 1
        return hashlib.sha256(b"%d/%d" % (level, index)).digest()


@pytest.mark.parametrize("size", [1_000_000, 2**40 + 12345, 2**62 - 1])
def test_proofs_read_a_logarithmic_number_of_nodes(size: int) -> None:
    log = size.bit_length()
    for index in (0, size // 3, size - 1):
        tree = _Synthetic()
        inclusion_proof(tree, index, size)
        assert tree.reads <= 2 * log
    for first in (1, size // 2 + 1, size - 1):
        tree = _Synthetic()
        consistency_proof(tree, first, size)
        assert tree.reads <= 2 * log
    tree = _Synthetic()
    root_hash(tree, size)
    assert tree.reads <= log


def test_a_memory_tree_refuses_nodes_it_does_not_hold() -> None:
    tree = _tree()
    for level, index in ((0, 8), (3, 1), (4, 0), (0, -1), (-1, 0)):
        with pytest.raises(KeyError):
            tree.perfect(level, index)
    assert tree.root() == _root(8) and tree.size == 8


def test_the_nodes_a_store_prefetches_are_exactly_those_the_answers_read() -> None:
    tree = MemoryTree()
    for i in range(70):
        before = MemoryTree()
        for j in range(i):
            before.append(b"%d" % j)
        wanted = nodes_for_append(i)
        fetched = NodeMap({node: tree.perfect(*node) for node in wanted})
        assert new_nodes(i, leaf_hash(b"%d" % i), fetched) == new_nodes(
            i, leaf_hash(b"%d" % i), before
        )
        tree.append(b"%d" % i)
        size = i + 1
        root_nodes = nodes_for_root(size)
        assert root_hash(NodeMap({n: tree.perfect(*n) for n in root_nodes}), size) == tree.root()
        for index in range(size):
            wanted = nodes_for_inclusion(index, size)
            fetched = NodeMap({node: tree.perfect(*node) for node in wanted})
            assert inclusion_proof(fetched, index, size) == inclusion_proof(tree, index, size)
            assert len(wanted) <= 2 * size.bit_length()
        for first in range(size + 1):
            wanted = nodes_for_consistency(first, size)
            fetched = NodeMap({node: tree.perfect(*node) for node in wanted})
            assert consistency_proof(fetched, first, size) == consistency_proof(tree, first, size)


def test_prefetching_refuses_what_the_proofs_refuse() -> None:
    with pytest.raises(ProofError):
        nodes_for_inclusion(3, 3)
    with pytest.raises(ProofError):
        nodes_for_consistency(4, 3)
    with pytest.raises(ProofError):
        nodes_for_append(-1)
    with pytest.raises(KeyError):
        NodeMap({}).perfect(0, 0)
