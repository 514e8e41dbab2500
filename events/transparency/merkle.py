"""The transparency log's Merkle tree: RFC 6962 / RFC 9162 section 2.1, byte for byte.

Hashing (SHA-256): a leaf hashes as ``H(0x00 || leaf)``, an interior node as
``H(0x01 || left || right)``, the empty tree as ``H("")``.

The tree is kept as its *perfect* subtrees only: the node at ``(level, index)`` is the hash of
leaves ``[index * 2**level, (index + 1) * 2**level)``. Once written such a node never changes, so
a store keeps them in an append-only table (:class:`Subtrees`) and :func:`new_nodes` says which
rows an append adds (about two on average). Every hash the RFC's recursions ask for -- ``MTH`` of
a range that starts at a multiple of a power of two at least its size -- is one perfect node, or
splits at the largest power of two below its size into one perfect node and a smaller such range;
so a root reads at most log2(n) nodes, a proof at most 2 log2(n), and no leaf is rehashed. Which
nodes depends on the sizes only: ``nodes_for_*`` list them, for a store to fetch in one query and
answer from a :class:`NodeMap`.

Argument errors (a leaf index outside the tree, sizes out of order) and failed verifications both
raise :class:`ProofError` with a short stable ``reason``; see docs/transparency.md.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from typing import Final, Protocol

HASH_SIZE: Final = 32
MAX_SIZE: Final = 2**63 - 1  # tree sizes and indices are unsigned 64-bit in every peer format

_LEAF_PREFIX: Final = b"\x00"
_NODE_PREFIX: Final = b"\x01"


def leaf_hash(leaf: bytes) -> bytes:
    """RFC 9162 2.1.1: ``SHA-256(0x00 || leaf)``."""
    return hashlib.sha256(_LEAF_PREFIX + leaf).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """RFC 9162 2.1.1: ``SHA-256(0x01 || left || right)``."""
    return hashlib.sha256(_NODE_PREFIX + left + right).digest()


EMPTY_ROOT: Final = hashlib.sha256(b"").digest()


class ProofError(ValueError):
    """A proof that does not verify, or a request no proof can answer.

    ``reason`` is one of: ``bad_size``, ``index_out_of_range``, ``sizes_out_of_order``,
    ``bad_hash_length``, ``wrong_proof_length``, ``root_mismatch``, ``first_root_mismatch``,
    ``second_root_mismatch``.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


class Subtrees(Protocol):
    """Read access to the tree's perfect subtrees (the store implements it over a node table)."""

    def perfect(self, level: int, index: int) -> bytes:
        """The perfect subtree over leaves ``[index * 2**level, (index + 1) * 2**level)``."""
        ...


def new_nodes(index: int, leaf_hash: bytes, tree: Subtrees) -> list[tuple[int, int, bytes]]:
    """The ``(level, index, hash)`` nodes completed by appending leaf ``index`` to a tree of size
    ``index``, level 0 (the leaf itself) first. Reads one left sibling per completed level."""
    _check_size(index, "index")
    _check_hash(leaf_hash, "leaf hash")
    nodes = [(0, index, leaf_hash)]
    level, at, current = 0, index, leaf_hash
    while at & 1:
        current = node_hash(tree.perfect(level, at - 1), current)
        level, at = level + 1, at >> 1
        nodes.append((level, at, current))
    return nodes


def root_hash(tree: Subtrees, size: int) -> bytes:
    """``MTH(D[0:size])``: the root of the tree's first ``size`` leaves (``EMPTY_ROOT`` for 0)."""
    _check_size(size, "tree size")
    return EMPTY_ROOT if size == 0 else _range_hash(tree, 0, size)


def inclusion_proof(tree: Subtrees, index: int, size: int) -> list[bytes]:
    """RFC 9162 2.1.3.1 ``PATH(index, D[0:size])``, the leaf's sibling first."""
    _check_size(size, "tree size")
    if not 0 <= index < size:
        raise ProofError("index_out_of_range", f"leaf {index} is not in a tree of size {size}")
    path: list[bytes] = []
    start, end = 0, size
    while end - start > 1:
        k = _split(end - start)
        if index < start + k:
            path.append(_range_hash(tree, start + k, end))
            end = start + k
        else:
            path.append(_range_hash(tree, start, start + k))
            start += k
    path.reverse()
    return path


def consistency_proof(tree: Subtrees, first: int, second: int) -> list[bytes]:
    """RFC 9162 2.1.4.1 ``PROOF(first, D[0:second])``; empty when ``first`` is 0 or ``second``."""
    _check_sizes(first, second)
    if first in (0, second):
        return []
    proof: list[bytes] = []
    start, end, whole = 0, second, True
    while first - start != end - start:
        k = _split(end - start)
        if first - start <= k:
            proof.append(_range_hash(tree, start + k, end))
            end = start + k
        else:
            proof.append(_range_hash(tree, start, start + k))
            start, whole = start + k, False
    if not whole:
        proof.append(_range_hash(tree, start, end))
    proof.reverse()
    return proof


def verify_inclusion(
    leaf_hash: bytes, index: int, size: int, proof: Sequence[bytes], root: bytes
) -> None:
    """RFC 9162 2.1.3.2: raise :class:`ProofError` unless ``proof`` proves the leaf hash sits at
    ``index`` in the tree of ``size`` leaves whose root is ``root``."""
    _check_size(size, "tree size")
    if not 0 <= index < size:
        raise ProofError("index_out_of_range", f"leaf {index} is not in a tree of size {size}")
    _check_hashes(leaf_hash, root, proof)
    fn, sn, r = index, size - 1, leaf_hash
    for p in proof:
        if sn == 0:
            raise _wrong_length(len(proof))
        if fn & 1 or fn == sn:
            r = node_hash(p, r)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            r = node_hash(r, p)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise _wrong_length(len(proof))
    if r != root:
        raise ProofError("root_mismatch", "the proof does not lead to the root")


def verify_consistency(
    first: int, second: int, first_root: bytes, second_root: bytes, proof: Sequence[bytes]
) -> None:
    """RFC 9162 2.1.4.2: raise :class:`ProofError` unless ``proof`` shows the tree of ``first``
    leaves with root ``first_root`` is a prefix of the tree of ``second`` leaves.

    Beyond the RFC (as transparency-dev/merkle): ``first == second`` needs an empty proof and
    equal roots; ``first == 0`` needs an empty proof and ``first_root`` the empty tree's root."""
    _check_sizes(first, second)
    _check_hashes(first_root, second_root, proof)
    if first in (0, second):
        _verify_trivial(first, second, first_root, second_root, proof)
        return
    path = list(proof)
    if not path:
        raise _wrong_length(0)
    if first & (first - 1) == 0:
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    fr = sr = path[0]
    for c in path[1:]:
        if sn == 0:
            raise _wrong_length(len(proof))
        if fn & 1 or fn == sn:
            fr, sr = node_hash(c, fr), node_hash(c, sr)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            sr = node_hash(sr, c)
        fn, sn = fn >> 1, sn >> 1
    if sn != 0:
        raise _wrong_length(len(proof))
    if fr != first_root:
        raise ProofError("first_root_mismatch", "the proof does not lead to the first root")
    if sr != second_root:
        raise ProofError("second_root_mismatch", "the proof does not lead to the second root")


Node = tuple[int, int]  # (level, index) of a perfect subtree


def nodes_for_append(index: int) -> list[Node]:
    """The nodes :func:`new_nodes` reads to append leaf ``index``: one left sibling per level."""
    _check_size(index, "index")
    return [(level, (index >> level) - 1) for level in range(_trailing_ones(index))]


def nodes_for_root(size: int) -> list[Node]:
    """The nodes :func:`root_hash` reads, left to right (none for the empty tree)."""
    return _recorded(lambda tree: root_hash(tree, size))


def nodes_for_inclusion(index: int, size: int) -> list[Node]:
    """The nodes :func:`inclusion_proof` reads: fetch them in one query, then answer from a
    :class:`NodeMap`. They depend on the sizes only, never on the hashes."""
    return _recorded(lambda tree: inclusion_proof(tree, index, size))


def nodes_for_consistency(first: int, second: int) -> list[Node]:
    """The nodes :func:`consistency_proof` reads (as :func:`nodes_for_inclusion`)."""
    return _recorded(lambda tree: consistency_proof(tree, first, second))


class NodeMap:
    """A :class:`Subtrees` over nodes fetched beforehand; a node it lacks is a ``KeyError``."""

    def __init__(self, nodes: Mapping[Node, bytes]) -> None:
        self._nodes = nodes

    def perfect(self, level: int, index: int) -> bytes:
        return self._nodes[(level, index)]


class _Recorder:
    def __init__(self) -> None:
        self.read: dict[Node, None] = {}

    def perfect(self, level: int, index: int) -> bytes:
        self.read[(level, index)] = None
        return EMPTY_ROOT


def _recorded(run: Callable[[Subtrees], object]) -> list[Node]:
    recorder = _Recorder()
    run(recorder)
    return list(recorder.read)


def _trailing_ones(n: int) -> int:
    return (n ^ (n + 1)).bit_length() - 1


class MemoryTree:
    """An in-memory :class:`Subtrees` with ``append``: for tests, benchmarks and offline tools.

    Each level is one ``bytearray`` of 32-byte hashes (a million leaves take about 64 MB)."""

    def __init__(self) -> None:
        self._levels: list[bytearray] = [bytearray()]
        self.size = 0

    def append(self, leaf: bytes) -> int:
        """Add a leaf (its bytes, hashed here); return its index."""
        return self.append_hash(leaf_hash(leaf))

    def append_hash(self, hashed: bytes) -> int:
        """Add an already hashed leaf; return its index."""
        index = self.size
        for level, _, value in new_nodes(index, hashed, self):
            if level == len(self._levels):
                self._levels.append(bytearray())
            self._levels[level] += value
        self.size = index + 1
        return index

    def perfect(self, level: int, index: int) -> bytes:
        row = self._levels[level] if 0 <= level < len(self._levels) else b""
        at = index * HASH_SIZE
        if index < 0 or at + HASH_SIZE > len(row):
            raise KeyError((level, index))
        return bytes(row[at : at + HASH_SIZE])

    def root(self, size: int | None = None) -> bytes:
        """The root at ``size`` leaves (default: all of them)."""
        return root_hash(self, self.size if size is None else size)


def _range_hash(tree: Subtrees, start: int, end: int) -> bytes:
    """``MTH(D[start:end])`` for a range the RFC recursions produce: ``start`` is a multiple of
    every power of two up to ``end - start``. Perfect pieces left to right, folded from the
    right."""
    pieces: list[bytes] = []
    while start < end:
        level = (end - start).bit_length() - 1
        pieces.append(tree.perfect(level, start >> level))
        start += 1 << level
    result = pieces.pop()
    while pieces:
        result = node_hash(pieces.pop(), result)
    return result


def _split(n: int) -> int:
    """The largest power of two strictly below ``n`` (``n >= 2``)."""
    return 1 << ((n - 1).bit_length() - 1)


def _verify_trivial(
    first: int, second: int, first_root: bytes, second_root: bytes, proof: Sequence[bytes]
) -> None:
    if proof:
        raise _wrong_length(len(proof))
    if first == 0 and first_root != EMPTY_ROOT:
        raise ProofError("first_root_mismatch", "a tree of size 0 has the empty root")
    if first == second and first_root != second_root:
        raise ProofError("root_mismatch", f"two different roots for the tree size {first}")


def _check_size(size: int, what: str) -> None:
    if not 0 <= size <= MAX_SIZE:
        raise ProofError("bad_size", f"{what} {size} is not between 0 and 2**63 - 1")


def _check_sizes(first: int, second: int) -> None:
    _check_size(first, "first tree size")
    _check_size(second, "second tree size")
    if first > second:
        raise ProofError("sizes_out_of_order", f"first size {first} exceeds second {second}")


def _check_hash(value: bytes, what: str) -> None:
    if len(value) != HASH_SIZE:
        raise ProofError("bad_hash_length", f"{what} has {len(value)} bytes, not {HASH_SIZE}")


def _check_hashes(a: bytes, b: bytes, proof: Sequence[bytes]) -> None:
    _check_hash(a, "a hash")
    _check_hash(b, "a root")
    for number, element in enumerate(proof):
        _check_hash(element, f"proof element {number}")


def _wrong_length(got: int) -> ProofError:
    return ProofError("wrong_proof_length", f"a proof of {got} hashes does not fit these sizes")
