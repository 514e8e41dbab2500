"""The word lists No, Not That! judges words against, loaded outside the pure rules.

Default: **ENABLE** (``enable1``: the Enhanced North American Benchmark LExicon, the public-domain
list built for word games), shipped in the package as ``api/service/data/enable1.txt.gz``; its
sha256 (of the uncompressed list, as published) is checked on every load.

Override: set ``ADJUDICATOR_WORDLIST`` (the service setting ``wordlist``) to the path of a
plain-text file, one word per line (blank lines and lines starting with ``#`` are skipped); that
list judges new matches instead, recorded by its file name and the sha256 of its bytes.

Each new match records the list that judges it (name and sha256) in its configuration
(``config.wordlist``), and a fold judges with the list its record names: ENABLE, the override
file, or ``web2``. Records made before lists were named have no ``wordlist``: they were judged by
``web2`` (Webster's Second International, 1934, public domain, from the PyPI package
``english-words``, MIT; its proper nouns left out), so that is what a setup without the field
means (:data:`WEB2`, its sha256 over the words sorted, lower case, one a line). A list is loaded
on first use. Words are returned upper-case, as the rules compare them.
"""

from __future__ import annotations

import gzip
import hashlib
import os
from collections.abc import Callable, Iterator, Mapping
from functools import cache
from importlib.resources import files
from pathlib import Path

from adjudicator.games.no_not_that.dictionary import Dictionaries, WordListRef, listing_sha256

ENV_VAR = "ADJUDICATOR_WORDLIST"
ENABLE = WordListRef(
    name="enable1", sha256="3f16130220645692ed49c7134e24a18504c2ca55b3c012f7290e3e77c63b1a89"
)
WEB2 = WordListRef(
    name="web2", sha256="2441bf70c0b13aca3d07cdaa32e0d512944ccb6567de8ec0775e6c5053b8f88f"
)


class WordListError(ValueError):
    """A packaged list does not have the sha256 it should (a damaged install)."""


def load_dictionaries(path: str | None = None) -> Dictionaries:
    """The list at ``path``, else at ``$ADJUDICATOR_WORDLIST``, else ENABLE, judges new matches;
    every list here is available to folds of older records by its sha256."""
    chosen = path or os.environ.get(ENV_VAR) or None
    current, words = _from_file(chosen) if chosen else (ENABLE, enable_words())
    loaders: dict[str, Callable[[], frozenset[str]]] = {
        ENABLE.sha256: enable_words,
        WEB2.sha256: web2_words,
    }
    return Dictionaries(current, words, _OnFirstUse(loaders), unrecorded=WEB2)


def load_words(path: str | None = None) -> frozenset[str]:
    """The words of the list that judges new matches (see :func:`load_dictionaries`)."""
    return load_dictionaries(path).words


def _from_file(path: str) -> tuple[WordListRef, frozenset[str]]:
    data = Path(path).read_bytes()
    ref = WordListRef(name=Path(path).name or "wordlist", sha256=hashlib.sha256(data).hexdigest())
    return ref, _words_of(data)


def _words_of(data: bytes) -> frozenset[str]:
    lines = data.decode("utf-8").splitlines()
    return frozenset(
        line.strip().upper() for line in lines if line.strip() and not line.startswith("#")
    )


@cache
def enable_words() -> frozenset[str]:
    """ENABLE, upper case, from the packaged copy (its sha256 checked)."""
    data = gzip.decompress(files("api.service").joinpath("data/enable1.txt.gz").read_bytes())
    if hashlib.sha256(data).hexdigest() != ENABLE.sha256:
        raise WordListError("the packaged ENABLE list does not have its published sha256")
    return _words_of(data)


@cache
def web2_words() -> frozenset[str]:
    """web2 of ``english-words``, proper nouns left out, upper case (what judged old records)."""
    from english_words import get_english_words_set

    words = frozenset(w.upper() for w in get_english_words_set(["web2"], alpha=True) if w.islower())
    if listing_sha256(words) != WEB2.sha256:
        raise WordListError("the installed english-words web2 list is not the one recorded")
    return words


class _OnFirstUse(Mapping[str, frozenset[str]]):
    """Lists by sha256, each loaded when a fold first asks for it."""

    def __init__(self, loaders: Mapping[str, Callable[[], frozenset[str]]]) -> None:
        self._loaders = loaders

    def __getitem__(self, sha256: str) -> frozenset[str]:
        return self._loaders[sha256]()

    def __iter__(self) -> Iterator[str]:
        return iter(self._loaders)

    def __len__(self) -> int:
        return len(self._loaders)
