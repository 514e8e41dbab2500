"""Zombego's fold: ``evolve`` applies one recorded event; outcomes are derived here.

``evolve`` never raises on recorded history. A recorded move that the position no longer allows
(say, a ruling undid an earlier move, so it is now the other seat's turn or the cell is taken)
is folded as void, with the refusal code as its reason, and changes nothing else.
"""

from __future__ import annotations

from dataclasses import replace
from typing import cast

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

PLAY_TYPES = {PLACED: PLACE, ZOMBIE_PLACED: ZOMBIE, MOVED: MOVE}


def evolve(state: ZombegoState, fact: Fact) -> ZombegoState:
    if fact.type in PLAY_TYPES:
        return _played(state, fact)
    if fact.type == PIECE_DEALT:
        return _dealt(state, fact)
    if fact.type == "ruling.declare_result":
        return replace(state, declared_result=declared_result(fact, state.scores()))
    return state


def void(state: ZombegoState, seq: int, reason: str) -> ZombegoState:
    return replace(state, voided=(*state.voided, (seq, reason)))


def _dealt(state: ZombegoState, fact: Fact) -> ZombegoState:
    try:
        payload = cast(PieceDealt, fact.payload)
        player = state.player_of(str(payload["seat"]))
        slot, value = int(payload["slot"]), int(payload["value"])
        if state.opening.hands[player - 1][slot] >> 2 != value:
            return void(state, fact.seq, "deal_mismatch")
    except (KeyError, ValueError, IndexError, TypeError):
        return void(state, fact.seq, "malformed")
    return replace(state, dealt={**state.dealt, (player, value): fact.seq})


def _played(state: ZombegoState, fact: Fact) -> ZombegoState:
    try:
        seat = str(fact.payload["seat"])
        move = _recorded_move(state, fact, seat)
        check(state.position, move)
    except DomainError as refused:
        return void(state, fact.seq, refused.code)
    except (KeyError, ValueError, IndexError, TypeError):
        return void(state, fact.seq, "malformed")
    after = push(state.position, move)
    record = PlyRecord(fact.seq, seat, after.ply, move, outcome(state.position, move), after.result)
    return replace(state, position=after, plies=Plies(record, state.plies))


def _recorded_move(state: ZombegoState, fact: Fact, seat: str) -> Move:
    if state.declared_result is not None or state.position.result is not None:
        raise RuleViolation("game_over", "the game is over")
    player = state.player_of(seat)
    if player != state.position.to_move:
        raise RuleViolation("not_your_turn", "not this seat's turn")
    kind, n = PLAY_TYPES[fact.type], state.position.rules.board
    if kind == MOVE:
        moved = cast(Moved, fact.payload)
        return Move(MOVE, notation.cell(moved["from"], n), notation.cell(moved["to"], n))
    payload = cast(Placed, fact.payload)
    _, value = hand_piece(
        state.position, player, slot=int(payload["slot"]), value=None, zombie=kind == ZOMBIE
    )
    if "value" in payload and int(payload["value"]) != value:
        raise RuleViolation("slot_mismatch", "the slot holds another piece now")
    return Move(kind, value, notation.cell(payload["cell"], n))
