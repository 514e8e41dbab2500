"""Refereeing a match from the chat channel it was played in: preview, then enter.

Reading exports, the author map and the post parsers are pure (``adjudicator.transcripts``,
each game's ``transcript``); here every accepted post is decided as ``POST
/matches/{id}/commands`` would decide it from the host at the post's own time (refusals exactly
as live, a refused post changing nothing), and ``enter`` records the accepted ones in one
atomic batch (``api.service.batch``), each event carrying its post as ``source``. Posts
already entered (same channel and message id) are skipped; an export of another channel than
the one(s) entered is refused (409 ``transcript_channel_mismatch``) unless it is declared a DM
export.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from adjudicator.kernel import runner
from adjudicator.kernel.decider import Game
from adjudicator.kernel.errors import DomainError, InvalidCommand, RuleViolation
from adjudicator.kernel.fold import Running
from adjudicator.transcripts.discord import read_discord
from adjudicator.transcripts.games import READERS, Reader
from adjudicator.transcripts.posts import shown_time
from adjudicator.transcripts.text import read_text
from adjudicator.transcripts.triage import Cast, Source, Triaged, triage
from api.service import access
from api.service.batch import execute_batch
from api.service.matches import MatchService
from events import MatchRecord, TokenGrant

Progress = Callable[[int, int], None]
PROGRESS_EVERY = 1000


@dataclass(frozen=True, slots=True)
class Handed:
    """What the host hands over: exports, the author map, the posts to leave out."""

    sources: Sequence[Source]
    cast: Cast
    exclude: Collection[str] = ()


class ChannelMismatch(RuleViolation):
    """409 ``transcript_channel_mismatch``: the export is of another channel than the match's."""

    def __init__(self, channel: str, entered: set[str]) -> None:
        super().__init__(
            "transcript_channel_mismatch",
            f"this match was entered from channel(s) {sorted(entered)}, not {channel!r}"
            " (declare a seat's direct messages with the host as dm)",
        )
        self.details = {"channel_id": channel, "entered": sorted(entered)}


def read_export(format: str, content: Any, channel: str | None = None, dm: bool = False) -> Source:
    """One export as a source: ``discord`` (loaded JSON) or ``text`` (the transcript text)."""
    if format == "discord":
        return Source(read_discord(content), dm)
    if format == "text" and isinstance(content, str):
        return Source(read_text(content, channel or "text"), dm)
    raise InvalidCommand("not_an_export", f"an export is 'discord' JSON or 'text', not {format!r}")


@dataclass(slots=True)
class _Decider:
    """The decision loop's moving parts: the fold, the last game time, the next seq."""

    game: Game[Any, Any]
    reader: Reader
    running: Running[Any]
    state: Any = None
    last_play: datetime | None = None
    seq: int = 0
    entries: list[tuple[dict[str, Any], datetime, dict[str, Any]]] = field(default_factory=list)


def preview(
    service: MatchService,
    match_id: str,
    grant: TokenGrant,
    handed: Handed,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Every post with what it would become; nothing is recorded."""
    match, posts = _triaged(service, match_id, grant, handed)
    rows, _ = _decide_all(service, match, grant, posts, progress)
    return _report(match, handed, posts, rows)


def enter(
    service: MatchService,
    match_id: str,
    grant: TokenGrant,
    handed: Handed,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Record the accepted posts' commands in one atomic batch, each at its post's time."""
    match, posts = _triaged(service, match_id, grant, handed)
    rows, entries = _decide_all(service, match, grant, posts, progress)
    report = _report(match, handed, posts, rows)
    del report["posts"]
    if not entries:
        return {**report, "entered": 0, "first_seq": None, "last_seq": None, "result": None}
    commands = [(body, at) for body, at, _ in entries]
    batch = execute_batch(service, match_id, grant, commands, [s for _, _, s in entries])
    return {
        **report,
        "entered": len(entries),
        "first_seq": batch.events[0].seq if batch.events else None,
        "last_seq": batch.events[-1].seq if batch.events else None,
        "result": batch.result,
    }


def _triaged(
    service: MatchService, match_id: str, grant: TokenGrant, handed: Handed
) -> tuple[MatchRecord, list[Triaged]]:
    access.acting_in(grant, match_id)
    access.require_host(grant, "enters a match from a chat export")
    match = service.match(match_id)
    if match.game not in READERS:
        raise InvalidCommand("no_transcript_reader", f"no post parser for {match.game}")
    seats = set(match.setup["seats"])
    for key, seat in handed.cast.seats.items():
        if seat not in seats:
            raise InvalidCommand("unknown_seat", f"{key!r} is mapped to {seat!r}, not a seat")
    entered = [e.source for e in service.events(match_id) if e.source is not None]
    _check_channels(handed.sources, {str(s["channel_id"]) for s in entered})
    done = {(str(s["channel_id"]), str(s["message_id"])) for s in entered}
    return match, triage(handed.sources, handed.cast, exclude=handed.exclude, entered=done)


def _check_channels(sources: Sequence[Source], entered: set[str]) -> None:
    for source in sources:
        channel = source.export.channel_id
        if entered and not source.dm and channel not in entered:
            raise ChannelMismatch(channel, entered)


def _decide_all(
    service: MatchService,
    match: MatchRecord,
    grant: TokenGrant,
    posts: Sequence[Triaged],
    progress: Progress | None,
) -> tuple[list[dict[str, Any]], list[tuple[dict[str, Any], datetime, dict[str, Any]]]]:
    game = service.game(match.game)
    running = service.live.current(game, match)
    loop = _Decider(game, READERS[match.game], running, None, running.last_play, running.seq)
    rows = []
    for index, post in enumerate(posts, start=1):
        rows.append(_row(post, _decide(service, match, grant, loop, post)))
        if progress is not None and (index % PROGRESS_EVERY == 0 or index == len(posts)):
            progress(index, len(posts))
    return rows, loop.entries


def _decide(
    service: MatchService, match: MatchRecord, grant: TokenGrant, loop: _Decider, post: Triaged
) -> dict[str, Any]:
    """What ``post`` becomes; an accepted command moves the loop's state on."""
    if post.status != "candidate":
        return {"status": post.status, "reason": post.reason}
    at = post.post.game_time
    state = _state_at(service, match, loop, max(at, loop.last_play or at))
    hint = {**loop.reader.hint(state), "private": post.dm}
    role = post.role or "spectator"
    body = loop.reader.parse_post(
        post.post.content, author_role=role, seat=post.seat, state_hint=hint
    )
    if body is None:
        return {"status": "ignored", "reason": "chatter"}
    try:
        command = service.parse(match, body)
        ctx = service.context(grant, loop.last_play, at)
        decision = runner.run(loop.game, state, command, ctx, loop.seq + 1)
    except (DomainError, ValidationError) as refused:
        return {"status": "refused", "command": body, "refusal": _refusal(refused)}
    loop.seq, loop.state, loop.last_play = decision.last_seq, decision.after, at
    loop.entries.append((body, at, post.post.source()))
    status = "flagged" if post.post.edited_at is not None else "command"
    return {"status": status, "command": body, "outcome": runner.outcome(loop.game, decision)}


def _state_at(service: MatchService, match: MatchRecord, loop: _Decider, moment: datetime) -> Any:
    if loop.state is None:
        loop.state = service.state_at(match, loop.running, moment)
    loop.state = loop.game.advance(loop.state, moment)
    return loop.state


def _refusal(error: DomainError | ValidationError) -> dict[str, Any]:
    if isinstance(error, DomainError):
        return {"code": error.code, "message": error.message}
    first = error.errors()[0] if error.errors() else {"loc": (), "msg": "not valid"}
    where = ".".join(str(part) for part in first.get("loc", ()))
    return {"code": "invalid_request", "message": f"{where}: {first['msg']}".lstrip(": ")}


def _row(post: Triaged, decided: Mapping[str, Any]) -> dict[str, Any]:
    p = post.post
    row = {
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
        "flag": "edited" if p.edited_at is not None else None,
        "status": decided["status"],
        "reason": decided.get("reason"),
        "command": decided.get("command"),
        "outcome": decided.get("outcome"),
        "refusal": decided.get("refusal"),
    }
    return row


def _report(
    match: MatchRecord, handed: Handed, posts: Sequence[Triaged], rows: list[dict[str, Any]]
) -> dict[str, Any]:
    counts: dict[str, int] = {}
    for row in rows:
        counts[row["status"]] = counts.get(row["status"], 0) + 1
    ignored = {
        (t.post.author.id, t.post.author.name, "bot" if t.post.author.is_bot else "spectator")
        for t in posts
        if t.role is None and t.post.system is None
    }
    return {
        "match_id": match.match_id,
        "game": match.game,
        "channels": [
            {"channel_id": s.export.channel_id, "name": s.export.channel_name, "dm": s.dm}
            for s in handed.sources
        ],
        "ignored_authors": [
            {"author_id": i, "author": name, "as": why} for i, name, why in sorted(ignored)
        ],
        "counts": counts,
        "posts": rows,
    }
