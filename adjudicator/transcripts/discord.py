"""DiscordChatExporter JSON, already loaded: the channel and its messages as posts.

Root keys used: ``channel`` (``id``, ``name``) and ``messages``; every other key (``guild``,
``dateRange``, ``exportedAt``, ``messageCount``…) is ignored, as is every message field not
needed here. A message needs ``id`` and ``timestamp`` (ISO 8601 with an offset); ``type``
other than ``Default`` and ``Reply`` marks a system message.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from adjudicator.transcripts.posts import Author, Export, Post, TranscriptError, parse_time

MESSAGE_TYPES = frozenset({"Default", "Reply"})


def read_discord(data: Any) -> Export:
    """The export as posts in file order; ``not_an_export`` when it is not one."""
    if not isinstance(data, Mapping) or not isinstance(data.get("messages"), list):
        raise TranscriptError("not_an_export", "not a DiscordChatExporter export (no messages)")
    channel = data.get("channel")
    if not isinstance(channel, Mapping) or not channel.get("id"):
        raise TranscriptError("not_an_export", "not a DiscordChatExporter export (no channel)")
    channel_id = str(channel["id"])
    posts = tuple(
        _post(channel_id, message, index) for index, message in enumerate(data["messages"])
    )
    return Export("discord", channel_id, str(channel.get("name") or channel_id), posts)


def _post(channel_id: str, message: Any, index: int) -> Post:
    if not isinstance(message, Mapping) or not message.get("id"):
        raise TranscriptError("bad_message", f"message {index + 1} has no id", index=index)
    message_id = str(message["id"])
    where = {"message_id": message_id}
    kind = str(message.get("type") or "Default")
    edited = message.get("timestampEdited")
    return Post(
        kind="discord",
        channel_id=channel_id,
        message_id=message_id,
        order=int(message_id) if message_id.isdigit() else index,
        author=_author(message.get("author"), message_id),
        posted_at=parse_time(message.get("timestamp"), **where),
        edited_at=None if edited is None else parse_time(edited, **where),
        content=str(message.get("content") or ""),
        system=None if kind in MESSAGE_TYPES else kind,
    )


def _author(author: Any, message_id: str) -> Author:
    if not isinstance(author, Mapping) or not author.get("id"):
        raise TranscriptError(
            "bad_message", f"message {message_id} has no author id", message_id=message_id
        )
    nickname = author.get("nickname")
    return Author(
        id=str(author["id"]),
        name=str(author.get("name") or author["id"]),
        nickname=str(nickname) if nickname else None,
        is_bot=bool(author.get("isBot")),
    )
