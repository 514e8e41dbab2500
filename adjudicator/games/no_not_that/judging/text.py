"""How objects are written: one canonical form so that "q", " Q " and "Q" are the same object."""

from __future__ import annotations

import re

VOWELS = frozenset("AEIOU")
MAX_OBJECT_LENGTH = 32
_INTEGER = re.compile(r"[+-]?\d+")
_SPACES = re.compile(r"\s+")


def normalise(raw: str) -> str | None:
    """The canonical form of an object, or None when it is not a sane object.

    Letters are upper-cased and runs of white space collapse to one space; an integer literal is
    written without sign noise or leading zeros (``+07`` is ``7``).
    """
    text = _SPACES.sub(" ", raw.strip()).upper()
    if not text or len(text) > MAX_OBJECT_LENGTH or not text.isprintable():
        return None
    if _INTEGER.fullmatch(text):
        return str(int(text))
    return text


def as_integer(value: str) -> int | None:
    return int(value) if _INTEGER.fullmatch(value) else None


def vowel_count(word: str) -> int:
    return sum(1 for letter in word if letter in VOWELS)
