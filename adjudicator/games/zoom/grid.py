"""Grids of marks, pattern matching and the seeded round generator.

A grid is a tuple of rows; every row a tuple of symbol tokens (``"R"``, ``"G"``, or longer).
For speed each grid also keeps its rows encoded as strings, one character per cell, so that
finding a target is ``str.find`` on rows and matching it at a cell ``str.startswith`` (the
same token gets the same character in a grid and in the targets matched against it, because
the code book is shared per round).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from adjudicator.games.zoom import coords
from adjudicator.kernel.errors import InvalidCommand
from adjudicator.kernel.rng import SeededRng

Rows = tuple[tuple[str, ...], ...]


def normalise(rows: Sequence[str | Sequence[str]], what: str) -> Rows:
    """Rows given as strings (one character per cell) or as lists of tokens; must be rectangular."""
    grid = tuple(tuple(row) for row in rows)
    if not grid or not grid[0]:
        raise InvalidCommand("empty_grid", f"{what} has no cells")
    if any(len(row) != len(grid[0]) for row in grid):
        raise InvalidCommand("ragged_grid", f"{what} is not rectangular")
    if any(not token or len(token) > 8 for row in grid for token in row):
        raise InvalidCommand("bad_symbol", f"{what} has an empty or over-long symbol")
    return grid


@dataclass(frozen=True, slots=True)
class Board:
    """One round's grid and targets, encoded for matching. ``hits`` memoises :meth:`hit` per
    target and coordinate text (a round's buzzes name the same few cells again and again); it
    takes no part in equality."""

    grid: Rows
    targets: Mapping[str, Rows]
    encoded_grid: tuple[str, ...]
    encoded_targets: Mapping[str, tuple[str, ...]]
    hits: dict[tuple[str, str], bool] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def build(cls, grid: Rows, targets: Mapping[str, Rows]) -> Board:
        book: dict[str, str] = {}

        def encode(rows: Rows) -> tuple[str, ...]:
            return tuple("".join(_code(book, t) for t in r) for r in rows)

        encoded = encode(grid)
        return cls(grid, dict(targets), encoded, {k: encode(v) for k, v in targets.items()})

    @property
    def height(self) -> int:
        return len(self.grid)

    @property
    def width(self) -> int:
        return len(self.grid[0])

    def matches(self, label: str, row: int, col: int) -> bool:
        """True when target ``label``'s marks equal the grid's at top-left ``(row, col)``."""
        target, grid = self.encoded_targets[label], self.encoded_grid
        if row + len(target) > len(grid):
            return False
        for part in target:  # ``startswith`` at ``col``: False past the row's end, no slice
            if not grid[row].startswith(part, col):
                return False
            row += 1
        return True

    def hit(self, label: str, at: object) -> bool:
        """Whether target ``label`` is at the coordinate ``at`` (False when ``at`` is not one:
        never recorded by decide, an imported log may still hold one)."""
        if not isinstance(at, str):
            return False
        key = (label, at)
        found = self.hits.get(key)
        if found is None:
            found = self.hits[key] = self._hit(label, at)
        return found

    def _hit(self, label: str, at: str) -> bool:
        try:
            row, col = coords.parse(at)
        except InvalidCommand:
            return False
        return self.matches(label, row, col)

    def occurrences(self, label: str) -> Iterator[tuple[int, int]]:
        return find_all(self.encoded_grid, self.encoded_targets[label])


def _code(book: dict[str, str], token: str) -> str:
    return book.setdefault(token, chr(0x100 + len(book)))


def find_all(grid: Sequence[str], target: Sequence[str]) -> Iterator[tuple[int, int]]:
    first, height = target[0], len(target)
    rest = list(enumerate(target))[1:]
    for row in range(len(grid) - height + 1):
        col = grid[row].find(first)
        while col != -1:
            if all(grid[row + i][col : col + len(part)] == part for i, part in rest):
                yield row, col
            col = grid[row].find(first, col + 1)


def labels(count: int) -> list[str]:
    return [chr(ord("A") + i) for i in range(count)]


@dataclass(frozen=True, slots=True)
class Shape:
    """Parameters of a generated round."""

    height: int
    width: int
    target_height: int
    target_width: int
    targets: int
    alphabet: tuple[str, ...]


_MAX_SCANS = 32
"""Scans of the whole grid one generation may make. A config that passes ``ZoomConfig``'s
feasibility test expects at most a handful (see ``tests/unit/games/zoom/test_generation.py``);
past this bound the round is refused as ``cannot_generate`` instead of drawing on for minutes."""
_MAX_REDRAWN = 1024
"""Cells one generation may re-draw in all: an accepted shape expects at most 16 strays in its
first grid and re-draws a few dozen cells; a far worse one is refused after its first scan."""


def generate(seed: int, round_number: int, shape: Shape) -> tuple[Rows, dict[str, Rows]]:
    """A round whose every target occurs exactly once. Same seed and shape -> same round.

    The grid is drawn at random, then every stray occurrence of a target (anywhere but its own
    spot) gets one cell re-drawn, and the grid is scanned again, until no stray is left. The work
    is bounded by ``_MAX_SCANS`` scans and ``_MAX_REDRAWN`` re-drawn cells, not by time: past
    either, :class:`InvalidCommand` ``cannot_generate`` is raised.
    """
    rng = SeededRng.derive(seed, "zoom-round", round_number)
    chars = [chr(0x100 + i) for i in range(len(shape.alphabet))]
    cells = [[rng.choice(chars) for _ in range(shape.width)] for _ in range(shape.height)]
    spots = _distinct_spots(rng, shape)
    _settle(rng, chars, cells, spots, shape)
    token = {c: t for c, t in zip(chars, shape.alphabet, strict=True)}
    grid = tuple(tuple(token[c] for c in r) for r in cells)
    named = zip(labels(shape.targets), spots, strict=True)
    targets = {label: _cut(grid, spot, shape) for label, spot in named}
    return grid, targets


def _settle(
    rng: SeededRng,
    chars: list[str],
    cells: list[list[str]],
    spots: list[tuple[int, int]],
    shape: Shape,
) -> None:
    """Re-draw stray occurrences in place until there are none, within the work bounds."""
    redrawn = 0
    for _ in range(_MAX_SCANS):
        dupes = _duplicate_cells(["".join(r) for r in cells], spots, shape)
        if not dupes:
            return
        redrawn += len(dupes)
        if redrawn > _MAX_REDRAWN:
            break
        for row, col in dupes:
            cells[row][col] = rng.choice(chars)
    raise InvalidCommand(
        "cannot_generate",
        "no grid with every target exactly once within the generator's work bound: "
        "use larger targets, fewer targets or more symbols",
    )


def _distinct_spots(rng: SeededRng, shape: Shape) -> list[tuple[int, int]]:
    rows = shape.height - shape.target_height + 1
    cols = shape.width - shape.target_width + 1
    if rows * cols < shape.targets:
        raise InvalidCommand("grid_too_small", "the grid cannot hold that many distinct targets")
    spots: list[tuple[int, int]] = []
    while len(spots) < shape.targets:
        spot = (rng.below(rows), rng.below(cols))
        if spot not in spots:
            spots.append(spot)
    return spots


def _cut(grid: Rows, spot: tuple[int, int], shape: Shape) -> Rows:
    row, col = spot
    return tuple(r[col : col + shape.target_width] for r in grid[row : row + shape.target_height])


def _duplicate_cells(
    rows: list[str], spots: list[tuple[int, int]], shape: Shape
) -> list[tuple[int, int]]:
    """For each target found anywhere but its own spot, one cell of that stray occurrence to
    re-draw, preferably outside every target's spot (targets are cut from the final grid, so
    re-drawing a spot's cell is allowed, it only converges more slowly)."""
    protected = {
        (r + i, c + j)
        for r, c in spots
        for i in range(shape.target_height)
        for j in range(shape.target_width)
    }
    text = "\n".join(rows)
    dupes: list[tuple[int, int]] = []
    for row, col in spots:
        target = [r[col : col + shape.target_width] for r in rows[row : row + shape.target_height]]
        for found in _scan(text, target, shape.width):
            if found != (row, col):
                dupes.append(_free_cell(found, protected, shape))
    return dupes


def _scan(text: str, target: list[str], width: int) -> Iterator[tuple[int, int]]:
    """Every (row, col) where ``target`` occurs in ``text`` (the grid's rows joined by newlines,
    which no symbol's character is), row-major: what :func:`find_all` gives, with the whole
    search done by the regular-expression engine (one overlapping look-ahead per position)."""
    gap = f".{{{width + 1 - len(target[0])}}}"
    pattern = "(?=" + gap.join(re.escape(part) for part in target) + ")"
    for match in re.finditer(pattern, text, re.DOTALL):
        yield divmod(match.start(), width + 1)


def _free_cell(
    found: tuple[int, int], protected: set[tuple[int, int]], shape: Shape
) -> tuple[int, int]:
    cells = [
        (found[0] + i, found[1] + j)
        for i in range(shape.target_height)
        for j in range(shape.target_width)
    ]
    free = [cell for cell in cells if cell not in protected]
    return free[0] if free else cells[0]
