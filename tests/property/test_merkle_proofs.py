"""Properties of the transparency log's Merkle proofs, for random trees of 1-2,000 leaves.

The oracle is RFC 9162 section 2.1 written out as its recursive definitions over the list of
leaves (``MTH``, ``PATH``, ``SUBPROOF``), memoised per range, sharing no code with
``events.transparency.merkle``: every proof the library makes is the RFC's, verifies against
the oracle's roots, and fails when any byte of it, of the root or of the leaf changes, when the
leaf is another one, when it is truncated or extended, or when the index or a tree size is wrong.

One caveat is the RFC's, not ours: a verifier checks a proof's *shape* (which side each sibling
sits on), not the size it was asked about, so a proof for one size also verifies for another size
with exactly the same shape (e.g. leaf 0 of 5 and of 6 leaves). The property says so: a proof
verifies for wrong sizes only if the RFC's recursion gives both the same shape.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from events.transparency.merkle import (
    MemoryTree,
    ProofError,
    consistency_proof,
    inclusion_proof,
    verify_consistency,
    verify_inclusion,
)

FAST = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BIG = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


class Oracle:
    """RFC 9162 2.1's definitions, recursively, over an explicit list of leaves."""

    def __init__(self, leaves: list[bytes]) -> None:
        self.leaves = leaves
        self.mth: Callable[[int, int], bytes] = cache(self._mth)

    def _mth(self, start: int, end: int) -> bytes:
        n = end - start
        if n == 0:
            return _sha(b"")
        if n == 1:
            return _sha(b"\x00" + self.leaves[start])
        k = _largest_power_below(n)
        return _sha(b"\x01" + self.mth(start, start + k) + self.mth(start + k, end))

    def path(self, m: int, start: int, end: int) -> list[bytes]:
        n = end - start
        if n == 1:
            return []
        k = _largest_power_below(n)
        if m < k:
            return [*self.path(m, start, start + k), self.mth(start + k, end)]
        return [*self.path(m - k, start + k, end), self.mth(start, start + k)]

    def subproof(self, m: int, start: int, end: int, b: bool) -> list[bytes]:
        n = end - start
        if m == n:
            return [] if b else [self.mth(start, end)]
        k = _largest_power_below(n)
        if m <= k:
            return [*self.subproof(m, start, start + k, b), self.mth(start + k, end)]
        return [*self.subproof(m - k, start + k, end, False), self.mth(start, start + k)]


def _largest_power_below(n: int) -> int:
    k = 1
    while k * 2 < n:
        k *= 2
    return k


def _path_shape(m: int, n: int) -> list[str]:
    """Which side each sibling of PATH(m, D[n]) sits on, innermost first."""
    if n == 1:
        return []
    k = _largest_power_below(n)
    return [*_path_shape(m, k), "R"] if m < k else [*_path_shape(m - k, n - k), "L"]


def _proof_shape(m: int, n: int, b: bool = True) -> list[str]:
    """SUBPROOF(m, D[n], b)'s shape: how the first element is seeded, then the siblings' sides."""
    if m == n:
        return ["old root"] if b else ["given"]
    k = _largest_power_below(n)
    return [*_proof_shape(m, k, b), "R"] if m <= k else [*_proof_shape(m - k, n - k, False), "L"]


@st.composite
def trees(draw: st.DrawFn, max_size: int = 2000) -> tuple[list[bytes], MemoryTree, Oracle]:
    size = draw(st.integers(1, max_size))
    salt = draw(st.binary(max_size=4))
    leaves = [_sha(salt + i.to_bytes(4, "big"))[: i % 7 * 5] + b"%d" % i for i in range(size)]
    tree = MemoryTree()
    for leaf in leaves:
        tree.append(leaf)
    return leaves, tree, Oracle(leaves)


def _flip(data: bytes, at: int) -> bytes:
    at %= len(data)
    return data[:at] + bytes([data[at] ^ 0x01]) + data[at + 1 :]


def _refused(check: Callable[[], None]) -> bool:
    try:
        check()
    except ProofError:
        return True
    return False


def _every_inclusion_proof_is_the_rfcs_and_verifies(
    leaves: list[bytes], tree: MemoryTree, oracle: Oracle
) -> None:
    n = len(leaves)
    root = oracle.mth(0, n)
    assert tree.root() == root
    for i in range(n):
        proof = inclusion_proof(tree, i, n)
        assert proof == oracle.path(i, 0, n)
        verify_inclusion(oracle.mth(i, i + 1), i, n, proof, root)


def _every_consistency_proof_is_the_rfcs_and_verifies(
    leaves: list[bytes], tree: MemoryTree, oracle: Oracle
) -> None:
    n = len(leaves)
    for m in range(1, n + 1):
        proof = consistency_proof(tree, m, n)
        assert proof == ([] if m == n else oracle.subproof(m, 0, n, True))
        verify_consistency(m, n, oracle.mth(0, m), oracle.mth(0, n), proof)


@FAST
@given(trees())
def test_every_inclusion_proof_is_the_rfcs_and_verifies(
    case: tuple[list[bytes], MemoryTree, Oracle],
) -> None:
    _every_inclusion_proof_is_the_rfcs_and_verifies(*case)


@FAST
@given(trees())
def test_every_consistency_proof_is_the_rfcs_and_verifies(
    case: tuple[list[bytes], MemoryTree, Oracle],
) -> None:
    _every_consistency_proof_is_the_rfcs_and_verifies(*case)


def test_every_proof_verifies_at_every_size_up_to_257() -> None:
    """Every tree shape up to 2**8 + 1 leaves, every index and every earlier size: the shapes
    a larger tree's proofs are made of (its left subtrees perfect, its right one smaller)."""
    leaves: list[bytes] = []
    tree = MemoryTree()
    for size in range(1, 258):
        leaves.append(_sha(size.to_bytes(4, "big"))[: size % 7 * 5] + b"%d" % size)
        tree.append(leaves[-1])
        oracle = Oracle(list(leaves))
        _every_inclusion_proof_is_the_rfcs_and_verifies(leaves, tree, oracle)
        _every_consistency_proof_is_the_rfcs_and_verifies(leaves, tree, oracle)


@pytest.mark.slow
@BIG
@given(trees())
def test_every_proof_verifies_on_many_more_trees(
    case: tuple[list[bytes], MemoryTree, Oracle],
) -> None:
    _every_inclusion_proof_is_the_rfcs_and_verifies(*case)
    _every_consistency_proof_is_the_rfcs_and_verifies(*case)


@settings(FAST, max_examples=150)
@given(trees(), st.data())
def test_any_change_to_an_inclusion_proof_fails(
    case: tuple[list[bytes], MemoryTree, Oracle], data: st.DataObject
) -> None:
    leaves, tree, oracle = case
    n = len(leaves)
    i = data.draw(st.integers(0, n - 1), label="index")
    proof, root, hashed = inclusion_proof(tree, i, n), oracle.mth(0, n), oracle.mth(i, i + 1)
    at = data.draw(st.integers(0, 10**6), label="byte")

    def fails(leaf: bytes, index: int, size: int, path: list[bytes], top: bytes) -> bool:
        return _refused(lambda: verify_inclusion(leaf, index, size, path, top))

    assert fails(hashed, i, n, proof, _flip(root, at))
    assert fails(_flip(hashed, at), i, n, proof, root)
    assert fails(oracle.mth(0, 0), i, n, proof, root)  # not even a leaf
    assert fails(hashed, i, n, [*proof, proof[-1] if proof else root], root)
    if proof:
        k = at % len(proof)
        assert fails(hashed, i, n, [*proof[:k], _flip(proof[k], at), *proof[k + 1 :]], root)
        assert fails(hashed, i, n, proof[:-1], root)
        assert fails(hashed, i, n, proof[1:], root)
    if n > 1:
        j = data.draw(st.integers(0, n - 1).filter(lambda j: j != i), label="other leaf")
        assert fails(oracle.mth(j, j + 1), i, n, proof, root)  # another leaf at this index
        assert fails(hashed, j, n, proof, root)  # this leaf claimed at another index
    size = data.draw(st.integers(1, 2 * n + 2).filter(lambda s: s != n), label="wrong size")
    if i < size and not fails(hashed, i, size, proof, root):
        assert _path_shape(i, size) == _path_shape(i, n)


@settings(FAST, max_examples=150)
@given(trees(), st.data())
def test_any_change_to_a_consistency_proof_fails(
    case: tuple[list[bytes], MemoryTree, Oracle], data: st.DataObject
) -> None:
    leaves, tree, oracle = case
    n = len(leaves)
    if n < 2:
        return
    m = data.draw(st.integers(1, n - 1), label="first size")
    proof = consistency_proof(tree, m, n)
    r1, r2 = oracle.mth(0, m), oracle.mth(0, n)
    at = data.draw(st.integers(0, 10**6), label="byte")
    k = at % len(proof)

    def fails(first: int, second: int, a: bytes, b: bytes, path: list[bytes]) -> bool:
        return _refused(lambda: verify_consistency(first, second, a, b, path))

    assert fails(m, n, _flip(r1, at), r2, proof)
    assert fails(m, n, r1, _flip(r2, at), proof)
    assert fails(m, n, r2, r1, proof)
    assert fails(m, n, r1, r2, [*proof[:k], _flip(proof[k], at), *proof[k + 1 :]])
    assert fails(m, n, r1, r2, proof[:-1])
    assert fails(m, n, r1, r2, [*proof, proof[0]])
    assert fails(m, n, r1, r2, [proof[-1], *proof])
    other = oracle.mth(0, m - 1) if m > 1 else oracle.mth(1, 2)
    assert fails(m, n, other, r2, proof)  # another tree's root at the first size
    first = data.draw(st.integers(1, n).filter(lambda s: s != m), label="wrong first")
    second = data.draw(st.integers(1, 2 * n + 2).filter(lambda s: s != n), label="wrong second")
    for a, b in ((first, n), (m, second), (first, second)):
        if a <= b and a not in (0, b) and not fails(a, b, r1, r2, proof):
            assert _proof_shape(a, b) == _proof_shape(m, n), (a, b)


@FAST
@given(trees(max_size=300), st.data())
def test_a_swapped_leaf_changes_every_root_from_its_size_on(
    case: tuple[list[bytes], MemoryTree, Oracle], data: st.DataObject
) -> None:
    leaves, tree, _ = case
    n = len(leaves)
    if n < 2:
        return
    i = data.draw(st.integers(0, n - 2), label="swapped with the next")
    swapped = [*leaves]
    swapped[i], swapped[i + 1] = swapped[i + 1], swapped[i]
    other = MemoryTree()
    for leaf in swapped:
        other.append(leaf)
    assert other.root(i + 1) != tree.root(i + 1) and other.root() != tree.root()
    assert other.root(i) == tree.root(i)
    proof = consistency_proof(tree, i + 1, n)
    assert _refused(lambda: verify_consistency(i + 1, n, other.root(i + 1), tree.root(), proof))
