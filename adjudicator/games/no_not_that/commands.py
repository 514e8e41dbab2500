"""Configuration and commands (the API's request bodies are these models). Frozen, extra fields
refused.

The configuration is what the host fixes when creating a match: the rounds, their rules and
times, and items. Commands are what a seat or the host asks to do. Seat commands name the acting
``seat`` (the service fills it in from a seat's token when it is left out); a seat may act only
for itself (the host may act for any seat, e.g. when entering a match played elsewhere). Objects
are checked for sanity by ``decide`` so that a bad object gets the stable code ``bad_object``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictStr

from adjudicator.games.no_not_that.dictionary import WordListRef
from adjudicator.games.no_not_that.judging import CategoryRule, PromptRule
from adjudicator.kernel.decider import command_models
from adjudicator.kernel.numbers import Float, Int, NotBoolean

SHORT_STEP_ROUNDS = 8


class Item(StrEnum):
    EXTRA_SAFE = "extra_safe"
    LIFE_RING = "life_ring"
    HEAD_START = "head_start"


class RoundConfig(BaseModel):
    """One round: the texts players read and the machine-checkable rules behind them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    prompt_text: str = Field(min_length=1, max_length=500)
    category_text: str = Field(min_length=1, max_length=500)
    category: CategoryRule
    prompt: PromptRule
    step_seconds: Annotated[float, Field(gt=0, le=3600), NotBoolean] | None = None


class NoNotThatConfig(BaseModel):
    """The match: its rounds (16 by default in the original), items granted per seat, and times."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rounds: tuple[RoundConfig, ...] = Field(min_length=1, max_length=64)
    items: dict[str, tuple[Item, ...]] = Field(default_factory=dict)
    safety_nets: Int = Field(default=3, ge=0, le=100)
    countdown_seconds: Float = Field(default=3.0, ge=0, le=60)
    solution_seconds: Float = Field(default=60.0, gt=0, le=3600)
    extension_seconds: Float = Field(default=60.0, gt=0, le=3600)
    wordlist: WordListRef | None = Field(
        default=None,
        description="the word list that judges the match (name, sha256); the service fills in"
        " its own at creation. Left out in records made before lists were named: web2",
    )

    def step_seconds(self, round_number: int) -> float:
        """The round's step time: as configured, else 30 s in rounds 1-8 and 60 s after."""
        configured = self.rounds[round_number - 1].step_seconds
        if configured is not None:
            return configured
        return 30.0 if round_number <= SHORT_STEP_ROUNDS else 60.0


RawObject = StrictStr


class _Command(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class _SeatCommand(_Command):
    seat: str = Field(min_length=1, max_length=64)


class Submit(_SeatCommand):
    type: Literal["submit"] = "submit"
    object: RawObject = Field(max_length=1000)


class ClaimInvalid(_SeatCommand):
    """Claim that the object the opponent submitted in the previous step is invalid."""

    type: Literal["claim_invalid"] = "claim_invalid"


class ClaimPrompt(_SeatCommand):
    type: Literal["claim_prompt"] = "claim_prompt"


class Pass(_SeatCommand):
    """The last step's alternative to submitting."""

    type: Literal["pass"] = "pass"


class HeadStart(_SeatCommand):
    """The Head Start item as the action of a round's first step: a hidden object of one's own."""

    type: Literal["head_start"] = "head_start"
    object: RawObject = Field(max_length=1000)


class Solve(_SeatCommand):
    """The solution of one's prompt claim, as tokens in order (``["W", "H", "I", "Z"]``)."""

    type: Literal["solve"] = "solve"
    tokens: tuple[RawObject, ...] = Field(min_length=1, max_length=64)


class Challenge(_SeatCommand):
    """Challenge the opponent's correct solution: it contains an invalid object."""

    type: Literal["challenge"] = "challenge"


class Accept(_SeatCommand):
    """Decline to challenge the opponent's correct solution (closes the window at once)."""

    type: Literal["accept"] = "accept"


class UseItem(_SeatCommand):
    type: Literal["use_item"] = "use_item"
    item: Item


class Exchange(_SeatCommand):
    """Between rounds: give 1 point for 2 safety nets, ``times`` times."""

    type: Literal["exchange"] = "exchange"
    times: Int = Field(default=1, ge=1, le=100)


class StartRound(_Command):
    """Host only: post the next round's prompt and category; its first step opens."""

    type: Literal["start_round"] = "start_round"
    round: Annotated[int, Field(ge=1), NotBoolean] | None = Field(
        None, description="must be the next round when given"
    )


class JudgeCategory(_Command):
    """Host only: whether the object of one pending question fits a host-judged category.

    ``target_seq`` names the question (``awaiting_ruling.category_questions`` lists them): the
    seq of the ``claim_invalid`` action awaiting its verdict, or of the submission (its
    ``nnt.acted``, or a Head Start's) whose object a challenge waits on. The verdict holds for
    that submission for the rest of the round."""

    type: Literal["judge_category"] = "judge_category"
    target_seq: Int = Field(ge=1, description="the claim or submission the verdict is about")
    fits: bool


class JudgeValue(_Command):
    """Host only: rule on a value for the round: whether ``object`` fits a host-judged category,
    for every pending question about it and every later one in this round. Allowed while some
    question about the value is pending."""

    type: Literal["judge_value"] = "judge_value"
    object: RawObject = Field(max_length=1000)
    fits: bool


class JudgePrompt(_Command):
    """Host only: whether a revealed solution meets a host-judged prompt. ``target_seq`` names
    the prompt claim (its ``claim_prompt`` action's seq, or its solution's ``nnt.solved``);
    ``awaiting_ruling.prompt_questions`` lists them."""

    type: Literal["judge_prompt"] = "judge_prompt"
    target_seq: Int = Field(ge=1, description="the prompt claim (or its solution) judged")
    meets: bool


StepCommand = Submit | ClaimInvalid | ClaimPrompt | Pass | HeadStart
"""A step's sealed actions."""
HostCommand = StartRound | JudgeCategory | JudgeValue | JudgePrompt
"""What only the host asks."""
NoNotThatCommand = StepCommand | Solve | Challenge | Accept | UseItem | Exchange | HostCommand
"""Every No, Not That! command: ``decide`` handles each one (``assert_never`` proves it)."""

COMMAND_MODELS: dict[str, type[BaseModel]] = command_models(NoNotThatCommand)
