"""The transparency log's pure core: appends, roots and proofs on a tree of a million leaves.

    .venv/bin/python infra/bench/tlog_bench.py [--leaves 1000000] [--proofs 2000] [--seed 1]

Builds an in-memory tree (``events.transparency.merkle.MemoryTree``) of ``--leaves`` leaves
(each a 200-byte stand-in for a match's canonical JSON) and prints, per operation: the time of
an append (leaf hash + the completed nodes), of a root at the full size, of an inclusion proof
and of a consistency proof at random indices/sizes (median, 99th percentile, worst), of their
verification, and how many perfect nodes a proof reads -- what a store answering from its node
table pays in reads. Also the Ed25519 signing and opening of a checkpoint, the rest of what
closing a match adds. Times are this process's CPU time per call (``time.process_time``), which
other work on a shared machine disturbs less than wall-clock time (caches and cores are still
shared: the percentiles show it).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey  # noqa: E402

from events.transparency.checkpoint import (  # noqa: E402
    Checkpoint,
    open_checkpoint,
    sign_checkpoint,
)
from events.transparency.merkle import (  # noqa: E402
    MemoryTree,
    consistency_proof,
    inclusion_proof,
    leaf_hash,
    root_hash,
    verify_consistency,
    verify_inclusion,
)
from events.transparency.note import Signer  # noqa: E402


class Counting:
    """A tree wrapper that counts the perfect nodes read."""

    def __init__(self, tree: MemoryTree) -> None:
        self.tree, self.reads = tree, 0

    def perfect(self, level: int, index: int) -> bytes:
        self.reads += 1
        return self.tree.perfect(level, index)


def timed(calls: list[Callable[[], object]]) -> list[float]:
    """Each call's time in milliseconds."""
    times = []
    for call in calls:
        start = time.process_time()
        call()
        times.append((time.process_time() - start) * 1000)
    return times


def row(name: str, times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    median = statistics.median(ordered)
    return f"| {name} | {median:.4f} | {p99:.4f} | {ordered[-1]:.4f} | {len(times)} |"


def build(leaves: int) -> tuple[MemoryTree, float]:
    tree = MemoryTree()
    payload = b"x" * 190
    start = time.process_time()
    for i in range(leaves):
        tree.append(payload + i.to_bytes(10, "big"))
    return tree, (time.process_time() - start) * 1000 / leaves


def proof_rows(tree: MemoryTree, count: int, rng: random.Random) -> list[str]:
    n = tree.size
    root = tree.root()
    indices = [rng.randrange(n) for _ in range(count)]
    firsts = [rng.randrange(1, n) for _ in range(count)]
    incl = [inclusion_proof(tree, i, n) for i in indices]
    cons = [consistency_proof(tree, m, n) for m in firsts]
    hashed = [tree.perfect(0, i) for i in indices]
    first_roots = [tree.root(m) for m in firsts]
    counting = Counting(tree)
    reads = []
    for i, m in zip(indices, firsts, strict=True):
        counting.reads = 0
        inclusion_proof(counting, i, n)
        consistency_proof(counting, m, n)
        reads.append(counting.reads)
    return [
        row("root at the full size", timed([lambda: root_hash(tree, n)] * count)),
        row("inclusion proof", timed([partial(inclusion_proof, tree, i, n) for i in indices])),
        row(
            "consistency proof",
            timed([partial(consistency_proof, tree, m, n) for m in firsts]),
        ),
        row(
            "verify inclusion",
            timed(
                [
                    partial(verify_inclusion, hashed[k], indices[k], n, incl[k], root)
                    for k in range(count)
                ]
            ),
        ),
        row(
            "verify consistency",
            timed(
                [
                    partial(verify_consistency, firsts[k], n, first_roots[k], root, cons[k])
                    for k in range(count)
                ]
            ),
        ),
        f"| nodes read by an inclusion + a consistency proof (max {max(reads)}) |"
        f" {statistics.median(reads):.0f} | | | {count} |",
    ]


def checkpoint_rows(tree: MemoryTree, count: int) -> list[str]:
    signer = Signer("adjudicator.example/log", Ed25519PrivateKey.from_private_bytes(b"b" * 32))
    verifier = signer.verifier()
    cp = Checkpoint("adjudicator.example/log", tree.size, tree.root())
    note = sign_checkpoint(cp, signer)
    return [
        row("sign a checkpoint", timed([lambda: sign_checkpoint(cp, signer)] * count)),
        row("open a signed checkpoint", timed([lambda: open_checkpoint(note, [verifier])] * count)),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--leaves", type=int, default=1_000_000)
    parser.add_argument("--proofs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tree, per_append = build(args.leaves)
    rng = random.Random(args.seed)
    appends = timed([lambda: tree.append_hash(leaf_hash(b"extra"))] * args.proofs)
    print(f"tree of {args.leaves:,} leaves built; {per_append * 1000:.2f} us per append (mean)")
    print("| operation (ms) | median | p99 | worst | calls |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(row("append a leaf", appends))
    for line in proof_rows(tree, args.proofs, rng) + checkpoint_rows(tree, args.proofs):
        print(line)


if __name__ == "__main__":
    main()
