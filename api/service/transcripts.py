"""Refereeing a match from the chat channel it was played in: preview, then enter.

Reading exports, the author map and the post readers are pure (``adjudicator.transcripts``,
each game's ``transcript``); :mod:`api.service.transcript_posts` decides every post as ``POST
/matches/{id}/commands`` would decide it from the host at the post's own time, and ``enter``
records the accepted ones in one atomic append (re-decided whole if another writer got in
first), each event carrying its post as ``source`` (with the host's reason when the host gave
the command). Posts already entered (same channel and message id) are shown with their seqs
and outcomes and are not entered again; an export of another channel than the one(s) entered
is refused (409 ``transcript_channel_mismatch``) unless it is declared a DM export.

The answer lists the posts flagged for the host first, then the rest in game-time order, one
page at a time (``offset``, ``limit``); ``counts`` and ``total`` cover every post.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Any

from adjudicator.kernel.errors import InvalidCommand, RuleViolation, quoted
from adjudicator.transcripts.discord import read_discord
from adjudicator.transcripts.games import READERS
from adjudicator.transcripts.posts import shown_time
from adjudicator.transcripts.text import read_text
from adjudicator.transcripts.triage import Cast, Source, Triaged, triage
from api.service import access, handling
from api.service.matches import MatchService
from api.service.transcript_posts import (
    Correction,
    Decided,
    PostKey,
    Prepared,
    Progress,
    Run,
    check_corrections,
    decide_posts,
)
from events import MatchRecord, StoredEvent, TokenGrant
from events.tournaments import TournamentStore
from projections import tournaments as tournament_fold

DEFAULT_PAGE = 1000
MAX_PAGE = 10_000


@dataclass(frozen=True, slots=True)
class Handed:
    """What the host hands over: exports, the author map, the posts to leave out, and the
    host's readings of posts (corrections)."""

    sources: Sequence[Source]
    cast: Cast
    exclude: Collection[str] = ()
    corrections: Sequence[Correction] = ()


@dataclass(frozen=True, slots=True)
class Page:
    """Which rows of the answer to list: ``limit`` rows from ``offset`` (flagged first)."""

    offset: int = 0
    limit: int = DEFAULT_PAGE


class ChannelMismatch(RuleViolation):
    """409 ``transcript_channel_mismatch``: the export is of another channel than the match's."""

    def __init__(self, channel: str, entered: set[str]) -> None:
        super().__init__(
            "transcript_channel_mismatch",
            f"this match was entered from channel(s) {sorted(entered)}, not {quoted(channel)}"
            " (declare a seat's direct messages with the host as dm)",
        )
        self.details = {"channel_id": channel, "entered": sorted(entered)}


def read_export(format: str, content: Any, channel: str | None = None, dm: bool = False) -> Source:
    """One export as a source: ``discord`` (loaded JSON) or ``text`` (the transcript text)."""
    if format == "discord":
        return Source(read_discord(content), dm)
    if format == "text" and isinstance(content, str):
        return Source(read_text(content, channel or "text"), dm)
    raise InvalidCommand(
        "not_an_export", f"an export is 'discord' JSON or 'text', not {quoted(format)}"
    )


def preview(
    service: MatchService,
    match_id: str,
    grant: TokenGrant,
    handed: Handed,
    page: Page = Page(),
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Every post with what it would become; nothing is recorded."""
    ready = _prepare(service, match_id, grant, handed)
    running = service.live.current(service.game(ready.match.game), ready.match)
    run = decide_posts(service, grant, ready, running, progress)
    return _report(run, handed, ready.posts, page)


def enter(
    service: MatchService,
    match_id: str,
    grant: TokenGrant,
    handed: Handed,
    page: Page = Page(),
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Record the accepted posts' commands in one atomic append, each at its post's time; the
    answer lists every post with its command, its events' seqs and its outcome, and the
    result as the fold sees it now (every deadline up to now applied)."""
    ready = _prepare(service, match_id, grant, handed)
    tries: list[int] = []

    def decide(loaded: handling.Loaded) -> handling.Plan[Run]:
        reported = progress if not tries else None  # progress is shown for the first try
        tries.append(1)
        run = decide_posts(service, grant, ready, loaded.running, reported)
        return handling.Plan(run.new, run)

    handled = handling.handle(service, ready.match, decide)
    run, stored = handled.then, handled.stored
    return {
        **_report(run, handed, ready.posts, page),
        "entered": sum(1 for d in run.decided if d.enters),
        "first_seq": stored[0].seq if stored else None,
        "last_seq": stored[-1].seq if stored else None,
        "result": _result_now(service, run),
    }


def _result_now(service: MatchService, run: Run) -> dict[str, Any] | None:
    """The result of the state now (or at the last entered post, if later): a match whose
    last round ran out at its deadline shows its result, as ``/state`` does."""
    now = service.clock()
    moment = max(now, run.last_play) if run.last_play is not None else now
    state = run.state if run.state is not None else service.state_at(run.match, run.running, moment)
    return run.game.result(run.game.advance(state, moment))


def _prepare(service: MatchService, match_id: str, grant: TokenGrant, handed: Handed) -> Prepared:
    access.acting_in(grant, match_id)
    access.require_host(grant, "enters a match from a chat export")
    match = service.match(match_id)
    if match.game not in READERS:
        raise InvalidCommand("no_transcript_reader", f"no post parser for {match.game}")
    seats = set(match.setup["seats"])
    for key, seat in handed.cast.seats.items():
        if seat not in seats:
            raise InvalidCommand(
                "unknown_seat", f"{quoted(key)} is mapped to {quoted(seat)}, not a seat"
            )
    log = service.events(match_id)
    entered = _entered(log)
    _check_channels(handed.sources, {channel for channel, _ in entered})
    cast = replace(handed.cast, registered=registered_seats(service, match))
    posts = triage(handed.sources, cast, exclude=handed.exclude, entered=set(entered))
    corrections = check_corrections(posts, handed.corrections)
    return Prepared(match, posts, corrections, entered, log)


def registered_seats(service: MatchService, match: MatchRecord) -> dict[str, str]:
    """Chat author key -> seat: in a tournament's match, the chat authors its organizer
    registered for the pairing's two players (``setup["tournament"]``: the first player holds
    the first seat), which the chat import maps unless the host's author map names them."""
    paired = match.setup.get("tournament")
    if not isinstance(paired, dict):
        return {}
    events = TournamentStore(service.store).read(paired["id"])
    registered = tournament_fold.fold_tournament(events).chat_authors
    players = (paired["first"], paired["second"])
    return {
        key: seat
        for seat, player in zip(match.setup["seats"], players, strict=True)
        for key in registered.get(player, ())
    }


def _entered(events: Sequence[StoredEvent]) -> dict[PostKey, tuple[int, int]]:
    """Each post entered before: the first and last seq of its events."""
    found: dict[PostKey, tuple[int, int]] = {}
    for event in events:
        if event.source is not None:
            key = (str(event.source["channel_id"]), str(event.source["message_id"]))
            first = found.get(key, (event.seq, event.seq))[0]
            found[key] = (first, event.seq)
    return found


def _check_channels(sources: Sequence[Source], entered: set[str]) -> None:
    for source in sources:
        channel = source.export.channel_id
        if entered and not source.dm and channel not in entered:
            raise ChannelMismatch(channel, entered)


def _report(run: Run, handed: Handed, posts: Sequence[Triaged], page: Page) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for decided in run.decided:
        counts[decided.status] = counts.get(decided.status, 0) + 1
    order = sorted(range(len(posts)), key=lambda i: run.decided[i].status != "flagged")
    shown = order[page.offset : page.offset + page.limit]
    current = _current_state(run) if any(run.decided[i].seqs for i in shown) else None
    return {
        "match_id": run.match.match_id,
        "game": run.match.game,
        "channels": [
            {"channel_id": s.export.channel_id, "name": s.export.channel_name, "dm": s.dm}
            for s in handed.sources
        ],
        "ignored_authors": _ignored_authors(posts),
        "counts": counts,
        "total": len(posts),
        "offset": page.offset,
        "limit": page.limit,
        "posts": [_row(i, posts[i], run.decided[i], run, current) for i in shown],
    }


def _current_state(run: Run) -> Any:
    """The state after everything recorded and decided: where entered posts' outcomes are."""
    return run.state if run.state is not None else run.running.state


def _without_post(outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    """An outcome as a row shows it: the row is the post, so the outcome does not name it."""
    if outcome is None or "post" not in outcome:
        return outcome
    return {k: v for k, v in outcome.items() if k != "post"}


def _ignored_authors(posts: Sequence[Triaged]) -> list[dict[str, str]]:
    ignored = {
        (t.post.author.id, t.post.author.name, "bot" if t.post.author.is_bot else "spectator")
        for t in posts
        if t.role is None and t.post.system is None
    }
    return [{"author_id": i, "author": name, "as": why} for i, name, why in sorted(ignored)]


def _row(index: int, post: Triaged, decided: Decided, run: Run, current: Any) -> dict[str, Any]:
    p = post.post
    outcome = decided.outcome
    if decided.status == "already_entered" and decided.seqs is not None and current is not None:
        outcome = _without_post(run.game.outcome(current, decided.seqs[0]))
    return {
        "index": index,
        "message_id": p.message_id,
        "channel_id": p.channel_id,
        "dm": post.dm,
        "line": p.line,
        "author_id": p.author.id,
        "author": p.author.name,
        "role": post.role or ("bot" if p.author.is_bot else "spectator"),
        "seat": post.seat,
        "posted_at": p.posted_at.isoformat(),
        "edited_at": None if p.edited_at is None else p.edited_at.isoformat(),
        "game_time": shown_time(p.game_time),
        "content": p.content,
        "flag": decided.flag,
        "status": decided.status,
        "reason": decided.reason,
        "command": decided.command,
        "reading": decided.reading,
        "enters": decided.enters,
        "seqs": list(decided.seqs) if decided.seqs is not None else None,
        "outcome": outcome,
        "refusal": decided.refusal,
    }
