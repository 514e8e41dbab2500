"""Zombego geometry: cell names, piece sets and precomputed pattern tables (spec §2, §4, §P).

Cells are numbered row-major, ``index = row * N + col`` (spec 2.4); a set of cells is a Python int
bitmask (bit ``index``). Every value's pattern is the union of the base patterns of its units and
tens digits (4.2). Leap parts are fixed per cell and precomputed once per board size (cached);
slide parts (codes 4 and 9) are line-of-sight rays cut at their first occupied cell (4.4).
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


Slide = tuple[int, bool, tuple[int, ...]]
"""One ray from a cell: its mask, whether it runs to higher indices, and the same direction's ray
mask from every cell (indexed by cell), whose entry at the first blocker is the shadowed part."""


class Geometry(NamedTuple):
    """One value's pattern on one board size: leap masks per cell, slide rays per cell."""

    leaps: tuple[int, ...]
    slides: tuple[tuple[Slide, ...], ...] | None


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


@cache
def _ray_masks(dx: int, dy: int, n: int) -> tuple[int, ...]:
    """Per cell, the mask of the cells strictly beyond it in direction (dx, dy), to the edge."""
    masks = []
    for cell in range(n * n):
        row, col = divmod(cell, n)
        mask, x, y = 0, col + dx, row + dy
        while 0 <= x < n and 0 <= y < n:
            mask |= 1 << (y * n + x)
            x, y = x + dx, y + dy
        masks.append(mask)
    return tuple(masks)


def _slides(directions: tuple[tuple[int, int], ...], n: int) -> tuple[tuple[Slide, ...], ...]:
    """Per cell, its non-empty rays in ``directions``, each with its direction's ray table."""
    tails = [(dy > 0 or (dy == 0 and dx > 0), _ray_masks(dx, dy, n)) for dx, dy in directions]
    return tuple(
        tuple((masks[cell], up, masks) for up, masks in tails if masks[cell])
        for cell in range(n * n)
    )


def _geometry(value: int, n: int) -> Geometry:
    offsets: frozenset[tuple[int, int]] = frozenset()
    directions: tuple[tuple[int, int], ...] = ()
    for code in set(codes(value)):
        if code in SLIDES:
            directions += SLIDES[code]
        else:
            offsets |= LEAPS.get(code, frozenset())  # tens code 11 (value 110) adds nothing
    return Geometry(_leap_masks(offsets, n), _slides(directions, n) if directions else None)


@cache
def tables(n: int) -> Tables:
    """The pattern tables of every value 0…110 on an nxn board (computed once per size)."""
    geometry = tuple(_geometry(value, n) for value in range(MAX_VALUE + 1))
    return Tables(n, (1 << (n * n)) - 1, geometry)


def pattern(geo: Geometry, cell: int, occupied: int) -> int:
    """``pattern(v, c)`` (4.5) as a bitmask: leaps, plus each ray up to its first occupied cell.

    A ray's first occupied cell is its lowest set bit of ``ray & occupied`` when the ray runs to
    higher indices, else the highest; the cells beyond it are that cell's own ray in the same
    direction, removed with one exclusive or (the "classical" approach of chess programs).
    """
    mask = geo.leaps[cell]
    if geo.slides is not None:
        for ray, up, tails in geo.slides[cell]:
            hit = ray & occupied
            if not hit:
                mask |= ray
            elif up:
                mask |= ray ^ tails[(hit & -hit).bit_length() - 1]
            else:
                mask |= ray ^ tails[hit.bit_length() - 1]
    return mask


_BYTE_CELLS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(8 * k + i for i in range(8) if byte >> i & 1) for byte in range(256))
    for k in range((max(BOARD_SIZES) ** 2 + 7) // 8)
)


def cells_of(mask: int) -> list[int]:
    """The cell indices of a bitmask (of a board up to 12x12), ascending, a byte at a time."""
    out: list[int] = []
    table = _BYTE_CELLS
    for k, byte in enumerate(mask.to_bytes((mask.bit_length() + 7) >> 3, "little")):
        if byte:
            out += table[k][byte]
    return out
