"""No, Not That! posts as players and hosts really write them, each read as a fair host reads
it: the command it gives (its whole body), a near miss (it looks like a command but is not one
as written), or chatter. The grammar is in ``docs/transcripts/no-not-that.md``."""

from __future__ import annotations

from typing import Any

import pytest

from adjudicator.games.no_not_that import transcript
from adjudicator.games.no_not_that.transcript import read_post
from tests.unit.transcripts.phrasings import CHAT, NEAR, check, check_page, check_table, row

SEAT = "Alpha"

STEP_DM = {"private": True, "phase": "step", "next_round": 2}
SOLVING_DM = {"private": True, "phase": "claims", "solving": [SEAT]}
OTHER_SOLVING_DM = {"private": True, "phase": "claims", "solving": ["Beta"]}
BETWEEN_DM = {"private": True, "phase": "between_rounds"}
TABLE_PENDING = {"phase": "judging", "category_targets": {"TABLE": [11]}, "seats": [SEAT, "Beta"]}
TWO_PENDING = {"phase": "judging", "category_targets": {"TABLE": [11], "Q": [14]}}
THREE_TWICE = {"phase": "claims", "category_targets": {"3": [4, 9]}}
NONE_PENDING = {"phase": "judging", "category_targets": {}, "prompt_claims": {}}
ALPHA_CLAIMED = {
    "phase": "claims",
    "seats": [SEAT, "Beta"],
    "prompt_claims": {SEAT: 9},
    "prompt_questions": {SEAT: 9},
}
BETA_SOLUTION = {
    "phase": "claims",
    "seats": [SEAT, "Beta"],
    "prompt_claims": {"Beta": 12},
    "prompt_questions": {"Beta": 12},
}


def submit(obj: str) -> dict[str, Any]:
    return {"type": "submit", "seat": SEAT, "object": obj}


def head_start(obj: str) -> dict[str, Any]:
    return {"type": "head_start", "seat": SEAT, "object": obj}


def solve(*tokens: str) -> dict[str, Any]:
    return {"type": "solve", "seat": SEAT, "tokens": list(tokens)}


def act(kind: str, **fields: Any) -> dict[str, Any]:
    return {"type": kind, "seat": SEAT, **fields}


def start(number: int | None) -> dict[str, Any]:
    return {"type": "start_round"} | ({} if number is None else {"round": number})


def category(seq: int, fits: bool) -> dict[str, Any]:
    return {"type": "judge_category", "target_seq": seq, "fits": fits}


def value(obj: str, fits: bool) -> dict[str, Any]:
    return {"type": "judge_value", "object": obj, "fits": fits}


def prompt(seq: int, meets: bool) -> dict[str, Any]:
    return {"type": "judge_prompt", "target_seq": seq, "meets": meets}


CLAIM_INVALID = act("claim_invalid")
CLAIM_PROMPT = act("claim_prompt")
PASS = act("pass")
CHALLENGE = act("challenge")
ACCEPT = act("accept")

SEAT_ROWS = [
    # submissions
    row("submit", "submit WHIZ", submit("WHIZ")),
    row("submit-lower-case-kept", "submit whiz", submit("whiz")),
    row("submit-shouted-keyword", "SUBMIT Q", submit("Q")),
    row("submit-pls", "submit Q pls", submit("Q")),
    row("please-submit", "please submit Q", submit("Q")),
    row("ill-submit", "I'll submit K", submit("K")),
    row("im-submitting", "I'm submitting BZZT", submit("BZZT")),
    row("submit-bold", "submit **TOAST**", submit("TOAST")),
    row("submit-spoiler", "submit ||Q||", submit("Q")),
    row("submit-emoji", "submit Q 🙏", submit("Q")),
    row("submit-mention", "<@123456> submit Q", submit("Q")),
    row("submit-rendered-mention", "@Quizmaster submit Q", submit("Q")),
    row("submit-typo-sumbit", "sumbit Q", submit("Q")),
    row("submit-typo-submti", "submti Q", submit("Q")),
    row("submit-colon", "Submit: Q", submit("Q")),
    row("submit-spaced-dash", "submit - Q", submit("Q")),
    row("submit-fat-arrow", "submit => Q", submit("Q")),
    row("submit-arrow", "submit -> Q", submit("Q")),
    row("submit-negative-number", "submit -3", submit("-3")),
    row("submit-quoted", 'submit "CAT"', submit("CAT")),
    row("submit-two-words", "submit New York", submit("New York")),
    row("submit-thanks", "submit Q, thanks!", submit("Q")),
    row("object-colon", "object: cat", submit("cat")),
    row("my-object-is", "my object is JINX", submit("JINX")),
    row("obj-colon", "obj: Z", submit("Z")),
    row("my-submission", "my submission: 42", submit("42")),
    row("submit-object-on-next-line", "submit\nQ", submit("Q")),
    row("greeting-line-then-submit", "gl hf\nsubmit Q", submit("Q")),
    row("submit-with-nothing", "submit", NEAR),
    row("submit-asks", "submit Q?", NEAR),
    row("submit-with-lol", "submit Q lol", NEAR),
    row("submit-then-takes-back", "submit Q\nwait no", NEAR),
    row("two-submissions", "submit Q\nsubmit R", NEAR),
    row("i-object-to-that", "I object to that", NEAR),
    row("submitted-already", "submitted already?", CHAT),
    row("objection", "objection!", CHAT),
    # Head Start
    row("head-start-colon", "head start: Q", head_start("Q")),
    row("headstart-one-word", "headstart ZEBRA", head_start("ZEBRA")),
    row("use-my-head-start", "I'll use my head start: ZEBRA", head_start("ZEBRA")),
    row("head-start-the-letter-i", "head start I", head_start("I")),
    row("use-head-start-alone", "use head start", act("use_item", item="head_start")),
    # invalid-object claims
    row("the-cry", "No, not that!", CLAIM_INVALID),
    row("the-cry-shouted-emoji", "NO NOT THAT 😤", CLAIM_INVALID),
    row("the-cry-doubled", "no no NOT THAT!!", CLAIM_INVALID),
    row("the-cry-rendered-mention", "@Quizmaster no, not that!", CLAIM_INVALID),
    row("thats-invalid", "that's invalid", CLAIM_INVALID),
    row("thats-invalid-curly", "that\u2019s invalid", CLAIM_INVALID),
    row("claim-invalid", "claim invalid", CLAIM_INVALID),
    row("claim-invalid-pls", "claim invalid pls", CLAIM_INVALID),
    row("invalid-bang", "invalid!", CLAIM_INVALID),
    row("invalid-typo", "invlaid", CLAIM_INVALID),
    row("nnt", "NNT", CLAIM_INVALID),
    row("your-last-one-is-invalid", "your last one is invalid", CLAIM_INVALID),
    row("claim-invalid-lol", "claim invalid lol", NEAR),
    row("names-the-object", "Q is invalid", NEAR),
    row("not-invalid-asks", "that's not invalid, is it?", NEAR),
    row("invalid-asks", "invalid?", NEAR),
    # prompt claims
    row("claim-prompt", "claim prompt", CLAIM_PROMPT),
    row("prompt-shouted", "PROMPT!", CLAIM_PROMPT),
    row("i-can-meet-the-prompt", "I can meet the prompt", CLAIM_PROMPT),
    row("claiming-the-prompt-mention", "<@5> claiming the prompt", CLAIM_PROMPT),
    row("prompt-typo", "promt", CLAIM_PROMPT),
    row("claim-prompt-asks", "claim prompt?", NEAR),
    row("prompt-is-impossible", "prompt is impossible", NEAR),
    row("whats-the-prompt", "what's the prompt again?", CHAT),
    row("this-prompt-is-hard", "this prompt is hard lol", CHAT),
    # passes
    row("pass", "pass", PASS),
    row("i-pass", "I pass", PASS),
    row("pass-on-this-one", "I'll pass on this one", PASS),
    row("skip", "skip", PASS),
    row("pass-me-the-water", "pass me the water", NEAR),
    # solutions
    row("solve-spaces", "solve W H I Z", solve("W", "H", "I", "Z")),
    row("solution-commas", "solution: W, H, I, Z", solve("W", "H", "I", "Z")),
    row("solve-next-line", "solve\nW H I Z", solve("W", "H", "I", "Z")),
    row("solution-with-working", "my solution is W H I Z (WHIZ)", solve("W", "H", "I", "Z")),
    row("solve-a-sum", "solve 3 + 4 + 10 = 17", solve("3", "4", "10")),
    row("solve-lower-case", "solve w h i z", solve("w", "h", "i", "z")),
    row("solve-one-token", "solve WHIZ", solve("WHIZ")),
    row("solve-with-nothing", "solve", NEAR),
    row("solve-with-lol", "solve W H I Z lol", NEAR),
    row("nice-solution", "nice solution", CHAT),
    row("solved-it", "solved it!", CHAT),
    # challenge windows
    row("challenge", "challenge!", CHALLENGE),
    row("i-challenge-that", "I challenge that", CHALLENGE),
    row("challenging-the-solution", "challenging the solution", CHALLENGE),
    row("accept", "accept", ACCEPT),
    row("accept-typo", "accpet", ACCEPT),
    row("i-accept-the-solution", "I accept the solution", ACCEPT),
    row("no-challenge", "no challenge", ACCEPT),
    row("no-challenge-from-me", "no challenge from me", ACCEPT),
    row("i-wont-challenge", "I won't challenge", ACCEPT),
    row("not-gonna-challenge", "not gonna challenge that 👍", ACCEPT),
    row("what-a-challenge", "what a challenge", CHAT),
    # items and the exchange
    row("use-life-ring", "use life ring", act("use_item", item="life_ring")),
    row("life-ring-bang", "Life Ring!", act("use_item", item="life_ring")),
    row("extra-safe-snake-case", "extra_safe", act("use_item", item="extra_safe")),
    row(
        "activate-extra-safe-pls", "activate my Extra Safe pls", act("use_item", item="extra_safe")
    ),
    row("life-ring-asks", "is my life ring still active?", NEAR),
    row("exchange", "exchange", act("exchange", times=1)),
    row("exchange-x2", "exchange x2", act("exchange", times=2)),
    row("exchange-twice", "exchange twice", act("exchange", times=2)),
    row("exchange-3-times", "exchange 3 times", act("exchange", times=3)),
    row("exchange-a-point-for-nets", "exchange 1 point for 2 nets", act("exchange", times=1)),
    row("trade-a-point", "trade a point for 2 safety nets", act("exchange", times=1)),
    row("exchange-in-words", "exchange two points for four nets", act("exchange", times=2)),
    row("exchange-amounts-disagree", "exchange 1 point for 3 nets", NEAR),
    row("exchange-lol", "exchange lol", NEAR),
    # chatter, code and quotes
    row("gg", "gg", CHAT),
    row("nice-one", "nice one 👏", CHAT),
    row("lol", "lol", CHAT),
    row("good-luck", "good luck!", CHAT),
    row("tough-one", "hmm, tough one", CHAT),
    row("brb", "brb", CHAT),
    row("that-was-close", "that was close", CHAT),
    row("not-that-i-know", "not that I know of", CHAT),
    row("fenced-code", "```\nsubmit Q\n```", CHAT),
    row("inline-code", "`submit Q`", CHAT),
    row("a-quote", "> submit Q\nlol", CHAT),
    row("spectator", "submit Q", CHAT, role="spectator"),
    row("bot", "No, not that!", CHAT, role="bot"),
    # a seat's direct messages with the host
    row("dm-a-bare-letter", "K", submit("K"), hint=STEP_DM),
    row("dm-a-bare-word", "whiz", submit("whiz"), hint=STEP_DM),
    row("dm-bare-object-pls", "Q pls", submit("Q"), hint=STEP_DM),
    row("dm-bare-three-words", "New York City", submit("New York City"), hint=STEP_DM),
    row("dm-object-then-thanks", "Q\nthanks", submit("Q"), hint=STEP_DM),
    row("dm-pass-is-a-pass", "pass", PASS, hint=STEP_DM),
    row("dm-object-or-chatter", "hmm, tough one", NEAR, hint=STEP_DM),
    row("dm-asks", "is Q ok?", NEAR, hint=STEP_DM),
    row("dm-one-word-is-the-object", "OR", submit("OR"), hint=STEP_DM),
    row("dm-ok-is-the-object-ok", "ok", submit("ok"), hint=STEP_DM),
    row("dm-ok-thanks", "ok thanks", CHAT, hint=STEP_DM),
    row("dm-chatty-object", "Q lol", NEAR, hint=STEP_DM),
    row("dm-greetings-only", "gg\nthanks", CHAT, hint=STEP_DM),
    row("dm-object-or-object", "A or B", NEAR, hint=STEP_DM),
    row("dm-long-chatter", "sorry, connection issues, what did I miss?", CHAT, hint=STEP_DM),
    row("dm-between-rounds", "K", CHAT, hint=BETWEEN_DM),
    row("dm-bare-solution", "W H I Z", solve("W", "H", "I", "Z"), hint=SOLVING_DM),
    row("dm-solution-of-another-seat", "W H I Z", CHAT, hint=OTHER_SOLVING_DM),
    row("channel-bare-letter", "K", CHAT, hint={"phase": "step"}),
]

HOST_ROWS = [
    # round starts
    row("heading-then-prompt", "Round 1\nPrompt: a 4-letter word with one vowel", start(1), "host"),
    row("next-round-from-hint", "next round", start(3), "host", {"next_round": 3}),
    row("next-round-without-hint", "next round", start(None), "host"),
    row("start-round-from-hint", "start round", start(4), "host", {"next_round": 4}),
    row("lets-start-the-round", "Let's start the round!", start(4), "host", {"next_round": 4}),
    row("round-start-shouted", "ROUND START", start(None), "host"),
    row(
        "starts-now-in-announcement",
        "Round 2 starts now — the prompt is: a word that fits 'cat'",
        start(2),
        "host",
    ),
    row("round-go", "Round 2 — GO!", start(2), "host"),
    row("starting-round-bold", "**Starting round 3 now!** 🔔", start(3), "host"),
    row("time-for-round-three", "Time for round three!", start(3), "host"),
    row("the-first-round", "The first round starts now", start(1), "host"),
    row(
        "round-of-sixteen",
        "Round 4 of 16\nCategory: animals\nPrompt: two that sum to 10",
        start(4),
        "host",
    ),
    row(
        "welcome-then-heading",
        "Welcome everyone! 🎉\nRound 1\nCategory: consonants",
        start(1),
        "host",
    ),
    row("round-colon-prompt", "Round 5: prompt — a 5-letter word", start(5), "host"),
    row("round-in-five-minutes", "Round 2 starts in 5 minutes", NEAR, "host"),
    row("after-a-break", "we'll start round 3 after a short break", NEAR, "host"),
    row("two-rounds", "Round 2 starts now\nRound 3 starts now", NEAR, "host"),
    row("round-was-fun", "round 3 was fun", CHAT, "host"),
    row("takes-the-round", "well played, alpha takes the round", CHAT, "host"),
    row("welcome", "Welcome to No, Not That! Category: consonants.", CHAT, "host"),
    row("got-it", "got it", CHAT, "host"),
    row("bare-go", "go", CHAT, "host"),
    row("start-in-code", "```\nRound 2 starts now\n```", CHAT, "host"),
    # category verdicts
    row("fits-the-one-pending", "TABLE fits", category(11, True), "host", TABLE_PENDING),
    row("fits-lower-case", "table fits", category(11, True), "host", TABLE_PENDING),
    row(
        "i-rule-does-not-fit",
        "I rule that TABLE does not fit the category",
        category(11, False),
        "host",
        TABLE_PENDING,
    ),
    row("doesnt-fit-curly", "table doesn\u2019t fit.", category(11, False), "host", TABLE_PENDING),
    row("yes-is-valid", "yes, TABLE is valid", category(11, True), "host", TABLE_PENDING),
    row("fits-bold", "**TABLE** fits!", category(11, True), "host", TABLE_PENDING),
    row("it-fits-one-pending", "it fits ✅", category(11, True), "host", TABLE_PENDING),
    row("it-fits-two-pending", "it fits", NEAR, "host", TWO_PENDING),
    row("several-of-a-value", "3 does not fit", value("3", False), "host", THREE_TWICE),
    row("nothing-pending", "Z does not fit", value("Z", False), "host", NONE_PENDING),
    row("two-verdicts", "TABLE fits, Q doesn't fit", NEAR, "host", TWO_PENDING),
    row("nothing-fits-lol", "nothing fits here lol", NEAR, "host", TABLE_PENDING),
    # prompt verdicts
    row("seat-meets", "alpha meets the prompt", prompt(9, True), "host", ALPHA_CLAIMED),
    row(
        "seats-solution",
        "Alpha's solution meets the prompt!",
        prompt(9, True),
        "host",
        ALPHA_CLAIMED,
    ),
    row(
        "remark-then-verdict",
        "WHIZ is a word, alpha meets the prompt",
        prompt(9, True),
        "host",
        ALPHA_CLAIMED,
    ),
    row("seat-without-claim", "beta fails", NEAR, "host", ALPHA_CLAIMED),
    row(
        "the-solution-does-not-meet",
        "The solution does not meet the prompt",
        prompt(12, False),
        "host",
        BETA_SOLUTION,
    ),
    row("doesnt-meet-it", "beta doesn't meet it", prompt(12, False), "host", BETA_SOLUTION),
    row("no-hint-no-claim", "alpha meets the prompt", NEAR, "host"),
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


def test_the_page_shows_the_grammar_of_the_readers_docstring() -> None:
    check_page(transcript.__doc__, "no-not-that.md")
