"""A seeded, version-stable pseudo-random generator (splitmix64).

Python's ``random`` may change its algorithms between versions; a match's seed must give the
same grid forever, so the rules use this small generator whose output is fixed by this file.
"""

from __future__ import annotations

import hashlib
from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


class SeededRng:
    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next_u64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Uniform integer in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = _MASK - (_MASK + 1) % n
        while True:
            value = self.next_u64()
            if value <= limit:
                return value % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    @classmethod
    def derive(cls, seed: int, *labels: int | str) -> SeededRng:
        """An independent stream for a sub-task (say round 3 of a match), stable across versions."""
        text = ":".join([str(seed), *map(str, labels)]).encode("utf-8")
        return cls(int.from_bytes(hashlib.sha256(text).digest()[:8], "big"))
