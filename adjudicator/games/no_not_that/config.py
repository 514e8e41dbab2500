"""What the host fixes when creating a match: the rounds, their rules and times, and items."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from adjudicator.games.no_not_that.judging import CategoryRule, PromptRule

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
    step_seconds: float | None = Field(default=None, gt=0, le=3600)


class NoNotThatConfig(BaseModel):
    """The match: its rounds (16 by default in the original), items granted per seat, and times."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rounds: tuple[RoundConfig, ...] = Field(min_length=1, max_length=64)
    items: dict[str, tuple[Item, ...]] = Field(default_factory=dict)
    safety_nets: int = Field(default=3, ge=0, le=100)
    countdown_seconds: float = Field(default=3.0, ge=0, le=60)
    solution_seconds: float = Field(default=60.0, gt=0, le=3600)
    extension_seconds: float = Field(default=60.0, gt=0, le=3600)

    def step_seconds(self, round_number: int) -> float:
        """The round's step time: as configured, else 30 s in rounds 1-8 and 60 s after."""
        configured = self.rounds[round_number - 1].step_seconds
        if configured is not None:
            return configured
        return 30.0 if round_number <= SHORT_STEP_ROUNDS else 60.0
