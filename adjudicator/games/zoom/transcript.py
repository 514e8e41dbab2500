"""Zoom posts as players and hosts write them in a chat channel, read as command bodies.

Pure. Every post is read to a :class:`~adjudicator.transcripts.reading.Reading`: a command, a
near miss (it looks like a command but is not one as written: the host is shown it first), or
chatter. Text is read in lower case with mentions (``<@id>``, and ``@name`` up to the next
space), emoji and markup dropped, split into words at anything but a letter or digit, so the
signs ``= @ : , ; & + -`` are never words (``A=c4`` is ``a c4``); code (fenced or inline) and
quoted lines (``>``, and all after ``>>>``) are never read. The grammar, word by word
(``docs/transcripts/zoom.md`` has it with examples)::

    seat post   = BUZZ | PRIORITY, the post's lines run together
                  (either one with its last line ending in "?" asks: a near miss)
    BUZZ        = [BUZZ-WORD ["in"]] PAIR { ["and"] PAIR }
    BUZZ-WORD   = "buzz" | "buzzing" | "buzzed"
    PAIR        = ["target"] LABEL { FILLER } CELL          at most two fillers
    FILLER      = "at" | "is" | "on" | "in" | "s"           ("A is at c4", "A's at c4")
    LABEL       = one letter, or a target label of the current round (the state hint)
    CELL        = 1-3 column letters then a row number of 1-4 digits (c4, aa12)
    PRIORITY    = "priority" | "prio", every other word a PRIORITY-WORD:
                  I'll take priority / priority pls / calling priority now / I'll use my priority
    PRIORITY-WORD = i ll will m im d id like want wanna gonna going to let lets me yes take
                  taking call calling use using declare declares declared declaring claim
                  claiming choose activate activating invoke invoking my the a now pls plz
                  please for this next round here ok okay

    host post   = a LINE, outside code and quotes, that says a round starts now:
                    ROUND START-WORD, then the line's end, "now", or a word not NOT-NOW
                  | ROUND DONE, then the line's end or "now"
                  | ROUND "go"
                  | ("start" | "starting" | "begin" | "beginning") ["the"] ROUND, then the
                    line's end or "now"
                  | only "go" (or "goooo"), maybe repeated and then "now", after COUNT words
                    ("go!", "ready, set, go!", "3, 2, 1, GO")
                | or the whole post at most one number and words of start starts starting
                  begin go round next the now number no final, one of them not a filler
                  ("start", "go", "next round", "round 3", "start round 3 now")
    ROUND       = "round" ["no" | "number"] N ["of" M] | ("next" | "final" | "last") "round"
                  N is 1-4 digits, or a number word up to twenty; "third round" and
                  "3rd round" read as "round 3"
    START-WORD  = start starts starting begin begins beginning, "is starting", "is beginning"
    DONE        = "has started" | "has begun" | "started" | "is on" | "is live"
    COUNT       = ready set steady get and on your mark marks, numbers of 1-2 digits
    NOT-NOW     = in at after soon later when once tomorrow tonight today shortly before around
                  by if on next this until within

    N, when given, must be the next round (else the rules refuse it, ``wrong_round``). A post
    whose starts name no N takes it from a heading: a line of only ROUND with its N ("Round 4",
    "**Round 4 of 11**"). Starts naming different rounds are a near miss. A start at the end
    of a line (a "now" may follow it) that ends in "?" ("Round 3 starts now?", "Shall we start
    round 3?", a short form "round 3?") asks: it is no start, and the post a near miss unless
    another line starts a round.

A seat post that names a cell, says "priority" or begins with a BUZZ-WORD but does not read
whole (``A c4 lol``, ``buzz A``) is a near miss. A host line that names a ROUND beside a start
word (START-WORD, "go", "started", "begun") but is no start ("Round 3 starts in 5 minutes") is
a near miss too. A post with struck-out text (``~~A c4~~ B d5``) is a near miss when any of it,
struck or not, is more than chatter. The rules judge what is read: a cell outside the grid, a
label the round does not have or a label named twice is refused by ``decide`` exactly as when
posted live.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from adjudicator.games.zoom.state import ZoomState
from adjudicator.transcripts.reading import CHATTER, Reading, command, near_miss
from adjudicator.transcripts.words import (
    asks,
    is_phrase,
    mention,
    spoken_lines,
    without_code,
    words,
)

_CELL = re.compile(r"^[a-z]{1,3}[0-9]{1,4}$")
_MENTION = mention(r"[a-z]{1,3}[0-9]{1,4}")
_STRUCK = re.compile(r"~~(.+?)~~", re.DOTALL)

_BUZZ = {"buzz", "buzzing", "buzzed"}
_FILLER = {"at", "is", "on", "in", "s"}
_JOIN = {"and"}
_PRIORITY = {"priority", "prio"}
_PRIORITY_WORDS = {
    *("i", "ll", "will", "m", "im", "d", "id", "like", "want", "wanna", "gonna", "going", "to"),
    *("let", "lets", "me", "yes", "take", "taking", "call", "calling", "use", "using"),
    *("declare", "declares", "declared", "declaring", "claim", "claiming", "choose"),
    *("activate", "activating", "invoke", "invoking", "my", "the", "a", "now", "pls", "plz"),
    *("please", "for", "this", "next", "round", "here", "ok", "okay"),
}

_START = {"start", "go", "begin", "round", "starts", "starting", "next"}
_START_FILLER = {"the", "now", "number", "no", "final"}
_START_WORDS = {"start", "starts", "starting", "begin", "begins", "beginning", "go"}
_START_WORDS |= {"started", "begun"}
_NUMBERS = (
    *("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven"),
    *("twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen"),
    *("nineteen", "twenty"),
)
_ORDINALS = (
    *("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"),
    *("tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth"),
    *("seventeenth", "eighteenth", "nineteenth", "twentieth"),
)
_NUMBER_OF = {word: str(n) for n, word in enumerate(_NUMBERS, start=1)}
_ORDINAL_OF = {word: str(n) for n, word in enumerate(_ORDINALS, start=1)}
_NTH = re.compile(r"^([0-9]{1,4})(?:st|nd|rd|th)$")

_ROUND = r"(?:round (?:no |number )?(?P<n>\d{1,4})(?: of \d{1,4})?|(?:next|final|last) round)"
_NOT_NOW = (
    r"(?:in|at|after|soon|later|when|once|tomorrow|tonight|today|shortly|before|around|by|if"
    r"|on|next|this|until|within)"
)
_START_VERB = r"(?:starts|start|begins|begin|is starting|starting|is beginning|beginning)"
_IN_LINE = [
    re.compile(rf"(?:^| ){_ROUND} {_START_VERB}(?= now\b|$| (?!{_NOT_NOW}\b))"),
    re.compile(rf"(?:^| ){_ROUND} (?:has started|has begun|started|is on|is live)(?= now\b|$)"),
    re.compile(rf"(?:^| ){_ROUND} go+(?: |$)"),
    re.compile(rf"(?:^| )(?:start|starting|begin|beginning) (?:the )?{_ROUND}(?= now\b|$)"),
    re.compile(r"^(?:(?:ready|set|steady|get|and|on|your|marks?|\d{1,2}) )*go+(?: go+)*(?: now)?$"),
]
_NAMES_ROUND = re.compile(rf"(?:^| ){_ROUND}(?: |$)")
_HEADING = re.compile(r"^round (?:no |number )?(?P<n>\d{1,4})(?: of \d{1,4})?$")


@dataclass(frozen=True, slots=True)
class _Line:
    words: tuple[str, ...]
    asks: bool


def hint(state: ZoomState) -> dict[str, Any]:
    """What the parser may use of the state: the current round's target labels."""
    current = state.round
    return {"targets": sorted(current.board.targets) if current is not None else []}


def read_post(
    text: str, *, author_role: str, seat: str | None, state_hint: Mapping[str, Any] | None = None
) -> Reading:
    """What the post says: a command body, a near miss, or chatter."""
    read: Callable[[list[_Line]], Reading]
    if author_role == "host":
        read = _host
    elif author_role == "seat" and seat is not None:
        labels = {str(t).lower() for t in (state_hint or {}).get("targets", [])}
        read = partial(_seat, seat=seat, labels=labels)
    else:
        return CHATTER
    plain = without_code(text)
    struck = _STRUCK.findall(plain)
    if not struck:
        return read(_lines(plain))
    readings = [read(_lines(_STRUCK.sub(" ", plain))), *(read(_lines(s)) for s in struck)]
    if all(reading.is_chatter for reading in readings):
        return CHATTER
    return near_miss("has struck-out text (~~…~~): the host decides what it says")


def _lines(text: str) -> list[_Line]:
    """The lines that have words, code and quotes taken out, each with whether it asks."""
    found: list[_Line] = []
    for raw in spoken_lines(text):
        said = words(_MENTION.sub(" ", raw))
        if said:
            found.append(_Line(tuple(said), asks(raw)))
    return found


# --- seats --------------------------------------------------------------------------------------


def _seat(lines: list[_Line], seat: str, labels: set[str]) -> Reading:
    found = [word for line in lines for word in line.words]
    asks = bool(lines) and lines[-1].asks
    if is_phrase(found, _PRIORITY, _PRIORITY_WORDS):
        if asks:
            return near_miss("asks about priority rather than declaring it")
        return command({"type": "declare_priority", "seat": seat})
    pairs = _pairs(_after_buzz_word(found), labels)
    if pairs is not None:
        if asks:
            return near_miss("asks rather than buzzes (ends in '?')")
        return command({"type": "buzz", "seat": seat, "pairs": pairs})
    return _seat_near_miss(found)


def _after_buzz_word(found: list[str]) -> list[str]:
    if found[:1] and found[0] in _BUZZ:
        return found[2:] if found[1:2] == ["in"] else found[1:]
    return found


def _pairs(found: Sequence[str], labels: set[str]) -> list[dict[str, str]] | None:
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
    if found[:1] and found[0] in _BUZZ:
        return near_miss(f"begins with '{found[0]}' but names no whole pair (LABEL CELL)")
    return CHATTER


# --- the host -----------------------------------------------------------------------------------


def _host(lines: list[_Line]) -> Reading:
    said = [_normalised(line.words) for line in lines]
    whole = [word for line in said for word in line]
    short = _short_start(whole)
    if short is not None:
        if lines[-1].asks:
            return near_miss("asks about a start rather than starting the round")
        return command(short)
    numbers: set[int | None] = set()
    heading: int | None = None
    spoken = asked = False
    for line, words_of in zip(lines, said, strict=True):
        text = " ".join(words_of)
        starts = [found for pattern in _IN_LINE if (found := pattern.search(text)) is not None]
        if line.asks and any(set(text[f.end() :].split()) <= {"now"} for f in starts):
            asked = True
        elif starts:
            numbers |= {int(f["n"]) if f.groupdict().get("n") else None for f in starts}
        elif _NAMES_ROUND.search(text) and _START_WORDS & set(words_of):
            spoken = True
        title = _HEADING.match(text)
        heading = int(title["n"]) if title is not None else heading
    if numbers:
        return _started(numbers, heading)
    if asked:
        return near_miss("asks about a start rather than starting the round")
    if spoken:
        return near_miss("speaks of a round starting, but not as a start now")
    return CHATTER


def _normalised(found: Sequence[str]) -> list[str]:
    """Round numbers as digits: "round three" is "round 3", "third round" and "3rd round" too."""
    out: list[str] = []
    for index, word in enumerate(found):
        after = found[index + 1] if index + 1 < len(found) else ""
        nth = _NTH.match(word)
        if after == "round" and (word in _ORDINAL_OF or nth is not None):
            out.append(f"__{_ORDINAL_OF[word] if nth is None else nth[1]}")
        elif word in _NUMBER_OF and _after_round(out):
            out.append(_NUMBER_OF[word])
        elif word == "round" and out[-1:] and out[-1].startswith("__"):
            out[-1:] = ["round", out[-1][2:]]
        else:
            out.append(word)
    return out


def _after_round(out: list[str]) -> bool:
    """Whether the next word is the round's number: after "round" or "round no"."""
    return out[-1:] == ["round"] or (out[-2:-1] == ["round"] and out[-1] in ("no", "number"))


def _started(numbers: set[int | None], heading: int | None) -> Reading:
    named = {n for n in numbers if n is not None}
    if len(named) > 1:
        return near_miss(f"starts more than one round ({', '.join(map(str, sorted(named)))})")
    number = next(iter(named), heading)
    return command({"type": "start_round"} | ({} if number is None else {"round": number}))


def _short_start(found: list[str]) -> dict[str, Any] | None:
    """The whole post one of the short forms: ``go``, ``start``, ``round 3``, ``next round``."""
    numbers = [w for w in found if w.isdigit()]
    rest = [w for w in found if not w.isdigit()]
    if len(numbers) > 1 or not is_phrase(rest, _START, _START_FILLER):
        return None
    if numbers:
        return {"type": "start_round", "round": int(numbers[0])}
    return {"type": "start_round"}
