"""The match service: the one place where store, clock and rules meet (no HTTP here).

A command: read the stream, fold it at ``now``, ``decide``, append with the expected seq. On a
version conflict (another writer got in first) the command is re-read and re-decided against the
new state, so two simultaneous buzzes are judged in the order the store recorded them.
"""

from __future__ import annotations

import secrets
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel

from adjudicator import rulings
from adjudicator.kernel.canonical import canonical_json, iso, sha256_hex
from adjudicator.kernel.decider import HOST, SYSTEM, Context, Draft, Game, Role, Viewer, seat_actor
from adjudicator.kernel.errors import InvalidCommand, NotPermitted, RuleViolation
from adjudicator.kernel.fold import Folded
from api.tokens import issue_match_tokens
from events import (
    EventStore,
    IdempotentReplay,
    MatchRecord,
    NewEvent,
    StoredEvent,
    TokenGrant,
    UnknownMatch,
    VersionConflict,
)
from projections.facts import to_facts
from projections.live import LiveFolds
from projections.views import Snapshot, snapshot

MAX_ATTEMPTS = 5
GRANT_CACHE_SIZE = 100_000
T = TypeVar("T")


def retrying(attempt: Callable[[], T]) -> T:
    """Run ``attempt`` again while another writer got in first (it re-reads the stream each
    time); after ``MAX_ATTEMPTS`` the last ``VersionConflict`` reaches the caller (409)."""
    for _ in range(MAX_ATTEMPTS - 1):
        try:
            return attempt()
        except VersionConflict:
            continue
    return attempt()


@dataclass(frozen=True, slots=True)
class Acted:
    """What a command or ruling recorded, and its derived outcome."""

    events: list[StoredEvent]
    outcome: dict[str, Any] | None
    replayed: bool


@dataclass(frozen=True, slots=True)
class Created:
    match: MatchRecord
    tokens: dict[str, object]


class MatchService:
    def __init__(
        self, store: EventStore, games: Mapping[str, Game[Any]], clock: Callable[[], datetime]
    ) -> None:
        self.store = store
        self.games = games
        self.clock = clock
        self.live = LiveFolds(store)
        self._grants: dict[str, TokenGrant] = {}

    def grant_for(self, token_hash: str) -> TokenGrant | None:
        """The grant of a token (by hash). Grants never change once issued, so a found one is
        remembered; an unknown hash is asked of the store every time."""
        grant = self._grants.get(token_hash)
        if grant is None:
            grant = self.store.match_for_token(token_hash)
            if grant is not None and len(self._grants) < GRANT_CACHE_SIZE:
                self._grants[token_hash] = grant
        return grant

    # matches

    def create_match(
        self,
        game_name: str,
        seats: tuple[str, str],
        advantage: str | None,
        config: Mapping[str, Any],
        seed: int | None = None,
    ) -> Created:
        game = self.game(game_name)
        if seats[0] == seats[1]:
            raise InvalidCommand("duplicate_seat", "the two seats need different names")
        if advantage is not None and advantage not in seats:
            raise InvalidCommand("unknown_seat", f"Advantage holder {advantage!r} is not a seat")
        checked = game.config_model.model_validate(dict(config)).model_dump(mode="json")
        seed = secrets.randbits(63) if seed is None else seed
        setup = {"seats": list(seats), "advantage": advantage, "config": checked, "seed": seed}
        tokens, records = issue_match_tokens(seats)
        now, match_id = self.clock(), str(uuid.uuid4())
        public = {k: v for k, v in setup.items() if k != "seed"}
        header = {**public, "game": game.name, "rules_version": game.rules_version}
        first = [
            NewEvent("match.created", SYSTEM, now, header),
            NewEvent("match.seeded", SYSTEM, now, {"seed": seed}, private_to=()),
        ]
        match = self.store.create_match(
            match_id, game.name, game.rules_version, setup, records, now, first_events=first
        )
        return Created(match, tokens)

    def game(self, name: str) -> Game[Any]:
        try:
            return self.games[name]
        except KeyError:
            raise InvalidCommand("unknown_game", f"no game named {name!r}") from None

    def match(self, match_id: str) -> MatchRecord:
        match = self.store.get_match(match_id)
        if match is None:
            raise UnknownMatch(match_id)
        return match

    # commands

    def parse(self, match: MatchRecord, body: Mapping[str, Any]) -> BaseModel:
        game = self.game(match.game)
        kind = body.get("type")
        model = game.command_models.get(kind) if isinstance(kind, str) else None
        if model is None:
            known = ", ".join(sorted(game.command_models))
            raise InvalidCommand("unknown_command", f"{match.game} commands are: {known}")
        return model.model_validate(dict(body))

    def execute(
        self,
        match_id: str,
        grant: TokenGrant,
        body: Mapping[str, Any],
        *,
        occurred_at: datetime | None = None,
        idempotency_key: str | None = None,
    ) -> Acted:
        match = self.match(match_id)
        command = self.parse(match, body)
        digest = sha256_hex(canonical_json({"command": dict(body), "at": occurred_at}))
        try:
            return retrying(
                lambda: self._attempt(match, grant, command, occurred_at, idempotency_key, digest)
            )
        except IdempotentReplay as replayed:
            return self._replayed(match, replayed.events)

    def _attempt(
        self,
        match: MatchRecord,
        grant: TokenGrant,
        command: BaseModel,
        occurred_at: datetime | None,
        key: str | None,
        digest: str,
    ) -> Acted:
        if key is not None:
            self.store.check_idempotent(match.match_id, key, digest)
        game = self.game(match.game)
        running = self.live.current(game, match)
        ctx = self.context(grant, running.last_play, occurred_at)
        state = running.at(game, ctx.now)
        if state is None:  # a ruling acts later than now: fold afresh up to now
            state = self.snapshot(match.match_id, ctx.now).folded.state
        drafts = game.decide(state, command, ctx)
        new = [self.new_event(d, ctx) for d in drafts]
        stored = self.store.append(
            match.match_id, running.seq, new, idempotency_key=key, request_digest=digest
        )
        after = running.extend(game, to_facts(stored))
        if running.accepts(to_facts(stored)):
            self.live.put(match.match_id, after)
        return Acted(stored, game.outcome(after.state, stored[0].seq), replayed=False)

    def context(
        self, grant: TokenGrant, last_play: datetime | None, occurred_at: datetime | None
    ) -> Context:
        """Who acts and at what game time: the host's entered time (checked) or now."""
        now = self.clock()
        if occurred_at is not None:
            now = self._entered_time(grant, occurred_at, now, last_play)
        elif last_play is not None and last_play > now:
            now = last_play  # a replica whose clock lags never folds the past wrongly
        if grant.role == "host":
            return Context(actor=HOST, now=now)
        if grant.role == "seat" and grant.seat is not None:
            return Context(actor=seat_actor(grant.seat), now=now, seat=grant.seat)
        raise NotPermitted("read_only_token", "this token may read the match but not act in it")

    @staticmethod
    def _entered_time(
        grant: TokenGrant, entered: datetime, now: datetime, last: datetime | None
    ) -> datetime:
        if grant.role != "host":
            raise NotPermitted("game_time_host_only", "only the host enters a game time")
        if entered > now:
            raise InvalidCommand("game_time_in_future", "an entered game time cannot be ahead")
        if last is not None and entered < last:
            raise RuleViolation(
                "game_time_backwards",
                f"game time {iso(entered)} is before the last recorded one, {iso(last)}",
            )
        return entered

    @staticmethod
    def new_event(draft: Draft, ctx: Context) -> NewEvent:
        """The event to append for ``draft``, acted by ``ctx.actor`` at game time ``ctx.now``."""
        return NewEvent(draft.type, ctx.actor, ctx.now, draft.payload, draft.private_to)

    def _replayed(self, match: MatchRecord, events: list[StoredEvent]) -> Acted:
        game = self.game(match.game)
        state = self.live.current(game, match).state
        return Acted(events, game.outcome(state, events[0].seq), replayed=True)

    # rulings

    def rule(
        self,
        match_id: str,
        grant: TokenGrant,
        ruling: rulings.RulingCommand,
        *,
        idempotency_key: str | None = None,
    ) -> Acted:
        match = self.match(match_id)
        seats = match.setup["seats"]
        digest = sha256_hex(canonical_json(ruling.model_dump(mode="json")))
        actor = HOST if grant.role == "host" else grant.role

        def attempt() -> Acted:
            if idempotency_key is not None:
                self.store.check_idempotent(match_id, idempotency_key, digest)
            last = self.store.last_seq(match_id)
            draft = rulings.decide_ruling(ruling, actor=actor, last_seq=last, seats=seats)
            event = NewEvent(draft.type, HOST, self.clock(), draft.payload)
            stored = self.store.append(
                match_id, last, [event], idempotency_key=idempotency_key, request_digest=digest
            )
            return Acted(stored, None, replayed=False)

        try:
            return retrying(attempt)
        except IdempotentReplay as replayed:
            return Acted(replayed.events, None, replayed=True)

    # closing

    def close(self, match_id: str, grant: TokenGrant) -> Acted:
        """Host: close the match. The result as folded now is recorded in ``match.closed`` by
        the append that closes the match (of racing closes one wins, the others get
        ``match_closed``); from then on nothing more is recorded, and auditors see every
        private fact and salt."""
        if grant.role != "host":
            raise NotPermitted("host_only", "only the host closes a match")
        match = self.match(match_id)
        game = self.game(match.game)

        def attempt() -> Acted:
            running = self.live.current(game, match)
            now = max(self.clock(), running.last_play or self.clock())
            state = running.at(game, now) or self.snapshot(match_id, now).folded.state
            payload = {"result": game.result(state), "rules_version": game.rules_version}
            event = NewEvent("match.closed", HOST, now, payload)
            stored = self.store.append(match_id, running.seq, [event], close=True)
            return Acted(stored, payload, replayed=False)

        return retrying(attempt)

    # reads

    def snapshot(
        self, match_id: str, at: datetime | None = None, known_at: datetime | None = None
    ) -> Snapshot:
        """The match at game time ``at`` as known at record time ``known_at`` (default: now)."""
        match, at = self.match(match_id), at or self.clock()
        game = self.game(match.game)
        if known_at is None:
            running = self.live.current(game, match)
            state = running.at(game, at)
            if state is not None:
                return Snapshot(match, Folded(state, running.effects), at, None, running.seq)
        events = self.store.read(match_id, recorded_by=known_at)
        return snapshot(game, match, events, at, known_at)

    def events(
        self, match_id: str, known_at: datetime | None = None, after_seq: int = 0
    ) -> list[StoredEvent]:
        """The match's events after ``after_seq``, as recorded by ``known_at`` (default: now)."""
        self.match(match_id)
        return self.store.read(match_id, recorded_by=known_at, after_seq=after_seq)

    @staticmethod
    def viewer(match: MatchRecord, grant: TokenGrant | None) -> Viewer:
        closed = match.status == "closed"
        if grant is None or grant.match_id != match.match_id:
            return Viewer(Role.SPECTATOR, closed=closed)
        return Viewer(Role(grant.role), seat=grant.seat, closed=closed)
