"""Zombego as a :class:`~adjudicator.kernel.decider.Game`.

Choices where the spec is silent, as a fair host would make them:

* The first seat is P1 (White, moves first); the second is P2.
* Hand orders are drawn from the match seed (``SeededRng.derive(seed, "zombego", "hand", p)``);
  a match without a seed deals in ascending value order.
* A seat names a hand piece by value or by slot; the recorded event keeps the slot (public in
  every ruleset) and, outside the hidden variant, the value.
* There are no clocks in Zombego: ``advance`` changes nothing.
* A host ruling ``declare_result`` overrides the derived result; ``adjust_score``,
  ``end_round`` and ``amend`` mean nothing here and are refused (``ruling_not_applicable``).
* Zombego has no points; a result's ``scores`` are each seat's **living pieces on the board**
  (what the zombie-majority rule weighs, public in every ruleset; hands never count), at the
  end of the game or, for a declared result, when the ruling takes effect.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from pydantic import BaseModel

from adjudicator.games.zombego import decide as rules
from adjudicator.games.zombego import evolve as fold_rules
from adjudicator.games.zombego import view as views
from adjudicator.games.zombego.commands import ZombegoCommand, ZombegoConfig
from adjudicator.games.zombego.events import PLAYS
from adjudicator.games.zombego.position import counts
from adjudicator.games.zombego.state import ZombegoState
from adjudicator.kernel.decider import Context, Draft, Fact, Setup, Viewer, command_models


class ZombegoGame:
    name: ClassVar[str] = "zombego"
    rules_version: ClassVar[str] = "zombego/1"
    config_model: ClassVar[type[BaseModel]] = ZombegoConfig
    command_models: ClassVar[dict[str, type[BaseModel]]] = command_models(ZombegoCommand)
    rulings: ClassVar[frozenset[str]] = frozenset({"void", "undo", "declare_result", "note"})
    amendable: ClassVar[frozenset[str]] = frozenset()
    plays: ClassVar[frozenset[str]] = PLAYS

    def initial(self, setup: Setup) -> ZombegoState:
        config = ZombegoConfig.model_validate(dict(setup.config))
        return ZombegoState.new(setup.seats, config, setup.seed)

    def decide(self, state: ZombegoState, command: ZombegoCommand, ctx: Context) -> list[Draft]:
        return rules.decide(state, command, ctx)

    def evolve(self, state: ZombegoState, fact: Fact) -> ZombegoState:
        return fold_rules.evolve(state, fact)

    def advance(self, state: ZombegoState, now: datetime) -> ZombegoState:
        return state

    def view(self, state: ZombegoState, viewer: Viewer) -> dict[str, Any]:
        return views.view(state, viewer)

    def outcome(self, state: ZombegoState, seq: int) -> dict[str, Any] | None:
        return views.outcome(state, seq)

    def result(self, state: ZombegoState) -> dict[str, Any] | None:
        return state.result()

    def summary(self, state: ZombegoState) -> dict[str, Any]:
        pos = state.position
        return {
            "ply": pos.ply,
            "to_move": None if state.result() else state.seat_of(pos.to_move),
            "scores": state.scores(),  # as in every game's summary: what the result counts
            "counts": {
                state.seat_of(p): dict(zip(("living", "zombies"), counts(pos, p), strict=True))
                for p in (1, 2)
            },
            "result": state.result(),
        }

    def in_round(self, state: ZombegoState) -> bool:
        return False
