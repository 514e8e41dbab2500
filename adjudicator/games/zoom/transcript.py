"""Zoom posts as players write them in a chat channel, read as the service's command bodies.

Pure. A seat's buzz is one or more (target, coordinate) pairs in any case, with stray spaces,
emoji and fillers: ``A c4``, ``A: c4, B: a1``, ``a c4 b a1``, ``buzz A c4``, ``B at f3``,
``A=c4``, ``A@c4``. A target is one letter (or a label of the current round, from the hint);
a coordinate is column letters then a row number. Nothing else may be in the post, so ``I
think it's c4`` is chatter. ``priority`` (``I declare priority``…) declares Priority. A host's
``start``, ``go``, ``round 3``, ``start round``, ``next round`` (alone or together) starts the
next round; a number names it. The rules judge what is parsed: a coordinate outside the grid
or a target named twice is refused by ``decide`` exactly as when posted live.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from adjudicator.games.zoom.state import ZoomState
from adjudicator.transcripts.words import is_phrase, words

_COORD = re.compile(r"^[a-z]{1,3}[0-9]{1,4}$")
_BUZZ = {"buzz", "buzzing", "buzzed"}
_FILLER = {"at", "on", "is"}
_PRIORITY = {"priority"}
_PRIORITY_FILLER = {"i", "declare", "declares", "declaring", "claim", "use", "using", "please"}
_START = {"start", "go", "begin", "round", "starts", "starting", "next"}
_START_FILLER = {"the", "now", "number", "no"}


def hint(state: ZoomState) -> dict[str, Any]:
    """What the parser may use of the state: the current round's target labels."""
    current = state.round
    return {"targets": sorted(current.board.targets) if current is not None else []}


def parse_post(
    text: str, *, author_role: str, seat: str | None, state_hint: Mapping[str, Any] | None = None
) -> dict[str, Any] | None:
    """The command body a post asks for, or None when it is chatter."""
    found = words(text)
    if author_role == "host":
        return _start_round(found)
    if seat is None:
        return None
    if is_phrase(found, _PRIORITY, _PRIORITY_FILLER):
        return {"type": "declare_priority", "seat": seat}
    labels = {str(t).lower() for t in (state_hint or {}).get("targets", [])}
    pairs = _pairs(found[1:] if found[:1] and found[0] in _BUZZ else found, labels)
    return None if pairs is None else {"type": "buzz", "seat": seat, "pairs": pairs}


def _pairs(found: list[str], labels: set[str]) -> list[dict[str, str]] | None:
    """``found`` read whole as (target, [filler], coordinate) pairs, or None."""
    pairs, index = [], 0
    while index < len(found):
        label = found[index]
        if not ((len(label) == 1 and label.isalpha()) or label in labels):
            return None
        index += 1
        if index + 1 < len(found) and found[index] in _FILLER and _COORD.match(found[index + 1]):
            index += 1
        if index >= len(found) or not _COORD.match(found[index]):
            return None
        pairs.append({"target": label.upper(), "at": found[index]})
        index += 1
    return pairs or None


def _start_round(found: list[str]) -> dict[str, Any] | None:
    numbers = [w for w in found if w.isdigit()]
    rest = [w for w in found if not w.isdigit()]
    if len(numbers) > 1 or not is_phrase(rest, _START, _START_FILLER):
        return None
    if numbers:
        return {"type": "start_round", "round": int(numbers[0])}
    return {"type": "start_round"}
