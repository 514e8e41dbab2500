"""A Zombego match as a Ludii game and back, in the JSON shape of ``zombego-golden.jsonl``.

Out: :func:`game_json` turns a match's fold into ``{board, ruleset, piece_set, values, players,
moves, final_position, result}``: ``moves`` are the Ludii move strings (the golden file's
``played``) of the plies the fold applied, so voided moves are left out; the result names the
winner as the golden file does (1 = P1 = the first seat, 2, or None for a draw).

In: :func:`entry_commands` checks a Ludii game's options against the match's
(:func:`options_mismatch`), replays its whole move list from the match's opening position with the
pure engine (:class:`~adjudicator.games.zombego.notation.IllegalPly` at the first illegal ply),
and only then says which ordinary commands enter it. Commands name hand pieces by value, never by
slot, so the seeded hand order of the match never makes a legal Ludii game illegal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.games.zombego import board
from adjudicator.games.zombego.notation import (
    move_text,
    parse_move,
    position_json,
    replay,
    texts,
)
from adjudicator.games.zombego.position import MOVE, ZOMBIE, Position
from adjudicator.games.zombego.state import ZombegoState
from adjudicator.kernel.errors import InvalidCommand, RuleViolation


def game_json(state: ZombegoState) -> dict[str, Any]:
    """The match as folded, as a Ludii game (moves in the order played, voided ones left out)."""
    rules, n = state.position.rules, state.position.rules.board
    return {
        "board": rules.board,
        "ruleset": rules.ruleset.value,
        "piece_set": rules.piece_set,
        "values": list(rules.values),
        "players": {"1": state.seats[0], "2": state.seats[1]},
        "moves": [move_text(record.move, n) for record in reversed(list(state.plies or ()))],
        "final_position": position_json(state.position),
        "result": result_json(state),
    }


def result_json(state: ZombegoState) -> dict[str, Any] | None:
    """The match's result with the winner as a player number (1 or 2; None for a draw)."""
    result = state.result()
    if result is None:
        return None
    winner = result["winner"]
    player = None if winner is None else state.player_of(str(winner))
    return {"winner": player, "reason": result["reason"]}


def options_mismatch(state: ZombegoState, game: Mapping[str, Any]) -> str | None:
    """Why a Ludii game cannot be entered into this match's options, or None if it can.

    ``board``, ``ruleset`` and ``piece_set`` must be given and equal; ``values``, if given, must
    be the piece set's.
    """
    rules = state.position.rules
    wanted = {"board": rules.board, "ruleset": rules.ruleset.value, "piece_set": rules.piece_set}
    for key, value in wanted.items():
        if game.get(key) != value:
            return f"the match plays {key} {value!r}, the game {game.get(key)!r}"
    values = game.get("values")
    if values is not None and list(values) != list(rules.values):
        return f"the piece set's values are {list(rules.values)}, the game's {values}"
    return None


def entry_commands(state: ZombegoState, game: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The commands (request bodies) that enter a Ludii game's moves into a fresh match.

    Raises ``options_mismatch`` (422) for other options, ``match_not_at_start`` (409) when the
    match has moves already, ``illegal_ply`` (422) naming the first illegal move.
    """
    why = options_mismatch(state, game)
    if why is not None:
        raise InvalidCommand("options_mismatch", why)
    if state.position.ply or state.result() is not None:
        raise RuleViolation("match_not_at_start", "a Ludii game is entered into a fresh match")
    moves = texts(game)
    positions = replay(state.opening, moves)
    return [command(state, pos, text) for pos, text in zip(positions, moves, strict=False)]


def command(state: ZombegoState, pos: Position, text: str) -> dict[str, Any]:
    """The command for the legal move ``text`` of the side to move in ``pos``."""
    n = pos.rules.board
    kind, a, b = parse_move(text, n)
    seat = state.seat_of(pos.to_move)
    if kind == MOVE:
        return {"type": "move", "seat": seat, "from": board.cell_name(a, n),
                "to": board.cell_name(b, n)}  # fmt: skip
    kind_name = "place_zombie" if kind == ZOMBIE else "place"
    return {"type": kind_name, "seat": seat, "value": a, "cell": board.cell_name(b, n)}
