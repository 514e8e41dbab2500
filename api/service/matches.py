"""The match service: where store, clock and rules meet (no HTTP here). The host's rulings and
close (``api.service.host``) and the read side (``api.service.reads``) are functions of it.

A command: read the stream, fold it at ``now``, ``decide``, append with the expected seq. On a
version conflict (another writer got in first) the command is re-read and re-decided against the
new state, so two simultaneous buzzes are judged in the order the store recorded them.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from functools import partial
from typing import Any, Protocol, runtime_checkable

import anyio.to_thread
from pydantic import BaseModel, ValidationError

from adjudicator.kernel import runner
from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import (
    MATCH_CREATED,
    MATCH_SEEDED,
    SYSTEM,
    Context,
    Draft,
    Game,
    Viewer,
)
from adjudicator.kernel.errors import DomainError, InvalidCommand, RuleViolation, quoted
from adjudicator.kernel.fold import Folded, Running
from adjudicator.kernel.payloads import plain
from api.service import access, handling
from api.service.errors import ConfigInvalid, UnknownGame
from api.service.prewarm import Prewarm
from api.service.requests import not_in_future, request_digest, scoped_key
from api.service.tokens import issue_match_tokens
from events import (
    EventStore,
    IdempotentReplay,
    MatchRecord,
    NewEvent,
    NewMatch,
    StoredEvent,
    TokenGrant,
    UnknownMatch,
)
from projections.checkpoints import Checkpoints
from projections.facts import setup_of as setup_of_record
from projections.live import Live, LiveFolds
from projections.stored_checkpoints import FoldStore, codec_id
from projections.stored_heads import Heads
from projections.views import NOW, Known, Snapshot, known_instant, reveal_horizon

GRANT_CACHE_SIZE = 100_000


@dataclass(frozen=True, slots=True)
class Acted:
    """What a command, ruling or close recorded, its derived outcome, whether it replays an
    earlier request, and who acted (as a viewer of the match, to redact the events for)."""

    events: list[StoredEvent]
    outcome: dict[str, Any] | None
    replayed: bool
    viewer: Viewer


class OffLoop(Enum):
    """Why a command left the event loop's try (``MatchService.execute_async``) for the
    thread pool: nothing decided yet, or decided on the cached fold and refused there (by
    the rules, or its append by the store)."""

    UNDECIDED = "undecided"
    DECIDED = "decided"


@dataclass(frozen=True, slots=True)
class Created:
    match: MatchRecord
    tokens: dict[str, object]


@dataclass(frozen=True, slots=True)
class Drafted:
    """A match checked and drafted but not stored (``MatchService.new_match``), its tokens."""

    new: NewMatch
    tokens: dict[str, object]


@runtime_checkable
class SettlesConfig(Protocol):
    """A game that fixes part of a new match's configuration itself (No, Not That! names the
    word list that will judge it), so the record says it."""

    def settled(self, config: Mapping[str, Any]) -> dict[str, Any]: ...


class MatchService:
    def __init__(
        self,
        store: EventStore,
        games: Mapping[str, Game[Any, Any]],
        clock: Callable[[], datetime],
        *,
        writable: bool = True,
    ) -> None:
        """``writable``: the store takes writes (a standby's does not: no fold checkpoint is
        stored through it, and it is only read)."""
        self.store = store
        self.games = games
        self.clock = clock
        stored = FoldStore(store) if writable else None
        self.checkpoints = Checkpoints(store, stored=stored, resolve=self._resolve)
        heads = None if stored is None else Heads(stored)
        self.live = LiveFolds(
            store,
            start=self.checkpoints.running,
            resume=None if heads is None else partial(self._resume_head, heads),
        )
        store.on_append(self.checkpoints.appended)
        self._grants: dict[str, TokenGrant] = {}
        self._setups: dict[str, MatchRecord] = {}
        self.warmup = Prewarm()

    def prewarm(self) -> None:
        """Start the resume of the long open matches' live folds in the background
        (``api.service.prewarm``), then delete the stored states of codecs this code does not
        write (a deploy names new ones: ``FoldStore.prune``). Returns at once."""
        self.warmup.start(self)
        stored = self.checkpoints.stored
        if stored is not None:
            codecs = {c for c in map(codec_id, self.games.values()) if c is not None}
            stored.submit(partial(stored.prune, codecs))

    def warming(self) -> bool:
        """Whether the start-up resume still runs (``GET /ready`` waits for it)."""
        return self.warmup.warming()

    def close(self) -> None:
        """Run the background jobs already queued (checkpoints and heads to store) and take
        no more: before the store's connections are closed."""
        if self.checkpoints.stored is not None:
            self.checkpoints.stored.close()

    @staticmethod
    def _resume_head(
        heads: Heads, game: Game[Any, Any], match: MatchRecord
    ) -> tuple[Running[Any], Sequence[StoredEvent]] | None:
        return heads.resume(game, match.match_id, game.initial(setup_of_record(match)))

    def _resolve(self, match_id: str) -> tuple[Game[Any, Any], MatchRecord]:
        """A match's game and record (for the checkpoints' background thread)."""
        match = self.match(match_id)
        return self.game(match.game), match

    def known_grant(self, token_hash: str) -> TokenGrant | None:
        """A grant already remembered (no store access)."""
        return self._grants.get(token_hash)

    def grant_for(self, token_hash: str) -> TokenGrant | None:
        """The grant of a token (by hash). Grants never change once issued, so a found one is
        remembered; an unknown hash is asked of the store every time."""
        grant = self._grants.get(token_hash)
        if grant is None:
            grant = self.store.match_for_token(token_hash)
            if grant is not None:
                self._remember(token_hash, grant)
        return grant

    def _remember(self, token_hash: str, grant: TokenGrant) -> None:
        if len(self._grants) < GRANT_CACHE_SIZE:
            self._grants[token_hash] = grant

    # matches

    def create(self, drafted: Drafted) -> Created:
        """Store a match drafted by :meth:`new_match` (``POST /matches``)."""
        match = self.store.create(drafted.new)
        self.remember(drafted.new)
        return Created(match, drafted.tokens)

    def new_match(
        self,
        game_name: str,
        seats: tuple[str, str],
        advantage: str | None,
        config: Mapping[str, Any],
        seed: int | None = None,
        tournament: Mapping[str, Any] | None = None,
    ) -> Drafted:
        """A new match checked and drafted, not stored: its row, token hashes and first
        events, and its tokens. ``tournament`` (its id, round and board) is recorded in its
        setup and its ``match.created`` event when a tournament pairs it."""
        game = self.game(game_name)
        if seats[0] == seats[1]:
            raise InvalidCommand("duplicate_seat", "the two seats need different names")
        if advantage is not None and advantage not in seats:
            raise InvalidCommand(
                "unknown_seat", f"Advantage holder {quoted(advantage)} is not a seat"
            )
        try:
            checked = game.config_model.model_validate(dict(config)).model_dump(mode="json")
            if isinstance(game, SettlesConfig):
                checked = game.settled(checked)
        except ValidationError as error:
            raise ConfigInvalid(error) from None
        seed = secrets.randbits(63) if seed is None else seed
        setup = {"seats": list(seats), "advantage": advantage, "config": checked, "seed": seed}
        if tournament is not None:
            setup["tournament"] = dict(tournament)
        tokens, records = issue_match_tokens(seats)
        now, match_id = self.clock(), str(uuid.uuid4())
        public = {k: v for k, v in setup.items() if k != "seed"}
        header = {**public, "game": game.name, "rules_version": game.rules_version}
        first = [
            NewEvent(MATCH_CREATED, SYSTEM, now, header),
            NewEvent(MATCH_SEEDED, SYSTEM, now, {"seed": seed}, private_to=()),
        ]
        row = MatchRecord(match_id, game.name, game.rules_version, "open", now, setup, 0, None)
        return Drafted(NewMatch(row, records, first), tokens)

    def remember(self, new: NewMatch) -> None:
        """A stored match's grants, so its tokens' first commands need no lookup."""
        for record in new.tokens:
            grant = TokenGrant(new.record.match_id, record.role, record.seat)
            self._remember(record.token_hash, grant)

    def game(self, name: str) -> Game[Any, Any]:
        try:
            return self.games[name]
        except KeyError:
            raise UnknownGame(name, self.games) from None

    def match(self, match_id: str) -> MatchRecord:
        """The match as stored now (status, last seq); 404 ``unknown_match``."""
        match = self.store.get_match(match_id)
        if match is None:
            raise UnknownMatch(match_id)
        if len(self._setups) < GRANT_CACHE_SIZE:
            self._setups[match_id] = match
        return match

    def setup_of(self, match_id: str) -> MatchRecord:
        """The match for deciding a command: its game and setup never change, so a record read
        once is reused (its status and last seq may be stale: the append checks both)."""
        found = self._setups.get(match_id)
        return found if found is not None else self.match(match_id)

    # commands

    def parse(
        self, match: MatchRecord, body: Mapping[str, Any], grant: TokenGrant | None = None
    ) -> BaseModel:
        """The game's command model for ``body``. A seat's token acts for its own seat without
        naming it: ``seat`` is filled in from the token when the command takes one."""
        game = self.game(match.game)
        kind = body.get("type")
        model = game.command_models.get(kind) if isinstance(kind, str) else None
        if model is None:
            known = ", ".join(sorted(game.command_models))
            raise InvalidCommand("unknown_command", f"{match.game} commands are: {known}")
        data = dict(body)
        seat = access.own_seat(grant)
        if seat is not None and "seat" in model.model_fields:
            data.setdefault("seat", seat)
        return model.model_validate(data)

    def execute(
        self,
        match_id: str,
        grant: TokenGrant,
        body: Mapping[str, Any],
        *,
        occurred_at: datetime | None = None,
        idempotency_key: str | None = None,
        fresh: bool = False,
    ) -> Acted:
        """A game command from ``grant`` (a seat for itself, or the host), at now or, from the
        host, at the entered game time ``occurred_at``; ``fresh``: decided on the store's tail
        from the first try (the event loop decided it on the cached fold already)."""
        access.acting_in(grant, match_id)
        match = self.setup_of(match_id)
        command = self.parse(match, body, grant)
        actor = access.actor_of(grant)
        key = scoped_key(actor, idempotency_key)
        digest = request_digest(actor, command.model_dump(mode="json"), occurred_at)
        try:
            handled = handling.handle(
                self,
                match,
                lambda loaded: self._planned(loaded, grant, command, occurred_at),
                key=key,
                digest=digest,
                fresh=fresh,
            )
        except IdempotentReplay as replayed:
            return self._replayed(match, grant, replayed.events)
        game, viewer = self.game(match.game), access.viewer_of(match, grant)
        return Acted(handled.stored, runner.outcome(game, handled.then), False, viewer)

    def _planned(
        self,
        loaded: handling.Loaded,
        grant: TokenGrant,
        command: BaseModel,
        occurred_at: datetime | None,
    ) -> handling.Plan[runner.Decision[Any]]:
        """A game command decided against the loaded fold: its events and the decision."""
        decision, ctx = self._decide(loaded.match, loaded.running, grant, command, occurred_at)
        return handling.Plan([self.new_event(d, ctx) for d in decision.drafts], decision)

    async def execute_async(
        self,
        match_id: str,
        grant: TokenGrant,
        body: Mapping[str, Any],
        *,
        occurred_at: datetime | None = None,
        idempotency_key: str | None = None,
    ) -> Acted:
        """:meth:`execute`, decided on the event loop and its append awaited there when nothing
        else needs the store (the match's setup and live fold in memory, the game time within
        the live fold's) and the rules accept it; anything else, and an append the store
        refuses (nothing is written then: another append came first, or the idempotency key is
        recorded), goes to :meth:`execute` in the thread pool, which reads what it needs,
        explains every refusal and answers a replay as the first answer; what the loop decided
        already is decided there once more, on the store's tail (not again on the cached fold
        first). A retried request is never recorded twice: the key is unique per match in the
        store."""
        acted = await self._attempt_on_loop(match_id, grant, body, occurred_at, idempotency_key)
        if isinstance(acted, Acted):
            return acted
        execute = partial(
            self.execute, match_id, grant, body, occurred_at=occurred_at,
            idempotency_key=idempotency_key, fresh=acted is OffLoop.DECIDED,
        )  # fmt: skip
        return await anyio.to_thread.run_sync(execute)

    async def _attempt_on_loop(
        self,
        match_id: str,
        grant: TokenGrant,
        body: Mapping[str, Any],
        occurred_at: datetime | None,
        idempotency_key: str | None,
    ) -> Acted | OffLoop:
        """The first try of :meth:`execute` without any store read. ``UNDECIDED`` when it would
        need one or the store cannot append on this loop (nothing is decided here then);
        ``DECIDED`` when the rules refuse (which a fresh read may change, as may a replay) or
        the append was refused."""
        if not self.store.appends_on_loop():
            return OffLoop.UNDECIDED
        match, live = self._setups.get(match_id), None
        if match is not None:
            live = self.live.peek(match_id)
        if match is None or live is None or live.head is None:
            return OffLoop.UNDECIDED
        access.acting_in(grant, match_id)
        command = self.parse(match, body, grant)
        actor = access.actor_of(grant)
        key = scoped_key(actor, idempotency_key)
        digest = request_digest(actor, command.model_dump(mode="json"), occurred_at)
        game = self.game(match.game)
        try:
            ctx = self.context(grant, live.running.last_play, occurred_at)
            state = live.running.at(game, ctx.now)
            if state is None:  # an entered time before the live fold's horizon: a fresh fold
                return OffLoop.UNDECIDED
            decision = runner.run(game, state, command, ctx, live.running.seq + 1)
        except DomainError:
            return OffLoop.DECIDED
        new = [self.new_event(d, ctx) for d in decision.drafts]
        stored = await self.store.append_async(
            match_id, live.running.seq, new, head=live.head, idempotency_key=key,
            request_digest=digest,
        )  # fmt: skip
        if stored is None:
            return OffLoop.DECIDED
        return self._recorded(match, grant, live, decision, stored)

    def _recorded(
        self,
        match: MatchRecord,
        grant: TokenGrant,
        live: Live,
        decision: runner.Decision[Any],
        stored: list[StoredEvent],
    ) -> Acted:
        """The answer to a decision appended on the loop; the live fold moves on."""
        game = self.game(match.game)
        handling.moved_on(self, handling.Loaded(match, game, live), stored)
        viewer = access.viewer_of(match, grant)
        return Acted(stored, runner.outcome(game, decision), replayed=False, viewer=viewer)

    def _decide(
        self,
        match: MatchRecord,
        running: Running[Any],
        grant: TokenGrant,
        command: BaseModel,
        occurred_at: datetime | None,
    ) -> tuple[runner.Decision[Any], Context]:
        ctx = self.context(grant, running.last_play, occurred_at)  # who may act, and when
        state = self.state_at(match, running, ctx.now)
        return runner.run(self.game(match.game), state, command, ctx, running.seq + 1), ctx

    def state_at(self, match: MatchRecord, running: Running[Any], now: datetime) -> Any:
        """The match's state at game time ``now`` as known now: the live fold advanced, or a
        fresh fold when ``now`` lies before the live fold's horizon (an entered past time)."""
        game = self.game(match.game)
        state = running.at(game, now)
        if state is None:
            state = self.snapshot(match.match_id, now).folded.state
        return state

    def context(
        self, grant: TokenGrant, last_play: datetime | None, occurred_at: datetime | None
    ) -> Context:
        """Who acts and at what game time: the host's entered time (checked) or now."""
        now = self.clock()
        if occurred_at is not None:
            now = self._entered_time(grant, occurred_at, now, last_play)
        elif last_play is not None and last_play > now:
            now = last_play  # a replica whose clock lags never folds the past wrongly
        return access.acting(grant, now)

    @staticmethod
    def _entered_time(
        grant: TokenGrant, entered: datetime, now: datetime, last: datetime | None
    ) -> datetime:
        access.require_time_enterer(grant)
        entered = not_in_future(entered, now)
        if last is not None and entered < last:
            raise RuleViolation(
                "game_time_backwards",
                f"game time {iso(entered)} is before the last recorded one, {iso(last)}",
            )
        return entered

    @staticmethod
    def new_event(draft: Draft, ctx: Context) -> NewEvent:
        """The event to append for ``draft``, acted by ``ctx.actor`` at game time ``ctx.now``."""
        return NewEvent(draft.type, ctx.actor, ctx.now, plain(draft.payload), draft.private_to)

    def _replayed(self, match: MatchRecord, grant: TokenGrant, events: list[StoredEvent]) -> Acted:
        game = self.game(match.game)
        state = self.live.current(game, match).state
        outcome = game.outcome(state, events[0].seq)
        return Acted(events, outcome, replayed=True, viewer=access.viewer_of(match, grant))

    # reads

    def snapshot(
        self,
        match_id: str,
        at: datetime | None = None,
        known: Known = NOW,
        viewer: Viewer | None = None,
    ) -> Snapshot:
        """The match at game time ``at`` (default now) as known at record time ``known``
        (default now). For a ``viewer`` who does not see everything, ``at`` never passes the
        record time asked about (at most now): a deadline that has not yet passed in real
        time reveals nothing (``projections.views.reveal_horizon``)."""
        return self.snapshot_of(self.match(match_id), at, known, viewer)

    def snapshot_of(
        self,
        match: MatchRecord,
        at: datetime | None = None,
        known: Known = NOW,
        viewer: Viewer | None = None,
    ) -> Snapshot:
        """:meth:`snapshot` of a match record already read. A read as known now at the game
        time now, or at any game time once the match's live fold is in memory, is answered
        from the live fold when it reaches that far; a read into the past of a match whose
        live fold is not in memory goes to the checkpoints, not through the live fold's
        stored head first (whose state, at its end, would not serve it)."""
        now = self.clock()
        asked_now, at = at is None, at or now
        game = self.game(match.game)
        if known.is_now and (asked_now or self.live.peek(match.match_id) is not None):
            if viewer is not None:
                at = reveal_horizon(viewer, at, now)
            running = self.live.current(game, match)
            state = running.at(game, at)
            if state is not None:
                return Snapshot(match, Folded(state, running.effects), at, known, running.seq)
        elif known.is_now and viewer is not None:
            at = reveal_horizon(viewer, at, now)
        if known.is_now:
            past = self.checkpoints.past(game, match, at)
            if past is not None:  # not in memory: from the stored timeline, the log unread
                return Snapshot(match, past[0], at, known, past[1])
        log = self.checkpoints.known(game, match, known)
        if not known.is_now and viewer is not None:
            at = reveal_horizon(viewer, at, known_instant(known, log.last_recorded, now))
        return Snapshot(match, log.fold(at), at, known, log.last_seq)

    def events(
        self, match_id: str, known: Known = NOW, after_seq: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """The match's events after ``after_seq`` (at most ``limit``), as recorded by
        ``known`` (default: now)."""
        return self.events_of(self.match(match_id), known, after_seq, limit)

    def events_of(
        self, match: MatchRecord, known: Known = NOW, after_seq: int = 0, limit: int | None = None
    ) -> list[StoredEvent]:
        """:meth:`events` of a match record already read."""
        to_seq = known.seq
        if limit is not None:
            to_seq = min(after_seq + limit, to_seq or after_seq + limit)
        return self.store.read(
            match.match_id, to_seq=to_seq, recorded_by=known.at, after_seq=after_seq
        )

    def result_of(self, match: MatchRecord) -> dict[str, Any] | None:
        """The match's result as folded now (None while it is being played)."""
        game = self.game(match.game)
        running = self.live.current(game, match)
        return game.result(
            self.state_at(match, running, max(self.clock(), running.horizon or self.clock()))
        )

    @staticmethod
    def status_of(match: MatchRecord, result: dict[str, Any] | None) -> str:
        """``closed``; ``finished`` (a result, not closed yet); or ``open``."""
        if match.status == "closed":
            return "closed"
        return "finished" if result is not None else "open"
