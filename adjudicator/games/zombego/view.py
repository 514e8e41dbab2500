"""What a viewer sees of a Zombego match (JSON-ready), and each event's derived outcome.

Perfect-information rulesets show everything. In the hidden variant (spec 11.2-11.5) every seat
sees every piece's cell, owner, zombie flag and hand slot; a value is shown only to its owner,
to everyone once it is a zombie on the board, and to viewers who see everything (the host, and
auditors after close). Consequences, as a fair host would keep them:

* the legal moves (which name the mover's values) are shown only to the seat to move and to
  viewers who see everything;
* a living-on-living attack's outcome depends on the defender's hidden pattern, so the mover
  sees it as ``"hidden"`` before playing; every recorded outcome is public (11.5);
* in the history, another seat's living placement reads ``place:?:<cell>``;
* the helpers of each piece that may move are shown with the legal moves, to the same viewers;
* every value of the piece set comes with its pattern (public: the set is an option).
"""

from __future__ import annotations

from typing import Any

from adjudicator.games.zombego.artwork import describe
from adjudicator.games.zombego.board import cell_name
from adjudicator.games.zombego.movegen import destinations
from adjudicator.games.zombego.movegen import outcome as move_outcome
from adjudicator.games.zombego.notation import move_text
from adjudicator.games.zombego.position import MOVE, PLACE, Move, counts
from adjudicator.games.zombego.state import PlyRecord, ZombegoState
from adjudicator.kernel.decider import Viewer, lookup_outcome


def view(state: ZombegoState, viewer: Viewer) -> dict[str, Any]:
    pos = state.position
    return {
        "game": "zombego",
        "options": state.config.model_dump(mode="json"),
        "players": {"P1": state.seats[0], "P2": state.seats[1]},
        "to_move": None if state.result() else state.seat_of(pos.to_move),
        "ply": pos.ply,
        "board": _board(state, viewer),
        "hands": {state.seat_of(p): _hand(state, viewer, p) for p in (1, 2)},
        "counts": {
            state.seat_of(p): dict(zip(("living", "zombies"), counts(pos, p), strict=True))
            for p in (1, 2)
        },
        "legal": _legal(state, viewer),
        "helpers": _helpers(state, viewer),
        "patterns": {str(value): describe(value) for value in pos.rules.values},
        "history": [_ply(state, viewer, r) for r in reversed(list(state.plies or ()))],
        "voided": [{"seq": seq, "reason": reason} for seq, reason in state.voided],
        "result": state.result(),
    }


def may_see_value(state: ZombegoState, viewer: Viewer, owner: int, on_board_zombie: bool) -> bool:
    if not state.hidden or viewer.sees_everything or on_board_zombie:
        return True
    return viewer.seat == state.seat_of(owner)


def _board(state: ZombegoState, viewer: Viewer) -> dict[str, Any]:
    pos, n = state.position, state.position.rules.board
    cells: dict[str, Any] = {}
    for index, code in enumerate(pos.board):
        if code:
            owner, zombie = (code & 1) + 1, bool(code & 2)
            shown = may_see_value(state, viewer, owner, zombie)
            cells[cell_name(index, n)] = {
                "owner": state.seat_of(owner),
                "zombie": zombie,
                "value": code >> 2 if shown else None,
            }
    return cells


def _hand(state: ZombegoState, viewer: Viewer, holder: int) -> list[dict[str, Any] | None]:
    slots: list[dict[str, Any] | None] = []
    for code in state.position.hands[holder - 1]:
        if not code:
            slots.append(None)
            continue
        owner = (code & 1) + 1
        shown = may_see_value(state, viewer, owner, False)
        value = code >> 2 if shown else None
        slots.append({"owner": state.seat_of(owner), "zombie": bool(code & 2), "value": value})
    return slots


def _legal(state: ZombegoState, viewer: Viewer) -> list[dict[str, str]] | None:
    pos = state.position
    if state.result() is not None:
        return []
    if not _shows_legal(state, viewer):
        return None
    listed = []
    for move in pos.moves:
        result = move_outcome(pos, move).value
        if state.hidden and not viewer.sees_everything and _hidden_fight(state, move):
            result = "hidden"
        listed.append({"move": move_text(move, pos.rules.board), "outcome": result})
    return listed


def _helpers(state: ZombegoState, viewer: Viewer) -> dict[str, list[str]] | None:
    """The helpers (7.1) of each piece that may move, by its cell, to whom the legal moves show."""
    pos = state.position
    if state.result() is not None:
        return {}
    if not _shows_legal(state, viewer):
        return None
    n, origins = pos.rules.board, sorted({move.a for move in pos.moves if move.kind == MOVE})
    found = {
        o: destinations(pos.rules.tables, pos.board, pos.owned, pos.zombies, o)[1] for o in origins
    }
    return {cell_name(o, n): [cell_name(h, n) for h in helpers] for o, helpers in found.items()}


def _shows_legal(state: ZombegoState, viewer: Viewer) -> bool:
    """The legal moves name the mover's values: the hidden variant shows them to the mover only."""
    if not state.hidden or viewer.sees_everything:
        return True
    return viewer.seat == state.seat_of(state.position.to_move)


def _hidden_fight(state: ZombegoState, move: Move) -> bool:
    """A living piece attacking a living piece: the outcome hangs on the defender's value."""
    cells = state.position.board
    return move.kind == MOVE and bool(cells[move.b]) and not (cells[move.a] | cells[move.b]) & 2


def _ply(state: ZombegoState, viewer: Viewer, record: PlyRecord) -> dict[str, Any]:
    n = state.position.rules.board
    text = move_text(record.move, n)
    own = viewer.seat == record.seat
    if record.move.kind == PLACE and state.hidden and not (viewer.sees_everything or own):
        text = f"place:?:{cell_name(record.move.b, n)}"
    return {"seq": record.seq, "ply": record.ply, "seat": record.seat, "move": text,
            "outcome": record.outcome.value}  # fmt: skip


def outcome(state: ZombegoState, seq: int) -> dict[str, Any] | None:
    """The derived outcome of event ``seq``: its ply's outcome and any result, or its voiding."""
    return lookup_outcome(state.voided, seq, state.plies, lambda r: _record_outcome(state, r))


def _record_outcome(state: ZombegoState, record: PlyRecord) -> dict[str, Any]:
    data: dict[str, Any] = {"ply": record.ply, "outcome": record.outcome.value}
    if not state.hidden:
        data["move"] = move_text(record.move, state.position.rules.board)
    if record.result is not None:  # the last ply: the position after it is the state's
        data["result"] = state.result_of(record.result)
    return data
