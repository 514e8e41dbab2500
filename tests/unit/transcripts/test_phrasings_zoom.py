"""Zoom posts as players and hosts really write them, each read as a fair host reads it: the
command it gives (its whole body), a near miss (it looks like a command but is not one as
written), or chatter. The grammar is in ``docs/transcripts/zoom.md``."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.games.zoom.transcript import read_post
from tests.unit.transcripts.phrasings import CHAT, NEAR, check, check_table, row

SEAT = "alpha"
AB = {"targets": ["AB"]}
AB_AND_C = {"targets": ["AB", "C"]}
HOST_ID = "310000000000000003"
GRID = "```\nR G B Y\nK W R G\nB Y K W\n```"
PRIORITY = {"type": "declare_priority", "seat": SEAT}


def buzz(*said: str) -> dict[str, Any]:
    """``buzz("A c4", "B d5")``: the buzz body naming those pairs, label then cell."""
    pairs = [dict(zip(("target", "at"), pair.split(), strict=True)) for pair in said]
    return {"type": "buzz", "seat": SEAT, "pairs": pairs}


def start(number: int | None = None) -> dict[str, Any]:
    return {"type": "start_round"} | ({} if number is None else {"round": number})


SEAT_ROWS = [
    # one pair, with every filler the grammar allows
    row("bare", "A c4", buzz("A c4")),
    row("lower-case", "a c4", buzz("A c4")),
    row("capitals", "A C4", buzz("A c4")),
    row("extra-spaces", "  A   c4  ", buzz("A c4")),
    row("at", "A at c4", buzz("A c4")),
    row("is", "A is c4", buzz("A c4")),
    row("is-at", "B is at c5", buzz("B c5")),
    row("on", "A on c4", buzz("A c4")),
    row("in", "A is in c4", buzz("A c4")),
    row("apostrophe-s", "A's at c4", buzz("A c4")),
    row("equals-spaced", "A = c4", buzz("A c4")),
    row("equals-tight", "A=c4", buzz("A c4")),
    row("at-sign-spaced", "A @ c4", buzz("A c4")),
    row("at-sign-tight", "A@c4", buzz("A c4")),
    row("at-sign-before-cell", "A @c4", buzz("A c4")),
    row("colon", "A: c4", buzz("A c4")),
    row("colon-tight", "A:c4", buzz("A c4")),
    row("arrow", "A -> c4", buzz("A c4")),
    row("unicode-arrow", "A → c4", buzz("A c4")),
    row("target-word", "target A is at c4", buzz("A c4")),
    row("two-letter-column", "A at aa12", buzz("A aa12")),
    row("exclaimed", "A c4!!", buzz("A c4")),
    row("full-stop", "A c4.", buzz("A c4")),
    # several pairs, per post and per line
    row("rule-example", "A is at a1, B is at a2", buzz("A a1", "B a2")),
    row("and", "A c4 and B d5", buzz("A c4", "B d5")),
    row("comma", "A c4, B d5", buzz("A c4", "B d5")),
    row("comma-and", "A c4, and B d5", buzz("A c4", "B d5")),
    row("semicolon", "A c4; B d5", buzz("A c4", "B d5")),
    row("ampersand", "A c4 & B d5", buzz("A c4", "B d5")),
    row("plus", "A c4 + B d5", buzz("A c4", "B d5")),
    row("three-on-a-line", "A c4 B d5 C e6", buzz("A c4", "B d5", "C e6")),
    row("five-pairs", "A c4 B d5 C e6 D f7 E g8", buzz("A c4", "B d5", "C e6", "D f7", "E g8")),
    row(
        "mixed-fillers",
        "A at c4 and B is at d5 and C on e6",
        buzz("A c4", "B d5", "C e6"),
    ),
    row("sign-pairs", "A=c4 B@a1", buzz("A c4", "B a1")),
    row("colon-pairs", "A: c4, B: a1", buzz("A c4", "B a1")),
    row("one-per-line", "A: c4\nB: d5\nC: e6", buzz("A c4", "B d5", "C e6")),
    row("lines-and-a-line-of-two", "A c4 B d5\nC e6", buzz("A c4", "B d5", "C e6")),
    row("target-each", "target A: c4, target B: d5", buzz("A c4", "B d5")),
    row("lower-pairs", "a C4 b D5", buzz("A c4", "B d5")),
    # the buzz word
    row("buzz", "buzz A c4", buzz("A c4")),
    row("buzz-exclaimed", "Buzz! A c4", buzz("A c4")),
    row("buzz-shouted", "BUZZ: A C4, B D5", buzz("A c4", "B d5")),
    row("buzzing", "buzzing A at c4", buzz("A c4")),
    row("buzzed", "buzzed B d5", buzz("B d5")),
    row("buzz-in", "buzz in A c4", buzz("A c4")),
    row("buzz-then-lines", "buzz:\nA c4\nB d5", buzz("A c4", "B d5")),
    # chat decoration
    row("emoji-around", "🔥 A c4 🔥", buzz("A c4")),
    row("short-code-emoji", ":eyes: A at c4", buzz("A c4")),
    row("custom-emoji", "<:pog:812345678901234567> A c4", buzz("A c4")),
    row("animated-emoji", "A c4 <a:party_parrot:812345678901234568>", buzz("A c4")),
    row("mention", f"<@{HOST_ID}> A c4", buzz("A c4")),
    row("nickname-mention", f"<@!{HOST_ID}> A c4", buzz("A c4")),
    row("role-mention", "<@&1150000000000000001> B d5", buzz("B d5")),
    row("rendered-mention", "@Quizmaster A c4", buzz("A c4")),
    row("bold-post", "**A c4**", buzz("A c4")),
    row("bold-parts", "**A** at **c4**", buzz("A c4")),
    row("bold-emoji", "🔥 **A c4** 🔥", buzz("A c4")),
    row("underlined-label", "__A__ c4", buzz("A c4")),
    row("spoiler", "||A c4||", buzz("A c4")),
    row("quoted-line-skipped", "> A c4\nB d5", buzz("B d5")),
    # legality is the rules' to judge: read as written
    row("label-twice", "A c4 A d5", buzz("A c4", "A d5")),
    row("label-not-in-round", "F c4", buzz("F c4")),
    row("cell-outside-grid", "A zz999", buzz("A zz999")),
    row("row-zero", "A c0", buzz("A c0")),
    # a two-letter label only with the round's hint
    row("two-letter-label-without-hint", "ab c4", NEAR),
    row("two-letter-label-with-hint", "ab c4", buzz("AB c4"), hint=AB),
    row("two-letter-label-capitals", "AB at C4", buzz("AB c4"), hint=AB),
    row("two-letter-and-one-letter", "AB c4 and C d5", buzz("AB c4", "C d5"), hint=AB_AND_C),
    # near misses: a cell, "priority" or the buzz word, but not read whole
    row("lol-after", "A c4 lol", NEAR),
    row("i-think", "I think it's c4", NEAR),
    row("cell-alone", "c4", NEAR),
    row("asks", "A c4?", NEAR),
    row("was-it", "was it A c4?", NEAR),
    row("please-after", "A c4 pls", NEAR),
    row("oops-before", "oops A c4", NEAR),
    row("three-fillers", "A is at on c4", NEAR),
    row("label-without-cell", "A c4 B", NEAR),
    row("trailing-and", "A c4 and", NEAR),
    row("one-word", "Ac4", NEAR),
    row("or", "A c4 or d5", NEAR),
    row("buzz-alone", "buzz", NEAR),
    row("buzz-label-only", "buzz A", NEAR),
    row("struck-out", "~~A c4~~ B d5", NEAR),
    row("mention-with-spaces", "@Carol (watching) A c4", NEAR),
    row("priority-and-a-buzz", "priority A c4", NEAR),
    # chatter
    row("gg", "gg", CHAT),
    row("gg-wp", "gg wp", CHAT),
    row("nice", "nice", CHAT),
    row("lol", "lol", CHAT),
    row("close", "close!", CHAT),
    row("label-alone", "A", CHAT),
    row("labels-no-cell", "A and B", CHAT),
    row("emoji-chatter", "that was close 😅", CHAT),
    row("question", "can you see the grid?", CHAT),
    row("how-to-buzz", "how do I buzz?", CHAT),
    row("code-block", "```\nA c4\n```", CHAT),
    row("inline-code", "`A c4`", CHAT),
    row("quoted", "> A c4", CHAT),
    row("seat-says-round-starts", "round 2 starts now", CHAT),
    row("empty", "", CHAT),
    # Priority as players say it
    row("priority", "priority", PRIORITY),
    row("priority-exclaimed", "Priority!", PRIORITY),
    row("prio-shouted", "PRIO", PRIORITY),
    row("priority-pls", "priority pls", PRIORITY),
    row("ill-take-priority", "I'll take priority", PRIORITY),
    row("curly-apostrophe", "I\u2019ll take priority", PRIORITY),
    row("calling-priority-now", "calling priority now", PRIORITY),
    row("ill-use-my-priority", "I'll use my priority", PRIORITY),
    row("i-declare-priority", "I declare priority!", PRIORITY),
    row("im-taking-priority", "I'm taking priority 🙋", PRIORITY),
    row("mention-priority-please", f"<@{HOST_ID}> priority please", PRIORITY),
    row("priority-next-round", "I want priority for the next round", PRIORITY),
    row("priority-declared", "priority declared", PRIORITY),
    row("priority-for-me", "Priority for me please", PRIORITY),
    row("yes-priority", "yes, priority", PRIORITY),
    row("no-priority-for-me", "no priority for me", NEAR),
    row("priority-asked", "priority?", NEAR),
    row("who-has-priority", "who has priority?", NEAR),
    row("not-taking-priority", "not taking priority this time", NEAR),
    row("priority-for-round-n", "priority for round 3", NEAR),
    row("priority-not-sure", "priority? not sure", NEAR),
    row("wont-use-priority", "I won't use priority", NEAR),
    # others never buzz
    row("spectator-buzz", "A c4", CHAT, "spectator"),
    row("host-buzz", "A c4", CHAT, "host"),
    row("host-priority", "alice declares priority", CHAT, "host"),
]

HOST_ROWS = [
    # a start inside a longer announcement
    row(
        "starts-now-with-priority-note",
        "Round 3 starts now — alice has Priority for the first 20 s",
        start(3),
        "host",
    ),
    row(
        "grid-then-start",
        f"Here's the grid:\n{GRID}\nRound 2 starts now!",
        start(2),
        "host",
    ),
    row("heading-grid-go", f"**Round 4**\n{GRID}\nGO!", start(4), "host"),
    row("heading-count-go", "**ROUND 5**\nget ready...\n3... 2... 1... GO!!!", start(5), "host"),
    row("heading-of-m-go", "Round 4 of 11\nGO", start(4), "host"),
    row(
        "start-among-lines",
        "Alright everyone\nTargets are up 👀\nround 2 starts now\ngood luck!",
        start(2),
        "host",
    ),
    row("start-then-question", "Round 3 starts now! Everyone ready?", start(3), "host"),
    row("over-then-start", "Round 3 is over, round 4 starts now!", start(4), "host"),
    row("winner-then-go", "Round 2 winner: bob. Round 3: GO", start(3), "host"),
    row("go-with-mentions", f"Round 7 — GO! <@{HOST_ID}>", start(7), "host"),
    # the line forms
    row("dash-go", "Round 3 - go!", start(3), "host"),
    row("colon-go", "Round 1: go", start(1), "host"),
    row("go", "Round 2 go", start(2), "host"),
    row("go-go-go", "Round 3 go go go!", start(3), "host"),
    row("begins", "Round 2 begins", start(2), "host"),
    row("starts", "round 5 starts", start(5), "host"),
    row("starting", "Round 2 starting!", start(2), "host"),
    row("is-starting-now", "Round 2 is starting now", start(2), "host"),
    row("has-started", "Round 6 has started", start(6), "host"),
    row("is-live", "Round 2 is live!", start(2), "host"),
    row("starting-round-now", "Starting round 2 now", start(2), "host"),
    row("start-round", "start round 3", start(3), "host"),
    row("lets-start-round", "Let's start round 2", start(2), "host"),
    row("round-of-m-starts", "Round 3 of 11 starts now", start(3), "host"),
    row("number-word", "Round three starts now", start(3), "host"),
    row("ordinal", "Third round starts now!", start(3), "host"),
    row("ordinal-digits", "3rd round — go", start(3), "host"),
    row("next-round-starts-now", "Next round starts now", start(), "host"),
    row("final-round-starts-now", "Final round starts now", start(), "host"),
    row("wrong-round-is-the-rules", "Round 12 starts now", start(12), "host"),
    # bare go and the short forms
    row("bare-go", "GO", start(), "host"),
    row("go-exclaimed", "go!", start(), "host"),
    row("goooo", "Goooo!", start(), "host"),
    row("go-three-times", "GO GO GO", start(), "host"),
    row("ready-set-go", "Ready, set, GO!", start(), "host"),
    row("ready-dots-go", "Ready... set... GO", start(), "host"),
    row("countdown-go", "3, 2, 1, GO!", start(), "host"),
    row("on-your-marks", "On your marks, get set, GO!", start(), "host"),
    row("round-n-alone", "round 3", start(3), "host"),
    row("round-n-bold", "**Round 3!**", start(3), "host"),
    row("next-round", "next round", start(), "host"),
    row("start", "start", start(), "host"),
    # near misses: a round spoken of beside a start word, but no start now
    row("starts-in-5-minutes", "Round 3 starts in 5 minutes", NEAR, "host"),
    row("starts-soon", "round 2 starts soon", NEAR, "host"),
    row("next-round-in-2", "Next round starts in 2 minutes", NEAR, "host"),
    row("will-start-after", "Round 4 will start after the break", NEAR, "host"),
    row("starting-in-a-minute", "Round 2 starting in a minute", NEAR, "host"),
    row("first-round-at-8", "first round starts at 8pm", NEAR, "host"),
    row("starts-now-asked", "Round 3 starts now?", NEAR, "host"),
    row("shall-we-start", "Shall we start round 3?", NEAR, "host"),
    row("round-n-asked", "Round 3?", NEAR, "host"),
    row("two-rounds", "Round 2 starts now\nRound 3 starts now", NEAR, "host"),
    row("struck-start", "~~Round 3 starts now~~ wait, grid is wrong", NEAR, "host"),
    # chatter: scores, rules reminders, remarks
    row("was-fun", "round 3 was fun", CHAT, "host"),
    row("scores-after", "Scores after round 2: alice 3, bob 2", CHAT, "host"),
    row("round-scores", "Round 1 — alice 2, bob 3 (alice got A and C)", CHAT, "host"),
    row("end-of-round", "End of round 4. Scores: alice 5 \u2013 bob 4", CHAT, "host"),
    row(
        "rules-lockout",
        "Reminder: once the round starts, a wrong buzz locks you out for 60 s",
        CHAT,
        "host",
    ),
    row(
        "rules-buzz-format",
        "Rules: buzz like `A c4`, one post per buzz. A round ends after 120 s without a correct"
        " buzz.",
        CHAT,
        "host",
    ),
    row("rules-priority", "Reminder: priority must be declared between rounds", CHAT, "host"),
    row("quoted-start", "> Round 3 starts now\nlol no, wait", CHAT, "host"),
    row("start-in-code", "```\nRound 2 starts now\n```", CHAT, "host"),
    row("grid-alone", GRID, CHAT, "host"),
    row("host-gg", "gg", CHAT, "host"),
    row("nice-buzz", "nice buzz!", CHAT, "host"),
    row("lets-go", "Let's go!", CHAT, "host"),
    row("targets-remark", "targets A and B this time", CHAT, "host"),
]


@pytest.mark.parametrize(("text", "role", "hint", "expected"), [*SEAT_ROWS, *HOST_ROWS])
def test_a_post_reads_as_a_fair_host_reads_it(
    text: str, role: str, hint: dict[str, Any] | None, expected: dict[str, Any] | str
) -> None:
    reading = read_post(
        text, author_role=role, seat=SEAT if role == "seat" else None, state_hint=hint
    )
    check(reading, expected)


def test_the_table_is_large_enough_and_its_ids_are_unique() -> None:
    check_table([*SEAT_ROWS, *HOST_ROWS])
