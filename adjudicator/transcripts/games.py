"""Each game's post parser and the state hint it reads, by game name (explicit, as the
registry of games)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from adjudicator.games.no_not_that import transcript as no_not_that
from adjudicator.games.zombego import transcript as zombego
from adjudicator.games.zoom import transcript as zoom


@dataclass(frozen=True, slots=True)
class Reader:
    parse_post: Callable[..., dict[str, Any] | None]
    hint: Callable[[Any], dict[str, Any]]


READERS: dict[str, Reader] = {
    "zoom": Reader(zoom.parse_post, zoom.hint),
    "no_not_that": Reader(no_not_that.parse_post, no_not_that.hint),
    "zombego": Reader(zombego.parse_post, zombego.hint),
}
