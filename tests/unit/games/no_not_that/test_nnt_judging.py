"""The judging library: category rules and prompt rules, with their parameters."""

from __future__ import annotations

import pytest
from pydantic import TypeAdapter

from adjudicator.games.no_not_that.judging import (
    CategoryRule,
    DictionaryWords,
    FormWord,
    IntegerRange,
    Letters,
    Members,
    ProductTo,
    PromptRule,
    SumTo,
    normalise,
)

WORDS = frozenset({"WHIZ", "CAT", "HYMN", "QUEUE"})


def test_normal_form_of_objects() -> None:
    assert [normalise(v) for v in ["q", "  big   cat ", "+07", "-0", "", "x" * 33]] == [
        "Q",
        "BIG CAT",
        "7",
        "0",
        None,
        None,
    ]


@pytest.mark.parametrize(
    ("rule", "fits", "misfits"),
    [
        (Letters(), ["A", "Y", "Z"], ["AB", "1", "É"]),
        (Letters(letters="consonants"), ["B", "Y"], ["A", "U"]),
        (Letters(letters="vowels"), ["A", "E", "I", "O", "U"], ["Y", "B"]),
        (Letters(letters="consonants", exclude=("y", "Z")), ["B"], ["Y", "Z", "A"]),
        (IntegerRange(minimum=-5, maximum=20), ["-5", "0", "20"], ["21", "-6", "2.5", "TEN"]),
        (Members(members=("Oak", "big  pine")), ["OAK", "BIG PINE"], ["ELM"]),
        (DictionaryWords(min_length=3, max_length=4), ["CAT", "WHIZ"], ["QUEUE", "ZZZ"]),
    ],
)
def test_category_rules(rule: Letters, fits: list[str], misfits: list[str]) -> None:
    assert all(rule.fits(v, WORDS) is True for v in fits)
    assert all(rule.fits(v, WORDS) is False for v in misfits)


def test_the_host_category_leaves_it_to_the_host() -> None:
    rule = TypeAdapter(CategoryRule).validate_python({"kind": "host"})
    assert rule.fits("ANYTHING", WORDS) is None


def test_form_a_word_with_length_and_vowel_counts() -> None:
    rule = FormWord(length=4, vowels=1, free_letters="AEIOU")
    assert rule.free == frozenset("AEIOU")
    assert rule.meets(["W", "H", "I", "Z"], WORDS) is True
    assert rule.meets(["C", "A", "T"], WORDS) is False
    assert FormWord(min_vowels=2).meets(["QUEUE"], WORDS) is True
    assert FormWord(max_vowels=0).meets(["H", "Y", "M", "N"], WORDS) is True
    assert FormWord(min_length=5).meets(["CAT"], WORDS) is False
    assert FormWord(in_dictionary=False, length=3).meets(["X", "Y", "Z"], WORDS) is True


def test_sum_and_product_prompts() -> None:
    assert SumTo(target=10).meets(["3", "7"], WORDS) is True
    assert SumTo(target=10).meets(["10"], WORDS) is False  # at least two numbers
    assert SumTo(target=10, min_objects=1).meets(["10"], WORDS) is True
    assert SumTo(target=10).meets(["3", "SEVEN"], WORDS) is False
    assert ProductTo(target=24).meets(["2", "3", "4"], WORDS) is True
    assert ProductTo(target=24).meets(["5", "5"], WORDS) is False


def test_rules_are_chosen_by_kind_with_parameters() -> None:
    prompt = TypeAdapter(PromptRule).validate_python({"kind": "product", "target": 6})
    assert isinstance(prompt, ProductTo)
    host = TypeAdapter(PromptRule).validate_python({"kind": "host"})
    assert host.meets(["X"], WORDS) is None
    with pytest.raises(ValueError):
        TypeAdapter(CategoryRule).validate_python({"kind": "colours"})
