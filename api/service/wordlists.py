"""The dictionary No, Not That! judges words against, loaded outside the pure rules.

Default: the ``web2`` list (Webster's Second International, 1934, public domain; the dictionary
file FreeBSD ships) from the PyPI package ``english-words`` (MIT licence,
github.com/mwiens91/english-words-py). Proper nouns (capitalised entries) are left out, so the
list behaves like a Scrabble-style list of common words.

Override: set ``ADJUDICATOR_WORDLIST`` (the service setting ``wordlist``) to the path of a
plain-text file, one word per line (blank lines and lines starting with ``#`` are skipped); that
list replaces the default.
Words are returned upper-case, as the rules compare them.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

ENV_VAR = "ADJUDICATOR_WORDLIST"


def load_words(path: str | None = None) -> frozenset[str]:
    """The word list at ``path``, else at ``$ADJUDICATOR_WORDLIST``, else the packaged default."""
    chosen = path or os.environ.get(ENV_VAR) or None
    return _from_file(chosen) if chosen else _packaged()


def _from_file(path: str) -> frozenset[str]:
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return frozenset(
        line.strip().upper() for line in lines if line.strip() and not line.startswith("#")
    )


@lru_cache(maxsize=1)
def _packaged() -> frozenset[str]:
    from english_words import get_english_words_set

    words = get_english_words_set(["web2"], alpha=True)
    return frozenset(word.upper() for word in words if word.islower())
