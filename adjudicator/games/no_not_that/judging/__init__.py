"""The judging library: category rules and prompt rules, chosen per round by ``kind``.

Everything here is pure; the dictionary arrives as data (a frozenset of upper-case words).
"""

from adjudicator.games.no_not_that.judging.categories import (
    CategoryRule,
    DictionaryWords,
    HostCategory,
    IntegerRange,
    Letters,
    Members,
)
from adjudicator.games.no_not_that.judging.prompts import (
    FormWord,
    HostPrompt,
    ProductTo,
    PromptRule,
    SumTo,
)
from adjudicator.games.no_not_that.judging.text import normalise

__all__ = [
    "CategoryRule",
    "DictionaryWords",
    "FormWord",
    "HostCategory",
    "HostPrompt",
    "IntegerRange",
    "Letters",
    "Members",
    "ProductTo",
    "PromptRule",
    "SumTo",
    "normalise",
]
