"""The one command handler: load, decide, append, retry, for every way the service records.

Every entry point passes its own decide function: a game command (``MatchService.execute``),
a host's ruling and the match's close (``api.service.host``), a batch of entered commands
(``api.service.batch``), a chat export's posts (``api.service.transcripts``). :func:`handle`
loads the match's live fold (on the first try the cached one, without a store read; on a retry
the store's tail), checks the idempotency key, decides, and appends the decided events with the
seq the decision was made against. If another writer got in first (``VersionConflict``) it
loads and decides again, up to ``MAX_ATTEMPTS`` (``api.service.requests.retrying``). A refusal
decided on a cached fold that the store has since moved past is decided again on the fresh
fold, so nothing is refused on a stale view. After the append the live fold moves on by the
stored events (unless they reshape the past: a ruling, or an event before its horizon).

The one twin: ``MatchService.execute_async`` first tries a game command on the event loop
with the store's append awaited there (PostgreSQL's async connections, ``events.pg_async``;
SQLite's group commit on the loop, ``events.sqlite_async``), and hands anything it
cannot finish there to this handler in the thread pool (see its docstring and
``docs/scaling.md``); what the loop decided and saw refused is decided here once more, on the
store's tail (``fresh``), never again on the same cached fold. Its equality property:
``tests/api/test_loop_twin.py`` (every request, table-driven and generated, answered and
recorded alike both ways, on both backends).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from adjudicator.kernel.decider import Game
from adjudicator.kernel.errors import DomainError
from adjudicator.kernel.fold import Running
from api.service.requests import retrying
from events import MatchRecord, NewEvent, StoredEvent
from projections.facts import to_facts
from projections.live import Live, head_of

if TYPE_CHECKING:
    from api.service.matches import MatchService

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Loaded:
    """What a decide function decides against: the match and its live fold."""

    match: MatchRecord
    game: Game[Any, Any]
    live: Live

    @property
    def running(self) -> Running[Any]:
        return self.live.running


@dataclass(frozen=True, slots=True)
class Plan(Generic[T]):
    """What a decide function decided: the events to append, and what its caller needs of the
    decision afterwards (a runner's decision, a close's payload…)."""

    events: Sequence[NewEvent]
    then: T


@dataclass(frozen=True, slots=True)
class Handled(Generic[T]):
    """What was recorded (nothing, when the plan had no events), the plan's ``then``, and the
    fold the decision was made against."""

    stored: list[StoredEvent]
    then: T
    loaded: Loaded


def handle(
    service: MatchService,
    match: MatchRecord,
    decide: Callable[[Loaded], Plan[T]],
    *,
    key: str | None = None,
    digest: str | None = None,
    close: bool = False,
    fresh: bool = False,
) -> Handled[T]:
    """Load, ``decide``, append (with ``key`` and ``digest`` for a retried request, ``close``
    to close the match in the same append), and retry on a version conflict. ``fresh``: the
    first try loads the store's tail too (the cached fold was decided on already, by the event
    loop's try, and refused or lost its append). Raises the decide function's refusal,
    ``IdempotentReplay`` for a key already recorded, and the store's errors."""
    game = service.game(match.game)

    def attempt(tries: int) -> Handled[T]:
        cached = tries == 0 and not fresh
        if cached:
            live = service.live.cached(game, match)
        else:
            live = service.live.current_live(game, match)
        if key is not None and digest is not None:
            service.store.check_idempotent(match.match_id, key, digest)
        loaded, plan = _decided(service, Loaded(match, game, live), decide, cached)
        stored = _append(service, loaded, plan.events, key, digest, close)
        return Handled(stored, plan.then, loaded)

    return retrying(attempt)


def _decided(
    service: MatchService, loaded: Loaded, decide: Callable[[Loaded], Plan[T]], cached: bool
) -> tuple[Loaded, Plan[T]]:
    """``decide`` on ``loaded``; a refusal on a ``cached`` fold the store has moved past is
    decided again on the fresh one (a refusal on a fresh fold is final)."""
    try:
        return loaded, decide(loaded)
    except DomainError:
        if not cached:
            raise
        fresh = service.live.current_live(loaded.game, loaded.match)
        if fresh.running.seq == loaded.running.seq:
            raise
        again = Loaded(loaded.match, loaded.game, fresh)
        return again, decide(again)


def _append(
    service: MatchService,
    loaded: Loaded,
    events: Sequence[NewEvent],
    key: str | None,
    digest: str | None,
    close: bool,
) -> list[StoredEvent]:
    if not events:
        return []
    match_id = loaded.match.match_id
    stored = service.store.append(
        match_id,
        loaded.running.seq,
        events,
        idempotency_key=key,
        request_digest=digest,
        close=close,
        head=loaded.live.head,
    )
    moved_on(service, loaded, stored)
    return stored


def moved_on(service: MatchService, loaded: Loaded, stored: list[StoredEvent]) -> None:
    """The live fold extended by ``stored`` (appended right after it), when they extend it."""
    facts = to_facts(stored)
    if loaded.running.accepts(facts):
        running = loaded.running.extend(loaded.game, facts)
        service.live.put(loaded.match.match_id, running, head_of(stored))
