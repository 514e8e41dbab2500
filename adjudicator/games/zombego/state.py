"""Zombego's match state: immutable, replaced (never mutated) by ``evolve``.

The rules position is the whole game; around it the state keeps the seats, the options, the
opening position (hand orders drawn from the match seed), the plies played with their derived
outcomes, the events a ruling made impossible (void, with a reason), and where each hidden
piece's value was committed (the seq of its private ``zombego.piece_dealt`` fact).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from adjudicator.games.zombego.commands import ZombegoConfig
from adjudicator.games.zombego.play import start
from adjudicator.games.zombego.position import Move, Outcome, Position, Result, Rules, counts
from adjudicator.kernel.decider import match_result
from adjudicator.kernel.rng import SeededRng


@dataclass(frozen=True, slots=True)
class PlyRecord:
    seq: int
    seat: str
    ply: int
    move: Move
    outcome: Outcome
    result: Result | None


@dataclass(frozen=True, slots=True, weakref_slot=True)
class Plies:
    """A cons list, newest first: O(1) to extend however long the game."""

    head: PlyRecord
    tail: Plies | None = None

    def __iter__(self) -> Iterator[PlyRecord]:
        node: Plies | None = self
        while node is not None:
            yield node.head
            node = node.tail


def hand_orders(rules: Rules, seed: int | None) -> tuple[list[int], list[int]]:
    """Each player's hand slot order: a seeded shuffle per player, or ascending without a seed."""
    orders = []
    for player in (1, 2):
        values = list(rules.values)
        if seed is not None:
            SeededRng.derive(seed, "zombego", "hand", player).shuffle(values)
        orders.append(values)
    return orders[0], orders[1]


@dataclass(frozen=True, slots=True)
class ZombegoState:
    seats: tuple[str, str]
    config: ZombegoConfig
    seed: int | None
    opening: Position
    position: Position
    plies: Plies | None = None
    voided: tuple[tuple[int, str], ...] = ()
    dealt: Mapping[tuple[int, int], int] = field(default_factory=dict)
    declared_result: Mapping[str, Any] | None = None

    @classmethod
    def new(cls, seats: tuple[str, str], config: ZombegoConfig, seed: int | None) -> ZombegoState:
        rules = config.rules()
        opening = start(rules, hand_orders(rules, seed))
        return cls(seats, config, seed, opening, opening)

    @property
    def hidden(self) -> bool:
        return self.position.rules.hidden

    def player_of(self, seat: str) -> int:
        return self.seats.index(seat) + 1

    def seat_of(self, player: int) -> str:
        return self.seats[player - 1]

    def scores(self) -> dict[str, int]:
        """Zombego has no points: each seat's score is its living pieces on the board, the count
        the zombie-majority rule (9.2, 9.3) weighs against its zombies; hands never count."""
        return {self.seat_of(p): counts(self.position, p)[0] for p in (1, 2)}

    def result(self) -> dict[str, Any] | None:
        """Winner (a seat, or None for a draw), reason and scores (:meth:`scores`); a host's
        declared result (with the scores when it took effect) prevails."""
        if self.declared_result is not None:
            return dict(self.declared_result)
        return None if self.position.result is None else self.result_of(self.position.result)

    def result_of(self, result: Result) -> dict[str, Any]:
        """The rules' ``result`` of the game as it stands, in the shape every game's has."""
        winner = None if result.winner is None else self.seat_of(result.winner)
        return match_result(winner, result.reason.value, self.scores())
