"""No number a request carries reads ``true`` or ``false`` as 1 or 0 (``kernel.numbers``).

Walks every model a request is validated by, nested ones included: each route's body, each
game's config and commands, the rulings. Every ``int`` or ``float`` field of any of them (also
inside ``X | None`` and lists) must refuse ``true`` at that field, so a numeric field added later
without the types of ``adjudicator.kernel.numbers`` fails here.
"""

from __future__ import annotations

import importlib
import types
from collections.abc import Iterator
from typing import Annotated, Any, Union, get_args, get_origin

import pytest
from fastapi.routing import APIRoute
from pydantic import BaseModel, TypeAdapter, ValidationError

from adjudicator import registry, rulings
from adjudicator.kernel.numbers import Float, Int

ROUTES = ("audit", "games", "health", "live", "log", "ludii", "matches", "tournament_list",
          "tournaments", "transcripts")  # fmt: skip


def _roots() -> Iterator[Any]:
    for name in ROUTES:
        for route in importlib.import_module(f"api.http.routes.{name}").router.routes:
            if isinstance(route, APIRoute) and route.body_field is not None:
                yield route.body_field.field_info.annotation
    for game in registry.games(frozenset({"word"})).values():
        yield game.config_model
        yield from game.command_models.values()
    yield rulings.RulingCommand


def _models(annotation: Any, found: dict[str, type[BaseModel]]) -> None:
    """Every model reachable from ``annotation`` through its fields, into ``found``."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        key = f"{annotation.__module__}.{annotation.__qualname__}"
        if key in found:
            return
        found[key] = annotation
        for field in annotation.model_fields.values():
            _models(field.annotation, found)
        return
    for arg in get_args(annotation):
        _models(arg, found)


def _numeric(annotation: Any) -> Iterator[tuple[int, ...]]:
    """The paths, relative to a field of type ``annotation``, of its numbers: () for the field
    itself, (0,) for a list's item."""
    origin = get_origin(annotation)
    if annotation in (int, float):
        yield ()
    elif origin is Annotated:
        yield from _numeric(get_args(annotation)[0])
    elif origin in (Union, types.UnionType):
        for arg in get_args(annotation):
            yield from _numeric(arg)
    elif origin in (list, tuple, set, frozenset):
        for arg in get_args(annotation)[:1]:
            yield from ((0, *path) for path in _numeric(arg))


def _fields() -> list[tuple[str, type[BaseModel], str, tuple[int, ...]]]:
    found: dict[str, type[BaseModel]] = {}
    for root in _roots():
        _models(root, found)
    return [
        (f"{key}.{name}{''.join(f'[{i}]' for i in path)}", model, field.alias or name, path)
        for key, model in sorted(found.items())
        for name, field in model.model_fields.items()
        for path in sorted(set(_numeric(field.annotation)))
    ]


FIELDS = _fields()


def test_the_walk_finds_the_numbers_of_every_kind_of_request() -> None:
    names = {name for name, *_ in FIELDS}
    for expected in (
        "adjudicator.rulings.Void.target_seq",
        "adjudicator.rulings.AdjustScore.delta",
        "adjudicator.games.zoom.commands.ZoomConfig.rounds",
        "adjudicator.games.no_not_that.commands.NoNotThatConfig.countdown_seconds",
        "adjudicator.games.zombego.commands.Place.slot",
        "api.http.routes.tournaments.CreateTournament.rounds",
        "api.http.routes.tournaments.ForfeitIn.board",
        "api.http.routes.ludii.LudiiGame.values[0]",
    ):
        assert expected in names


def _wrapped(path: tuple[int, ...], value: Any) -> Any:
    for _ in path:
        value = [value]
    return value


@pytest.mark.parametrize(("name", "model", "alias", "path"), FIELDS, ids=[f[0] for f in FIELDS])
@pytest.mark.parametrize("boolean", [True, False])
def test_a_boolean_is_not_a_number(
    name: str, model: type[BaseModel], alias: str, path: tuple[int, ...], boolean: bool
) -> None:
    with pytest.raises(ValidationError) as refused:
        model.model_validate({alias: _wrapped(path, boolean)})
    at = [error for error in refused.value.errors() if error["loc"] == (alias, *path)]
    assert at, f"{name} took {boolean} as a number"
    assert {error["type"] for error in at} == {"number_not_boolean"}


def test_the_types_still_read_what_int_and_float_read() -> None:
    assert TypeAdapter(Int).validate_python(3) == 3
    assert TypeAdapter(Int).validate_python("3") == 3
    assert TypeAdapter(Int).validate_python(3.0) == 3
    assert TypeAdapter(Float).validate_python(2) == 2.0
    assert TypeAdapter(Float).validate_python("0.5") == 0.5
    assert TypeAdapter(Int).json_schema() == TypeAdapter(int).json_schema()
    assert TypeAdapter(Float).json_schema() == TypeAdapter(float).json_schema()
    for adapter in (TypeAdapter(Int), TypeAdapter(Float)):
        with pytest.raises(ValidationError):
            adapter.validate_python(True)
