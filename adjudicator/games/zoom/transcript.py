"""Zoom posts as players and hosts write them in a chat channel, read as command bodies.

Pure. Every post is read to a :class:`~adjudicator.transcripts.reading.Reading`: a command, a
near miss (it looks like a command but is not one as written: the host is shown it first), or
chatter. Text is read in lower case with mentions, emoji and markup dropped; code (fenced or
inline) is never read. The grammar, word by word (``docs/transcripts.md`` has it with examples)::

    seat post   = BUZZ | PRIORITY
    BUZZ        = ["buzz" | "buzzing" | "buzzed"] PAIR { ["and"] PAIR }
                  (pairs may run over several lines; "," ";" "&" "+" between them are dropped)
    PAIR        = ["target"] LABEL { FILLER } CELL          at most two fillers
    FILLER      = "at" | "is" | "on" | "="  | "@" | ":"     (the signs are dropped as words)
    LABEL       = one letter, or a target label of the current round (the state hint)
    CELL        = 1-3 column letters then a row number (c4, aa12)
    PRIORITY    = "priority" (or "prio") with only the words players wrap it in:
                  I'll take priority / priority pls / calling priority now / I'll use my priority

    host post   = a line, outside code, that says a round starts now:
                  "round N starts [now]" | "round N begins" | "round N - go" | "round N: go"
                  | "round N go" | "start[ing] round N [now]" | a line of only "go"
                  ("ready, set, go!"); or the whole post one of the short forms "start",
                  "next round", "round N", "start round [N]". N, when given, must be the next
                  round (else the rules refuse it, ``wrong_round``); a bare GO takes N from a
                  heading line "Round N" of the same post. "Round N starts in 5 minutes" is
                  not a start (a near miss, so the host sees it).

A seat post that names a cell or says "priority" but does not read whole (``A c4 lol``) is a
near miss; a host post that mentions a round with a start word but no start phrase is too.
The rules judge what is read: a cell outside the grid or a label named twice is refused by
``decide`` exactly as when posted live.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from adjudicator.games.zoom.state import ZoomState
from adjudicator.transcripts.reading import CHATTER, Reading, command, near_miss
from adjudicator.transcripts.words import is_phrase, lines_of

_CELL = re.compile(r"^[a-z]{1,3}[0-9]{1,4}$")
_BUZZ = {"buzz", "buzzing", "buzzed"}
_FILLER = {"at", "on", "is"}
_JOIN = {"and"}
_PRIORITY = {"priority", "prio"}
_PRIORITY_FILLER = {
    *("i", "ll", "will", "m", "im", "d", "id", "like", "want", "wanna", "gonna", "going", "to"),
    *("take", "taking", "call", "calling", "use", "using", "declare", "declares", "declaring"),
    *("claim", "claiming", "activate", "activating", "invoke", "invoking", "my", "the", "a"),
    *("now", "pls", "plz", "please", "for", "this", "next", "round", "here", "ok", "okay"),
}
_START = {"start", "go", "begin", "round", "starts", "starting", "next"}
_START_FILLER = {"the", "now", "number", "no"}
_START_WORDS = {"start", "starts", "starting", "begin", "begins", "beginning", "go"}
_N = r"round (?:no |number )?(?P<n>\d{1,4})"
_NOT_NOW = r"(?:in|at|after|soon|later|when|once|tomorrow|tonight|shortly|before|around|by|if)"
_IN_LINE = [
    re.compile(rf"(?:^| ){_N} (?:starts|start|begins|begin|is starting)(?= now\b|$| (?!{_NOT_NOW}\b))"),
    re.compile(rf"(?:^| ){_N} go(?: |$)"),
    re.compile(rf"(?:^| )(?:start|starting|begin|beginning) {_N}(?= now\b|$)"),
    re.compile(r"^(?:(?:ready|set|steady|get|and) )*go(?: go)*(?: now)?$"),
]
_HEADING = re.compile(rf"^{_N}$")


def hint(state: ZoomState) -> dict[str, Any]:
    """What the parser may use of the state: the current round's target labels."""
    current = state.round
    return {"targets": sorted(current.board.targets) if current is not None else []}


def read_post(
    text: str, *, author_role: str, seat: str | None, state_hint: Mapping[str, Any] | None = None
) -> Reading:
    """What the post says: a command body, a near miss, or chatter."""
    lines = lines_of(text)
    if author_role == "host":
        return _host(lines)
    if seat is None:
        return CHATTER
    found = [word for line in lines for word in line]
    if is_phrase(found, _PRIORITY, _PRIORITY_FILLER):
        return command({"type": "declare_priority", "seat": seat})
    labels = {str(t).lower() for t in (state_hint or {}).get("targets", [])}
    pairs = _pairs(found[1:] if found[:1] and found[0] in _BUZZ else found, labels)
    if pairs is not None:
        return command({"type": "buzz", "seat": seat, "pairs": pairs})
    return _seat_near_miss(found)


def _pairs(found: list[str], labels: set[str]) -> list[dict[str, str]] | None:
    """``found`` read whole as pairs (see the grammar), or None."""
    pairs: list[dict[str, str]] = []
    index, end = 0, len(found)
    while index < end:
        if pairs and found[index] in _JOIN:
            index += 1
        if index < end and found[index] == "target":
            index += 1
        if index >= end or not _is_label(found[index], labels):
            return None
        label, index = found[index], index + 1
        skipped = 0
        while index < end and found[index] in _FILLER and skipped < 2:
            index, skipped = index + 1, skipped + 1
        if index >= end or not _CELL.match(found[index]):
            return None
        pairs.append({"target": label.upper(), "at": found[index]})
        index += 1
    return pairs or None


def _is_label(word: str, labels: set[str]) -> bool:
    return (len(word) == 1 and word.isalpha()) or word in labels


def _seat_near_miss(found: list[str]) -> Reading:
    if any(_CELL.match(word) for word in found):
        return near_miss("names a cell but does not read as a whole buzz (LABEL CELL …)")
    if _PRIORITY & set(found):
        return near_miss("mentions priority but does not read as a declaration")
    return CHATTER


def _host(lines: list[list[str]]) -> Reading:
    whole = [word for line in lines for word in line]
    short = _short_start(whole)
    if short is not None:
        return command(short)
    numbers: set[int | None] = set()
    heading: int | None = None
    for line in lines:
        said = " ".join(line)
        for pattern in _IN_LINE:
            found = pattern.search(said)
            if found is not None:
                numbers.add(int(found["n"]) if "n" in found.groupdict() else None)
        title = _HEADING.match(said)
        heading = int(title["n"]) if title is not None else heading
    return _started(numbers, heading, whole)


def _started(numbers: set[int | None], heading: int | None, whole: list[str]) -> Reading:
    named = {n for n in numbers if n is not None}
    if len(named) > 1:
        return near_miss(f"starts more than one round ({', '.join(map(str, sorted(named)))})")
    if numbers:
        number = next(iter(named), heading)
        return command({"type": "start_round"} | ({} if number is None else {"round": number}))
    if "round" in whole and _START_WORDS & set(whole):
        return near_miss("speaks of a round starting, but not as a start now")
    return CHATTER


def _short_start(found: list[str]) -> dict[str, Any] | None:
    """The whole post one of the short forms: ``go``, ``start``, ``round 3``, ``next round``."""
    numbers = [w for w in found if w.isdigit()]
    rest = [w for w in found if not w.isdigit()]
    if len(numbers) > 1 or not is_phrase(rest, _START, _START_FILLER):
        return None
    if numbers:
        return {"type": "start_round", "round": int(numbers[0])}
    return {"type": "start_round"}
