"""Zombego posts as players write them, read as the service's command bodies.

Pure. A seat's post is one move, in Ludii's notation or the README's words, any case:

* Ludii move strings: ``place:3:c2``, ``zombie:2:d4``, ``move:b1-c3``;
* placing a hand piece by value: ``place 3 c2``, ``place 3 at c2``, ``3 c2``, ``3@c2``, and a
  zombie: ``zombie 2 d4``, ``z2 d4``; by hand slot: ``slot 1 c2``, ``zombie slot 0 d4``;
* moving: ``b1-c3``, ``b1 c3``, ``b1 to c3``, ``b1xc3``, ``move b1 c3``, ``b1 → c3``.

A cell is a file letter (a-l) then a rank number; whether it is on the board, and whether the
move is legal, is for the rules to say. Everything else is chatter; the host's posts are not moves.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from adjudicator.transcripts.reading import CHATTER, Reading, command
from adjudicator.transcripts.words import clean

_CELL = r"[a-l][0-9]{1,2}"
_LUDII_PLACE = re.compile(rf"^(?P<kind>place|zombie):(?P<value>[0-9]{{1,3}}):(?P<cell>{_CELL})$")
_LUDII_MOVE = re.compile(rf"^move:(?P<origin>{_CELL})-(?P<to>{_CELL})$")
_PLACE = re.compile(
    rf"^(?:(?P<kind>place|put|drop|zombie|z)\s*)?(?P<slot>slot\s*)?(?P<value>[0-9]{{1,3}})"
    rf"\s*(?:at|on|to|@|-|:)?\s*(?P<cell>{_CELL})$"
)
_MOVE = re.compile(rf"^(?:move\s+)?(?P<origin>{_CELL})\s*(?:-|to|x|\s)\s*(?P<to>{_CELL})$")


def hint(state: object) -> dict[str, Any]:
    """Zombego's parser needs nothing of the state."""
    return {}


def read_post(
    text: str, *, author_role: str, seat: str | None, state_hint: Mapping[str, Any] | None = None
) -> Reading:
    """What the post says: a command body, a near miss, or chatter."""
    body = _body(text, author_role=author_role, seat=seat, state_hint=state_hint)
    return CHATTER if body is None else command(body)


def _body(
    text: str, *, author_role: str, seat: str | None, state_hint: Mapping[str, Any] | None
) -> dict[str, Any] | None:
    if author_role != "seat" or seat is None:
        return None
    said = clean(text)
    for pattern in (_LUDII_MOVE, _MOVE):
        found = pattern.match(said)
        if found is not None:
            return {"type": "move", "seat": seat, "from": found["origin"], "to": found["to"]}
    for pattern in (_LUDII_PLACE, _PLACE):
        found = pattern.match(said)
        if found is not None:
            return _placement(found, seat)
    return None


def _placement(found: re.Match[str], seat: str) -> dict[str, Any]:
    kind = "place_zombie" if found["kind"] in ("zombie", "z") else "place"
    by = "slot" if found.groupdict().get("slot") else "value"
    return {"type": kind, "seat": seat, "cell": found["cell"], by: int(found["value"])}
