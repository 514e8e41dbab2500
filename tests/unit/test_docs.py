"""The documentation stays true and complete: every link of the README and of ``docs/`` resolves
to a file inside the repository (a clone needs nothing beside it), and each game's rules page
documents every command, config field and event payload key the code has, and
``docs/rulings.md`` every ruling and its fields."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType
from typing import Any

import msgspec
import pytest
from pydantic import BaseModel

from adjudicator import rulings
from adjudicator.games.no_not_that import RoundConfig
from adjudicator.games.no_not_that import events as nnt_events
from adjudicator.games.zombego import events as zombego_events
from adjudicator.games.zoom import events as zoom_events
from adjudicator.registry import games

ROOT = Path(__file__).resolve().parents[2]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").rglob("*.md")])
LINK = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
HTML = re.compile(r"""(?:href|src)\s*=\s*["']([^"']+)["']""")
RULES = {"zoom": "zoom.md", "no_not_that": "no-not-that.md", "zombego": "zombego.md"}
EVENTS: dict[str, ModuleType] = {
    "zoom": zoom_events,
    "no_not_that": nnt_events,
    "zombego": zombego_events,
}
GAMES = games(frozenset())


def links(text: str) -> list[str]:
    return [*LINK.findall(text), *REFERENCE.findall(text), *HTML.findall(text)]


def outside(page: Path, target: str) -> str | None:
    """Why ``target`` (a link on ``page``) does not name a file of the repository, or None."""
    if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.IGNORECASE) or target.startswith("//"):
        return "points outside the repository"
    path = target.split("#", 1)[0]
    if not path:
        return None  # an anchor on the same page
    if path.startswith("/"):
        return "is an absolute path"
    resolved = (page.parent / path).resolve()
    if not resolved.is_relative_to(ROOT):
        return "leaves the repository"
    return None if resolved.exists() else "names no file"


def test_the_link_check_knows_a_link_outside_the_repository() -> None:
    readme = ROOT / "README.md"
    found = links('[a](docs/rulings.md) ![b](<x.png> "t")\n[c]: https://e.org\n<a href="../y">')
    assert found == ["docs/rulings.md", "x.png", "https://e.org", "../y"]
    assert outside(readme, "docs/rulings.md#refusals") is None
    assert outside(readme, "#games") is None
    assert outside(readme, "https://example.org") == "points outside the repository"
    assert outside(readme, "../shared/spec/zoom.md") == "leaves the repository"
    assert outside(readme, "docs/nothing.md") == "names no file"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_resolves_inside_the_repository(page: Path) -> None:
    found = links(page.read_text(encoding="utf-8"))
    bad = {t: why for t in found if (why := outside(page, t)) is not None}
    assert not bad, f"{page.relative_to(ROOT)}: {bad}"


def test_the_readme_links_every_rules_page() -> None:
    linked = set(links((ROOT / "README.md").read_text(encoding="utf-8")))
    assert {f"docs/rules/{name}" for name in RULES.values()} <= linked
    assert "docs/rulings.md" in linked


def section(text: str, heading: str) -> str:
    """The text under ``## heading`` up to the next heading of that level."""
    start = text.index(f"\n## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : None if end < 0 else end]


def rows(text: str) -> dict[str, str]:
    """Table rows of ``text`` by each backticked name in their first cell."""
    found: dict[str, str] = {}
    for line in text.splitlines():
        if line.startswith("|"):
            first = line.split("|")[1]
            for name in re.findall(r"`([^`]+)`", first):
                found[name] = line
    return found


def field_names(model: type[BaseModel]) -> set[str]:
    return {f.alias or name for name, f in model.model_fields.items()} - {"type"}


def missing_fields(row: str, names: set[str]) -> set[str]:
    return {name for name in names if f"`{name}`" not in row}


def rules_page(game: str) -> str:
    return (ROOT / "docs" / "rules" / RULES[game]).read_text(encoding="utf-8")


@pytest.mark.parametrize("game", sorted(RULES))
def test_every_command_and_its_fields_are_in_the_game_s_rules_page(game: str) -> None:
    table = rows(section(rules_page(game), "Commands"))
    for kind, model in GAMES[game].command_models.items():
        assert kind in table, f"docs/rules/{RULES[game]}: no row for command {kind!r}"
        missing = missing_fields(table[kind], field_names(model))
        assert not missing, f"docs/rules/{RULES[game]}: {kind} lacks {sorted(missing)}"


@pytest.mark.parametrize("game", sorted(RULES))
def test_every_config_field_is_in_the_game_s_rules_page(game: str) -> None:
    table = section(rules_page(game), "Match config")
    missing = missing_fields(table, field_names(GAMES[game].config_model))
    assert not missing, f"docs/rules/{RULES[game]}: config lacks {sorted(missing)}"


def test_every_field_of_a_no_not_that_round_is_in_its_rules_page() -> None:
    table = section(rules_page("no_not_that"), "Match config")
    missing = {name for name in field_names(RoundConfig) if f'"{name}"' not in table}
    assert not missing, f"docs/rules/no-not-that.md: a round lacks {sorted(missing)}"


def payload_keys(payload: Any) -> set[str]:
    """The keys of a payload struct, by the names they are recorded under."""
    return {field.encode_name for field in msgspec.structs.fields(payload)}


@pytest.mark.parametrize("game", sorted(RULES))
def test_every_event_and_its_payload_keys_are_in_the_game_s_rules_page(game: str) -> None:
    table = rows(section(rules_page(game), "Events"))
    for kind, payload in EVENTS[game].EVENTS.payloads.items():
        assert kind in table, f"docs/rules/{RULES[game]}: no row for event {kind!r}"
        missing = missing_fields(table[kind], payload_keys(payload))
        assert not missing, f"docs/rules/{RULES[game]}: {kind} lacks {sorted(missing)}"


def test_every_ruling_and_its_fields_are_in_the_rulings_page() -> None:
    page = (ROOT / "docs" / "rulings.md").read_text(encoding="utf-8")
    common = rows(page[: page.index("\n## The rulings\n")])  # the fields every ruling has
    table = rows(section(page, "The rulings"))
    for model in rulings.AnyRuling.__args__:
        kind = model.model_fields["type"].default
        assert kind in table, f"docs/rulings.md: no row for ruling {kind!r}"
        missing = missing_fields(table[kind], field_names(model) - set(common))
        assert not missing, f"docs/rulings.md: {kind} lacks {sorted(missing)}"
