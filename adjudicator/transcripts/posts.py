"""A chat post as the referee sees it, and the errors of an unreadable export."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from adjudicator.kernel.canonical import iso
from adjudicator.kernel.errors import Code, InvalidCommand, quoted

Kind = Literal["discord", "text"]


class TranscriptError(InvalidCommand):
    """An export that cannot be read; ``details`` name the message (id or line) at fault."""

    def __init__(self, code: Code, message: str, **where: Any) -> None:
        super().__init__(code, message)
        self.details: dict[str, Any] = where


@dataclass(frozen=True, slots=True)
class Author:
    """Who posted: ``id`` (the platform's, or the name for plain text), names to match by."""

    id: str
    name: str
    nickname: str | None = None
    is_bot: bool = False

    def known_as(self, key: str) -> bool:
        """Whether an author-map key names this author: by id, name or nickname (any case)."""
        folded = key.casefold()
        names = (self.name, self.nickname or "")
        return key == self.id or any(folded == n.casefold() for n in names if n)


@dataclass(frozen=True, slots=True)
class Post:
    """One message. ``order`` breaks ties between posts of the same microsecond (the message
    id for Discord, the line for plain text); ``system`` is a non-message kind's name."""

    kind: Kind
    channel_id: str
    message_id: str
    order: int
    author: Author
    posted_at: datetime
    edited_at: datetime | None
    content: str
    system: str | None = None
    line: int | None = None

    @property
    def game_time(self) -> datetime:
        """The post's time in UTC, to the microsecond (an export's 7th fractional digit is
        cut): the game time it is entered at, and the time every preview row shows."""
        return self.posted_at.astimezone(UTC)

    def where(self) -> dict[str, Any]:
        """How an error names this post."""
        place: dict[str, Any] = {"message_id": self.message_id}
        if self.line is not None:
            place["line"] = self.line
        return place

    def source(self) -> dict[str, Any]:
        """The ``source`` an event entered from this post carries."""
        return {
            "kind": self.kind,
            "channel_id": self.channel_id,
            "message_id": self.message_id,
            "author_id": self.author.id,
            "author": self.author.name,
            "posted_at": self.posted_at.isoformat(),
            "edited_at": None if self.edited_at is None else self.edited_at.isoformat(),
        }


@dataclass(frozen=True, slots=True)
class Export:
    """One channel's posts (a channel, or one seat's direct messages with the host)."""

    kind: Kind
    channel_id: str
    channel_name: str
    posts: tuple[Post, ...]


def parse_time(value: Any, **where: Any) -> datetime:
    """An ISO 8601 instant with an offset (0-7 fractional digits); a clear error otherwise."""
    if not isinstance(value, str) or not value.strip():
        raise TranscriptError("missing_timestamp", "a message has no timestamp", **where)
    try:
        moment = datetime.fromisoformat(value.strip())
    except ValueError:
        raise TranscriptError(
            "bad_timestamp", f"{quoted(value)} is not an ISO 8601 time", **where
        ) from None
    if moment.tzinfo is None:
        raise TranscriptError(
            "timestamp_without_offset",
            f"{quoted(value)} has no UTC offset (add Z or +hh:mm)",
            **where,
        )
    return moment


def shown_time(moment: datetime | None) -> str | None:
    return None if moment is None else iso(moment)
