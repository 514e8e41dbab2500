"""Making positions and playing moves: setup (§5), attack resolution (§8, §12) and the end (§9).

``push`` trusts that its move is legal (use :func:`adjudicator.games.zombego.check.check` first
for untrusted input). After every move the end conditions run in the order of §9: the opponent has
no legal move (mover wins), P1's zombies outnumber P1's living (P2 wins), the same for P2, then
the configurable ply cap (draw).

Dead pieces go to the lowest empty slot of the receiving hand (8.2). Under "No Zombies" they are
removed from the game (12.1, the spec's recommendation); with ``ludii_compat`` they go to the
other player's hand instead, reproducing Ludii's overflow artefact of 12.2.
"""

from __future__ import annotations

from collections.abc import Sequence

from adjudicator.games.zombego.movegen import generate, outcome
from adjudicator.games.zombego.position import (
    MOVE,
    ZOMBIE,
    Move,
    Outcome,
    Position,
    Reason,
    Result,
    Rules,
    Ruleset,
    counts,
    piece,
)


def make(
    rules: Rules,
    cells: Sequence[int],
    hands: tuple[Sequence[int], Sequence[int]],
    *,
    to_move: int = 1,
    ply: int = 0,
    result: Result | None = None,
) -> Position:
    """A position from its parts; the legal moves of the side to move are computed here."""
    board = tuple(cells)
    owned = [0, 0]
    zombies = 0
    for cell, code in enumerate(board):
        if code:
            owned[code & 1] |= 1 << cell
            if code & 2:
                zombies |= 1 << cell
    both = (tuple(hands[0]), tuple(hands[1]))
    return _position(rules, board, both, (owned[0], owned[1]), zombies, to_move, ply, result)


def _position(
    rules: Rules,
    board: tuple[int, ...],
    hands: tuple[tuple[int, ...], tuple[int, ...]],
    owned: tuple[int, int],
    zombies: int,
    to_move: int,
    ply: int,
    result: Result | None,
) -> Position:
    """A position from its parts and their occupancy masks, with the legal moves of the mover."""
    moves = () if result else generate(rules.tables, board, hands, owned, zombies, player=to_move)
    return Position(rules, board, hands, owned, zombies, to_move, ply, result, moves)


def start(rules: Rules, orders: tuple[Sequence[int], Sequence[int]] | None = None) -> Position:
    """The opening position: empty board, every piece living in hand, in the given slot orders."""
    if orders is None:
        orders = (rules.values, rules.values)
    for order in orders:
        if sorted(order) != sorted(rules.values):
            raise ValueError("a hand order must be a permutation of the piece set")
    hands = (
        tuple(piece(1, value) for value in orders[0]),
        tuple(piece(2, value) for value in orders[1]),
    )
    return make(rules, (0,) * (rules.board * rules.board), hands)


def push(pos: Position, move: Move) -> Position:
    """The position after a legal ``move`` of the side to move, with its result if it ended.

    Only the cells the move touches change, so the occupancy masks are updated for those cells
    alone rather than rebuilt from the whole board.
    """
    cells = list(pos.board)
    hands = [list(pos.hands[0]), list(pos.hands[1])]
    if move.kind == MOVE:
        _resolve(pos, move, cells, hands)
        touched: tuple[int, ...] = (move.a, move.b)
    else:
        _place(pos.to_move - 1, move, cells, hands)
        touched = (move.b,)
    owned, zombies = _remask(pos.owned, pos.zombies, cells, touched)
    return _after(pos, tuple(cells), (tuple(hands[0]), tuple(hands[1])), owned, zombies)


def _remask(
    owned: tuple[int, int], zombies: int, cells: list[int], touched: tuple[int, ...]
) -> tuple[tuple[int, int], int]:
    """The occupancy masks once the ``touched`` cells hold what ``cells`` now says."""
    mine, theirs = owned
    for cell in touched:
        bit = 1 << cell
        code = cells[cell]
        mine, theirs, zombies = mine & ~bit, theirs & ~bit, zombies & ~bit
        if code:
            if code & 1:
                theirs |= bit
            else:
                mine |= bit
            if code & 2:
                zombies |= bit
    return (mine, theirs), zombies


def _place(me: int, move: Move, cells: list[int], hands: list[list[int]]) -> None:
    flag = 2 if move.kind == ZOMBIE else 0
    hand = hands[me]
    for slot, code in enumerate(hand):
        if code and code >> 2 == move.a and code & 1 == me and code & 2 == flag:
            hand[slot] = 0
            cells[move.b] = code
            return
    raise ValueError(f"no such piece in hand: {move}")


def _resolve(pos: Position, move: Move, cells: list[int], hands: list[list[int]]) -> None:
    _, origin, dest = move
    result = outcome(pos, move)
    if result is Outcome.ATTACKER_DIES:
        if not _die(pos.rules, cells[origin], hands):
            cells[origin] |= 2  # 12.2 artefact: stays on its origin as a zombie
            return
        cells[origin] = 0
        return
    if result is Outcome.DEFENDER_DIES:
        _die(pos.rules, cells[dest], hands)
    cells[dest], cells[origin] = cells[origin], 0


def _die(rules: Rules, code: int, hands: list[list[int]]) -> bool:
    """Send a dead piece to its receiving hand as a zombie; False if that hand is full."""
    owner = code & 1
    if rules.ruleset is Ruleset.NO_ZOMBIES:
        if not rules.ludii_compat:
            return True
        owner = 1 - owner
    hand = hands[owner]
    for slot, held in enumerate(hand):
        if not held:
            hand[slot] = code | 2
            return True
    return False


def _after(
    pos: Position,
    cells: tuple[int, ...],
    hands: tuple[tuple[int, ...], tuple[int, ...]],
    owned: tuple[int, int],
    zombies: int,
) -> Position:
    mover = pos.to_move
    nxt = _position(pos.rules, cells, hands, owned, zombies, 3 - mover, pos.ply + 1, None)
    result = end_of_game(nxt, mover)
    return nxt._replace(result=result, moves=()) if result else nxt


def end_of_game(pos: Position, mover: int) -> Result | None:
    """§9, checked after ``mover``'s move in ``pos`` (whose side to move is the opponent)."""
    if not pos.moves:
        return Result(mover, Reason.NO_LEGAL_MOVE)
    for player in (1, 2):
        living, zombies = counts(pos, player)
        if zombies > living:
            return Result(3 - player, Reason.ZOMBIE_MAJORITY)
    cap = pos.rules.ply_cap
    if cap is not None and pos.ply >= cap:
        return Result(None, Reason.PLY_CAP)
    return None
