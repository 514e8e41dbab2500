"""Before any rule is asked: who is who, in what order the posts come, which may be commands.

The host maps authors to seats and hosts by a key (an author id, or a name or nickname in any
case); in a tournament's match, the chat authors its organizer registered for the two players
map to their seats too, for every author the host's own map leaves out. Every other author is
a spectator (or a bot) whose posts are ignored. Several exports
(the channel and each seat's direct messages with the host) are merged by game time; posts of
the same millisecond are ordered by message id (by line in plain text). A post already entered
(its channel and message id are in the match's sources) or excluded by the host is not entered.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from adjudicator.kernel.errors import quoted
from adjudicator.transcripts.posts import Author, Export, Post, TranscriptError

Role = Literal["seat", "host"]
Status = Literal["candidate", "ignored", "excluded", "already_entered"]


@dataclass(frozen=True, slots=True)
class Source:
    """An export handed over: ``dm`` marks a seat's direct messages with the host."""

    export: Export
    dm: bool = False


@dataclass(frozen=True, slots=True)
class Cast:
    """The author map: seat by key, host keys; and ``registered``, seat by key, the chat
    authors a tournament's organizer registered for the match's players, consulted only for
    an author no key of the host's names (and, unlike the host's keys, free to post nowhere:
    a player may have registered an account it did not use)."""

    seats: Mapping[str, str]
    hosts: Collection[str]
    registered: Mapping[str, str] = field(default_factory=dict)

    def role_of(self, author: Author) -> tuple[Role, str | None] | None:
        for key, seat in self.seats.items():
            if author.known_as(key):
                return "seat", seat
        if any(author.known_as(key) for key in self.hosts):
            return "host", None
        for key, seat in self.registered.items():
            if author.known_as(key):
                return "seat", seat
        return None

    def check(self, authors: Iterable[Author]) -> None:
        """Every key of the host's names someone in the exports, and no author is named for
        two roles: by the host's keys, or (for an author the host's keys leave out) by the
        ``registered`` ones."""
        known = list({author.id: author for author in authors}.values())
        for key in [*self.seats, *self.hosts]:
            if not any(author.known_as(key) for author in known):
                raise TranscriptError(
                    "unknown_author",
                    f"the author map names {quoted(key)}, who posts nowhere",
                    key=key,
                )
        for author in known:
            keys = [k for k in [*self.seats, *self.hosts] if author.known_as(k)]
            roles = {self.seats.get(k, "host") for k in keys}
            if not keys:
                keys = [k for k in self.registered if author.known_as(k)]
                roles = {self.registered[k] for k in keys}
            if len(roles) > 1:
                raise TranscriptError(
                    "ambiguous_author",
                    f"{quoted(author.name)} is mapped twice: {keys}",
                    key=keys[0],
                )


@dataclass(frozen=True, slots=True)
class Triaged:
    """A post and what the author map and the host's choices make of it."""

    post: Post
    dm: bool
    role: Role | None
    seat: str | None
    status: Status
    reason: str | None = None


def merged(sources: Sequence[Source]) -> list[tuple[Post, bool]]:
    """Every post of every export once, in game-time order (ties: by message id, then line)."""
    seen: dict[tuple[str, str], tuple[Post, bool]] = {}
    for source in sources:
        for post in source.export.posts:
            seen.setdefault((post.channel_id, post.message_id), (post, source.dm))
    return sorted(seen.values(), key=lambda item: (item[0].game_time, item[0].order))


def triage(
    sources: Sequence[Source],
    cast: Cast,
    *,
    exclude: Collection[str] = (),
    entered: Collection[tuple[str, str]] = (),
) -> list[Triaged]:
    """Each post of ``sources``, in order, with its author's role and whether it may be a
    command; ``exclude`` holds message ids, ``entered`` (channel id, message id) pairs."""
    posts = merged(sources)
    cast.check(post.author for post, _ in posts)
    return [_one(post, dm, cast, exclude, entered) for post, dm in posts]


def _one(
    post: Post,
    dm: bool,
    cast: Cast,
    exclude: Collection[str],
    entered: Collection[tuple[str, str]],
) -> Triaged:
    role = cast.role_of(post.author)
    who, seat = role if role is not None else (None, None)
    status, reason = _status(post, role is not None, exclude, entered)
    return Triaged(post, dm, who, seat, status, reason)


def _status(
    post: Post, mapped: bool, exclude: Collection[str], entered: Collection[tuple[str, str]]
) -> tuple[Status, str | None]:
    if (post.channel_id, post.message_id) in entered:
        return "already_entered", "entered before"
    if post.system is not None:
        return "ignored", f"system message ({post.system})"
    if not mapped:
        return "ignored", "bot" if post.author.is_bot else "spectator"
    if post.message_id in exclude:
        return "excluded", "excluded by the host"
    return "candidate", None
