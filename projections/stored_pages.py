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

A read shares the history already in memory (:class:`Histories`): every pager of a store knows,
by the *chain* of a history's first pages (the digests of pages 0 to ``j``, hashed in turn
from the match and codec), the node that ends page ``j`` of a history it encoded or decoded,
held by a weak reference (it keeps no history alive). A row whose first pages are such a
chain is decoded onto that node: only the pages after it are read and decoded. So the first
read into the past after a restart shares the head's history, which the start's prewarm
decoded for the live fold, instead of reading and decoding it again, and a state read back
holds no second copy of the entries a live state holds.
"""

from __future__ import annotations

import hashlib
import threading
import weakref
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
SHARED = 65_536
"""Chains :class:`Histories` remembers (least recently used forgotten first): at most 11 MB
(168 bytes a chain, its key's bytes included: weak references all, no history kept alive),
the pages of 32M history entries."""

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

    def join(self, bare: bytes, history: list[Any], initial: Any, base: Any = None) -> Any:
        """The state of ``bare`` with the history of ``history`` (oldest first) after the
        history ``base`` (a node of this codec's histories; None: none before)."""
        ...


def digest_of(blob: bytes) -> str:
    return hashlib.blake2b(blob, digest_size=16).hexdigest()


def chains(scope: bytes, digests: list[str]) -> list[bytes]:
    """The chain of each first ``j + 1`` pages of ``digests``: page ``j``'s digest hashed onto
    the chain before it, from ``scope`` (the match and codec: no two matches share a chain)."""
    out, key = [], scope
    for digest in digests:
        key = hashlib.blake2b(key + bytes.fromhex(digest), digest_size=16).digest()
        out.append(key)
    return out


class Histories:
    """The history nodes in memory by their chains (:func:`chains`): the node that ends the
    chain's last page, of any history a pager of the store encoded or decoded. Weak references:
    a node is found only while a state in memory still holds it. Thread-safe; at most ``bound``
    chains (least recently used forgotten first)."""

    def __init__(self, bound: int = SHARED) -> None:
        self.bound = bound
        self._refs: OrderedDict[bytes, weakref.ref[Any]] = OrderedDict()
        self._lock = threading.Lock()

    def deepest(self, keys: list[bytes]) -> tuple[int, Node] | None:
        """Of ``keys`` (the chains of one row's pages, first page first), the last whose
        node is in memory, and that node (None: none is)."""
        with self._lock:
            for j in range(len(keys) - 1, -1, -1):
                ref = self._refs.get(keys[j])
                node = None if ref is None else ref()
                if node is not None:
                    self._refs.move_to_end(keys[j])
                    return j, node
        return None

    def keep(self, pairs: Iterable[tuple[bytes, Node]]) -> None:
        """Remember each (chain, the node that ends its last page)."""
        with self._lock:
            for key, node in pairs:
                self._refs[key] = weakref.ref(node)
                self._refs.move_to_end(key)
            while len(self._refs) > self.bound:
                self._refs.popitem(last=False)


def nodes_of(history: Node | None) -> list[Node]:
    """The history's nodes, newest first."""
    out = []
    node = history
    while node is not None:
        out.append(node)
        node = node.tail
    return out


class Pager:
    """One match's states of one codec as rows and pages (thread-safe). With ``histories``,
    the store's (:class:`Histories`), and ``scope``, the match and codec's name, a decoded row
    shares the history in memory that its first pages chain to."""

    def __init__(
        self,
        codec: Codec,
        size: int = PAGE,
        memo: int = MEMO,
        histories: Histories | None = None,
        scope: bytes = b"",
    ) -> None:
        if size < 1:
            raise ValueError("a page holds at least one entry")
        self.codec, self.size, self.memo = codec, size, memo
        self.histories, self.scope = histories, scope
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
        self._share(self._chains(digests), [nodes[n - (j + 1) * size] for j in range(n // size)])
        return _ENCODER.encode((bare, size, digests, tail)), fresh

    def decode(self, row: bytes, fetch: Fetch, initial: Any) -> Any:
        """The state of ``row``, its pages read by ``fetch`` (those after the history in
        memory that its first pages chain to, see :class:`Histories`); :class:`PageError` when
        one is missing or altered."""
        bare, size, digests, tail = _ROW.decode(row)
        keys = self._chains(digests)
        shared = None if self.histories is None else self.histories.deepest(keys)
        base, start = (None, 0) if shared is None else (shared[1], shared[0] + 1)
        wanted = digests[start:]
        found = fetch(wanted) if wanted else {}
        history: list[Any] = []
        for digest in wanted:
            blob = found.get(digest)
            if blob is None or digest_of(blob) != digest:
                raise PageError(f"stored page {digest} is missing or altered")
            history.extend(self.codec.unpack(blob))
        history.extend(self.codec.unpack(tail))
        state = self.codec.join(bare, history, initial, base)
        self.mark(wanted)  # read and checked here: the shared ones may not be stored
        nodes = nodes_of(self.codec.split(state)[1])
        ends = [nodes[len(nodes) - (j + 1) * size] for j in range(len(digests))]
        self._share(keys, ends)
        if size == self.size:  # the next states extend these very nodes
            for end, digest in zip(ends, digests, strict=True):
                self._remember(end, digest)
        return state

    def _chains(self, digests: list[str]) -> list[bytes]:
        """The chains of ``digests``' pages ([] when no histories are shared)."""
        return [] if self.histories is None else chains(self.scope, digests)

    def _share(self, keys: list[bytes], ends: list[Node]) -> None:
        """The nodes ``ends`` (each ending the last page of its chain in ``keys``) are in
        memory."""
        if self.histories is not None:
            self.histories.keep(zip(keys, ends, strict=True))

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
