"""Zoom as a :class:`~adjudicator.kernel.decider.Game`."""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel

from adjudicator.games.zoom import decide as rules
from adjudicator.games.zoom import evolve as fold_rules
from adjudicator.games.zoom import view as views
from adjudicator.games.zoom.commands import ZoomCommand, ZoomConfig
from adjudicator.games.zoom.events import BUZZED, PLAYS
from adjudicator.games.zoom.state import Phase, ZoomState
from adjudicator.kernel.decider import (
    Context,
    Draft,
    Setup,
    Viewer,
    command_models,
    lookup_outcome,
)
from adjudicator.rulings import ALL as ALL_RULINGS


class ZoomGame:
    name: ClassVar[str] = "zoom"
    rules_version: ClassVar[str] = "zoom/1"
    config_model: ClassVar[type[BaseModel]] = ZoomConfig
    command_models: ClassVar[dict[str, type[BaseModel]]] = command_models(ZoomCommand)
    rulings: ClassVar[frozenset[str]] = ALL_RULINGS
    amendable: ClassVar[frozenset[str]] = frozenset({BUZZED})
    plays: ClassVar[frozenset[str]] = PLAYS

    def initial(self, setup: Setup) -> ZoomState:
        config = ZoomConfig.model_validate(setup.config)
        return ZoomState(setup.seats, setup.advantage, config, setup.seed)

    def decide(self, state: ZoomState, command: ZoomCommand, ctx: Context) -> list[Draft]:
        return rules.decide(state, command, ctx)

    evolve = staticmethod(fold_rules.evolve)  # the rules themselves: a fold calls them per event
    advance = staticmethod(fold_rules.advance)
    evolve_run = staticmethod(fold_rules.buzz_run)  # see adjudicator.kernel.fold.RunFolding

    def view(self, state: ZoomState, viewer: Viewer) -> dict[str, Any]:
        return views.view(state, viewer)

    def outcome(self, state: ZoomState, seq: int) -> dict[str, Any] | None:
        return lookup_outcome(state.voided, seq, state.outcomes, views.buzz_view)

    def result(self, state: ZoomState) -> dict[str, Any] | None:
        return views.result(state)

    def summary(self, state: ZoomState) -> dict[str, Any]:
        return views.summary(state)

    def in_round(self, state: ZoomState) -> bool:
        return state.phase is Phase.IN_ROUND
