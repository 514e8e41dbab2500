"""The word lists: ENABLE ships in the package and judges by default, a file can replace it,
web2 still judges the records made before lists were named, and each list is known by its
sha256."""

from __future__ import annotations

import fnmatch
import hashlib
import tomllib
from pathlib import Path

import pytest

from adjudicator.games.no_not_that.dictionary import Dictionaries, WordListRef
from adjudicator.kernel.errors import InvalidCommand
from api.service import wordlists
from api.service.wordlists import ENABLE, ENV_VAR, WEB2, load_dictionaries, load_words

ROOT = Path(__file__).resolve().parents[3]
PACKAGED = ROOT / "api" / "service" / "data" / "enable1.txt.gz"


def test_the_default_list_is_enable_with_its_published_size_and_sha256() -> None:
    dictionaries = load_dictionaries()
    assert dictionaries.current == ENABLE
    assert ENABLE.sha256 == "3f16130220645692ed49c7134e24a18504c2ca55b3c012f7290e3e77c63b1a89"
    assert len(dictionaries.words) == 172_823
    assert {"WHIZ", "QUIZ", "CAT", "HYMN", "ZYZZYVA"} <= dictionaries.words
    assert "XQZW" not in dictionaries.words


def test_enable_is_package_data_so_an_installed_wheel_has_it() -> None:
    assert PACKAGED.is_file()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = project["tool"]["setuptools"]["package-data"]["api.service"]
    assert any(fnmatch.fnmatch("data/enable1.txt.gz", pattern) for pattern in patterns)


def test_web2_is_what_a_setup_without_a_list_means_and_it_differs_from_enable() -> None:
    dictionaries = load_dictionaries()
    assert dictionaries.unrecorded == WEB2
    web2 = dictionaries.words_for(None)
    assert web2 == wordlists.web2_words() != dictionaries.words
    assert "ZYZZYVA" not in web2  # in ENABLE only: the list that judged decides the verdict
    assert dictionaries.words_for(ENABLE) is dictionaries.words


def test_a_file_replaces_the_default_and_is_named_by_its_bytes(tmp_path: Path) -> None:
    listing = tmp_path / "house.txt"
    listing.write_text("# house list\nzyzzy\n\n  Whiz \n", encoding="utf-8")
    dictionaries = load_dictionaries(str(listing))
    assert dictionaries.words == frozenset({"ZYZZY", "WHIZ"})
    assert dictionaries.current == WordListRef(
        name="house.txt", sha256=hashlib.sha256(listing.read_bytes()).hexdigest()
    )
    assert dictionaries.words_for(ENABLE) == wordlists.enable_words()  # older matches still fold


def test_the_environment_names_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    listing = tmp_path / "words.txt"
    listing.write_text("alpha\nbeta\n", encoding="utf-8")
    monkeypatch.setenv(ENV_VAR, str(listing))
    assert load_words() == frozenset({"ALPHA", "BETA"})
    assert load_dictionaries().current.name == "words.txt"


def test_a_list_that_is_not_here_is_refused_with_its_sha256() -> None:
    missing = WordListRef(name="sowpods", sha256="0" * 64)
    with pytest.raises(InvalidCommand) as refused:
        load_dictionaries().words_for(missing)
    assert refused.value.code == "unknown_wordlist"
    assert "0" * 64 in refused.value.message and ENABLE.sha256 in refused.value.message


def test_a_few_given_words_judge_every_setup_with_or_without_a_list() -> None:
    given = Dictionaries.of(frozenset({"cat"}))
    assert given.words_for(None) == frozenset({"CAT"}) == given.words_for(given.current)
