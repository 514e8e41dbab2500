"""Zombego geometry: cell names, piece sets and precomputed pattern tables (spec §2, §4, §P).

Cells are numbered row-major, ``index = row * N + col`` (spec 2.4); a set of cells is a Python int
bitmask (bit ``index``). Every value's pattern is the union of the base patterns of its units and
tens digits (4.2). Leap parts are fixed per cell and precomputed once per board size (cached);
slide parts (codes 4 and 9) are line-of-sight rays walked against the current occupancy (4.4).
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

BOARD_SIZES: tuple[int, ...] = (3, 4, 5, 6, 7, 8, 9, 10, 12)
DEFAULT_BOARD = 6
FILES = "abcdefghijkl"

PIECE_SETS: dict[str, tuple[int, ...]] = {
    "(6) Sum dist by type = 4": (2, 5, 7, 25, 27, 57),
    "(7) 8 Destinations": (12, 16, 17, 26, 27, 55, 67),
    "(8) Pairs of types": (12, 15, 16, 17, 25, 27, 56, 57),
    "(8) 12 Destinations": (2, 7, 15, 25, 56, 57, 101, 106),
    "(10) Sum 4 with Long Leaps": (2, 5, 7, 13, 18, 25, 27, 36, 57, 68),
    "(9) Sum 4 plus Slides": (2, 5, 7, 25, 27, 44, 49, 57, 99),
    "(11) 12 plus Slides": (2, 7, 15, 25, 44, 49, 56, 57, 99, 101, 106),
}
DEFAULT_PIECE_SET = "(8) 12 Destinations"

ORTHOGONAL = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL = ((1, 1), (1, -1), (-1, 1), (-1, -1))


def _symmetric(a: int, b: int) -> frozenset[tuple[int, int]]:
    """All sign and axis permutations of the offset (a, b)."""
    out = set()
    for x, y in ((a, b), (b, a)):
        for sx in (1, -1):
            for sy in (1, -1):
                out.add((sx * x, sy * y))
    return frozenset(out)


LEAPS: dict[int, frozenset[tuple[int, int]]] = {
    0: _symmetric(1, 0) | _symmetric(1, 1),
    1: _symmetric(1, 1),
    2: _symmetric(2, 2),
    3: _symmetric(3, 3),
    5: _symmetric(1, 2),
    6: _symmetric(1, 0),
    7: _symmetric(2, 0),
    8: _symmetric(3, 0),
    10: _symmetric(2, 0) | _symmetric(2, 2),
}
SLIDES: dict[int, tuple[tuple[int, int], ...]] = {4: DIAGONAL, 9: ORTHOGONAL}
MAX_VALUE = 110


def codes(value: int) -> tuple[int, int]:
    """The (units, tens) base-pattern codes of a piece value (4.2)."""
    return value % 10, value // 10


def valid_value(value: int) -> bool:
    return 0 <= value <= MAX_VALUE


def cell_name(cell: int, n: int) -> str:
    row, col = divmod(cell, n)
    return f"{FILES[col]}{row + 1}"


def parse_cell(name: str, n: int) -> int | None:
    """The index of an algebraic cell name on an nxn board, or None if it is not one."""
    if len(name) < 2 or name[0] not in FILES[:n] or not name[1:].isdigit():
        return None
    col, row = FILES.index(name[0]), int(name[1:]) - 1
    if not 0 <= row < n or name[1] == "0":
        return None
    return row * n + col


Rays = tuple[tuple[tuple[int, ...], ...], ...]


class Geometry(NamedTuple):
    """One value's pattern on one board size: leap masks per cell, slide rays per cell."""

    leaps: tuple[int, ...]
    rays: Rays | None


class Tables(NamedTuple):
    n: int
    full: int
    geometry: tuple[Geometry, ...]


def _leap_masks(offsets: frozenset[tuple[int, int]], n: int) -> tuple[int, ...]:
    masks = []
    for cell in range(n * n):
        row, col = divmod(cell, n)
        mask = 0
        for dx, dy in offsets:
            x, y = col + dx, row + dy
            if 0 <= x < n and 0 <= y < n:
                mask |= 1 << (y * n + x)
        masks.append(mask)
    return tuple(masks)


def _rays(directions: tuple[tuple[int, int], ...], n: int) -> Rays:
    """Per cell, the rays (as tuples of single-bit masks, nearest first) in ``directions``."""
    per_cell = []
    for cell in range(n * n):
        row, col = divmod(cell, n)
        rays = []
        for dx, dy in directions:
            ray, x, y = [], col + dx, row + dy
            while 0 <= x < n and 0 <= y < n:
                ray.append(1 << (y * n + x))
                x, y = x + dx, y + dy
            if ray:
                rays.append(tuple(ray))
        per_cell.append(tuple(rays))
    return tuple(per_cell)


def _geometry(value: int, n: int) -> Geometry:
    offsets: frozenset[tuple[int, int]] = frozenset()
    directions: tuple[tuple[int, int], ...] = ()
    for code in set(codes(value)):
        if code in SLIDES:
            directions += SLIDES[code]
        else:
            offsets |= LEAPS.get(code, frozenset())  # tens code 11 (value 110) adds nothing
    return Geometry(_leap_masks(offsets, n), _rays(directions, n) if directions else None)


@cache
def tables(n: int) -> Tables:
    """The pattern tables of every value 0…110 on an nxn board (computed once per size)."""
    geometry = tuple(_geometry(value, n) for value in range(MAX_VALUE + 1))
    return Tables(n, (1 << (n * n)) - 1, geometry)


def pattern(geo: Geometry, cell: int, occupied: int) -> int:
    """``pattern(v, c)`` (4.5) as a bitmask: leaps, plus each ray up to its first occupied cell."""
    mask = geo.leaps[cell]
    if geo.rays is not None:
        for ray in geo.rays[cell]:
            for bit in ray:
                mask |= bit
                if occupied & bit:
                    break
    return mask


def cells_of(mask: int) -> list[int]:
    """The cell indices of a bitmask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
