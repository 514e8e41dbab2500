"""Reports shared by their readers: an answer that costs seconds (a tournament's verify)
computed once at a time for each subject, and given again while what it read is unchanged and
it is recent.

Every spectator of a tournament's console page asks for its verify (the page's audit badge),
again whenever a result changes; computed for each of them, twenty open pages would verify a
288-match tournament twenty times at once, each taking the server's CPU from the live matches
for seconds. Here the readers of one subject share one computation: a reader that comes while
it runs waits for it, and a later reader gets the same report as long as the subject's
``fingerprint`` (what the report was computed from: for a tournament, its last seq and the last
seq of each of its matches) is the same and the report is younger than ``max_age`` seconds. A
change the store's own guards refuse (an event rewritten in place) leaves the fingerprint as it
was: ``max_age`` bounds how long a report may go on saying what it said before such a change,
and each report carries when its computation began.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

LOCKS = 64
"""Locks the computations take, by their subject's hash: one subject's readers wait for each
other, another subject's need not (unless their hashes share a lock)."""


K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class BoundedMemo(Generic[K, V]):
    """At most ``capacity`` values by their key, the least recently used forgotten first. A
    key names everything its value is computed from: a value is never stale, only forgotten.
    ``get`` computes a missing one outside the lock (two readers may both compute it: the
    value is the same)."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self._values: OrderedDict[K, V] = OrderedDict()
        self._guard = threading.Lock()

    def get(self, key: K, compute: Callable[[], V]) -> V:
        """The value of ``key``, computed (and kept) when it is not kept."""
        with self._guard:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        value = compute()
        self.put(key, value)
        return value

    def find(self, key: K) -> V | None:
        """The value kept for ``key`` (now the most recently used), or None."""
        with self._guard:
            if key not in self._values:
                return None
            self._values.move_to_end(key)
            return self._values[key]

    def put(self, key: K, value: V) -> None:
        with self._guard:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.capacity:
                self._values.popitem(last=False)

    def __len__(self) -> int:
        return len(self._values)


@dataclass(frozen=True, slots=True)
class Shared(Generic[T]):
    """A report, when its computation began (``began``, of the caller's ``clock``) and whether
    this reader got a report computed for an earlier one (``reused``)."""

    report: T
    began: float
    reused: bool


class SharedReports(Generic[T]):
    """The last report of each of at most ``capacity`` subjects (the least recently asked
    forgotten first), reused while its fingerprint holds and it is younger than ``max_age``
    seconds (0: computed for every reader, one at a time)."""

    def __init__(
        self, max_age: float, capacity: int = 256, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.max_age, self.clock = max_age, clock
        self._kept: BoundedMemo[str, tuple[Hashable, Shared[T]]] = BoundedMemo(capacity)
        self._locks = [threading.Lock() for _ in range(LOCKS)]

    def get(self, subject: str, fingerprint: Hashable, compute: Callable[[], T]) -> Shared[T]:
        """The subject's report: the kept one when its fingerprint is ``fingerprint`` and it
        is recent, else ``compute()``'s (kept for the next readers), one computation at a time
        for each subject."""
        with self._locks[hash(subject) % LOCKS]:
            found = self._kept.find(subject)
            if found is not None:
                kept_for, kept = found
                if kept_for == fingerprint and self.clock() - kept.began < self.max_age:
                    return Shared(kept.report, kept.began, True)
            began = self.clock()
            made = Shared(compute(), began, False)
            self._kept.put(subject, (fingerprint, made))
            return made
