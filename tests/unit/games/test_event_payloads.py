"""Every game's ``events.py``: the payload types are exactly what the games record, and
``payload_of`` / ``upcast`` refuse anything else with ``invalid_event``."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from adjudicator.games.no_not_that import events as nnt_events
from adjudicator.games.zombego import events as zombego_events
from adjudicator.games.zoom import events as zoom_events
from adjudicator.games.zoom.commands import DeclarePriority
from adjudicator.kernel.errors import InvalidCommand
from tests.unit.games.zoom.conftest import new_table

GOLDEN = Path(__file__).parents[2] / "golden"
MODULES = {"zoom": zoom_events, "no_not_that": nnt_events, "zombego": zombego_events}
PREFIXES = {"zoom": "zoom.", "no_not_that": "nnt.", "zombego": "zombego."}


def recorded(game: str) -> list[dict[str, Any]]:
    """The game's own events in its golden match record (private payloads included)."""
    (path,) = GOLDEN.glob(f"{game}/*.match.jsonl")
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()[1:]]
    return [e for e in lines if e["type"].startswith(PREFIXES[game])]


@pytest.mark.parametrize("game", sorted(MODULES))
def test_every_recorded_payload_of_a_golden_record_validates_unchanged(game: str) -> None:
    events: ModuleType = MODULES[game]
    for event in recorded(game):
        assert events.payload_of(event["type"], event["payload"]) == event["payload"]


def test_the_golden_records_hold_every_event_type_but_zoom_priority() -> None:
    seen = {e["type"] for game in MODULES for e in recorded(game)}
    known = {name for module in MODULES.values() for name in module.EVENTS.names}
    assert known - seen == {zoom_events.PRIORITY_DECLARED}


def test_a_priority_declaration_as_decided_validates() -> None:
    table = new_table(advantage="alpha")
    (fact,) = table.act(DeclarePriority(seat="alpha"), seat="alpha", t=0)
    assert fact.type == zoom_events.PRIORITY_DECLARED
    assert zoom_events.payload_of(fact.type, fact.payload) == {"seat": "alpha"}


def test_optional_keys_may_be_missing_but_nothing_else() -> None:
    acted = {"seat": "Alpha", "round": 1, "step": 2, "action": "pass"}
    assert nnt_events.payload_of(nnt_events.ACTED, acted) == acted
    hidden = {"seat": "white", "slot": 0, "cell": "a1"}
    assert zombego_events.payload_of(zombego_events.PLACED, hidden) == hidden
    with pytest.raises(InvalidCommand, match="step"):
        nnt_events.payload_of(nnt_events.ACTED, {k: v for k, v in acted.items() if k != "step"})


@pytest.mark.parametrize(
    ("payload", "problem"),
    [
        (
            {"seat": "alpha", "pairs": [{"target": "A", "at": "c4"}], "x": 1},
            "Object contains unknown field `x`",
        ),
        ({"seat": "alpha", "pairs": [{"target": "A"}]}, "pairs.0: Object missing required field"),
        ({"seat": "alpha", "pairs": [{"target": "A", "at": 4}]}, "pairs.0.at: Expected `str`"),
        ({"seat": 1, "pairs": []}, "seat: Expected `str`, got `int`"),
        ({"seat": "alpha", "pairs": "A c4"}, "pairs: Expected `array`, got `str`"),
    ],
)
def test_a_payload_of_other_keys_or_types_is_refused(payload: object, problem: str) -> None:
    with pytest.raises(InvalidCommand) as caught:
        zoom_events.payload_of(zoom_events.BUZZED, payload)
    assert caught.value.code == "invalid_event"
    assert caught.value.message.startswith(f"zoom.buzzed payload: {problem}")


def test_numbers_are_not_coerced_from_strings() -> None:
    with pytest.raises(InvalidCommand, match="round"):
        nnt_events.payload_of(nnt_events.ROUND_STARTED, {"round": "3"})
    with pytest.raises(InvalidCommand, match="fits"):
        nnt_events.payload_of(nnt_events.CATEGORY_JUDGED, {"object": "B", "fits": 1})


def test_an_event_type_of_another_game_is_unknown() -> None:
    with pytest.raises(InvalidCommand, match=r"no event type 'nnt\.acted'") as caught:
        zoom_events.payload_of(nnt_events.ACTED, {})
    assert caught.value.code == "invalid_event"


def test_upcast_returns_a_version_1_payload_as_it_is() -> None:
    moved = {"seat": "white", "from": "a1", "to": "b2"}
    assert zombego_events.upcast(zombego_events.MOVED, 1, moved) is moved


@pytest.mark.parametrize("version", [0, 2])
def test_upcast_refuses_a_version_it_does_not_know(version: int) -> None:
    with pytest.raises(InvalidCommand, match=f"version 1, not {version}") as caught:
        zombego_events.upcast(zombego_events.MOVED, version, {})
    assert caught.value.code == "invalid_event"


def test_upcast_refuses_an_unknown_type() -> None:
    with pytest.raises(InvalidCommand, match=r"no event type 'zombego\.jumped'"):
        zombego_events.upcast("zombego.jumped", 1, {})
