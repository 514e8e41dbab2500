"""Zoom's ``decide``: validate a command against the state at ``ctx.now``, say what to record.

Bad input is refused whole (nothing recorded). A well-formed buzz is always recorded, even one
whose pairs turn out ineligible: every buzz is an event, grading is the fold's job.
"""

from __future__ import annotations

from typing import assert_never

from adjudicator.games.zoom import coords
from adjudicator.games.zoom.commands import (
    Buzz,
    DeclarePriority,
    StartRound,
    SuppliedRound,
    ZoomCommand,
)
from adjudicator.games.zoom.events import (
    BUZZED,
    PRIORITY_DECLARED,
    ROUND_STARTED,
    Buzzed,
    BuzzPair,
    PriorityDeclared,
    RoundStarted,
)
from adjudicator.games.zoom.grid import Board, Rows, Shape, generate, normalise
from adjudicator.games.zoom.state import Phase, ZoomState
from adjudicator.kernel.decider import Context, Draft
from adjudicator.kernel.errors import InvalidCommand, NotPermitted, RuleViolation


def decide(state: ZoomState, command: ZoomCommand, ctx: Context) -> list[Draft]:
    match command:
        case StartRound():
            return [_start_round(state, command, ctx)]
        case Buzz():
            return [_buzz(state, command, ctx)]
        case DeclarePriority():
            return [_declare_priority(state, command, ctx)]
        case _:
            assert_never(command)


def _start_round(state: ZoomState, command: StartRound, ctx: Context) -> Draft:
    if not ctx.is_host:
        raise NotPermitted("host_only", "only the host starts rounds")
    if state.phase is Phase.IN_ROUND:
        raise RuleViolation("round_in_progress", "a round is already in progress")
    if state.phase is Phase.FINISHED:
        over = "a result is declared" if state.declared_result else "every round has been played"
        raise RuleViolation("match_over", f"the match is over: {over}")
    number = state.next_round
    if command.round is not None and command.round != number:
        raise RuleViolation("wrong_round", f"the next round is {number}, not {command.round}")
    grid, targets = _round_material(state, number, command.supplied)
    return Draft(ROUND_STARTED, RoundStarted(number, grid, targets))


def _round_material(
    state: ZoomState, number: int, supplied: SuppliedRound | None
) -> tuple[Rows, dict[str, Rows]]:
    supplied = supplied or state.config.supplied_rounds.get(number)
    if supplied is not None:
        grid = normalise(supplied.grid, "grid")
        targets = {k.upper(): normalise(v, f"target {k}") for k, v in supplied.targets.items()}
        _check_targets(Board.build(grid, targets))
    else:
        if state.seed is None:
            raise RuleViolation("no_seed", "this match has no seed: supply the round's grid")
        grid, targets = generate(state.seed, number, shape_of(state))
    return grid, dict(sorted(targets.items()))


def _check_targets(board: Board) -> None:
    for label, target in board.targets.items():
        if len(target) > board.height or len(target[0]) > board.width:
            raise InvalidCommand("target_too_large", f"target {label} is larger than the grid")
        if next(board.occurrences(label), None) is None:
            raise InvalidCommand("target_absent", f"target {label} does not occur in the grid")


def shape_of(state: ZoomState) -> Shape:
    cfg = state.config
    return Shape(
        cfg.grid_height,
        cfg.grid_width,
        cfg.target_height,
        cfg.target_width,
        cfg.targets_per_round,
        tuple(cfg.alphabet),
    )


def _buzz(state: ZoomState, command: Buzz, ctx: Context) -> Draft:
    seat = ctx.acting_for(state.seats, command.seat)
    current = state.round
    if state.phase is not Phase.IN_ROUND or current is None:
        raise RuleViolation("no_round_in_progress", _no_round_message(state))
    labels = [p.target.upper() for p in command.pairs]
    if len(set(labels)) != len(labels):
        raise InvalidCommand("duplicate_target", "a buzz names each target at most once")
    pairs = []
    for label, pair in zip(labels, command.pairs, strict=True):
        if label not in current.board.targets:
            known = ", ".join(sorted(current.board.targets))
            raise InvalidCommand("unknown_target", f"round has targets {known}, not {label!r}")
        row, col = coords.parse(pair.at)
        if row >= current.board.height or col >= current.board.width:
            raise InvalidCommand("outside_grid", f"{pair.at!r} is outside the grid")
        pairs.append(BuzzPair(label, coords.format_cell(row, col)))
    return Draft(BUZZED, Buzzed(seat, tuple(pairs)))


def _no_round_message(state: ZoomState) -> str:
    if state.phase is Phase.FINISHED:
        return "the match is over"
    return "no round is in progress: wait for the host to start the next round"


def _declare_priority(state: ZoomState, command: DeclarePriority, ctx: Context) -> Draft:
    seat = ctx.acting_for(state.seats, command.seat)
    if state.advantage != seat:
        raise RuleViolation("not_advantage_holder", "only the Advantage holder declares Priority")
    if state.priority_used or state.priority_declared_by is not None:
        raise RuleViolation("priority_already_used", "Priority is declared once per match")
    if state.phase is Phase.IN_ROUND:
        raise RuleViolation("round_in_progress", "Priority is declared between rounds")
    if state.phase is Phase.FINISHED:
        raise RuleViolation("match_over", "the match is over")
    return Draft(PRIORITY_DECLARED, PriorityDeclared(seat))
