"""Ludii notation in and out, in the JSON format of ``zombego-golden.jsonl``.

Moves are strings: ``place:<value>:<cell>`` (living piece from hand), ``zombie:<value>:<cell>``
(zombie from hand) and ``move:<from>-<to>``; cells are algebraic (file a… = column, rank 1… =
row). A position is ``{"cells": {name: [owner, value, zombie]}, "hand1": [[value, zombie], …],
"hand2": …}`` with hands listed in ascending (value, zombie) order, as in the golden file; slot
order is not part of this format, so importing fills the slots in list order. A game is
``{"board", "ruleset", "piece_set", "moves": [...], "result": {"winner", "reason"} | None}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from adjudicator.games.zombego import board
from adjudicator.games.zombego.check import check
from adjudicator.games.zombego.movegen import outcome
from adjudicator.games.zombego.play import make, push, start
from adjudicator.games.zombego.position import (
    DEFAULT_PLY_CAP,
    KIND_NAMES,
    MOVE,
    Move,
    Position,
    Result,
    Rules,
    Ruleset,
    owner_of,
    piece,
    value_of,
)
from adjudicator.kernel.errors import DomainError, InvalidCommand


def move_text(move: Move, n: int) -> str:
    kind, a, b = move
    if kind == MOVE:
        return f"move:{board.cell_name(a, n)}-{board.cell_name(b, n)}"
    return f"{KIND_NAMES[kind]}:{a}:{board.cell_name(b, n)}"


def cell(name: str, n: int) -> int:
    """The index of a cell name, or ``bad_cell``."""
    index = board.parse_cell(name, n)
    if index is None:
        raise InvalidCommand("bad_cell", f"{name!r} is not a cell of the {n}x{n} board")
    return index


def parse_move(text: str, n: int) -> Move:
    """A Ludii move string as a move (not checked for legality)."""
    parts = text.split(":")
    if len(parts) == 2 and parts[0] == "move" and parts[1].count("-") == 1:
        origin, dest = parts[1].split("-")
        return Move(MOVE, cell(origin, n), cell(dest, n))
    if len(parts) == 3 and parts[0] in KIND_NAMES[:2] and parts[1].isdigit():
        return Move(KIND_NAMES.index(parts[0]), int(parts[1]), cell(parts[2], n))
    raise InvalidCommand("bad_move", f"{text!r} is not a Zombego move")


def legal_with_outcomes(pos: Position) -> dict[str, str]:
    """Every legal move of the side to move, by its text, with its outcome."""
    n = pos.rules.board
    return {move_text(move, n): outcome(pos, move).value for move in pos.moves}


def position_json(pos: Position) -> dict[str, Any]:
    n = pos.rules.board
    cells = {
        board.cell_name(index, n): [owner_of(code), value_of(code), bool(code & 2)]
        for index, code in enumerate(pos.board)
        if code
    }
    hands = [sorted([value_of(c), bool(c & 2)] for c in hand if c) for hand in pos.hands]
    return {"cells": cells, "hand1": hands[0], "hand2": hands[1]}


def position_from_json(rules: Rules, data: Mapping[str, Any], to_move: int = 1) -> Position:
    """A position in the golden format; every hand has K slots, filled in list order."""
    n = rules.board
    cells = [0] * (n * n)
    for name, (owner, value, zombie) in data["cells"].items():
        cells[cell(name, n)] = piece(int(owner), int(value), bool(zombie))
    k = len(rules.values)
    hands = tuple(
        [piece(player, int(v), bool(z)) for v, z in data[f"hand{player}"]] + [0] * k
        for player in (1, 2)
    )
    return make(rules, cells, (hands[0][:k], hands[1][:k]), to_move=to_move)


def result_json(result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {"winner": result.winner, "reason": result.reason.value}


def export_game(start_pos: Position, moves: Iterable[Move]) -> dict[str, Any]:
    """A game as options + the sequence of Ludii move strings + its result."""
    rules, pos, texts = start_pos.rules, start_pos, []
    for move in moves:
        texts.append(move_text(move, rules.board))
        pos = push(pos, move)
    return {
        "board": rules.board,
        "ruleset": rules.ruleset.value,
        "piece_set": rules.piece_set,
        "moves": texts,
        "result": result_json(pos.result),
    }


def import_game(data: Mapping[str, Any], ply_cap: int | None = DEFAULT_PLY_CAP) -> list[Position]:
    """Replay a game given as options + move strings; every move is checked for legality."""
    rules = Rules(
        board=int(data.get("board", board.DEFAULT_BOARD)),
        ruleset=Ruleset(data.get("ruleset", Ruleset.ALL_ZOMBIES.value)),
        piece_set=str(data.get("piece_set", board.DEFAULT_PIECE_SET)),
        ply_cap=ply_cap,
    )
    return replay(start(rules), texts(data))


def replay(opening: Position, moves: Iterable[str]) -> list[Position]:
    """Every position of a game played from ``opening`` by Ludii move strings, checked.

    Raises :class:`IllegalPly` at the first move that does not parse or is not legal.
    """
    positions = [opening]
    for ply, text in enumerate(moves, start=1):
        try:
            move = parse_move(text, opening.rules.board)
            check(positions[-1], move)
        except DomainError as refused:
            raise IllegalPly(ply, text, refused) from refused
        positions.append(push(positions[-1], move))
    return positions


class IllegalPly(InvalidCommand):
    """Move ``ply`` (1-based) of a game, ``text``, is not legal (or not a move) where played."""

    def __init__(self, ply: int, text: str, refused: DomainError) -> None:
        super().__init__("illegal_ply", f"ply {ply} ({text!r}): {refused.code}: {refused.message}")
        self.ply, self.text, self.reason = ply, text, refused.code

    @property
    def details(self) -> dict[str, Any]:
        """The refusal as data: the ply (1-based), its move string and the rule's code."""
        return {"ply": self.ply, "move": self.text, "reason": self.reason}


def texts(data: Mapping[str, Any]) -> Sequence[str]:
    """A game's move strings: ``moves``, or the ``played`` of each of the golden ``plies``."""
    if "moves" in data:
        return [str(text) for text in data["moves"]]
    return [str(ply["played"]) for ply in data["plies"]]


def command_body(seat: str, text: str) -> dict[str, Any]:
    """The service command a seat's Ludii move string asks for (``place:7:c3``,
    ``zombie:7:c3``, ``move:b1-d3``), the piece named by its value."""
    kind, _, rest = text.partition(":")
    if kind == "move":
        origin, _, to = rest.partition("-")
        return {"type": "move", "seat": seat, "from": origin, "to": to}
    value, _, cell_name = rest.partition(":")
    name = "place_zombie" if kind == "zombie" else "place"
    return {"type": name, "seat": seat, "value": int(value), "cell": cell_name}
