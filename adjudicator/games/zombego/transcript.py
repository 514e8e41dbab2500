"""Zombego posts as players write them in a chat channel, read as command bodies.

Pure. Every post is read to a :class:`~adjudicator.transcripts.reading.Reading`: a command, a
near miss (it looks like a move but is not one as written: the host is shown it first), or
chatter. Text is read in lower case with mentions, emoji and markup dropped, split into words at
anything but a letter or digit (``b1-c3`` and ``place:3:c2`` are three words, ``3@c2`` two);
code (fenced or inline) and quoted lines (``>``, and all after ``>>>``) are never read. The
grammar, word by word (``docs/transcripts/zombego.md`` has it with examples)::

    seat post   = the whole post, its lines run together, read as one COMMAND
                | else its one LINE that reads as a COMMAND, every other line chatter with no
                  TAKE-BACK word (two commands, or a line that is a near miss: a near miss)
                  a command whose last line ends in "?" asks: a near miss
    COMMAND     = MOVE | PLACE
    MOVE        = exactly two CELLs, every other word a MOVE-WORD     -> move {from, to}
                  the first CELL is where the piece stands, the second where it goes
                  ("to c3 from b1" reads b1 to c3)
    MOVE-WORD   = SAY | move moves moving mv go goes piece the from to x takes take taking
                  capture captures capturing attack attacks attacking into onto on at zombie
                  play plays playing jump jumps jumping with
    PLACE       = exactly one NUMBER before exactly one CELL, every other word a PLACE-WORD
                                                   -> place | place_zombie {cell, value | slot}
                  a zombie when "zombie" or "z" is said ("z2", "zombie:2:d4"); by hand slot when
                  "slot" is said ("slot 1 c2", "slot1 c2"), else by value
    PLACE-WORD  = SAY | place places placing put puts putting drop drops dropping play plays
                  playing enter the a piece living live at on to in onto into from hand value v
                  slot zombie z new
    SAY         = i ll will m im gonna going ok okay so then now pls please plz thx ty thanks
                  let lets me lemme my turn s it is
    CELL        = a file letter a-l then a rank of one or two digits (c2, B1, l12); one word
                  "b1xc3" is the two cells b1 and c3
    NUMBER      = 1-3 digits, alone or after v, z or slot in one word (v56, z2, slot1)
    TAKE-BACK   = wait oops undo nvm nevermind scratch meant instead cancel retract mistake typo
    SPELLINGS   = zombi zomby zombei zomibe zobmie (zombie), palce plcae (place), mvoe moev (move)

    host post   = never a command: a host does not move for a seat from chat. A host line that
                  reads as a COMMAND (after an optional first word, "white: b1-c3") is a near
                  miss, so the host sees it; anything else a host says is a remark.

Ludii's move strings read by this grammar: ``place:3:c2``, ``zombie:2:d4``, ``move:b1-c3``.
A seat post with a CELL, or whose first word after SAY is move, mv, place, placing, put,
drop, zombie, z or slot, that does not read whole (``b1 c3 lol``, ``move b1``, ``place it``) is a
near miss. Whether a cell is on the board, the piece in hand, and the move legal is for the
rules to say, exactly as when posted live.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.transcripts.reading import CHATTER, Reading, command, near_miss
from adjudicator.transcripts.words import asks, mention, spoken_lines, words

Body = dict[str, Any]

_CELL = re.compile(r"^[a-l][0-9]{1,2}$")
_MENTION = mention(r"[a-l][0-9]{1,2}")
_TWO_CELLS = re.compile(r"^([a-l][0-9]{1,2})x([a-l][0-9]{1,2})$")
_MARKED = re.compile(r"^(v|z|slot)([0-9]{1,3})$")
_SPELLINGS = {
    **dict.fromkeys(("zombi", "zomby", "zombei", "zomibe", "zobmie"), "zombie"),
    **dict.fromkeys(("palce", "plcae"), "place"),
    **dict.fromkeys(("mvoe", "moev"), "move"),
}
_SAY = {
    *("i", "ll", "will", "m", "im", "gonna", "going", "ok", "okay", "so", "then", "now", "pls"),
    *("please", "plz", "thx", "ty", "thanks", "let", "lets", "me", "lemme", "my", "turn", "s"),
    *("it", "is"),
}
_MOVE_WORDS = _SAY | {
    *("move", "moves", "moving", "mv", "go", "goes", "piece", "the", "from", "to", "x", "takes"),
    *("take", "taking", "capture", "captures", "capturing", "attack", "attacks", "attacking"),
    *("into", "onto", "on", "at", "zombie", "play", "plays", "playing", "jump", "jumps"),
    *("jumping", "with"),
}
_PLACE_WORDS = _SAY | {
    *("place", "places", "placing", "put", "puts", "putting", "drop", "drops", "dropping"),
    *("play", "plays", "playing", "enter", "the", "a", "piece", "living", "live", "at", "on"),
    *("to", "in", "onto", "into", "from", "hand", "value", "v", "slot", "zombie", "z", "new"),
}
_ZOMBIE = {"zombie", "z"}
_STARTS = {"move", "mv", "place", "placing", "put", "drop", "zombie", "z", "slot"}
_TAKE_BACK = {
    *("wait", "oops", "undo", "nvm", "nevermind", "scratch", "meant", "instead", "cancel"),
    *("retract", "mistake", "typo"),
}


@dataclass(frozen=True, slots=True)
class _Line:
    words: tuple[str, ...]
    asks: bool


def hint(state: object) -> dict[str, Any]:
    """Zombego's reader needs nothing of the state."""
    return {}


def read_post(
    text: str, *, author_role: str, seat: str | None, state_hint: Mapping[str, Any] | None = None
) -> Reading:
    """What the post says: a command body, a near miss, or chatter."""
    lines = _lines(text)
    if author_role == "host":
        return _host(lines)
    if author_role != "seat" or seat is None:
        return CHATTER
    reading = _seat(lines)
    return reading if reading.body is None else command({**reading.body, "seat": seat})


def _lines(text: str) -> list[_Line]:
    """The post's lines that have words, code and quotes taken out, each word read as said."""
    found: list[_Line] = []
    for raw in spoken_lines(text):
        said = _expand(words(_MENTION.sub(" ", raw)))
        if said:
            found.append(_Line(tuple(said), asks(raw)))
    return found


def _expand(found: list[str]) -> list[str]:
    """``b1xc3`` is two cells, ``z2`` a mark and a number; known misspellings are the word."""
    out: list[str] = []
    for word in found:
        cells, marked = _TWO_CELLS.match(word), _MARKED.match(word)
        if cells is not None:
            out += [cells[1], "x", cells[2]]
        elif marked is not None:
            out += [marked[1], marked[2]]
        else:
            out.append(_SPELLINGS.get(word, word))
    return out


def _seat(lines: list[_Line]) -> Reading:
    if not lines:
        return CHATTER
    whole = _command([word for line in lines for word in line.words])
    if whole is not None:
        return near_miss("asks rather than moves") if lines[-1].asks else command(whole)
    readings = [_line(line) for line in lines]
    found = [r for r in readings if not r.is_chatter]
    chatter = [line for line, r in zip(lines, readings, strict=True) if r.is_chatter]
    bodies = [r.body for r in found if r.body is not None]
    if len(bodies) > 1:
        return near_miss("gives more than one move in one post")
    if len(found) > len(bodies):
        return next(r for r in found if r.near is not None)
    if bodies and any(_TAKE_BACK & set(line.words) for line in chatter):
        return near_miss("gives a move but takes something back in the same post")
    return found[0] if found else CHATTER


def _line(line: _Line) -> Reading:
    body = _command(list(line.words))
    if body is not None:
        return near_miss("asks rather than moves") if line.asks else command(body)
    if any(_CELL.match(word) for word in line.words):
        return near_miss("names a cell but does not read as a whole move or placement")
    start = next((i for i, word in enumerate(line.words) if word not in _SAY), len(line.words))
    if line.words[start:][:1] and line.words[start] in _STARTS:
        return near_miss(f"begins like a move ({line.words[start]}) but names no whole move")
    return CHATTER


def _command(said: Sequence[str]) -> Body | None:
    return _move(said) or _place(said)


def _move(said: Sequence[str]) -> Body | None:
    cells = [i for i, word in enumerate(said) if _CELL.match(word)]
    others = [word for word in said if not _CELL.match(word)]
    if len(cells) != 2 or not set(others) <= _MOVE_WORDS:
        return None
    first, second = cells
    origin, to = said[first], said[second]
    if first and said[first - 1] == "to" and said[second - 1] == "from":
        origin, to = to, origin
    return {"type": "move", "from": origin, "to": to}


def _place(said: Sequence[str]) -> Body | None:
    cells = [i for i, word in enumerate(said) if _CELL.match(word)]
    numbers = [i for i, word in enumerate(said) if word.isdigit() and len(word) <= 3]
    others = {word for i, word in enumerate(said) if i not in cells and i not in numbers}
    if len(cells) != 1 or len(numbers) != 1 or numbers[0] > cells[0]:
        return None
    if not others <= _PLACE_WORDS:
        return None
    kind = "place_zombie" if others & _ZOMBIE else "place"
    by = "slot" if "slot" in others else "value"
    return {"type": kind, "cell": said[cells[0]], by: int(said[numbers[0]])}


def _host(lines: list[_Line]) -> Reading:
    for line in lines:
        if _command(line.words) is not None or _command(line.words[1:]) is not None:
            return near_miss("a host's post that reads as a move: moves are read from the seats")
    return CHATTER
