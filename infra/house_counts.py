"""How many paths the house keeps for each concern, and how loosely its data is typed.

Run from a checkout's root: ``.venv/bin/python infra/house_counts.py [ROOT]`` (ROOT defaults
to this checkout; give another worktree to compare, e.g. one of an older commit). Counted from
the source with ``ast``, nothing imported:

* ``Any`` in annotations in the four packages (``adjudicator``, ``events``, ``projections``,
  ``api``);
* payload indexing in the rules: ``payload[...]`` and ``payload.get(...)`` in ``adjudicator/``;
* raise sites that name their error code as a string, and how many of them mypy checks against
  the one code type (``adjudicator.kernel.errors.Code``: every site, once the type exists);
* fold loops: functions that call a game's ``evolve`` inside a loop;
* command handlers: functions that both decide (``runner.run``/``game.decide``) and append to
  the store;
* append paths: functions of ``events/`` that insert into the ``events`` table (the match
  logs; until 2026-12-06 every ``append*`` function was counted, the transparency log's
  three among them); record parsers: modules of ``events/`` that read a record's lines (a
  ``loads`` or a ``LineReader``; ``records.py``, plain types, was counted before);
* name-prefix matches on event types: ``.type.startswith(`` anywhere in the packages.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

PACKAGES = ("adjudicator", "events", "projections", "api")
RAISERS = {"InvalidCommand", "RuleViolation", "NotPermitted", "DomainError", "TranscriptError"}


def modules(root: Path, package: str) -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted((root / package).rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"))


def annotation_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    for node in ast.walk(tree):
        if isinstance(node, ast.arg | ast.AnnAssign) and node.annotation is not None:
            yield node.annotation
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
            yield node.returns


def any_annotations(tree: ast.AST) -> int:
    return sum(
        1
        for note in annotation_nodes(tree)
        for node in ast.walk(note)
        if (isinstance(node, ast.Name) and node.id == "Any")
        or (isinstance(node, ast.Constant) and isinstance(node.value, str) and "Any" in node.value)
    )


def payload_indexing(tree: ast.AST) -> int:
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript) and _named(node.value, "payload"):
            count += 1
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            count += int(node.func.attr == "get" and _named(node.func.value, "payload"))
    return count


def _named(node: ast.AST, name: str) -> bool:
    return (isinstance(node, ast.Name) and node.id == name) or (
        isinstance(node, ast.Attribute) and node.attr == name
    )


def string_code_raises(tree: ast.AST) -> int:
    return sum(
        1
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and getattr(node.func, "id", getattr(node.func, "attr", None)) in RAISERS
        and node.args
        and isinstance(node.args[0], ast.Constant)
        and isinstance(node.args[0].value, str)
    )


def functions(tree: ast.AST) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The module's functions and methods (a function nested in one counts as part of it)."""
    body = tree.body if isinstance(tree, ast.Module) else []
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            yield node
        if isinstance(node, ast.ClassDef):
            yield from (
                n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            )


def _calls(node: ast.AST, *names: str) -> bool:
    for inner in ast.walk(node):
        if isinstance(inner, ast.Call):
            func = inner.func
            name = getattr(func, "attr", getattr(func, "id", None))
            if name in names:
                return True
    return False


def fold_loops(tree: ast.AST) -> list[str]:
    found = []
    for function in functions(tree):
        loops = [n for n in ast.walk(function) if isinstance(n, ast.For | ast.While)]
        if any(_calls(loop, "evolve") for loop in loops):
            found.append(function.name)
    return found


DECIDERS = (
    "run",
    "decide",
    "_decide",
    "_decided",
    "_decide_ruling",
    "decide_ruling",
    "decide_posts",
)


def _appends(function: ast.AST) -> bool:
    """Whether ``function`` appends to the store: ``….store.append(…)`` or an append helper."""
    for node in ast.walk(function):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "append":
            if _named(func.value, "store"):
                return True
        elif getattr(func, "attr", getattr(func, "id", None)) in ("_append", "append_async"):
            return True
    return False


def command_handlers(tree: ast.AST) -> list[str]:
    """Functions that decide and append (by the names the service uses for each), or that
    build an event and append it: each assembles load, decide, append and retry."""
    return [
        f.name
        for f in functions(tree)
        if _appends(f) and (_calls(f, *DECIDERS) or _calls(f, "new_event", "NewEvent"))
    ]


def prefix_matches(tree: ast.AST) -> int:
    return sum(
        1
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "startswith"
        and isinstance(node.func.value, ast.Attribute)
        and node.func.value.attr == "type"
    )


def _sql_constants(tree: ast.Module, start: str) -> set[str]:
    """Names of the module's string constants whose SQL begins with ``start``."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant):
            text = node.value.value
            if isinstance(text, str) and start in text:
                names |= {t.id for t in node.targets if isinstance(t, ast.Name)}
    return names


def _writes_events(function: ast.AST, statements: set[str]) -> bool:
    """Whether ``function`` inserts into the ``events`` table: ``insert(events)`` or one of
    the module's ``INSERT INTO events`` statements."""
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id in statements:
            return True
        call = isinstance(node, ast.Call) and _named(node.func, "insert") and node.args
        if call and _named(node.args[0], "events"):  # type: ignore[attr-defined]
            return True
    return False


def append_paths(root: Path) -> list[str]:
    """Functions of ``events/`` that insert events (into the ``events`` table): the match
    logs' appends. (The transparency log's leaves and a tournament's stream are other logs.)"""
    found = []
    for path, tree in modules(root, "events"):
        statements = _sql_constants(tree, "INSERT INTO events")
        top = [f for f in tree.body if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef)]
        found += [f"{path.stem}.{f.name}" for f in top if _writes_events(f, statements)]
    return found


def record_parsers(root: Path) -> list[str]:
    """Modules of ``events/`` that read a record's lines (a ``loads`` or a line reader)."""
    found = []
    for path, tree in modules(root, "events"):
        names = {n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.ClassDef)}
        if names & {"loads", "LineReader"}:
            found.append(path.stem)
    return found


def checked_by_type(root: Path) -> bool:
    errors = (root / "adjudicator" / "kernel" / "errors.py").read_text(encoding="utf-8")
    return "def __init__(self, code: Code" in errors


def main() -> None:
    root = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parents[1]
    trees = [(p, t) for package in PACKAGES for p, t in modules(root, package)]
    rules = [t for p, t in trees if p.relative_to(root).parts[0] == "adjudicator"]
    raises = sum(string_code_raises(t) for _, t in trees)
    folds = [f"{p.stem}.{n}" for p, t in trees for n in fold_loops(t)]
    handlers = [f"{p.stem}.{n}" for p, t in trees for n in command_handlers(t)]
    appends, parsers = append_paths(root), record_parsers(root)
    rows = [
        ("Any in annotations (four packages)", str(sum(any_annotations(t) for _, t in trees))),
        ("payload[...] / payload.get in adjudicator/", str(sum(map(payload_indexing, rules)))),
        ("raise sites with a string code", str(raises)),
        (
            "  of them checked by mypy against one code type",
            str(raises if checked_by_type(root) else 0),
        ),
        ("event type matched by name prefix", str(sum(prefix_matches(t) for _, t in trees))),
        ("fold loops (evolve in a loop)", f"{len(folds)}: {', '.join(folds)}"),
        ("decide + append in one function", f"{len(handlers)}: {', '.join(handlers)}"),
        ("append paths in events/", f"{len(appends)}: {', '.join(appends)}"),
        ("record parsers in events/", f"{len(parsers)}: {', '.join(parsers)}"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:{width}}  {value}")


if __name__ == "__main__":
    main()
