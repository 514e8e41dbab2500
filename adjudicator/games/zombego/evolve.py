"""Zombego's fold: ``evolve`` applies one recorded event; outcomes are derived here.

``evolve`` never raises on recorded history. A recorded move that the position no longer allows
(say, a ruling undid an earlier move, so it is now the other seat's turn or the cell is taken)
is folded as void, with the refusal code as its reason, and changes nothing else.
"""

from __future__ import annotations

from dataclasses import replace
from typing import assert_never

import msgspec

from adjudicator.games.zombego import notation
from adjudicator.games.zombego.check import check
from adjudicator.games.zombego.decide import hand_piece
from adjudicator.games.zombego.events import (
    MOVED,
    PIECE_DEALT,
    PLACED,
    ZOMBIE_PLACED,
    Moved,
    PieceDealt,
    Placed,
)
from adjudicator.games.zombego.movegen import outcome
from adjudicator.games.zombego.play import push
from adjudicator.games.zombego.position import MOVE, PLACE, ZOMBIE, Move
from adjudicator.games.zombego.state import Plies, PlyRecord, ZombegoState
from adjudicator.kernel.decider import Fact, declared_result
from adjudicator.kernel.errors import DomainError, RuleViolation
from adjudicator.kernel.payloads import Unreadable
from adjudicator.rulings import ResultDeclared

PLAY_TYPES = {PLACED: PLACE, ZOMBIE_PLACED: ZOMBIE, MOVED: MOVE}
_APPLIED = {*PLAY_TYPES, PIECE_DEALT}
"""The event types that act on the state (a ``zombego.zombie_revealed`` only shows a value)."""


def evolve(state: ZombegoState, fact: Fact) -> ZombegoState:
    """Apply one recorded event: a play or a deal by its payload (decoded once; void as
    ``malformed`` when unreadable), a declared result; anything else changes nothing."""
    if fact.type in _APPLIED:
        return _applied(state, fact, fact.payload)
    if fact.type == "ruling.declare_result":
        declared: ResultDeclared = fact.payload
        result = declared_result(fact.seq, declared.winner, state.scores())
        return replace(state, declared_result=result)
    return state


def _applied(
    state: ZombegoState, fact: Fact, event: Placed | Moved | PieceDealt | Unreadable
) -> ZombegoState:
    match event:
        case Placed() | Moved():
            return _played(state, fact, event)
        case PieceDealt():
            return _dealt(state, fact, event)
        case Unreadable():
            return void(state, fact.seq, "malformed")
        case _:
            assert_never(event)


def void(state: ZombegoState, seq: int, reason: str) -> ZombegoState:
    return replace(state, voided=(*state.voided, (seq, reason)))


def _dealt(state: ZombegoState, fact: Fact, dealt: PieceDealt) -> ZombegoState:
    try:
        player = state.player_of(dealt.seat)
        if state.opening.hands[player - 1][dealt.slot] >> 2 != dealt.value:
            return void(state, fact.seq, "deal_mismatch")
    except (KeyError, ValueError, IndexError, TypeError):
        return void(state, fact.seq, "malformed")
    return replace(state, dealt={**state.dealt, (player, dealt.value): fact.seq})


def _played(state: ZombegoState, fact: Fact, played: Placed | Moved) -> ZombegoState:
    try:
        move = _recorded_move(state, fact, played)
        check(state.position, move)
    except DomainError as refused:
        return void(state, fact.seq, refused.code)
    except (KeyError, ValueError, IndexError, TypeError):
        return void(state, fact.seq, "malformed")
    after = push(state.position, move)
    seat = played.seat
    record = PlyRecord(fact.seq, seat, after.ply, move, outcome(state.position, move), after.result)
    return replace(state, position=after, plies=Plies(record, state.plies))


def _recorded_move(state: ZombegoState, fact: Fact, played: Placed | Moved) -> Move:
    if state.declared_result is not None or state.position.result is not None:
        raise RuleViolation("game_over", "the game is over")
    player = state.player_of(played.seat)
    if player != state.position.to_move:
        raise RuleViolation("not_your_turn", "not this seat's turn")
    n = state.position.rules.board
    if isinstance(played, Moved):  # a zombego.moved (its payload type)
        return Move(MOVE, notation.cell(played.origin, n), notation.cell(played.to, n))
    kind = PLAY_TYPES[fact.type]  # a placement, of a zombie or not
    zombie = kind == ZOMBIE
    _, value = hand_piece(state.position, player, slot=played.slot, value=None, zombie=zombie)
    if played.value is not msgspec.UNSET and played.value != value:
        raise RuleViolation("slot_mismatch", "the slot holds another piece now")
    return Move(kind, value, notation.cell(played.cell, n))
