"""Several host-entered commands recorded as one atomic append (all or nothing).

Each command is decided exactly as ``POST /matches/{id}/commands`` would decide it, at its own
entered game time (never in the future, never before the previous one), against the state the
commands before it leave. Their events are appended in one batch after the seq the first
decision was made against: if another writer got in first, the whole batch is re-read and
re-decided; if any command is refused, nothing is recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from pydantic import BaseModel

from adjudicator.kernel import runner
from adjudicator.kernel.decider import Game
from api.service import handling
from api.service.matches import MatchService
from events import NewEvent, StoredEvent, TokenGrant


@dataclass(frozen=True, slots=True)
class Batch:
    """What a batch recorded: its events, each command's derived outcome, the result after."""

    events: list[StoredEvent]
    outcomes: list[dict[str, Any] | None]
    result: dict[str, Any] | None


def execute_batch(
    service: MatchService,
    match_id: str,
    grant: TokenGrant,
    entries: Sequence[tuple[Mapping[str, Any], datetime]],
    sources: Sequence[dict[str, Any] | None] | None = None,
) -> Batch:
    """Record ``entries`` (command body, entered game time) in order, atomically; the events
    of entry i carry ``sources[i]`` (where it came from, e.g. a chat post) when given."""
    match = service.match(match_id)
    commands = [(service.parse(match, body, grant), at) for body, at in entries]
    origins = list(sources) if sources is not None else [None] * len(commands)

    def decide(loaded: handling.Loaded) -> handling.Plan[tuple[Any, list[Any]]]:
        return _planned(service, loaded, grant, commands, origins)

    handled = handling.handle(service, match, decide)
    state, decisions = handled.then
    game = handled.loaded.game
    if state is None:
        return Batch([], [], None)
    outcomes = [game.outcome(state, d.first_seq) for d in decisions]
    return Batch(handled.stored, outcomes, game.result(state))


def _planned(
    service: MatchService,
    loaded: handling.Loaded,
    grant: TokenGrant,
    commands: Sequence[tuple[BaseModel, datetime]],
    sources: Sequence[dict[str, Any] | None],
) -> handling.Plan[tuple[Any, list[Any]]]:
    """Each command decided in turn, against the state the ones before it leave."""
    game: Game[Any, Any] = loaded.game
    running = loaded.running
    state: Any = None
    last_play, seq = running.last_play, running.seq
    new: list[NewEvent] = []
    decisions: list[runner.Decision[Any]] = []
    for (command, at), source in zip(commands, sources, strict=True):
        ctx = service.context(grant, last_play, at)
        if state is None:
            state = service.state_at(loaded.match, running, ctx.now)
        decision = runner.run(game, state, command, ctx, seq + 1)
        decisions.append(decision)
        new.extend(replace(service.new_event(d, ctx), source=source) for d in decision.drafts)
        state, seq, last_play = decision.after, decision.last_seq, ctx.now
    return handling.Plan(new, (state, decisions))
