"""The values of the Zombego rules core: rules options, pieces, moves, results and positions.

Hot-path representation (after python-chess): a piece is one int, ``value << 2 | zombie << 1 |
owner_index`` (owner index 0 for P1, 1 for P2; 0 means "no piece"); sets of cells are bitmasks;
a move is a ``(kind, a, b)`` tuple. Positions are immutable and carry the legal moves of the side
to move, computed once when the position is made.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import NamedTuple

from adjudicator.games.zombego.board import (
    BOARD_SIZES,
    DEFAULT_BOARD,
    DEFAULT_PIECE_SET,
    PIECE_SETS,
    Tables,
    tables,
)


class Ruleset(StrEnum):
    ALL_ZOMBIES = "All Zombies"
    STRATEGO = "Stratego Style with Zombies"
    NO_ZOMBIES = "No Zombies"


class Outcome(StrEnum):
    PLAIN = "plain"
    ATTACKER_DIES = "attacker_dies"
    DEFENDER_DIES = "defender_dies"


class Reason(StrEnum):
    NO_LEGAL_MOVE = "no_legal_move"
    ZOMBIE_MAJORITY = "zombie_majority"
    PLY_CAP = "ply_cap"


DEFAULT_PLY_CAP = 2499
PLACE, ZOMBIE, MOVE = 0, 1, 2
KIND_NAMES = ("place", "zombie", "move")


@dataclass(frozen=True, slots=True)
class Rules:
    """The options of one game (spec §3). ``ply_cap`` None means no cap."""

    board: int = DEFAULT_BOARD
    ruleset: Ruleset = Ruleset.ALL_ZOMBIES
    piece_set: str = DEFAULT_PIECE_SET
    ply_cap: int | None = DEFAULT_PLY_CAP
    ludii_compat: bool = False
    tables: Tables = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.board not in BOARD_SIZES:
            raise ValueError(f"board must be one of {BOARD_SIZES}")
        if self.piece_set not in PIECE_SETS:
            raise ValueError(f"unknown piece set {self.piece_set!r}")
        if self.ply_cap is not None and self.ply_cap < 1:
            raise ValueError("ply_cap must be positive")
        object.__setattr__(self, "tables", tables(self.board))

    @property
    def values(self) -> tuple[int, ...]:
        return PIECE_SETS[self.piece_set]

    @property
    def hidden(self) -> bool:
        return self.ruleset is Ruleset.STRATEGO


class Move(NamedTuple):
    """``PLACE``/``ZOMBIE``: a = value, b = cell. ``MOVE``: a = origin, b = destination."""

    kind: int
    a: int
    b: int


class Result(NamedTuple):
    """``winner`` 1 or 2, or None for a draw."""

    winner: int | None
    reason: Reason


class Position(NamedTuple):
    rules: Rules
    board: tuple[int, ...]
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    owned: tuple[int, int]
    zombies: int
    to_move: int
    ply: int
    result: Result | None
    moves: tuple[Move, ...]


def piece(owner: int, value: int, zombie: bool = False) -> int:
    """Encode a piece of player ``owner`` (1 or 2)."""
    return value << 2 | int(zombie) << 1 | (owner - 1)


def owner_of(code: int) -> int:
    return (code & 1) + 1


def value_of(code: int) -> int:
    return code >> 2


def counts(pos: Position, player: int) -> tuple[int, int]:
    """(living, zombies) of ``player`` on the board; hands never count (6.2)."""
    own = pos.owned[player - 1]
    zombies = (own & pos.zombies).bit_count()
    return own.bit_count() - zombies, zombies
