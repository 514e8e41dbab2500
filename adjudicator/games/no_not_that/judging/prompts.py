"""Prompt rules: when a group of objects meets the round's prompt.

``meets(parts, words)`` receives the solution as the strings it is made of, in order (free letters
and object values), and answers True, False, or None when only the host can say.
"""

from __future__ import annotations

from math import prod
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from adjudicator.games.no_not_that.judging.text import as_integer, vowel_count
from adjudicator.kernel.numbers import Int, NotBoolean


class _Rule(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    @property
    def free(self) -> frozenset[str]:
        """Tokens taken as free letters rather than objects."""
        return frozenset()


class FormWord(_Rule):
    """Spell a word from free letters (any number of times) and objects (each once, as letters)."""

    kind: Literal["word"] = "word"
    length: Annotated[int, Field(ge=1), NotBoolean] | None = None
    min_length: Annotated[int, Field(ge=1), NotBoolean] | None = None
    max_length: Annotated[int, Field(ge=1), NotBoolean] | None = None
    vowels: Annotated[int, Field(ge=0), NotBoolean] | None = None
    min_vowels: Annotated[int, Field(ge=0), NotBoolean] | None = None
    max_vowels: Annotated[int, Field(ge=0), NotBoolean] | None = None
    free_letters: str = ""
    in_dictionary: bool = True

    @property
    def free(self) -> frozenset[str]:
        return frozenset(self.free_letters.upper()) - {" "}

    def meets(self, parts: list[str], words: frozenset[str]) -> bool | None:
        word = "".join(parts)
        if self.in_dictionary and word not in words:
            return False
        return _within(len(word), self.length, self.min_length, self.max_length) and _within(
            vowel_count(word), self.vowels, self.min_vowels, self.max_vowels
        )


class _NumbersTo(_Rule):
    """Numbers (at least ``min_objects`` of them) that combine to ``target``."""

    target: Int
    min_objects: Int = Field(default=2, ge=1)

    def combine(self, numbers: list[int]) -> int:
        raise NotImplementedError

    def meets(self, parts: list[str], words: frozenset[str]) -> bool | None:
        numbers = _numbers(parts)
        if numbers is None or len(numbers) < self.min_objects:
            return False
        return self.combine(numbers) == self.target


class SumTo(_NumbersTo):
    """Numbers (at least ``min_objects`` of them) that add up to ``target``."""

    kind: Literal["sum"] = "sum"

    def combine(self, numbers: list[int]) -> int:
        return sum(numbers)


class ProductTo(_NumbersTo):
    """Numbers (at least ``min_objects`` of them) whose product is ``target``."""

    kind: Literal["product"] = "product"

    def combine(self, numbers: list[int]) -> int:
        return prod(numbers)


class HostPrompt(_Rule):
    """The host decides whether the solution meets the prompt."""

    kind: Literal["host"] = "host"

    def meets(self, parts: list[str], words: frozenset[str]) -> bool | None:
        return None


PromptRule = Annotated[FormWord | SumTo | ProductTo | HostPrompt, Field(discriminator="kind")]


def _within(value: int, exact: int | None, low: int | None, high: int | None) -> bool:
    if exact is not None and value != exact:
        return False
    return (low is None or value >= low) and (high is None or value <= high)


def _numbers(parts: list[str]) -> list[int] | None:
    numbers = [as_integer(part) for part in parts]
    return None if None in numbers else [n for n in numbers if n is not None]
