"""No, Not That! on the test kit (:mod:`tests.kit`): commands named as the API names them.

``Match`` is a thin layer over the kit's ``Table``: commands go through the runner against the
fold at the command's instant, exactly as the service does, and what they decide is recorded as
facts with seq 1..n; ``given_match``/``by`` and ``Match.when`` state a rule as given/when/then.
Times are seconds after a frozen instant; nothing reads a clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from pydantic import BaseModel

from adjudicator import rulings
from adjudicator.games.no_not_that import NoNotThatGame, NoNotThatState
from adjudicator.games.no_not_that.commands import COMMAND_MODELS
from adjudicator.kernel.decider import HOST, Draft, Fact, Role, Setup, Viewer
from adjudicator.kernel.errors import DomainError
from adjudicator.kernel.payloads import plain
from tests.kit import Act, History, Specification, Table, When, act, given

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


def new_setup(config: dict[str, Any] | None = None, seats: tuple[str, str] = SEATS) -> Setup:
    return Setup("match-1", seats, config or make_config(), created_at=T0)


def command(who: str, type: str, **fields: Any) -> BaseModel:
    """The command ``type`` with ``fields``; a seat's command names that seat unless told."""
    model = COMMAND_MODELS[type]
    if "seat" in model.model_fields and "seat" not in fields:
        fields["seat"] = who
    return model.model_validate({"type": type, **fields})


def by(who: str, type: str, *, t: float, **fields: Any) -> Act:
    """``who`` (a seat or the host) doing ``type`` at ``t`` seconds, for :func:`tests.kit.given`."""
    return act(command(who, type, **fields), seat=seat_of(who), t=t)


def seat_of(who: str) -> str | None:
    return None if who == HOST else who


def given_match(*history: History, config: dict[str, Any] | None = None) -> Specification:
    """:func:`tests.kit.given` for No, Not That! with this module's words, seats and instant."""
    return given(NoNotThatGame(WORDS), new_setup(config), *history, t0=T0)


class Match:
    """One match's log (a :class:`tests.kit.Table`) driven by command names and fields."""

    def __init__(
        self,
        config: dict[str, Any] | None = None,
        words: frozenset[str] = WORDS,
        seats: tuple[str, str] = SEATS,
    ) -> None:
        self.game = NoNotThatGame(words)
        self.table = Table(self.game, new_setup(config, seats), t0=T0)

    @property
    def setup(self) -> Setup:
        return self.table.setup

    @property
    def facts(self) -> list[Fact]:
        return self.table.facts

    def state(self, seconds: float) -> NoNotThatState:
        state: NoNotThatState = self.table.state(seconds)
        return state

    def decide(
        self,
        seconds: float,
        who: str,
        type: str,
        *,
        state: NoNotThatState | None = None,
        **fields: Any,
    ) -> list[Draft]:
        """The runner's drafts against the fold at ``seconds`` (or ``state``, already folded)."""
        cmd = command(who, type, **fields)
        return self.table.decide(cmd, t=seconds, seat=seat_of(who), state=state).drafts

    def do(
        self,
        seconds: float,
        who: str,
        type: str,
        *,
        state: NoNotThatState | None = None,
        **fields: Any,
    ) -> list[Draft]:
        """Decide as :meth:`decide` does and record the drafts."""
        cmd, seat = command(who, type, **fields), seat_of(who)
        decision = self.table.decide(cmd, t=seconds, seat=seat, state=state)
        self.table.enter(decision, t=seconds, seat=seat)
        return decision.drafts

    def when(self, seconds: float, who: str, type: str, **fields: Any) -> When:
        """The kit's ``when`` on this match's log: ``.then(events=...)`` or ``.then_refused``."""
        return When(self.table, command(who, type, **fields), seat_of(who), seconds)

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
        return self.table.record(type, payload, t=seconds, actor=actor, when=when).seq

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
        return self.record(seconds, draft.type, plain(draft.payload), when=when)

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
            if f.type == type and (seat is None or plain(f.payload).get("seat") == seat)
        ]
        return found[nth]


def started(config: dict[str, Any] | None = None, words: frozenset[str] = WORDS) -> Match:
    """A match whose first round has just started (at 0 s)."""
    m = Match(config, words)
    m.do(0, HOST, "start_round", round=1)
    return m
