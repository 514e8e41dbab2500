"""DiscordChatExporter JSON: the channel and its messages as posts.

Root keys used: ``channel`` (``id``, ``name``) and ``messages``; every other key (``guild``,
``dateRange``, ``exportedAt``, ``messageCount``…) is ignored, as is every message field not
needed here. A message needs ``id`` and ``timestamp`` (ISO 8601 with an offset); ``type``
other than ``Default`` and ``Reply`` marks a system message.

:func:`read_discord` takes the export already loaded (the JSON body of the HTTP route), or its
bytes as a file holds them (any buffer: ``bytes``, a ``memoryview``, an ``mmap`` of an uploaded
file). Bytes are decoded by msgspec into typed structs that hold only the fields used (message
``id``, ``type``, ``timestamp``, ``timestampEdited``, ``content``, author ``id``, ``name``,
``nickname``, ``isBot``, channel ``id``, ``name``): the rest of a message (reactions, embeds,
roles, avatars…) is skipped as it is read, never built as Python objects. Loaded JSON is
converted into the same structs (``msgspec.convert``), so both answer the same posts and the
same errors through one reading; one :class:`Author` is shared by all of an author's posts.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from adjudicator.transcripts.posts import Author, Export, Post, TranscriptError, parse_time
from adjudicator.transcripts.text import read_text

MESSAGE_TYPES = frozenset({"Default", "Reply"})
Buffer = bytes | bytearray | memoryview  # or any object with the buffer protocol (mmap)
AT_MESSAGE = re.compile(r"\$\.messages\[(\d+)\]")


class _Author(msgspec.Struct, gc=False):
    id: Any = None
    name: Any = None
    nickname: Any = None
    isBot: Any = None


class _Message(msgspec.Struct, gc=False):
    id: Any = None
    type: Any = None
    timestamp: Any = None
    timestampEdited: Any = None
    content: Any = None
    author: _Author | None = None


class _Channel(msgspec.Struct, gc=False):
    id: Any = None
    name: Any = None


class _Export(msgspec.Struct, gc=False):
    channel: _Channel | None = None
    messages: list[_Message] | None = None


_DECODER = msgspec.json.Decoder(_Export)


def read_discord(data: Any) -> Export:
    """The export as posts in file order; ``not_an_export`` when it is not one. ``data`` is the
    file's bytes (any buffer), decoded straight into the typed structs, or the JSON already
    loaded (the HTTP route's JSON body), converted into the same structs: one reading after."""
    try:
        export = _DECODER.decode(data) if _is_buffer(data) else msgspec.convert(data, _Export)
    except msgspec.ValidationError as error:
        raise _invalid(str(error)) from None
    except msgspec.DecodeError as error:
        raise TranscriptError(
            "not_an_export", f"not a DiscordChatExporter export (not valid JSON: {error})"
        ) from None
    return _read(export)


def _read(export: _Export) -> Export:
    """The posts of the decoded export, each struct freed once read."""
    if export.messages is None:
        raise TranscriptError("not_an_export", "not a DiscordChatExporter export (no messages)")
    channel = export.channel
    if channel is None or not channel.id:
        raise TranscriptError("not_an_export", "not a DiscordChatExporter export (no channel)")
    channel_id = str(channel.id)
    name = str(channel.name or channel_id)
    messages: list[Any] = export.messages
    export.messages = None
    authors: dict[tuple[str, str, str | None, bool], Author] = {}
    posts: list[Post] = []
    for index, message in enumerate(messages):
        posts.append(_struct_post(channel_id, message, index, authors))
        messages[index] = None
    return Export("discord", channel_id, name, tuple(posts))


def _is_buffer(data: Any) -> bool:
    if isinstance(data, bytes | bytearray | memoryview):
        return True
    try:
        memoryview(data).release()
    except TypeError:
        return False
    return True


def _invalid(problem: str) -> TranscriptError:
    """A struct that does not fit: a message's (named by its place) or the root's."""
    found = AT_MESSAGE.search(problem)
    if found is None:
        return TranscriptError("not_an_export", f"not a DiscordChatExporter export ({problem})")
    index = int(found[1])
    return TranscriptError(
        "bad_message", f"message {index + 1} is not a message ({problem})", index=index
    )


def _struct_post(
    channel_id: str, message: _Message, index: int, authors: dict[Any, Author]
) -> Post:
    author = message.author
    said = (None, None, None, None) if author is None else _fields(author)
    return _post(
        channel_id,
        index,
        message.id,
        message.type,
        message.timestamp,
        message.timestampEdited,
        message.content,
        said,
        authors,
    )


def _fields(author: _Author) -> tuple[Any, Any, Any, Any]:
    return author.id, author.name, author.nickname, author.isBot


def _post(
    channel_id: str,
    index: int,
    raw_id: Any,
    kind: Any,
    timestamp: Any,
    edited: Any,
    content: Any,
    author: tuple[Any, Any, Any, Any],
    authors: dict[Any, Author],
) -> Post:
    if not raw_id:
        raise TranscriptError("bad_message", f"message {index + 1} has no id", index=index)
    message_id = str(raw_id)
    where = {"message_id": message_id}
    kind_name = str(kind or "Default")
    return Post(
        kind="discord",
        channel_id=channel_id,
        message_id=message_id,
        order=int(message_id) if message_id.isdigit() else index,
        author=_author(author, message_id, authors),
        posted_at=parse_time(timestamp, **where),
        edited_at=None if edited is None else parse_time(edited, **where),
        content=str(content or ""),
        system=None if kind_name in MESSAGE_TYPES else kind_name,
    )


def _author(
    author: tuple[Any, Any, Any, Any], message_id: str, authors: dict[Any, Author]
) -> Author:
    raw_id, name, nickname, is_bot = author
    if not raw_id:
        raise TranscriptError(
            "bad_message", f"message {message_id} has no author id", message_id=message_id
        )
    author_id = str(raw_id)
    key = (author_id, str(name or raw_id), str(nickname) if nickname else None, bool(is_bot))
    known = authors.get(key)
    if known is None:
        known = authors[key] = Author(*key)
    return known


BOM = b"\xef\xbb\xbf"
FIRST_BYTE = re.compile(rb"\S")


def read_file(data: Any, channel: str = "text") -> Export:
    """A chat export file's bytes (any buffer): DiscordChatExporter JSON when its first byte
    that is not whitespace is ``{``, else a plain-text transcript of channel ``channel``
    (UTF-8; a leading byte order mark is skipped either way)."""
    with memoryview(data) as whole:
        view = whole[len(BOM) :] if whole[: len(BOM)] == BOM else whole
        with view:
            first = FIRST_BYTE.search(view)
            if first is not None and first[0] == b"{":
                return read_discord(view)
            try:
                text = str(view, "utf-8")
            except UnicodeDecodeError as error:
                raise TranscriptError(
                    "not_a_transcript", f"not UTF-8 text (byte {error.start})"
                ) from None
    return read_text(text, channel)
