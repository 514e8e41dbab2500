"""A piece's movement pattern as a player reads it: its name and the cells it designates.

A value's pattern is the union of the base patterns of its units and tens digits (spec 4.2, P.1).
The console draws each piece as a small grid of those cells, as Ludii's piece artwork does, with
leaps (fixed offsets) told apart from slides (line-of-sight rays). This is a description of the
value alone, on an open board: what a player needs to read a piece, never a rule's answer.
"""

from __future__ import annotations

from typing import Any

from adjudicator.games.zombego.board import LEAPS, SLIDES, codes

_NAMES: dict[int, tuple[str, ...]] = {
    0: ("king",),
    1: ("ferz",),
    2: ("alfil",),
    3: ("tripper",),
    4: ("bishop",),
    5: ("knight",),
    6: ("wazir",),
    7: ("dabbaba",),
    8: ("threeleaper",),
    9: ("rook",),
    10: ("dabbaba", "alfil"),
}
_ORDER = [
    "king",
    "ferz",
    "wazir",
    "alfil",
    "dabbaba",
    "knight",
    "tripper",
    "threeleaper",
    "bishop",
    "rook",
    "queen",
]


def pattern_name(value: int) -> str:
    """The base patterns a value combines, shortest steps first (``king + alfil`` for 2).

    A king's step already holds the ferz's and the wazir's, so they are not named beside it, and
    a ferz and a wazir together are a king (value 16); a bishop and a rook are a queen (49).
    """
    names = {name for code in set(codes(value)) for name in _NAMES.get(code, ())}
    if {"ferz", "wazir"} <= names:
        names.add("king")
    if "king" in names:
        names -= {"ferz", "wazir"}
    if {"bishop", "rook"} <= names:
        names = names - {"bishop", "rook"} | {"queen"}
    return " + ".join(sorted(names, key=_ORDER.index))


def describe(value: int) -> dict[str, Any]:
    """A value's pattern, JSON-ready: its name, leap offsets ``[dx, dy]`` and slide directions."""
    leaps: set[tuple[int, int]] = set()
    slides: set[tuple[int, int]] = set()
    for code in set(codes(value)):
        slides.update(SLIDES.get(code, ()))
        leaps.update(LEAPS.get(code, frozenset()))
    return {
        "value": value,
        "name": pattern_name(value),
        "leaps": [list(offset) for offset in sorted(leaps)],
        "slides": [list(direction) for direction in sorted(slides)],
    }
