"""A stored state's history in pages shared by content (``projections.stored_pages``), pure: a
toy codec whose state is a label and a cons list of ints, and an in-memory page table.

The pages' point is space: the stored states of one timeline share the pages before them, and a
ruling's new timeline shares those before its first change, so a timeline's stored states take
space in proportion to the match, not its square (``docs/scaling.md``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from projections.stored_pages import Histories, Page, PageError, Pager, digest_of


@dataclass(frozen=True, slots=True, weakref_slot=True)
class Cell:
    head: int
    tail: Cell | None = None


State = tuple[str, Cell | None]


class ToyCodec:
    def split(self, state: State) -> tuple[bytes, Cell | None]:
        return msgspec.msgpack.encode(state[0]), state[1]

    def pack(self, entries: list[Any]) -> bytes:
        return msgspec.msgpack.encode(entries)

    def unpack(self, blob: bytes) -> list[Any]:
        return msgspec.msgpack.decode(blob, type=list[int])

    def join(self, bare: bytes, history: list[Any], initial: Any, base: Any = None) -> State:
        node = base
        for entry in history:
            node = Cell(entry, node)
        return msgspec.msgpack.decode(bare, type=str), node


def extended(state: State, entries: list[int]) -> State:
    node = state[1]
    for entry in entries:
        node = Cell(entry, node)
    return state[0], node


def entries_of(state: State) -> list[int]:
    out, node = [], state[1]
    while node is not None:
        out.append(node.head)
        node = node.tail
    return out[::-1]


class Table:
    """The pages stored, as ``fold_pages`` holds them, and what a writer adds to it."""

    def __init__(self) -> None:
        self.pages: dict[str, bytes] = {}
        self.writes: list[list[Page]] = []

    def store(self, pager: Pager, state: State) -> bytes:
        row, fresh = pager.encode(state)
        self.writes.append(fresh)
        self.pages.update(fresh)
        pager.mark(digest for digest, _ in fresh)
        return row

    def read(self, row: bytes, size: int = 4) -> State:
        state: State = Pager(ToyCodec(), size).decode(row, lambda _: self.pages, None)
        return state


@given(st.lists(st.integers(-(2**40), 2**40), max_size=60), st.integers(1, 8))
def test_a_state_stored_as_a_row_and_pages_reads_back_whole(entries: list[int], size: int) -> None:
    table = Table()
    state = extended(("label", None), entries)
    row = table.store(Pager(ToyCodec(), size), state)
    assert entries_of(table.read(row, size)) == entries
    assert table.read(row, size)[0] == "label"
    full = len(entries) // size
    assert len(msgspec.msgpack.decode(row)[2]) == full
    assert len(table.pages) == len({tuple(entries[i * size : (i + 1) * size]) for i in range(full)})


def test_the_states_of_one_timeline_share_the_pages_before_them() -> None:
    """Stored every 10 entries up to 100 (pages of 4): each entry is written in one page once,
    not once per state after it (which was 550 entries for these ten states)."""
    table, pager = Table(), Pager(ToyCodec(), 4)
    state: State = ("s", None)
    for k in range(10):
        state = extended(state, list(range(10 * k, 10 * k + 10)))
        table.store(pager, state)
    written = sum(len(ToyCodec().unpack(blob)) for fresh in table.writes for _, blob in fresh)
    assert written == 100
    assert len(table.pages) == 25


def test_a_new_timeline_shares_the_pages_before_its_first_change() -> None:
    """A void of entry 48 of 100 (its state folded again from a checkpoint before it: new nodes
    after it): the new timeline's row names the same first twelve pages, by content, even from
    a pager that never saw them, and adds twelve of its own (every later page moved by one)."""
    table = Table()
    before = extended(("s", None), list(range(48)))
    old = extended(before, list(range(48, 100)))
    new = extended(("s", None), [*range(48), *range(49, 100)])
    old_row = table.store(Pager(ToyCodec(), 4), old)
    new_row = table.store(Pager(ToyCodec(), 4), new)
    assert entries_of(table.read(new_row)) == [*range(48), *range(49, 100)]
    assert entries_of(table.read(old_row)) == list(range(100))
    digests = [msgspec.msgpack.decode(row)[2] for row in (old_row, new_row)]
    assert digests[0][:12] == digests[1][:12]
    assert not set(digests[0][12:]) & set(digests[1][12:])
    assert len(table.pages) == 25 + 12


def test_a_state_read_back_then_extended_writes_only_the_new_pages() -> None:
    """After a restart the writer knows the pages of the state it read (they are stored)."""
    table = Table()
    row = table.store(Pager(ToyCodec(), 4), extended(("s", None), list(range(40))))
    reader = Pager(ToyCodec(), 4)
    state: State = reader.decode(row, lambda _: table.pages, None)
    table.store(reader, extended(state, list(range(40, 48))))
    assert [len(fresh) for fresh in table.writes] == [10, 2]


def test_a_page_written_but_not_stored_is_written_again() -> None:
    """A page the writer encoded whose write failed (not marked) goes with the next row."""
    pager = Pager(ToyCodec(), 4)
    state = extended(("s", None), list(range(8)))
    _, first = pager.encode(state)
    _, again = pager.encode(state)
    assert [d for d, _ in again] == [d for d, _ in first]
    pager.mark(d for d, _ in first)
    assert pager.encode(state)[1] == []


def test_a_missing_or_altered_page_fails_the_read() -> None:
    table = Table()
    row = table.store(Pager(ToyCodec(), 4), extended(("s", None), list(range(12))))
    digest = sorted(table.pages)[0]
    blob = table.pages.pop(digest)
    with pytest.raises(PageError):
        table.read(row)
    table.pages[digest] = blob[:-1] + b"\x07"
    assert digest_of(table.pages[digest]) != digest
    with pytest.raises(PageError):
        table.read(row)
    table.pages[digest] = blob
    assert entries_of(table.read(row)) == list(range(12))


def test_the_writer_remembers_at_most_its_bound_of_pages() -> None:
    pager = Pager(ToyCodec(), 1, memo=3)
    pager.encode(extended(("s", None), list(range(10))))
    assert len(pager._digests) == 3


def test_a_page_holds_at_least_one_entry() -> None:
    with pytest.raises(ValueError, match="at least one"):
        Pager(ToyCodec(), 0)


def test_a_row_names_its_page_size_so_a_reader_of_another_size_reads_it() -> None:
    table = Table()
    row = table.store(Pager(ToyCodec(), 2), extended(("s", None), list(range(11))))
    assert entries_of(table.read(row, size=5)) == list(range(11))


def nodes(state: State) -> list[Cell]:
    """The history's nodes, oldest first."""
    out, node = [], state[1]
    while node is not None:
        out.append(node)
        node = node.tail
    return out[::-1]


class Fetches:
    """A page table that counts the pages each read asks for."""

    def __init__(self, table: Table) -> None:
        self.table = table
        self.asked: list[list[str]] = []

    def __call__(self, digests: list[str]) -> dict[str, bytes]:
        self.asked.append(list(digests))
        return self.table.pages


def shared(histories: Histories, scope: bytes = b"m1") -> Pager:
    return Pager(ToyCodec(), 4, histories=histories, scope=scope)


def test_a_row_is_decoded_onto_the_history_in_memory_that_its_first_pages_chain_to() -> None:
    """The live fold holds 40 entries (ten pages of 4) that a pager encoded; a checkpoint of the
    same timeline after 30 entries is read back by another pager of the store: its first seven
    pages are the live history's own nodes (nothing fetched, no second copy), the two entries
    after them decoded onto them."""
    table, histories = Table(), Histories()
    live = extended(("s", None), list(range(40)))
    checkpoint = table.store(Pager(ToyCodec(), 4), extended(("s", None), list(range(30))))
    table.store(shared(histories), live)
    fetches = Fetches(table)
    state: State = shared(histories).decode(checkpoint, fetches, None)
    assert entries_of(state) == list(range(30))
    assert nodes(state)[:28] == nodes(live)[:28]
    assert all(a is b for a, b in zip(nodes(state)[:28], nodes(live)[:28], strict=True))
    assert nodes(state)[28] is not nodes(live)[28]
    assert fetches.asked == []


def test_a_history_is_shared_only_while_a_state_holds_it_and_only_by_its_match() -> None:
    table, histories = Table(), Histories()
    row = table.store(shared(histories), extended(("s", None), list(range(12))))
    fetches = Fetches(table)
    other = shared(histories, scope=b"m2").decode(row, fetches, None)
    assert len(fetches.asked[-1]) == 3  # another match's pager: every page read
    del other  # freed at once: a cons list holds no cycle
    state = shared(histories).decode(row, fetches, None)  # the writer's state is gone too
    assert entries_of(state) == list(range(12))
    assert len(fetches.asked[-1]) == 3
    again = shared(histories).decode(row, fetches, None)  # the state just read holds them
    assert len(fetches.asked) == 2 and entries_of(again) == list(range(12))


def test_a_timeline_that_differs_in_an_early_page_shares_none_of_its_later_pages() -> None:
    """A void of entry 1 of 20: the new timeline's page 3 holds the same entries as the old's
    page 3 only if nothing moved; here every later page moves, and where two pages do match
    by content (entries 16-19 in both, rebuilt so), the chain before them differs."""
    table, histories = Table(), Histories()
    old = extended(("s", None), list(range(20)))
    new = extended(("s", None), [0, 100, 2, 3, *range(4, 20)])
    table.store(shared(histories), old)
    row = table.store(Pager(ToyCodec(), 4), new)
    assert msgspec.msgpack.decode(row)[2][1:] == [
        digest_of(ToyCodec().pack(list(range(i, i + 4)))) for i in range(4, 20, 4)
    ]
    fetches = Fetches(table)
    state: State = shared(histories).decode(row, fetches, None)
    assert entries_of(state) == [0, 100, 2, 3, *range(4, 20)]
    assert len(fetches.asked[-1]) == 5
    assert not set(map(id, nodes(state))) & set(map(id, nodes(old)))


@given(
    st.lists(st.integers(0, 3), min_size=1, max_size=40),
    st.lists(st.tuples(st.integers(0, 40), st.booleans()), max_size=8),
    st.integers(1, 5),
)
def test_a_row_reads_back_whole_whatever_histories_are_in_memory(
    entries: list[int], states: list[tuple[int, bool]], size: int
) -> None:
    """States of one match (prefixes of one history, or of it with one entry changed), some kept
    in memory, some dropped: every row reads back exactly its entries."""
    table, histories, kept = Table(), Histories(), []
    rows = []
    for cut, changed in states:
        prefix = entries[:cut]
        if changed and prefix:
            prefix = [*prefix[:-1], prefix[-1] + 10]
        state = extended(("s", None), prefix)
        rows.append(
            (table.store(Pager(ToyCodec(), size, histories=histories, scope=b"m"), state), prefix)
        )
        if cut % 2:
            kept.append(state)  # the others are freed at once (a cons list holds no cycle)
    for row, prefix in rows:
        reader = Pager(ToyCodec(), size, histories=histories, scope=b"m")
        assert entries_of(reader.decode(row, lambda _: table.pages, None)) == prefix


def test_pages_taken_from_memory_are_not_taken_as_stored() -> None:
    """A live history whose pages a writer encoded but never stored (its write failed) is
    shared by a read, which then does not count those pages as stored: a write by the reader's
    pager still carries them."""
    table, histories = Table(), Histories()
    live = extended(("s", None), list(range(12)))
    shared(histories).encode(live)  # encoded, never written
    row = table.store(Pager(ToyCodec(), 4), extended(("s", None), list(range(10))))
    reader = shared(histories)
    state: State = reader.decode(row, Fetches(table), None)
    digests = msgspec.msgpack.decode(row)[2]
    assert all(a is b for a, b in zip(nodes(state)[:8], nodes(live)[:8], strict=True))
    assert not any(reader.stored(digest) for digest in digests)
    assert [d for d, _ in reader.encode(extended(state, [10, 11]))[1]] == [
        *digests,
        digest_of(ToyCodec().pack([8, 9, 10, 11])),
    ]
