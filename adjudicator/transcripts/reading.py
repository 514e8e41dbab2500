"""What a post says, as each game's parser reads it: a command, a near miss, or chatter.

A parser never drops a post in silence: it answers a :class:`Reading`. ``body`` is the command
the post asks for, whole; ``near`` says why a post that *looks like* a command (a label and a
cell, an object claim, a move…) is not one as written, so the host is shown it first and may
give the command it means; neither means chatter (or, from a host, a remark).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Reading:
    """A post as read: ``body`` (a command body, read whole) or ``near`` (why it looks like a
    command but is not one as written), or neither (chatter)."""

    body: dict[str, Any] | None = None
    near: str | None = None

    @property
    def is_chatter(self) -> bool:
        return self.body is None and self.near is None


CHATTER = Reading()


def command(body: dict[str, Any]) -> Reading:
    return Reading(body=body)


def near_miss(why: str) -> Reading:
    return Reading(near=why)
