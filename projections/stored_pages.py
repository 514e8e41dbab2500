"""A stored state's history kept apart from the rest of it, in pages shared by content (table
``fold_pages``).

Zoom's state lists every graded buzz and Zombego's every ply (cons lists, newest first, as long
as the match). Stored whole in each checkpoint, that list made a timeline's stored states grow
with the square of the match, and a ruling stored the new timeline's whole lists again beside
the old ones. A state is stored instead as a *row* (:meth:`Pager.encode`):

- the codec's *bare* encoding: everything but the history;
- the page size it was cut with (a reader of another size still reads it);
- the digests of the history's full pages, oldest first: ``size`` entries each, cut at fixed
  positions counted from the oldest entry;
- the entries after the last full page.

A page is stored once per match and codec under the BLAKE2b-128 digest of its encoding, so the
stored states of one timeline share the pages before them and a ruling's new timeline shares
those before its first change: a timeline's stored states take space in proportion to the
match, not its square. A read fetches a row's pages in one query and checks each against its
digest before decoding it (a page missing or altered fails the read: the caller folds instead).

The writer remembers, per match, each page's digest by the history node that ends it (a cons
node names its whole older history, and the states of one timeline share their nodes), so a
page is encoded and hashed once, not at every stored state after it; and which pages are
stored, so a row's write carries only the pages it adds.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

import msgspec

PAGE = 512
"""History entries per stored page (a Zoom buzz outcome encodes to about 114 bytes: a page of
about 58 kB)."""
MEMO = 1024
"""Page digests a :class:`Pager` remembers by node (least recently used forgotten first): 512k
entries of one match's timelines."""

Page = tuple[str, bytes]
"""A page as stored: its digest (hex) and its encoded entries."""
Fetch = Callable[[list[str]], Mapping[str, bytes]]
"""Reads stored pages by digest (those it finds)."""

_ENCODER = msgspec.msgpack.Encoder()
_ROW = msgspec.msgpack.Decoder(tuple[bytes, int, list[str], bytes])


class PageError(ValueError):
    """A row names a page that is not stored, or whose bytes do not have its digest."""


class Node(Protocol):
    """A cons list's node, newest first (``Outcomes``, ``Plies``)."""

    @property
    def head(self) -> Any: ...

    @property
    def tail(self) -> Node | None: ...


class Codec(Protocol):
    """Encodes a game's states exactly: ``join(bare, entries, initial) == state`` of the same
    type when ``split(state)`` gives ``bare`` and the history whose entries, oldest first, are
    ``entries`` (``initial``: the match's initial state, for the parts the setup fixes)."""

    def split(self, state: Any) -> tuple[bytes, Node | None]:
        """The state's bare encoding and its history (None: it keeps none)."""
        ...

    def pack(self, entries: list[Any]) -> bytes:
        """History entries (oldest first) encoded."""
        ...

    def unpack(self, blob: bytes) -> list[Any]:
        """The history entries of ``pack``'s blob."""
        ...

    def join(self, bare: bytes, history: list[Any], initial: Any) -> Any:
        """The state of ``bare`` with the history of ``history`` (oldest first)."""
        ...


def digest_of(blob: bytes) -> str:
    return hashlib.blake2b(blob, digest_size=16).hexdigest()


def nodes_of(history: Node | None) -> list[Node]:
    """The history's nodes, newest first."""
    out = []
    node = history
    while node is not None:
        out.append(node)
        node = node.tail
    return out


class Pager:
    """One match's states of one codec as rows and pages (thread-safe)."""

    def __init__(self, codec: Codec, size: int = PAGE, memo: int = MEMO) -> None:
        if size < 1:
            raise ValueError("a page holds at least one entry")
        self.codec, self.size, self.memo = codec, size, memo
        self._digests: OrderedDict[int, tuple[Node, str]] = OrderedDict()
        self._stored: set[str] = set()
        self._lock = threading.Lock()

    def encode(self, state: Any) -> tuple[bytes, list[Page]]:
        """The row of ``state`` and the pages it names that are not known to be stored."""
        bare, history = self.codec.split(state)
        nodes = nodes_of(history)
        n, size = len(nodes), self.size
        digests, fresh = [], []
        for j in range(n // size):
            older, newer = n - (j + 1) * size, n - j * size  # page j: nodes[older:newer]
            digest = self._known(nodes[older])
            if digest is None or not self.stored(digest):
                blob = self._pack(nodes[older:newer])
                digest = digest_of(blob)
                self._remember(nodes[older], digest)
                fresh.append((digest, blob))
            digests.append(digest)
        tail = self._pack(nodes[: n - (n // size) * size])
        return _ENCODER.encode((bare, size, digests, tail)), fresh

    def decode(self, row: bytes, fetch: Fetch, initial: Any) -> Any:
        """The state of ``row``, its pages read by ``fetch``; :class:`PageError` when one is
        missing or altered."""
        bare, size, digests, tail = _ROW.decode(row)
        found = fetch(digests) if digests else {}
        history: list[Any] = []
        for digest in digests:
            blob = found.get(digest)
            if blob is None or digest_of(blob) != digest:
                raise PageError(f"stored page {digest} is missing or altered")
            history.extend(self.codec.unpack(blob))
        history.extend(self.codec.unpack(tail))
        state = self.codec.join(bare, history, initial)
        self.mark(digests)
        nodes = nodes_of(self.codec.split(state)[1])
        if size == self.size:  # the next states extend these very nodes
            for j, digest in enumerate(digests):
                self._remember(nodes[len(nodes) - (j + 1) * size], digest)
        return state

    def _pack(self, newest_first: list[Node]) -> bytes:
        """The entries of ``newest_first``'s nodes encoded, oldest first."""
        return self.codec.pack([node.head for node in reversed(newest_first)])

    def mark(self, digests: Iterable[str]) -> None:
        """These pages are stored."""
        with self._lock:
            self._stored.update(digests)

    def stored(self, digest: str) -> bool:
        with self._lock:
            return digest in self._stored

    def _known(self, node: Node) -> str | None:
        with self._lock:
            found = self._digests.get(id(node))
            if found is None or found[0] is not node:
                return None
            self._digests.move_to_end(id(node))
            return found[1]

    def _remember(self, node: Node, digest: str) -> None:
        """Keep ``node`` (so that its id names it while remembered) with its page's digest."""
        with self._lock:
            self._digests[id(node)] = (node, digest)
            self._digests.move_to_end(id(node))
            while len(self._digests) > self.memo:
                self._digests.popitem(last=False)
