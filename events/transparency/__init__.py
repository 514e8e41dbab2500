"""The transparency log's pure core: RFC 6962 Merkle tree, C2SP signed notes, checkpoints.

No I/O and no clock: the store (tables of nodes), the keys on disk and the routes build on these.
The bytes are described in docs/transparency.md.
"""
