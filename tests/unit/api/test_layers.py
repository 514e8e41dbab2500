"""api/ is three layers, each importing only the ones below it: the service layer knows no HTTP
(no fastapi, starlette or httpx, and nothing of api.http or api.cli), the HTTP layer never
imports the command line. Checked on the source (every import statement, lazy ones included)
and on what importing the service layer actually loads."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

API = Path(__file__).resolve().parents[3] / "api"
HTTP_LIBRARIES = ("fastapi", "starlette", "httpx", "uvicorn", "fastapi_offline")
BANNED = {
    "service": (*HTTP_LIBRARIES, "api.http", "api.cli"),
    "http": ("api.cli",),
}


def imported(path: Path) -> set[str]:
    """Every module an ``import`` or ``from … import`` in the file names (absolute imports)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names |= {f"{node.module}.{alias.name}" for alias in node.names}
    return names


def banned_in(name: str, banned: tuple[str, ...]) -> bool:
    return any(name == b or name.startswith(b + ".") for b in banned)


@pytest.mark.parametrize("layer", sorted(BANNED))
def test_a_layer_imports_nothing_above_it(layer: str) -> None:
    found = {
        f"{path.relative_to(API.parent)}: {name}"
        for path in sorted((API / layer).rglob("*.py"))
        for name in imported(path)
        if banned_in(name, BANNED[layer])
    }
    assert not found, f"api/{layer}/ imports what it may not: {sorted(found)}"


def test_no_relative_imports_hide_from_the_check() -> None:
    relative = [
        str(path.relative_to(API.parent))
        for path in API.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.level > 0
    ]
    assert not relative


def test_the_service_layer_loads_no_http_library() -> None:
    modules = sorted(
        "api.service." + path.stem
        for path in (API / "service").glob("*.py")
        if path.stem != "__init__"
    )
    probe = (
        "import importlib, sys\n"
        f"for name in {modules!r}: importlib.import_module(name)\n"
        f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HTTP_LIBRARIES!r}))\n"
    )
    root = str(API.parent)
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=root
    )
    assert loaded.stdout.strip() == "[]", loaded.stdout
