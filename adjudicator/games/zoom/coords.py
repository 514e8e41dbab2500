"""Spreadsheet coordinates: column letters (a…z, aa, ab…) then a 1-based row number, like ``c4``.

Case-insensitive on input, lower-case on output. Internally a cell is ``(row, col)``, 0-based.
"""

from __future__ import annotations

import re
from functools import lru_cache

from adjudicator.kernel.errors import InvalidCommand

_COORD = re.compile(r"^([a-z]{1,3})([1-9][0-9]{0,3})$")


def column_index(letters: str) -> int:
    """``a`` -> 0, ``z`` -> 25, ``aa`` -> 26 (bijective base 26)."""
    value = 0
    for char in letters:
        value = value * 26 + (ord(char) - ord("a") + 1)
    return value - 1


def column_letters(index: int) -> str:
    letters = ""
    index += 1
    while index > 0:
        index, rem = divmod(index - 1, 26)
        letters = chr(ord("a") + rem) + letters
    return letters


def parse(text: str) -> tuple[int, int]:
    """``"C4"`` -> ``(3, 2)``; raises ``malformed_coordinate`` on anything else."""
    cell = _cell(text) if isinstance(text, str) else None
    if cell is None:
        raise InvalidCommand(
            "malformed_coordinate",
            f"{text!r} is not a coordinate: write column letters then a row number, like c4",
        )
    return cell


@lru_cache(maxsize=4096)  # a fold reads the same few hundred cells again and again
def _cell(text: str) -> tuple[int, int] | None:
    match = _COORD.match(text.strip().lower())
    return None if match is None else (int(match.group(2)) - 1, column_index(match.group(1)))


def format_cell(row: int, col: int) -> str:
    return f"{column_letters(col)}{row + 1}"
