"""Which word list judges a match: named in its setup, handed to the rules as data.

A match's configuration records the list it is judged with (``wordlist``: a name and the sha256
of the list), so a verifier knows which list judged and re-folds with the same one. The rules
never read a file: :class:`Dictionaries` holds the list new matches are judged with and, by
sha256, the other lists older records may name (the service loads them; a mapping may load on
first use). A configuration without ``wordlist`` was recorded before lists were named: it means
``unrecorded`` (the service says which list that was: web2), or, when no such list is given
(tests building a game from a few words), the current list.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict, Field

from adjudicator.kernel.errors import InvalidCommand


class WordListRef(BaseModel):
    """A word list as a match's setup records it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: str = Field(min_length=1, max_length=200)
    sha256: str = Field(pattern="^[0-9a-f]{64}$")


def listing_sha256(words: frozenset[str]) -> str:
    """The sha256 of a list given only as words: sorted, lower case, one a line (LF)."""
    text = "".join(f"{word}\n" for word in sorted(word.lower() for word in words))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Dictionaries:
    """The list new matches are judged with (``current``, its upper-case ``words``), the other
    lists by sha256 (``others``) and the list a setup without ``wordlist`` means."""

    current: WordListRef
    words: frozenset[str]
    others: Mapping[str, frozenset[str]] = field(default_factory=dict)
    unrecorded: WordListRef | None = None

    @classmethod
    def of(cls, words: frozenset[str]) -> Dictionaries:
        """A single list given as words (named ``given``; its sha256 from its sorted words)."""
        upper = frozenset(word.upper() for word in words)
        return cls(WordListRef(name="given", sha256=listing_sha256(upper)), upper)

    def words_for(self, ref: WordListRef | None) -> frozenset[str]:
        """The words of the list ``ref`` names; ``unknown_wordlist`` when none is here."""
        chosen = ref or self.unrecorded
        if chosen is None or chosen.sha256 == self.current.sha256:
            return self.words
        found = self.others.get(chosen.sha256)
        if found is None:
            raise InvalidCommand("unknown_wordlist", self._missing(chosen))
        return found

    def _missing(self, ref: WordListRef) -> str:
        here = ", ".join(sorted({self.current.sha256, *self.others}))
        return (
            f"no word list here has sha256 {ref.sha256} ({ref.name}); the lists here have"
            f" sha256 {here} (ADJUDICATOR_WORDLIST names a list file)"
        )
