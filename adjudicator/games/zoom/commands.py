"""Zoom's configuration and commands (the API's request bodies are these models)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from adjudicator.kernel.numbers import Int, NotBoolean

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


MAX_EXPECTED_STRAYS = 16.0
MAX_EXPECTED_STRAYS_TWO_SYMBOLS = 0.5


def expected_strays(
    grid: tuple[int, int], target: tuple[int, int], targets: int, symbols: int
) -> float:
    """Stray occurrences a first random grid holds on average: ``targets`` x (positions - 1) /
    symbols ** (target cells), each other position showing a given target with that chance."""
    positions = (grid[0] - target[0] + 1) * (grid[1] - target[1] + 1)
    distinct: int = symbols ** (target[0] * target[1])
    return targets * (positions - 1) / distinct


class ZoomConfig(_Frozen):
    """How a Zoom match is played. Generated rounds use the grid/target sizes and alphabet."""

    rounds: Int = Field(11, ge=1, le=50)
    targets_per_round: Int = Field(5, ge=1, le=26)
    grid_height: Int = Field(16, ge=2, le=300)
    grid_width: Int = Field(16, ge=2, le=300)
    target_height: Int = Field(3, ge=1, le=20)
    target_width: Int = Field(3, ge=1, le=20)
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
        if len(self.supplied_rounds) < self.rounds:
            self._generable()
        return self

    def _generable(self) -> None:
        """Refuse a shape whose rounds the seeded generator cannot make within its work bound.

        The generator draws a random grid, then re-draws one cell of every stray occurrence of a
        target and scans again. What it must undo is the expected number of strays in the first
        grid, :func:`expected_strays`; each scan removes most of them (a re-drawn cell keeps its
        symbol with probability 1 / symbols and rarely makes a new stray), so the scans grow only
        as its logarithm. Measured (``tests/unit/games/zoom/test_generation.py``): up to 16
        expected strays, at most a handful of scans, under a second on a 300x300 grid, far inside
        the generator's 32 scans; 4,500 (300x300, two symbols, 26 3x3 targets) never converges.
        With two symbols a re-drawn cell can only flip back and forth, and the generator loops
        when either symbol of that cell completes a stray of some target (two targets that differ
        in that one cell): about 1% of rounds per expected stray fail so, and two symbols are
        held to 0.5 (about a round in 200 then fails, fast, with ``cannot_generate``).
        """
        positions = (self.grid_height - self.target_height + 1) * (
            self.grid_width - self.target_width + 1
        )
        if positions < self.targets_per_round:
            raise ValueError(
                f"{self.targets_per_round} targets of {self.target_height}x{self.target_width}"
                f" need as many distinct spots; the grid has {positions}"
            )
        symbols = len(self.alphabet)
        strays = expected_strays(
            (self.grid_height, self.grid_width),
            (self.target_height, self.target_width),
            self.targets_per_round,
            symbols,
        )
        bound = MAX_EXPECTED_STRAYS if symbols > 2 else MAX_EXPECTED_STRAYS_TWO_SYMBOLS
        if strays > bound:
            raise ValueError(
                f"rounds of this shape cannot be generated: {symbols} symbols give"
                f" {symbols}^{self.target_height * self.target_width} distinct targets, so a"
                f" random grid would hold about {strays:.3g} stray target occurrences (at most"
                f" {bound:g}): use larger targets, fewer targets, more symbols or a smaller grid"
            )


class StartRound(_Frozen):
    """Host: start the next round, optionally supplying its grid and targets."""

    type: Literal["start_round"] = "start_round"
    round: Annotated[int, Field(ge=1), NotBoolean] | None = Field(
        None, description="must be the next round when given"
    )
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
"""Every Zoom command: ``decide`` handles each one (``assert_never`` proves it)."""
