"""Zombego posts as players and hosts really write them, each read as a fair host reads it: the
command it gives (its whole body), a near miss (it looks like a move but is not one as
written), or chatter. The grammar is in ``docs/transcripts/zombego.md``."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.games.zombego import transcript
from adjudicator.games.zombego.transcript import read_post
from tests.unit.transcripts.phrasings import CHAT, NEAR, check, check_page, check_table

SEAT = "white"


def move(origin: str, to: str) -> dict[str, Any]:
    return {"type": "move", "seat": SEAT, "from": origin, "to": to}


def place(cell: str, value: int) -> dict[str, Any]:
    return {"type": "place", "seat": SEAT, "cell": cell, "value": value}


def zombie(cell: str, value: int) -> dict[str, Any]:
    return {"type": "place_zombie", "seat": SEAT, "cell": cell, "value": value}


def slot(cell: str, number: int, kind: str = "place") -> dict[str, Any]:
    return {"type": kind, "seat": SEAT, "cell": cell, "slot": number}


def row(name: str, text: str, expected: dict[str, Any] | str, role: str = "seat") -> Any:
    return pytest.param(text, role, expected, id=name)


B1_C3 = move("b1", "c3")

ROWS = [
    # moves
    row("dash", "b1-c3", B1_C3),
    row("ludii-move", "move:b1-c3", B1_C3),
    row("capitals", "B1-C3", B1_C3),
    row("to", "b1 to c3", B1_C3),
    row("space", "b1 c3", B1_C3),
    row("x-in-one-word", "b1xc3", B1_C3),
    row("x-spaced", "b1 x c3", B1_C3),
    row("arrow", "b1 → c3", B1_C3),
    row("ascii-arrow", "b1->c3", B1_C3),
    row("en-dash", "b1\u2013c3", B1_C3),
    row("move-word", "move b1 c3", B1_C3),
    row("move-to", "move b1 to c3", B1_C3),
    row("my-move-colon", "my move: d1 to b3", move("d1", "b3")),
    row("takes", "b1 takes c3", B1_C3),
    row("captures-bang", "b1 captures c3!", B1_C3),
    row("attacks", "b1 attacks c3", B1_C3),
    row("moving-pls", "moving b1 to c3 pls", B1_C3),
    row("ill-move", "I'll move b1 to c3", B1_C3),
    row("the-piece-from-to", "move the piece from b1 to c3", B1_C3),
    row("from-to", "from b1 to c3", B1_C3),
    row("to-first-then-from", "to c3 from b1", B1_C3),
    row("bold-and-emoji", "**b1-c3** 🔥", B1_C3),
    row("mention", "<@42> b1-c3", B1_C3),
    row("rendered-mention", "@bo_b b1-c3", B1_C3),
    row("two-digit-ranks", "a10-l12", move("a10", "l12")),
    row("same-cell-is-for-the-rules", "a1 to a1", move("a1", "a1")),
    row("move-typo", "mvoe b1 c3", B1_C3),
    row("a-zombie-moves", "zombie b1-c3", B1_C3),
    row("ok-then-move", "ok b1-c3", B1_C3),
    row("shouted", "B1 TO C3", B1_C3),
    row("over-two-lines", "move\nb1-c3", B1_C3),
    row("one-cell-a-line", "b1\nc3", B1_C3),
    row("move-then-good-luck", "b1-c3\ngl", B1_C3),
    # placements
    row("ludii-place", "place:3:c2", place("c2", 3)),
    row("place-value-cell", "place 3 c2", place("c2", 3)),
    row("place-at", "place 3 at c2", place("c2", 3)),
    row("at-sign", "3@c2", place("c2", 3)),
    row("at-sign-spaced", "3 @ c2", place("c2", 3)),
    row("bare-value-cell", "3 c2", place("c2", 3)),
    row("put-on", "put 25 on b4", place("b4", 25)),
    row("ill-put-the-pls", "I'll put the 25 on b4 pls", place("b4", 25)),
    row("drop", "drop 7 on a2", place("a2", 7)),
    row("play-at", "play 7 at a2", place("a2", 7)),
    row("spec-notation", "v56 @b1", place("b1", 56)),
    row("place-v-value", "place v56 on b1", place("b1", 56)),
    row("capital-cell", "Place 101 at F1", place("f1", 101)),
    row("piece-word", "place piece 15 at d6", place("d6", 15)),
    row("placing", "placing 2 on e6", place("e6", 2)),
    row("place-typo", "palce 3 c2", place("c2", 3)),
    row("hash-value", "#3 c2", place("c2", 3)),
    # zombies
    row("ludii-zombie", "zombie:2:d4", zombie("d4", 2)),
    row("zombie-value-cell", "zombie 2 d4", zombie("d4", 2)),
    row("zombie-at", "zombie 57 at f3", zombie("f3", 57)),
    row("place-zombie", "place zombie 57 at f3", zombie("f3", 57)),
    row("z-fused", "z2 d4", zombie("d4", 2)),
    row("z-spaced", "z 2 d4", zombie("d4", 2)),
    row("z-shouted-at-sign", "Z57@F3", zombie("f3", 57)),
    row("put-my-zombie", "put my zombie 25 on f5", zombie("f5", 25)),
    row("zombie-typo", "zombei 57 f3", zombie("f3", 57)),
    row("value-then-zombie", "place the 25 zombie at f5", zombie("f5", 25)),
    # hand slots
    row("slot", "slot 1 c2", slot("c2", 1)),
    row("slot-fused", "slot1 c2", slot("c2", 1)),
    row("place-slot-at", "place slot 2 at c4", slot("c4", 2)),
    row("zombie-slot", "zombie slot 0 d4", slot("d4", 0, "place_zombie")),
    row("place-from-slot", "place from slot 3 on e1", slot("e1", 3)),
    # near misses
    row("one-cell", "b1", NEAR),
    row("move-without-destination", "move b1", NEAR),
    row("cells-then-lol", "b1 c3 lol", NEAR),
    row("cells-with-chatter", "b1 c3 is my move lol", NEAR),
    row("place-it", "place it", NEAR),
    row("place-without-cell", "place 3", NEAR),
    row("cell-before-value", "c2 3", NEAR),
    row("move-asks", "b1-c3?", NEAR),
    row("move-then-takes-back", "b1-c3\nwait no", NEAR),
    row("two-moves-two-lines", "b1-c3\nd4-e5", NEAR),
    row("what-about", "what about b1-c3?", NEAR),
    row("is-it-free", "is c2 free?", NEAR),
    row("two-placements-one-line", "3 c2 4 d3", NEAR),
    row("two-placements-and", "place 3 at c2 and 4 at d3", NEAR),
    row("zombie-time", "zombie time", NEAR),
    row("a-value-moving", "move 3 to c2", NEAR),
    row("three-cells", "b1 c3 d4", NEAR),
    row("four-digit-value", "place 1000 at c2", NEAR),
    row("ludii-without-cell", "place:3", NEAR),
    # chatter, code and quotes
    row("gg", "gg", CHAT),
    row("nice-move", "nice move", CHAT),
    row("hmm", "hmm", CHAT),
    row("your-turn", "your turn", CHAT),
    row("good-game-zombie-emoji", "good game 🧟", CHAT),
    row("oops-i-meant", "oops, I meant\nthis one:", CHAT),
    row("moving-on", "moving on, gg", CHAT),
    row("zombies-everywhere", "zombies everywhere lol", CHAT),
    row("three-more-minutes", "3 more minutes", CHAT),
    row("lol", "lol", CHAT),
    row("fenced-code", "```\nb1-c3\n```", CHAT),
    row("inline-code", "`b1-c3`", CHAT),
    row("a-quote", "> b1-c3", CHAT),
    # who posts
    row("spectator", "b1-c3", CHAT, "spectator"),
    row("bot", "place 3 at c2", CHAT, "bot"),
    row("host-gg", "gg", CHAT, "host"),
    row("host-names-a-seat-and-a-move", "white: b1-c3", NEAR, "host"),
    row("host-placement", "place 3 at c2", NEAR, "host"),
    row("host-welcome", "Zombego! white moves first, good luck", CHAT, "host"),
    row("host-remark-with-a-cell", "nice, d4 is strong", CHAT, "host"),
    row("host-time-left", "5 minutes left", CHAT, "host"),
]


@pytest.mark.parametrize(("text", "role", "expected"), ROWS)
def test_a_post_reads_as_a_fair_host_reads_it(
    text: str, role: str, expected: dict[str, Any] | str
) -> None:
    reading = read_post(text, author_role=role, seat=SEAT if role == "seat" else None)
    check(reading, expected)


def test_the_table_is_large_enough_and_its_ids_are_unique() -> None:
    check_table(ROWS)


def test_the_page_shows_the_grammar_of_the_readers_docstring() -> None:
    check_page(transcript.__doc__, "zombego.md")
