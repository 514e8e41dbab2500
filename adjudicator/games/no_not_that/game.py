"""``NoNotThatGame``: the decider the registry and the kernel's fold use."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, ClassVar

from pydantic import BaseModel

from adjudicator.games.no_not_that import decide as deciding
from adjudicator.games.no_not_that import evolve as evolving
from adjudicator.games.no_not_that import timing
from adjudicator.games.no_not_that import view as viewing
from adjudicator.games.no_not_that.commands import COMMAND_MODELS, NoNotThatCommand, NoNotThatConfig
from adjudicator.games.no_not_that.dictionary import Dictionaries
from adjudicator.games.no_not_that.events import ACTED, CHALLENGED, PLAYS, SOLVED
from adjudicator.games.no_not_that.scoring import in_round, scores
from adjudicator.games.no_not_that.state import Fixed, NoNotThatState, Phase, SeatState
from adjudicator.kernel.decider import Context, Draft, Fact, Setup, Viewer, void_outcome
from adjudicator.rulings import ALL as ALL_RULINGS


class NoNotThatGame:
    """No, Not That! The dictionary arrives as data: the words of one list (any case), or the
    lists a service has (:class:`Dictionaries`); each match is judged by the list its setup
    names (``wordlist``)."""

    name: ClassVar[str] = "no_not_that"
    rules_version: ClassVar[str] = "no_not_that/1"
    config_model: ClassVar[type[BaseModel]] = NoNotThatConfig
    command_models: ClassVar[dict[str, type[BaseModel]]] = COMMAND_MODELS
    rulings: ClassVar[frozenset[str]] = ALL_RULINGS
    amendable: ClassVar[frozenset[str]] = frozenset({ACTED, SOLVED, CHALLENGED})
    plays: ClassVar[frozenset[str]] = PLAYS

    def __init__(self, words: frozenset[str] | Dictionaries) -> None:
        self.dictionaries = words if isinstance(words, Dictionaries) else Dictionaries.of(words)

    def settled(self, config: Mapping[str, Any]) -> dict[str, Any]:
        """A new match's checked configuration with the list that will judge it named: the
        current list, or the one the host named (``unknown_wordlist`` when it is not here)."""
        checked = NoNotThatConfig.model_validate(config)
        if checked.wordlist is None:
            checked = checked.model_copy(update={"wordlist": self.dictionaries.current})
        else:
            self.dictionaries.words_for(checked.wordlist)
        return checked.model_dump(mode="json")

    def initial(self, setup: Setup) -> NoNotThatState:
        config = NoNotThatConfig.model_validate(setup.config)
        words = self.dictionaries.words_for(config.wordlist)
        nets = config.safety_nets
        seats = {
            seat: SeatState(score=0, nets=nets, items=tuple(config.items.get(seat, ())))
            for seat in setup.seats
        }
        return NoNotThatState(Fixed(config, setup.seats, words), Phase.WAITING, seats)

    def decide(self, state: NoNotThatState, command: NoNotThatCommand, ctx: Context) -> list[Draft]:
        return deciding.decide(state, command, ctx)

    def evolve(self, state: NoNotThatState, fact: Fact) -> NoNotThatState:
        return evolving.evolve(state, fact)

    def advance(self, state: NoNotThatState, now: datetime) -> NoNotThatState:
        return timing.advance(state, now)

    def view(self, state: NoNotThatState, viewer: Viewer) -> dict[str, Any]:
        return viewing.view(state, viewer)

    def outcome(self, state: NoNotThatState, seq: int) -> dict[str, Any] | None:
        if seq in state.voided:
            return void_outcome(state.voided[seq])
        outcome = state.outcomes.get(seq)
        return dict(outcome) if outcome is not None else None

    def result(self, state: NoNotThatState) -> dict[str, Any] | None:
        return dict(state.result) if state.result is not None else None

    def summary(self, state: NoNotThatState) -> dict[str, Any]:
        return {
            "phase": str(state.phase),
            "round": state.round.number if state.round is not None else None,
            "scores": scores(state),
            "result": self.result(state),
        }

    def in_round(self, state: NoNotThatState) -> bool:
        return in_round(state)
