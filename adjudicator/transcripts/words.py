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


def markup_out(text: str) -> str:
    """The text with mentions of users, channels and roles, and custom or short-code emoji,
    taken out (case kept)."""
    return _MARKUP.sub(" ", text)


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


def spoken_lines(text: str) -> list[str]:
    """The post's lines in the poster's own words: code taken out, quoted lines (``> …``)
    skipped, and nothing after a ``>>>`` block quote (the rest of the post is quoted)."""
    found: list[str] = []
    for raw in without_code(text).split("\n"):
        start = raw.lstrip()
        if start.startswith(">>>") and start[3:4] in ("", " "):
            break
        if not (start.startswith(">") and start[1:2] in ("", " ")):
            found.append(raw)
    return found


def mention(keep: str | None = None) -> re.Pattern[str]:
    """A mention as an export writes it, ``@name`` up to the next space; with ``keep`` (a
    pattern of the game's cells) an ``@`` before a cell is not a mention (``A @c4``)."""
    unless = "" if keep is None else rf"(?!(?:{keep})\b)"
    return re.compile(rf"(?<!\S)@{unless}\S+", re.IGNORECASE)


_ASKS = re.compile(r"\?[^0-9a-z]*$", re.IGNORECASE)


def asks(line: str) -> bool:
    """Whether a line ends in a question mark (emoji, mentions and markup after it aside)."""
    return _ASKS.search(_MARKUP.sub(" ", line)) is not None
