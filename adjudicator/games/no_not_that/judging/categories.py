"""Category rules: which objects may be submitted in a round.

Each rule answers ``fits(value, words)`` with True, False, or None when only the host can say.
Values are already in canonical form (see :mod:`.text`); ``words`` is the upper-case dictionary.
"""

from __future__ import annotations

import string
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from adjudicator.games.no_not_that.judging.text import VOWELS, as_integer, normalise
from adjudicator.kernel.numbers import Int, NotBoolean


class _Rule(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Letters(_Rule):
    """Single letters: all, consonants or vowels (A E I O U; Y is a consonant), less ``exclude``."""

    kind: Literal["letters"] = "letters"
    letters: Literal["all", "consonants", "vowels"] = "all"
    exclude: tuple[str, ...] = ()

    def fits(self, value: str, words: frozenset[str]) -> bool | None:
        if len(value) != 1 or value not in string.ascii_uppercase:
            return False
        if value in {letter.upper() for letter in self.exclude}:
            return False
        if self.letters == "vowels":
            return value in VOWELS
        return self.letters == "all" or value not in VOWELS


class IntegerRange(_Rule):
    """Whole numbers from ``minimum`` to ``maximum`` inclusive."""

    kind: Literal["integers"] = "integers"
    minimum: Int
    maximum: Int

    def fits(self, value: str, words: frozenset[str]) -> bool | None:
        number = as_integer(value)
        return number is not None and self.minimum <= number <= self.maximum


class Members(_Rule):
    """Members of an explicit list (compared in canonical form)."""

    kind: Literal["list"] = "list"
    members: tuple[str, ...] = Field(min_length=1)

    def fits(self, value: str, words: frozenset[str]) -> bool | None:
        return value in {normalise(member) for member in self.members}


class DictionaryWords(_Rule):
    """Words of the dictionary, optionally bounded in length."""

    kind: Literal["words"] = "words"
    min_length: Int = Field(default=1, ge=1)
    max_length: Annotated[int, Field(ge=1), NotBoolean] | None = None

    def fits(self, value: str, words: frozenset[str]) -> bool | None:
        too_long = self.max_length is not None and len(value) > self.max_length
        return value in words and len(value) >= self.min_length and not too_long


class HostCategory(_Rule):
    """The host decides every object (duplicates are still found automatically)."""

    kind: Literal["host"] = "host"

    def fits(self, value: str, words: frozenset[str]) -> bool | None:
        return None


CategoryRule = Annotated[
    Letters | IntegerRange | Members | DictionaryWords | HostCategory,
    Field(discriminator="kind"),
]
