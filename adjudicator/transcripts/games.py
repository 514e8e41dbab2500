"""Each game's post reader and the state hint it reads, by game name (explicit, as the
registry of games)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adjudicator.games.no_not_that import transcript as no_not_that
from adjudicator.games.zombego import transcript as zombego
from adjudicator.games.zoom import transcript as zoom
from adjudicator.transcripts.reading import Reading


@dataclass(frozen=True, slots=True)
class Reader:
    read_post: Callable[..., Reading]
    hint: Callable[[Any], dict[str, Any]]


READERS: dict[str, Reader] = {
    "zoom": Reader(zoom.read_post, zoom.hint),
    "no_not_that": Reader(no_not_that.read_post, no_not_that.hint),
    "zombego": Reader(zombego.read_post, zombego.hint),
}
