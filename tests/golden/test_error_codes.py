"""The one error table: reviewed as a golden file, complete (every code the code raises is in
it), and the README's table is generated from it."""

from __future__ import annotations

import ast
import json
from pathlib import Path

from api.http.error_codes import CODES, golden, markdown, with_table

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).with_name("error_codes.json")
RAISERS = {"InvalidCommand", "RuleViolation", "NotPermitted", "ApiError", "DomainError"}
PACKAGES = ("adjudicator", "events", "projections", "api")


def _trees() -> list[ast.AST]:
    return [
        ast.parse(path.read_text())
        for package in PACKAGES
        for path in (ROOT / package).rglob("*.py")
    ]


def _error_classes(trees: list[ast.AST]) -> set[str]:
    """The raisers and every class derived from one (by name, to a fixpoint)."""
    known = set(RAISERS)
    classes = [n for tree in trees for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    while True:
        more = {
            c.name
            for c in classes
            if c.name not in known and any(getattr(b, "id", None) in known for b in c.bases)
        }
        if not more:
            return known
        known |= more


def _raised_codes() -> set[str]:
    """Every literal code passed to an error constructor, or set as a class's ``code``."""
    trees = _trees()
    raisers = _error_classes(trees) | {"__init__"}
    return {code for tree in trees for node in ast.walk(tree) for code in _codes_in(node, raisers)}


def _codes_in(node: ast.AST, raisers: set[str]) -> set[str]:
    if isinstance(node, ast.Call):
        name = getattr(node.func, "id", getattr(node.func, "attr", None))
        literal = [a.value for a in node.args if isinstance(a, ast.Constant)]
        strings = [v for v in literal if isinstance(v, str)]
        if name in raisers and strings:
            return {strings[0]} if strings[0].isidentifier() else set()
    if isinstance(node, ast.Assign) and any(
        isinstance(t, ast.Name) and t.id == "code" for t in node.targets
    ):
        value = node.value
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return {value.value}
    return set()


def test_the_table_is_the_reviewed_golden_file() -> None:
    table = {code: {"status": e.status, "meaning": e.meaning} for code, e in CODES.items()}
    assert table == json.loads(GOLDEN.read_text())


def test_every_code_the_service_raises_is_in_the_table() -> None:
    missing = _raised_codes() - set(CODES) - {"store_error", "idempotent_replay"}
    assert not missing, f"codes without a row in api/http/error_codes.py: {sorted(missing)}"


def test_the_readme_error_table_is_generated_from_the_table() -> None:
    assert markdown() in (ROOT / "README.md").read_text()


def test_regenerating_the_readme_table_and_the_golden_file_changes_nothing() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert with_table(readme) == readme
    assert golden() == GOLDEN.read_text(encoding="utf-8")
    edited = readme.replace("| `wrong_round` | 409 |", "| `wrong_round` | 422 |")
    assert edited != readme and with_table(edited) == readme


def test_one_code_one_status() -> None:
    assert CODES["wrong_round"].status == 409
    assert CODES["invalid_request"].status == 422


def test_the_code_type_that_mypy_checks_raise_sites_against_is_the_table() -> None:
    from typing import get_args

    from adjudicator.kernel.errors import Code

    assert sorted(get_args(Code)) == sorted(CODES)
