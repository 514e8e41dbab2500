"""What the three phrasing tables share: a row, the check of a reading against what a row
expects, the table's size and ids, and the grammar a reader's docstring and its page show."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from adjudicator.transcripts.reading import CHATTER, Reading

NEAR = "near miss"
CHAT = "chatter"
DOCS = Path(__file__).resolve().parents[3] / "docs" / "transcripts"


def row(
    name: str,
    text: str,
    expected: dict[str, Any] | str,
    role: str = "seat",
    hint: dict[str, Any] | None = None,
) -> Any:
    """One phrasing: what ``text`` posted by ``role`` (with the state ``hint``) must become."""
    return pytest.param(text, role, hint, expected, id=name)


def check(reading: Reading, expected: dict[str, Any] | str) -> None:
    """``reading`` is what the row expects: a near miss, chatter, or exactly that command."""
    if expected == NEAR:
        assert reading.body is None and reading.near, reading
    elif expected == CHAT:
        assert reading == CHATTER, reading
    else:
        assert (reading.body, reading.near) == (expected, None), reading


def check_table(rows: Sequence[Any]) -> None:
    """At least 80 rows, each with its own id."""
    ids = [param.id for param in rows]
    assert len(ids) >= 80
    assert len(set(ids)) == len(ids)


def grammar(doc: str) -> str:
    """The indented grammar block that follows the docstring's ``::``, dedented."""
    block = doc.split("::\n\n", 1)[1].split("\n")
    end = next((i for i, line in enumerate(block) if line and not line.startswith("    ")), None)
    return textwrap.dedent("\n".join(block[:end])).strip("\n")


def check_page(doc: str | None, page: str) -> None:
    """The docs page ``page`` shows the reader's docstring grammar word for word."""
    assert doc is not None
    said = grammar(doc)
    assert said.count("\n") > 20
    assert f"```text\n{said}\n```" in (DOCS / page).read_text(encoding="utf-8")
