"""What each post of a chat export becomes, decided as the live API would decide it.

One loop (:func:`decide_posts`) serves the preview and the entry: every post, in game-time
order, is read by its game's reader (or taken as the host's correction), then decided as
``POST /matches/{id}/commands`` decides a host-entered command at the post's own time. An
accepted command moves the loop's state on and leaves the events to record; nothing here
writes. A post whose time lies before the match's last recorded game time (a post refused when
the export was first entered, previewed again) is judged by the rules against the state at its
own time, so it is shown refused with its rule's code; only if the rules would accept it is it
refused ``game_time_backwards``, as the live API would.

Every post gets one status: ``command`` (recorded on entry), ``flagged`` (``edited``: recorded,
the content as exported counts, at the original time; ``near_miss``: it looks like a command
but does not read whole, so nothing is recorded until the host corrects it), ``refused`` (the
rule's code and message), ``ignored`` (chatter, a host's remark, a spectator, a bot, a system
message), ``excluded`` by the host, or ``already_entered`` (its events' seqs and outcome).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from adjudicator import rulings
from adjudicator.kernel import runner
from adjudicator.kernel.decider import Fact, Game
from adjudicator.kernel.errors import DomainError, InvalidCommand, RuleViolation, quoted
from adjudicator.kernel.fold import Running, timeline
from adjudicator.transcripts.games import READERS, Reader
from adjudicator.transcripts.reading import Reading
from adjudicator.transcripts.triage import Triaged
from api.service import access
from api.service.matches import MatchService
from events import MatchRecord, NewEvent, StoredEvent, TokenGrant
from projections.facts import setup_of, to_facts

Progress = Callable[[int, int], None]
PROGRESS_EVERY = 1000
PostKey = tuple[str, str]  # (channel id, message id)


@dataclass(frozen=True, slots=True)
class Correction:
    """The host's reading of one post: the command it means (a ``POST /commands`` body; a
    seat's post acts for that seat) and why."""

    message_id: str
    command: Mapping[str, Any]
    reason: str
    channel_id: str | None = None


@dataclass(slots=True)
class Decided:
    """What one post became. ``seqs``: the first and last seq of its events (entered or
    about to be); ``reading``: ``machine`` or ``host`` (a correction) for a command."""

    status: str
    reason: str | None = None
    flag: str | None = None
    command: dict[str, Any] | None = None
    outcome: dict[str, Any] | None = None
    refusal: dict[str, str] | None = None
    reading: str | None = None
    seqs: tuple[int, int] | None = None

    @property
    def enters(self) -> bool:
        return self.command is not None and self.status in ("command", "flagged")


@dataclass(slots=True)
class Run:
    """The loop's moving parts and what it decided: one :class:`Decided` per post, the
    events to record (each with its post as ``source``), the state after them."""

    service: MatchService
    match: MatchRecord
    grant: TokenGrant
    game: Game[Any, Any]
    reader: Reader
    running: Running[Any]
    entered: Mapping[PostKey, tuple[int, int]]
    log: Sequence[StoredEvent]
    state: Any = None
    last_play: datetime | None = None
    seq: int = 0
    decided: list[Decided] = field(default_factory=list)
    new: list[NewEvent] = field(default_factory=list)
    past: PastFold | None = None


@dataclass(frozen=True, slots=True)
class Prepared:
    """An export ready to decide: the match, its posts triaged, the host's corrections by
    post, the posts entered before (their first and last seq) and the log they were read from."""

    match: MatchRecord
    posts: list[Triaged]
    corrections: dict[PostKey, Correction]
    entered: dict[PostKey, tuple[int, int]]
    log: Sequence[StoredEvent]


def decide_posts(
    service: MatchService,
    grant: TokenGrant,
    ready: Prepared,
    running: Running[Any],
    progress: Progress | None = None,
) -> Run:
    """Decide every post in order against the match as ``running`` folds it."""
    match, posts = ready.match, ready.posts
    game = service.game(match.game)
    run = Run(service, match, grant, game, READERS[match.game], running, ready.entered, ready.log)
    run.last_play, run.seq = running.last_play, running.seq
    for index, post in enumerate(posts, start=1):
        run.decided.append(_one(run, post, ready.corrections.get(key_of(post))))
        if progress is not None and (index % PROGRESS_EVERY == 0 or index == len(posts)):
            progress(index, len(posts))
    return run


def key_of(post: Triaged) -> PostKey:
    return (post.post.channel_id, post.post.message_id)


def _one(run: Run, post: Triaged, correction: Correction | None) -> Decided:
    if post.status == "already_entered":
        return Decided("already_entered", post.reason, seqs=run.entered.get(key_of(post)))
    if post.status != "candidate":
        return Decided(post.status, post.reason)
    at = post.post.game_time
    past = run.last_play is not None and at < run.last_play
    state = _past_state(run, at) if past else _state_at(run, at)
    machine = run.reader.read_post(
        post.post.content,
        author_role=post.role,
        seat=post.seat,
        state_hint={**run.reader.hint(state), "private": post.dm},
    )
    if correction is not None:
        return _decide(run, post, state, past, _corrected(post, correction, machine))
    if machine.body is None:
        return _not_a_command(post, machine)
    return _decide(run, post, state, past, (machine.body, "machine", None))


def _not_a_command(post: Triaged, machine: Reading) -> Decided:
    if machine.near is not None:
        return Decided("flagged", machine.near, flag="near_miss")
    return Decided("ignored", "host remark" if post.role == "host" else "chatter")


_Read = tuple[dict[str, Any], str, dict[str, Any] | None]


def _corrected(post: Triaged, correction: Correction, machine: Reading) -> _Read:
    body = dict(correction.command)
    if post.role == "seat" and post.seat is not None:
        if body.get("seat", post.seat) != post.seat:
            raise InvalidCommand(
                "correction_wrong_seat",
                f"post {post.post.message_id} is by seat {post.seat!r}; its command acts for"
                " that seat",
            )
        body["seat"] = post.seat
    said = machine.body["type"] if machine.body is not None else None
    read_as = said or ("near_miss" if machine.near is not None else "chatter")
    note = {"reading": "host", "reason": correction.reason, "machine": read_as}
    return body, "host", note


def _decide(run: Run, post: Triaged, state: Any, past: bool, read: _Read) -> Decided:
    body, reading, note = read
    at = post.post.game_time
    try:
        command = run.service.parse(run.match, body)
        if past:  # the rules judge it at its own time; only then is the time itself refused
            runner.run(run.game, state, command, access.acting(run.grant, at), run.seq + 1)
        ctx = run.service.context(run.grant, run.last_play, at)
        decision = runner.run(run.game, state, command, ctx, run.seq + 1)
    except (DomainError, ValidationError) as refused:
        return Decided("refused", command=body, refusal=refusal(refused), reading=reading)
    source = post.post.source() | (note or {})
    run.new.extend(replace(run.service.new_event(d, ctx), source=source) for d in decision.drafts)
    run.seq, run.state, run.last_play = decision.last_seq, decision.after, at
    edited = post.post.edited_at is not None
    return Decided(
        "flagged" if edited else "command",
        flag="edited" if edited else None,
        command=body,
        outcome=runner.outcome(run.game, decision),
        reading=reading,
        seqs=(decision.first_seq, decision.last_seq) if decision.drafts else None,
    )


def _state_at(run: Run, moment: datetime) -> Any:
    """The loop's state advanced to ``moment`` (at or after its last play)."""
    if run.state is None:
        start = max(moment, run.last_play) if run.last_play is not None else moment
        run.state = run.service.state_at(run.match, run.running, start)
    run.state = run.game.advance(run.state, moment)
    return run.state


def _past_state(run: Run, moment: datetime) -> Any:
    """The match's state at an earlier game time, as recorded (for a post behind the log)."""
    if run.past is None:
        run.past = PastFold.of(run.game, run.match, run.log)
    return run.past.at(moment)


@dataclass(slots=True)
class PastFold:
    """The match as recorded, folded forward in game time as the posts behind its log ask for
    it (posts come in time order): one pass over the log for a whole export, not a fold per
    post. The fold is :class:`Running`'s, over the log's timeline (rulings applied)."""

    game: Game[Any, Any]
    running: Running[Any]
    ordered: list[Fact]
    done: int = 0

    @classmethod
    def of(
        cls, game: Game[Any, Any], match: MatchRecord, events: Sequence[StoredEvent]
    ) -> PastFold:
        facts = to_facts(events)
        effects = rulings.resolve(facts)
        start = Running(game.initial(setup_of(match)), effects, 0, None, None)
        return cls(game, start, timeline(facts, effects))

    def at(self, moment: datetime) -> Any:
        """The state at ``moment`` (never earlier than the moment asked before)."""
        end = self.done
        while end < len(self.ordered) and self.ordered[end].at <= moment:
            end += 1
        if end > self.done:
            self.running = self.running.extend(self.game, self.ordered[self.done : end])
            self.done = end
        return self.game.advance(self.running.state, moment)


def refusal(error: DomainError | ValidationError) -> dict[str, str]:
    """A refusal as the live API words it: the rule's code and message."""
    if isinstance(error, DomainError):
        return {"code": error.code, "message": error.message}
    first = error.errors()[0] if error.errors() else {"loc": (), "msg": "not valid"}
    where = ".".join(str(part) for part in first.get("loc", ()))
    return {"code": "invalid_request", "message": f"{where}: {first['msg']}".lstrip(": ")}


def check_corrections(
    posts: Sequence[Triaged], corrections: Sequence[Correction]
) -> dict[PostKey, Correction]:
    """Each correction names one post of the exports, by a mapped author, not entered yet."""
    by_id: dict[str, list[Triaged]] = {}
    for post in posts:
        by_id.setdefault(post.post.message_id, []).append(post)
    found: dict[PostKey, Correction] = {}
    for correction in corrections:
        post = _named(by_id.get(correction.message_id, []), correction)
        if post.status == "already_entered":
            raise RuleViolation(
                "post_already_entered",
                f"post {correction.message_id} was entered before; a ruling (void, amend)"
                " changes what it recorded",
            )
        if post.role is None or post.post.system is not None:
            raise InvalidCommand(
                "post_not_mapped",
                f"post {correction.message_id} is by {post.post.author.name!r}, who is neither"
                " a seat nor a host in the author map",
            )
        if post.status == "excluded":
            raise InvalidCommand(
                "corrected_and_excluded",
                f"post {correction.message_id} is both excluded and corrected: choose one",
            )
        found[key_of(post)] = correction
    return found


def _named(candidates: list[Triaged], correction: Correction) -> Triaged:
    if correction.channel_id is not None:
        candidates = [p for p in candidates if p.post.channel_id == correction.channel_id]
    if len(candidates) != 1:
        what = "no post" if not candidates else "several posts (name the channel_id)"
        raise InvalidCommand(
            "unknown_post",
            f"the exports hold {what} with message id {quoted(correction.message_id)}",
        )
    return candidates[0]
