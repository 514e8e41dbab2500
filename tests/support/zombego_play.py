"""Zombego commands from Ludii move strings, and random legal play through the Game protocol:
each ply is drawn from the folded position's legal moves and sent by its seat or the host."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from pydantic import BaseModel

from adjudicator.games.zombego import ZombegoGame, board, notation
from adjudicator.games.zombego.commands import Move, Place, PlaceZombie
from adjudicator.games.zombego.position import Ruleset
from adjudicator.kernel.decider import Setup
from tests.kit import Table, Turn

SEATS = ("white", "black")

options = st.fixed_dictionaries(
    {
        "board": st.sampled_from([3, 4, 5, 6]),
        "ruleset": st.sampled_from([r.value for r in Ruleset]),
        "piece_set": st.sampled_from(sorted(board.PIECE_SETS)),
        "ply_cap": st.integers(1, 60),
    }
)


def command(text: str, seat: str) -> BaseModel:
    """The command for a Ludii move string (``place:2:c3``, ``zombie:7:a1``, ``move:a1-a2``)."""
    kind, _, rest = text.partition(":")
    if kind == "move":
        origin, to = rest.split("-")
        return Move.model_validate({"seat": seat, "from": origin, "to": to})
    value, cell = rest.split(":")
    model = Place if kind == "place" else PlaceZombie
    return model(seat=seat, cell=cell, value=int(value))


def play_turns(
    data: st.DataObject, config: dict[str, Any], seed: int | None
) -> tuple[Table, list[Turn]]:
    """Play legal moves drawn by ``data`` until the game ends (every game ends by its cap);
    each ply is drawn from the state the previous command was answered with."""
    table = Table(ZombegoGame(), Setup("m", SEATS, config, seed=seed))
    turns: list[Turn] = []
    t, state = 0.0, table.state(0)
    while (position := state.position).result is None:
        move = data.draw(st.sampled_from(position.moves), label="move")
        seat = SEATS[position.to_move - 1]
        cmd = command(notation.move_text(move, position.rules.board), seat)
        sender = data.draw(st.sampled_from([seat, None]), label="sender")
        decision = table.decide(cmd, t=t, seat=sender)
        table.enter(decision, t=t, seat=sender)
        turns.append(Turn(decision, t))
        t += data.draw(st.sampled_from([0.0, 1.0, 7.5]), label="wait")
        state = decision.after  # the live fold, as the service keeps it (no deadlines here)
    return table, turns
