"""Zombego's match options and commands (the API's request bodies are these models).

Seat order is player order: the match's first seat is P1 (White, moves first), the second P2.
The hidden variant is the ruleset "Stratego Style with Zombies" (spec 3.2); there is no separate
flag, so the two can never disagree.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from adjudicator.games.zombego.position import DEFAULT_PLY_CAP, Rules, Ruleset
from adjudicator.kernel.numbers import NotBoolean

BoardSize = Literal[3, 4, 5, 6, 7, 8, 9, 10, 12]
PieceSet = Literal[
    "(6) Sum dist by type = 4",
    "(7) 8 Destinations",
    "(8) Pairs of types",
    "(8) 12 Destinations",
    "(10) Sum 4 with Long Leaps",
    "(9) Sum 4 plus Slides",
    "(11) 12 plus Slides",
]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ZombegoConfig(_Frozen):
    """How a Zombego match is played; the defaults are the game's (spec 3.3)."""

    board: BoardSize = 6
    ruleset: Ruleset = Ruleset.ALL_ZOMBIES
    piece_set: PieceSet = "(8) 12 Destinations"
    ply_cap: Annotated[int, Field(ge=1), NotBoolean] | None = Field(
        DEFAULT_PLY_CAP, description="draw after this many plies (Ludii: 2,499); null: none"
    )
    ludii_compat: bool = Field(
        False, description="No Zombies only: dead pieces go to the other hand, as in Ludii (12.2)"
    )

    def rules(self) -> Rules:
        return Rules(self.board, self.ruleset, self.piece_set, self.ply_cap, self.ludii_compat)


Cell = str


class _Placement(_Frozen):
    seat: str
    cell: Cell = Field(min_length=2, max_length=3)
    value: Annotated[int, Field(ge=0, le=110), NotBoolean] | None = None
    slot: Annotated[int, Field(ge=0, le=31), NotBoolean] | None = None

    @model_validator(mode="after")
    def _one_piece(self) -> _Placement:
        if (self.value is None) == (self.slot is None):
            raise ValueError("name the piece by exactly one of value or slot")
        return self


class Place(_Placement):
    """Put a living piece from the seat's hand on a cell, named by its value or its hand slot."""

    type: Literal["place"] = "place"


class PlaceZombie(_Placement):
    """Put a zombie from the seat's hand on a cell (tier 3), named by its value or its slot."""

    type: Literal["place_zombie"] = "place_zombie"


class Move(_Frozen):
    """Move the seat's piece on ``from`` to ``to`` (with a helper's pattern)."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)
    type: Literal["move"] = "move"
    seat: str
    origin: Cell = Field(alias="from", min_length=2, max_length=3)
    to: Cell = Field(min_length=2, max_length=3)


ZombegoCommand = Place | PlaceZombie | Move
"""Every Zombego command: ``decide`` handles each one (``assert_never`` proves it)."""
