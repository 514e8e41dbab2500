"""Why a move is refused: precise domain errors with stable codes.

A move is legal iff it is in the position's legal list; when it is not, the first applicable
reason below is raised, so a client learns which rule it broke:

* ``game_over`` — the game has a result;
* ``bad_cell`` / ``unknown_piece`` (InvalidCommand) — off-board cell, value not in the piece set;
* ``not_in_hand`` — no such living (or zombie) piece of the mover in hand;
* ``zombie_gate_closed`` — zombies on board are not fewer than living pieces (§6 tier 3);
* ``placement_first`` — a living piece can be placed, so nothing else may be done (§6, 6.1);
* ``movement_first`` — a zombie placement while a movement is available (§6 tier 3);
* ``cell_occupied`` / ``cell_attacked`` — placement on a full cell, or whose pattern sees an
  enemy piece (§6 placement rule);
* ``not_your_piece`` — a move from a cell without a piece of the mover;
* ``own_piece`` — a move onto a friendly piece (7.2);
* ``zombie_fight`` — a zombie attacking a zombie (§8: never generated);
* ``no_helper`` — no friendly helper's pattern gives that destination (§7).
"""

from __future__ import annotations

from adjudicator.games.zombego.board import cell_name
from adjudicator.games.zombego.position import MOVE, PLACE, ZOMBIE, Move, Position, counts
from adjudicator.kernel.errors import InvalidCommand, RuleViolation


def check(pos: Position, move: Move) -> None:
    """Return if ``move`` is legal for the side to move, else raise the precise reason."""
    if pos.result is not None:
        raise RuleViolation("game_over", "the game is over")
    if move in pos.moves:
        return
    _bounds(pos, move)
    if move.kind == MOVE:
        _diagnose_move(pos, move)
    else:
        _diagnose_placement(pos, move)
    raise RuleViolation("illegal_move", "that move is not legal here")


def _bounds(pos: Position, move: Move) -> None:
    size = pos.rules.board**2
    cells = (move.a, move.b) if move.kind == MOVE else (move.b,)
    if move.kind not in (PLACE, ZOMBIE, MOVE) or any(not 0 <= c < size for c in cells):
        raise InvalidCommand("bad_cell", "that cell is not on the board")


def _tier(pos: Position) -> int | None:
    return pos.moves[0].kind if pos.moves else None


def _diagnose_placement(pos: Position, move: Move) -> None:
    kind, value, cell = move
    me = pos.to_move - 1
    flag = 2 if kind == ZOMBIE else 0
    if value not in pos.rules.values:
        raise InvalidCommand("unknown_piece", f"{value} is not a piece of this piece set")
    held = [c for c in pos.hands[me] if c and c >> 2 == value and c & 1 == me and c & 2 == flag]
    if not held:
        what = "zombie" if flag else "living piece"
        raise RuleViolation("not_in_hand", f"you have no {what} of value {value} in hand")
    if kind == ZOMBIE:
        living, zombies = counts(pos, pos.to_move)
        if zombies >= living:
            raise RuleViolation(
                "zombie_gate_closed",
                f"a zombie may enter only while zombies ({zombies}) < living ({living})",
            )
        if _tier(pos) == PLACE:
            raise RuleViolation("placement_first", "a living piece can be placed: place one")
        if _tier(pos) == MOVE:
            raise RuleViolation("movement_first", "a piece can move: zombies wait")
    if pos.board[cell]:
        raise RuleViolation("cell_occupied", f"{cell_name(cell, pos.rules.board)} is occupied")
    raise RuleViolation(
        "cell_attacked",
        f"the pattern of {value} at {cell_name(cell, pos.rules.board)} sees an enemy piece",
    )


def _diagnose_move(pos: Position, move: Move) -> None:
    _, origin, dest = move
    me = pos.to_move - 1
    mover, target = pos.board[origin], pos.board[dest]
    if not mover or mover & 1 != me:
        raise RuleViolation("not_your_piece", "there is no piece of yours on that cell")
    if _tier(pos) == PLACE:
        raise RuleViolation("placement_first", "a living piece can be placed: place one")
    if target and target & 1 == me:
        raise RuleViolation("own_piece", "the destination holds your own piece")
    if target and mover & 2 and target & 2:
        raise RuleViolation("zombie_fight", "a zombie may not attack a zombie")
    n = pos.rules.board
    raise RuleViolation(
        "no_helper", f"no helper gives {cell_name(origin, n)} the destination {cell_name(dest, n)}"
    )
