"""What a viewer sees of a Zoom match, and the derived result.

Zoom hides nothing from players once a round starts; the seed of a generated match is the one
secret (so nobody can compute future grids): the host sees it, auditors see it after close.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator.games.zoom.coords import format_cell
from adjudicator.games.zoom.grid import Board
from adjudicator.games.zoom.state import (
    BuzzOutcome,
    Found,
    Outcomes,
    Phase,
    Round,
    RoundSummary,
    ZoomState,
)
from adjudicator.kernel.canonical import iso, iso_all
from adjudicator.kernel.decider import Viewer, match_result, post_of


def result(state: ZoomState) -> dict[str, Any] | None:
    """Winner, reason and scores (points) once the match is over; a host ruling's declared
    result (with the scores when it took effect) prevails."""
    if state.declared_result is not None:
        return dict(state.declared_result)
    if state.phase is not Phase.FINISHED:
        return None
    points = state.points()
    a, b = state.seats
    if points[a] != points[b]:
        return match_result(a if points[a] > points[b] else b, "points", points)
    if state.advantage is not None:
        return match_result(state.advantage, "advantage_tiebreak", points)
    return match_result(None, "draw", points)


def summary(state: ZoomState) -> dict[str, Any]:
    return {
        "phase": state.phase.value,
        "round": state.round.number if state.round else None,
        "scores": state.points(),
        "result": result(state),
    }


def view(state: ZoomState, viewer: Viewer) -> dict[str, Any]:
    data: dict[str, Any] = {
        "phase": state.phase.value,
        "seats": list(state.seats),
        "advantage": state.advantage,
        "scores": state.points(),
        "rounds_total": state.config.rounds,
        "rounds_completed": len(state.played),
        "next_round": state.next_round if state.phase is not Phase.IN_ROUND else None,
        "priority": {
            "declared_for_next_round": state.priority_declared_by,
            "used": state.priority_used,
        },
        "round": _round(state.round) if state.round else None,
        "played": [_summary(s) for s in state.played],
        "buzzes": buzz_views(state.outcomes),
        "voided": [{"seq": seq, "reason": reason} for seq, reason in state.voided],
        "result": result(state),
    }
    if viewer.sees_everything:
        data["seed"] = state.seed
    return data


def _round(current: Round) -> dict[str, Any]:
    return {
        "number": current.number,
        "in_progress": current.ended_at is None,
        "started_at": iso(current.started_at),
        "ended_at": iso(current.ended_at) if current.ended_at else None,
        "end_reason": current.end_reason,
        "clock_deadline": iso(current.deadline),
        "priority": {"holder": current.priority_holder, "until": iso(current.priority_until)}
        if current.priority_holder and current.priority_until
        else None,
        "found": {label: _found(f) for label, f in sorted(current.found.items())},
        "lockouts": [
            {"seat": lo.seat, "target": lo.target, "since": iso(lo.since), "until": iso(lo.until)}
            for lo in current.lockouts
        ],
        **board_view(current.board),
    }


def board_view(board: Board) -> dict[str, Any]:
    return {
        "grid": ["".join(r) if all(len(t) == 1 for t in r) else list(r) for r in board.grid],
        "targets": {
            label: ["".join(r) if all(len(t) == 1 for t in r) else list(r) for r in rows]
            for label, rows in sorted(board.targets.items())
        },
        "size": {"rows": board.height, "columns": board.width, "last_cell": _last(board)},
    }


def _last(board: Board) -> str:
    return format_cell(board.height - 1, board.width - 1)


def _found(found: Found) -> dict[str, Any]:
    return {"seat": found.seat, "at": found.at, "when": iso(found.when), "seq": found.seq}


def _summary(summary: RoundSummary) -> dict[str, Any]:
    return {
        "number": summary.number,
        "started_at": iso(summary.started_at),
        "ended_at": iso(summary.ended_at),
        "end_reason": summary.end_reason,
        "found": {label: _found(f) for label, f in sorted(summary.found.items())},
        "void_targets": list(summary.void_targets),
    }


def buzz_view(buzz: BuzzOutcome) -> dict[str, Any]:
    """The buzz as JSON, rendered once per outcome (memoised in ``buzz.rendered``): callers
    get the same dict on every read and must not change it (they copy to add fields)."""
    if buzz.rendered is None:
        object.__setattr__(buzz, "rendered", _render(buzz, iso(buzz.at)))  # a cache
    return buzz.rendered  # type: ignore[return-value]


def buzz_views(outcomes: Outcomes | None) -> list[dict[str, Any]]:
    """``buzz_view`` of every outcome, oldest first; those not rendered yet are rendered in one
    pass, their times written by ``iso_all`` in one call (a match's first view after a restart
    renders thousands)."""
    ordered = list(outcomes or ())
    ordered.reverse()
    render_all(ordered)
    return [b.rendered for b in ordered]  # type: ignore[misc]


def render_all(buzzes: Sequence[BuzzOutcome]) -> None:
    """Memoise ``buzz_view`` of each of ``buzzes`` not rendered yet, their times written by
    ``iso_all`` in one call (also what a stored checkpoint's history keeps: the views of the
    buzzes it decodes are not rendered again)."""
    fresh = [b for b in buzzes if b.rendered is None]
    for buzz, when in zip(fresh, iso_all([b.at for b in fresh]), strict=True):
        object.__setattr__(buzz, "rendered", _render(buzz, when))  # a cache


def _render(buzz: BuzzOutcome, when: str) -> dict[str, Any]:
    pairs = []
    for p in buzz.pairs:
        pair: dict[str, Any] = {"target": p.target, "at": p.at, "outcome": p.verdict.value}
        if p.reason:
            pair["reason"] = p.reason
        if p.amended:
            pair["amended"] = True
        pairs.append(pair)
    rendered: dict[str, Any] = {
        "seq": buzz.seq,
        "seat": buzz.seat,
        "when": when,
        "round": buzz.round,
    }
    rendered["pairs"] = pairs
    post = post_of(buzz.source)
    if post is not None:
        rendered["post"] = post
    return rendered
