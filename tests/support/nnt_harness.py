"""A small driver for No, Not That! tests: given recorded facts, when a command, then drafts.

Commands go through ``decide`` against the kernel's fold at the command's instant, exactly as the
service does, and what ``decide`` returns is recorded as facts with seq 1..n. Times are seconds
after a frozen instant; nothing reads a clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from adjudicator import rulings
from adjudicator.games.no_not_that import NoNotThatGame, NoNotThatState
from adjudicator.games.no_not_that.commands import COMMAND_MODELS
from adjudicator.kernel.decider import HOST, Context, Draft, Fact, Role, Setup, Viewer, seat_actor
from adjudicator.kernel.errors import DomainError
from adjudicator.kernel.fold import fold

HOST_NAME = HOST

T0 = datetime(2030, 1, 1, 12, 0, tzinfo=UTC)
SEATS = ("Alpha", "Beta")
WORDS = frozenset({"WHIZ", "QUIZ", "JINX", "HYMN", "LYNX", "WHAT", "CAT", "BAT", "TOAST", "BZZT"})


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def consonant_round(**changes: Any) -> dict[str, Any]:
    """The worked example's round: consonants; a 4-letter word with exactly one vowel."""
    spec: dict[str, Any] = {
        "prompt_text": "a 4-letter word with exactly 1 vowel (vowels are free)",
        "category_text": "consonants",
        "category": {"kind": "letters", "letters": "consonants"},
        "prompt": {"kind": "word", "length": 4, "vowels": 1, "free_letters": "AEIOU"},
    }
    spec.update(changes)
    return spec


def make_config(rounds: int = 2, **changes: Any) -> dict[str, Any]:
    config: dict[str, Any] = {"rounds": [consonant_round() for _ in range(rounds)]}
    config.update(changes)
    return config


def viewer(who: str) -> Viewer:
    if who == HOST:
        return Viewer(Role.HOST)
    if who == "spectator":
        return Viewer(Role.SPECTATOR)
    return Viewer(Role.SEAT, seat=who)


class Match:
    """One match's log and the game that folds it."""

    def __init__(
        self,
        config: dict[str, Any] | None = None,
        words: frozenset[str] = WORDS,
        seats: tuple[str, str] = SEATS,
    ) -> None:
        self.game = NoNotThatGame(words)
        self.setup = Setup("match-1", seats, config or make_config(), created_at=T0)
        self.facts: list[Fact] = []

    def state(self, seconds: float) -> NoNotThatState:
        return fold(self.game, self.setup, self.facts, at(seconds)).state

    def decide(
        self,
        seconds: float,
        who: str,
        type: str,
        *,
        state: NoNotThatState | None = None,
        **fields: Any,
    ) -> list[Draft]:
        """``decide`` against the fold at ``seconds`` (or against ``state``, already folded)."""
        model = COMMAND_MODELS[type]
        if "seat" in model.model_fields and "seat" not in fields:
            fields["seat"] = who
        command = model.model_validate({"type": type, **fields})
        ctx = Context(HOST, at(seconds))
        if who != HOST:
            ctx = Context(seat_actor(who), at(seconds), seat=who)
        return self.game.decide(state or self.state(seconds), command, ctx)

    def do(
        self,
        seconds: float,
        who: str,
        type: str,
        *,
        state: NoNotThatState | None = None,
        **fields: Any,
    ) -> list[Draft]:
        drafts = self.decide(seconds, who, type, state=state, **fields)
        actor = HOST if who == HOST else seat_actor(who)
        for draft in drafts:
            self.record(seconds, draft.type, draft.payload, actor)
        return drafts

    def refused(self, seconds: float, who: str, type: str, **fields: Any) -> DomainError:
        before = len(self.facts)
        with pytest.raises(DomainError) as caught:
            self.decide(seconds, who, type, **fields)
        assert len(self.facts) == before
        return caught.value

    def record(
        self,
        seconds: float,
        type: str,
        payload: dict[str, Any],
        actor: str = HOST,
        when: datetime | None = None,
    ) -> int:
        seq = len(self.facts) + 1
        self.facts.append(Fact(seq, type, actor, when or at(seconds), payload))
        return seq

    def rule(self, seconds: float, ruling: dict[str, Any]) -> int:
        models: dict[str, type[rulings._Ruling]] = {
            "void": rulings.Void,
            "undo": rulings.Undo,
            "amend": rulings.Amend,
            "adjust_score": rulings.AdjustScore,
            "end_round": rulings.EndRound,
            "declare_result": rulings.DeclareResult,
            "note": rulings.Note,
        }
        fields = dict(ruling)
        game_time = fields.pop("at", None)  # the ruling's game time (its envelope occurred_at)
        parsed: Any = models[fields["type"]].model_validate(fields)
        seq = rulings.target_seq(parsed)
        known = {f.seq: f.type for f in self.facts}
        draft = rulings.decide_ruling(
            parsed,
            actor=HOST,
            last_seq=len(self.facts),
            seats=self.setup.seats,
            target=None if seq is None else rulings.RulingTarget(seq, known.get(seq)),
            supported=self.game.rulings,
            amendable=self.game.amendable,
        )
        when = None if game_time is None else datetime.fromisoformat(game_time)
        return self.record(seconds, draft.type, draft.payload, when=when)

    def view(self, seconds: float, who: str) -> dict[str, Any]:
        return self.game.view(self.state(seconds), viewer(who))

    def outcome(self, seconds: float, seq: int) -> dict[str, Any] | None:
        return self.game.outcome(self.state(seconds), seq)

    def score(self, seconds: float) -> dict[str, int]:
        state = self.state(seconds)
        return {seat: player.score for seat, player in state.seats.items()}

    def step(self, seconds: float, **actions: tuple[str, ...]) -> None:
        """Seats act at one instant: ``Alpha=("submit", "Q")``, ``Beta=("claim_prompt",)``."""
        for seat, action in actions.items():
            kind, *rest = action
            fields: dict[str, Any] = {"object": rest[0]} if rest else {}
            self.do(seconds, seat, kind, **fields)

    def seq_of(self, type: str, seat: str | None = None, nth: int = -1) -> int:
        found = [
            f.seq
            for f in self.facts
            if f.type == type and (seat is None or f.payload.get("seat") == seat)
        ]
        return found[nth]


def started(config: dict[str, Any] | None = None, words: frozenset[str] = WORDS) -> Match:
    """A match whose first round has just started (at 0 s)."""
    m = Match(config, words)
    m.do(0, HOST, "start_round", round=1)
    return m
