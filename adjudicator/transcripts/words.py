"""Text clean-up shared by the per-game post parsers: chat decoration out, words in."""

from __future__ import annotations

import re

_MARKUP = re.compile(r"<[@#:a!&][^>]*>|:[a-z_][a-z0-9_+-]+:(?!\d)", re.IGNORECASE)
_NOT_WORD = re.compile(r"[^0-9a-z:,;=@'\-\s]")


def clean(text: str) -> str:
    """Lower case, mentions and custom or short-code emoji removed, and every character that
    is not a letter, digit, space or one of ``: , ; = @ ' -`` dropped (unicode emoji, markup)."""
    text = _MARKUP.sub(" ", text.replace("\u2019", "'")).lower()
    return " ".join(_NOT_WORD.sub(" ", text).split())


def words(text: str) -> list[str]:
    """The post's words: letters and digits only, separators gone."""
    return re.findall(r"[0-9a-z]+", clean(text))


def is_phrase(found: list[str], needed: set[str], allowed: set[str]) -> bool:
    """Whether ``found`` holds a word of ``needed`` and nothing outside ``needed | allowed``."""
    return bool(found) and any(w in needed for w in found) and set(found) <= needed | allowed


_FENCED = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
_INLINE = re.compile(r"`[^`\n]*`")


def without_code(text: str) -> str:
    """The text with its code (fenced ```blocks``` and `inline` spans) taken out: a grid or a
    pasted log in a code block is never read as a command. An unclosed fence runs to the end."""
    return _INLINE.sub(" ", _FENCED.sub("\n", text))


def lines_of(text: str) -> list[list[str]]:
    """The words of each line that has any, code taken out first."""
    found = (words(line) for line in without_code(text).split("\n"))
    return [line for line in found if line]
