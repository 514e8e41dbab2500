"""Round robin by the Berger tables of FIDE C.05 Annex 1.

Players are numbered by seed. An odd field gets a dummy numbered n + 1: whoever meets it has the
bye. For N players (N even, the dummy included) round r pairs, on board 1, player N with
p = ((r - 1) * N/2 mod (N - 1)) + 1 (N takes the first seat in even rounds), and on board k
(k = 2..N/2) p + (k - 1) (first seat) with p - (k - 1) (second seat), counted cyclically in
1..N-1. That is the published table, row by row. A double round robin plays the table twice,
the second time with the seats swapped.
"""

from __future__ import annotations

from collections.abc import Sequence


def size(n_players: int) -> int:
    """The table's size: the field, plus the dummy when it is odd."""
    return n_players + n_players % 2


def table_round(n: int, r: int) -> tuple[tuple[int, int], ...]:
    """Round ``r`` (1..n-1) of the Berger table for ``n`` (even) numbers, board by board, as
    (first seat, second seat)."""
    m = n - 1
    p = ((r - 1) * (n // 2)) % m + 1
    boards = [(n, p) if r % 2 == 0 else (p, n)]
    for k in range(1, n // 2):
        boards.append(((p - 1 + k) % m + 1, (p - 1 - k) % m + 1))
    return tuple(boards)


def cycle_round(n_players: int, r: int) -> tuple[tuple[int, int], ...]:
    """Round ``r`` counted over both cycles (r > N - 1 is the second, seats swapped)."""
    n = size(n_players)
    if r <= n - 1:
        return table_round(n, r)
    return tuple((b, a) for a, b in table_round(n, r - (n - 1)))


def rounds_per_cycle(n_players: int) -> int:
    return size(n_players) - 1


def by_number(ids_by_seed: Sequence[str], number: int) -> str | None:
    """The player with Berger number ``number`` (``None`` for the dummy)."""
    return ids_by_seed[number - 1] if number <= len(ids_by_seed) else None
