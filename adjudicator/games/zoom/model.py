"""Zoom's configuration and commands (the API's request bodies are these models)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

Symbol = Annotated[str, StringConstraints(min_length=1, max_length=8)]
RowText = Annotated[str, StringConstraints(min_length=1, max_length=300)]
Row = RowText | Annotated[list[Symbol], Field(min_length=1, max_length=300)]
Label = Annotated[str, StringConstraints(min_length=1, max_length=2)]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SuppliedRound(_Frozen):
    """A host-supplied round: rows as strings (one symbol per character) or lists of tokens."""

    grid: list[Row] = Field(min_length=1, max_length=300)
    targets: dict[Label, list[Row]] = Field(min_length=1, max_length=26)


class ZoomConfig(_Frozen):
    """How a Zoom match is played. Generated rounds use the grid/target sizes and alphabet."""

    rounds: int = Field(11, ge=1, le=50)
    targets_per_round: int = Field(5, ge=1, le=26)
    grid_height: int = Field(16, ge=2, le=300)
    grid_width: int = Field(16, ge=2, le=300)
    target_height: int = Field(3, ge=1, le=20)
    target_width: int = Field(3, ge=1, le=20)
    alphabet: list[Symbol] = Field(
        default_factory=lambda: ["R", "G", "B", "Y", "K", "W"], min_length=2, max_length=64
    )
    supplied_rounds: dict[int, SuppliedRound] = Field(
        default_factory=dict, description="round number -> grid and targets given by the host"
    )

    @model_validator(mode="after")
    def _fits(self) -> ZoomConfig:
        if self.target_height > self.grid_height or self.target_width > self.grid_width:
            raise ValueError("targets must fit in the grid")
        if len(set(self.alphabet)) != len(self.alphabet):
            raise ValueError("alphabet symbols must be distinct")
        if any(not 1 <= n <= self.rounds for n in self.supplied_rounds):
            raise ValueError("supplied_rounds names a round outside 1..rounds")
        return self


class StartRound(_Frozen):
    """Host: start the next round, optionally supplying its grid and targets."""

    type: Literal["start_round"] = "start_round"
    round: int | None = Field(None, ge=1, description="must be the next round when given")
    supplied: SuppliedRound | None = None


class Pair(_Frozen):
    target: Label
    at: Annotated[str, StringConstraints(min_length=1, max_length=12)]


class Buzz(_Frozen):
    """A seat names one or more (target, top-left coordinate) pairs."""

    type: Literal["buzz"] = "buzz"
    seat: str
    pairs: list[Pair] = Field(min_length=1, max_length=26)


class DeclarePriority(_Frozen):
    """The Advantage holder claims Priority for the next round (only between rounds)."""

    type: Literal["declare_priority"] = "declare_priority"
    seat: str


ZoomCommand = StartRound | Buzz | DeclarePriority
