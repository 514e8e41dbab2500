"""Zombego's ``decide``: validate a command, say what to record (facts, never verdicts).

Cell names are case-insensitive on input. Events record what the player did:
``zombego.placed`` / ``zombego.zombie_placed`` with the hand slot and the cell (plus the value,
except in the hidden variant, where the slot is public and the value is not), ``zombego.moved``
with from/to. Outcomes are derived by the fold.

The command's own event always comes first in its batch (the service reports the outcome of the
first event). Hidden variant: the first command of the match also records the deal, one private
``zombego.piece_dealt`` fact per hand slot (seat, slot, value), visible to that seat only; the
store commits to each. Every zombie placement is followed by a public ``zombego.zombie_revealed``
naming its value and the seq of the fact that committed it (spec 11.4).
"""

from __future__ import annotations

from typing import assert_never

import msgspec

from adjudicator.games.zombego import notation
from adjudicator.games.zombego.board import cell_name
from adjudicator.games.zombego.check import check
from adjudicator.games.zombego.commands import Move, Place, PlaceZombie, ZombegoCommand
from adjudicator.games.zombego.events import (
    MOVED,
    PIECE_DEALT,
    PLACED,
    ZOMBIE_PLACED,
    ZOMBIE_REVEALED,
    Moved,
    PieceDealt,
    Placed,
    ZombieRevealed,
)
from adjudicator.games.zombego.position import MOVE, PLACE, ZOMBIE, Position
from adjudicator.games.zombego.position import Move as RulesMove
from adjudicator.games.zombego.state import ZombegoState
from adjudicator.kernel.decider import Context, Draft
from adjudicator.kernel.errors import InvalidCommand, RuleViolation


def decide(state: ZombegoState, command: ZombegoCommand, ctx: Context) -> list[Draft]:
    match command:
        case Place() | PlaceZombie():
            return _placement(state, command, ctx)
        case Move():
            return _move(state, command, ctx)
        case _:
            assert_never(command)


def acting_player(state: ZombegoState, seat: str, ctx: Context) -> int:
    """The player a command acts for: a seat only for itself, the host for either seat."""
    ctx.acting_for(state.seats, seat)
    if state.result() is not None:
        raise RuleViolation("game_over", "the game is over")
    player = state.player_of(seat)
    if player != state.position.to_move:
        raise RuleViolation("not_your_turn", f"it is {state.seat_of(3 - player)}'s turn")
    return player


def hand_piece(
    pos: Position, player: int, *, slot: int | None, value: int | None, zombie: bool
) -> tuple[int, int]:
    """(slot, value) of the mover's living (or zombie) hand piece named by slot or by value."""
    hand, me, flag = pos.hands[player - 1], player - 1, 2 if zombie else 0
    what = "zombie" if zombie else "living piece"
    if slot is not None:
        if slot >= len(hand):
            raise InvalidCommand("bad_slot", f"the hand has slots 0..{len(hand) - 1}")
        code = hand[slot]
        if not code or code & 1 != me or code & 2 != flag:
            raise RuleViolation("not_in_hand", f"hand slot {slot} holds no {what} of yours")
        return slot, code >> 2
    for index, code in enumerate(hand):
        if code and code >> 2 == value and code & 1 == me and code & 2 == flag:
            return index, value
    if value not in pos.rules.values:
        raise InvalidCommand("unknown_piece", f"{value} is not a piece of this piece set")
    raise RuleViolation("not_in_hand", f"you have no {what} of value {value} in hand")


def _placement(state: ZombegoState, command: Place | PlaceZombie, ctx: Context) -> list[Draft]:
    player = acting_player(state, command.seat, ctx)
    pos, zombie = state.position, isinstance(command, PlaceZombie)
    cell = notation.cell(command.cell.lower(), pos.rules.board)
    slot, value = hand_piece(pos, player, slot=command.slot, value=command.value, zombie=zombie)
    check(pos, RulesMove(ZOMBIE if zombie else PLACE, value, cell))
    name = cell_name(cell, pos.rules.board)
    placed = Placed(command.seat, slot, name, msgspec.UNSET if state.hidden else value)
    drafts = [Draft(ZOMBIE_PLACED if zombie else PLACED, placed), *deal(state)]
    if zombie and state.hidden:
        committed = state.dealt.get((player, value))
        reveal = ZombieRevealed(command.seat, name, value, committed)
        drafts.append(Draft(ZOMBIE_REVEALED, reveal))
    return drafts


def _move(state: ZombegoState, command: Move, ctx: Context) -> list[Draft]:
    acting_player(state, command.seat, ctx)
    n = state.position.rules.board
    origin, dest = notation.cell(command.origin.lower(), n), notation.cell(command.to.lower(), n)
    check(state.position, RulesMove(MOVE, origin, dest))
    names = cell_name(origin, n), cell_name(dest, n)
    return [Draft(MOVED, Moved(command.seat, names[0], names[1])), *deal(state)]


def deal(state: ZombegoState) -> list[Draft]:
    """The private deal facts, recorded with the first command of a hidden-variant match."""
    if not state.hidden or state.dealt:
        return []
    drafts = []
    for player, hand in enumerate(state.opening.hands, start=1):
        seat = state.seat_of(player)
        for slot, code in enumerate(hand):
            dealt = PieceDealt(seat, slot, code >> 2)
            drafts.append(Draft(PIECE_DEALT, dealt, private_to=(seat,)))
    return drafts
