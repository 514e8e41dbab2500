"""Plain-text transcripts: one post per line, for chats without a JSON exporter.

Grammar (one post starts on each line that matches ``POST``; blank lines are skipped; lines end
at ``\n``, ``\r\n`` or ``\r``, never at other Unicode line separators)::

    POST         = "[" TIME "]" SP+ NAME ":" SP* TEXT
    TIME         = an ISO 8601 date and time with a UTC offset ("Z" or "+hh:mm"), e.g.
                   2026-03-01T20:15:03.250+01:00 (date and time may be split by "T" or a space)
    NAME         = any characters but ":" and "]" (trimmed; the author's name and id)
    CONTINUATION = any other line: it continues the previous post's text (after a newline)

A continuation before the first post is an error (``not_a_transcript``). A post's message id
is ``<line>-<digest>``: its first line's number and a digest of its time, name and text, so an
export that grows at the end keeps the ids of the posts it had.
"""

from __future__ import annotations

import hashlib
import re

from adjudicator.transcripts.posts import Author, Export, Post, TranscriptError, parse_time

POST = re.compile(r"^\[(?P<time>[^\]]*)\]\s+(?P<name>[^:\]]+?)\s*:\s?(?P<text>.*)$")


def read_text(text: str, channel: str = "text") -> Export:
    """The transcript's posts in file order, as a channel named ``channel``."""
    drafts: list[tuple[int, str, str, list[str]]] = []
    for number, line in enumerate(_lines(text), start=1):
        found = POST.match(line)
        if found is not None:
            drafts.append((number, found["time"], found["name"], [found["text"]]))
        elif drafts:
            drafts[-1][3].append(line)
        elif line.strip():
            raise TranscriptError(
                "not_a_transcript", f"line {number} is not '[time] name: text'", line=number
            )
    if not drafts:
        raise TranscriptError("not_a_transcript", "no line of the form '[time] name: text'")
    posts = tuple(_post(channel, *draft) for draft in drafts)
    return Export("text", channel, channel, posts)


def _lines(text: str) -> list[str]:
    """The text's lines: ended by ``\n`` (or ``\r\n``, or a lone ``\r``) only. A post's text
    may hold U+2028, U+0085 or a form feed, which ``str.splitlines`` would also break a line at
    (and the piece after one could then read as a post of its own)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _post(channel: str, number: int, time: str, name: str, lines: list[str]) -> Post:
    content = "\n".join(lines).rstrip()
    digest = hashlib.sha256(f"{time}\n{name}\n{content}".encode()).hexdigest()[:12]
    message_id = f"{number}-{digest}"
    return Post(
        kind="text",
        channel_id=channel,
        message_id=message_id,
        order=number,
        author=Author(id=name.strip(), name=name.strip()),
        posted_at=parse_time(time, message_id=message_id, line=number),
        edited_at=None,
        content=content,
        line=number,
    )
