"""Golden match records (``<game>/*.match.jsonl``, made by ``infra/golden/make_golden.py``) still
verify offline under the current rules: chain, commitments, and the re-folded result. A rules
change that alters a finished result fails here."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest

from adjudicator import registry
from adjudicator.kernel.decider import Game
from api.service.audit import verify_text
from api.service.wordlists import load_dictionaries

HERE = Path(__file__).parent
RECORDS = sorted(HERE.glob("*/*.match.jsonl"))
GAMES = registry.games(load_dictionaries())


def test_every_game_has_a_golden_record() -> None:
    assert {path.parent.name for path in RECORDS} == set(GAMES)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_golden_record_verifies_and_refolds_to_its_recorded_result(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    closed = json.loads(text.splitlines()[-1])
    assert closed["type"] == "match.closed" and closed["payload"]["result"] is not None

    report = verify_text(text, GAMES)

    assert report.ok, json.dumps(report.as_json(), indent=2)
    assert [c.name for c in report.checks] == ["chain", "commitments", "header", "refold"]


class ChangedRules:
    """The same game, except that its rules now decide a different result."""

    def __init__(self, game: Game[Any, Any], rules_version: str) -> None:
        self._game, self.rules_version = game, rules_version

    def __getattr__(self, name: str) -> Any:
        return getattr(self._game, name)

    def result(self, state: Any) -> dict[str, Any] | None:
        return {"winner": None, "reason": "changed_rules"}


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_rules_that_change_a_finished_result_fail_the_refold(path: Path) -> None:
    game = GAMES[path.parent.name]
    changed = {game.name: cast(Game[Any, Any], ChangedRules(game, "next"))}

    report = verify_text(path.read_text(encoding="utf-8"), changed)

    refold = report.checks[-1]
    assert (refold.name, refold.ok, report.ok) == ("refold", False, False)
    assert "changed_rules" in refold.detail
    assert f"recorded under {game.rules_version}" in refold.detail
