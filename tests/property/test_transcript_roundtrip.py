"""Property: a match played in a chat channel reads back from its export exactly, for each game.

Hypothesis generates a match as commands (both seats', and the host's where the game's reader
reads host posts: Zoom's round starts, No, Not That!'s round starts and verdicts), each at a
strictly later game time with random microseconds. Each command is posted by its seat (or the
host) in a phrasing drawn from what its reader's module docstring promises
(``adjudicator/games/<game>/transcript.py``), in random case, with the emoji, mentions, markdown,
fillers and typos that grammar allows; No, Not That!'s step actions and solutions may be posted in
the seat's direct messages with the host (a separate export), bare. Between the commands come
noise posts: the seats' and the host's chatter (it must read as chatter), posts by them that
look like commands but are not (near misses: a question, a take-back, a verdict on no claim, a
host's move), spectators and a bot posting commands (ignored), system messages, edited posts and
replies. The match is exported as DiscordChatExporter JSON files (the fields the exporter writes,
snowflake ids rising with time, every timestamp at a random UTC offset with a random 7th
fractional digit, edits with ``timestampEdited``), read from their bytes and from the loaded JSON
alike, and as plain text (``[time] name: text``, continuation lines, blank lines, any line end).
Each is read back: ``read_discord`` / ``read_text`` → ``triage`` → the game's reader, with the
state hint each command implies (a verdict names the pending question the hint lists, a round
start without its number takes the hint's next round, a DM post is read ``private``). The commands
read are exactly those generated, in order, each at its generated instant to the microsecond, and
no noise post reads as a command.

A phrasing the docstrings promise that does not read back is listed in ``FINDINGS`` and kept out
of the draws (the place that keeps it out says so).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from typing import Any, Literal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.games.no_not_that.judging import normalise
from adjudicator.transcripts.discord import read_discord
from adjudicator.transcripts.games import READERS
from adjudicator.transcripts.posts import Post
from adjudicator.transcripts.text import read_text
from adjudicator.transcripts.triage import Cast, Source, triage

Body = dict[str, Any]
Role = Literal["seat", "host", "spectator", "bot"]
What = Literal["command", "chatter", "lookalike", "ignored", "system"]

SETTINGS = settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Known failures of the readers, kept out of the draws below (see the module docstring).
FINDINGS = {
    "mention_with_a_space": (
        "All three readers drop '@name' up to the next space, so a mention of a display name"
        " with a space, as DiscordChatExporter writes it ('@Carol (watching) A c4', '@Carol"
        " (watching) submit X', '@Carol (watching) b1-c3'), leaves its second word behind and"
        " the post is a near miss. The message's 'mentions' array names the display names that"
        " could be dropped whole."
    ),
}

DISCORD_EPOCH_MS = 1_420_070_400_000
GUILD_ID = "1100000000000000000"
CHANNEL_ID = "1199000000000000000"
ROLE_ID = "1150000000000000001"


@dataclass(frozen=True, slots=True)
class Person:
    """An author: ``shown`` is the name the plain-text export and DCE's ``nickname`` carry."""

    id: str
    name: str
    nickname: str | None
    role: Role
    seat: str | None = None

    @property
    def shown(self) -> str:
        return self.nickname or self.name


HOST = Person("310000000000000003", "qm", "Quizmaster", "host")
SPECTATORS = (
    Person("310000000000000004", "carol", "Carol (watching)", "spectator"),
    Person("310000000000000005", "dave", None, "spectator"),
)
BOT = Person("310000000000000006", "TimerBot", None, "bot")


def seat_people(first: str, second: str) -> tuple[Person, Person]:
    return (
        Person("310000000000000001", "ann.k", "Ann", "seat", first),
        Person("310000000000000002", "bo_b", None, "seat", second),
    )


@dataclass(frozen=True, slots=True)
class Said:
    """One post before it has a time: who, what text, and what it must read as. ``dm`` names
    the seat whose direct messages with the host it is in (None: the channel)."""

    who: Person
    content: str
    what: What
    body: Body | None = None
    hint: Mapping[str, Any] = field(default_factory=dict)
    dm: str | None = None
    system: str | None = None


@dataclass(frozen=True, slots=True)
class Look:
    """How one post is exported: its timestamp's UTC offset (minutes), 7th fractional digit,
    trailing zeros trimmed (as System.Text.Json writes them), ``Z`` for UTC, a space between
    date and time (plain text), blank lines after it (plain text), and its Discord extras."""

    offset: int
    seventh: int
    trim: bool
    zulu: bool
    space: bool
    blank: int
    edited: int | None
    edit_offset: int
    reply: bool
    pinned: bool
    reaction: bool


OFFSETS = st.one_of(
    st.sampled_from([0, 0, 60, 120, -240, -300, 330, 345, -570, 525, 780, 840, -720]),
    st.integers(-12 * 60, 14 * 60),
)
LOOKS = st.builds(
    Look,
    offset=OFFSETS,
    seventh=st.integers(0, 9),
    trim=st.booleans(),
    zulu=st.booleans(),
    space=st.booleans(),
    blank=st.integers(0, 2),
    edited=st.none() | st.none() | st.integers(1, 3_600_000_000),
    edit_offset=OFFSETS,
    reply=st.booleans(),
    pinned=st.booleans(),
    reaction=st.booleans(),
)


@dataclass(frozen=True, slots=True)
class Posted:
    said: Said
    at: datetime
    look: Look


# --- phrasing helpers ---------------------------------------------------------------------------

CASES = ("keep", "lower", "upper", "title", "random")
EMOJI = (
    "🔥",
    "👀",
    "🎯",
    "✅",
    "😅",
    "🙋",
    ":eyes:",
    ":fire:",
    "<:pog:812345678901234567>",
    "<a:party_parrot:812345678901234568>",
)
# Raw mentions, as Discord stores them (and DCE exports with markdown formatting off), and the
# '@Display Name' form DCE writes by default, for names without a space only (FINDINGS
# ["mention_with_a_space"]).
MENTIONS = (f"<@{HOST.id}>", f"<@!{HOST.id}>", f"<@&{ROLE_ID}>", f"<#{CHANNEL_ID}>")

RENDERED_MENTIONS = ("@Quizmaster", "@Ann", "@bo_b", "@everyone", "@here")
ALL_MENTIONS = (*MENTIONS, *RENDERED_MENTIONS)


def words_list(text: str) -> list[str]:
    return text.split()


NUMBER_WORDS = words_list(
    "one two three four five six seven eight nine ten eleven twelve thirteen"
    " fourteen fifteen sixteen seventeen eighteen nineteen twenty"
)
ORDINALS = words_list(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth"
    " thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth"
    " twentieth"
)


def recase(text: str, how: str, flips: Sequence[bool]) -> str:
    if how == "lower":
        return text.lower()
    if how == "upper":
        return text.upper()
    if how == "title":
        return text.title()
    if how == "random":
        return "".join(c.swapcase() if f else c for c, f in zip(text, flips, strict=False))
    return text


@st.composite
def phrase(draw: st.DrawFn, template: str, *verbatim: str) -> str:
    """``template`` in a random case, each ``{}`` filled with a ``verbatim`` value as is."""
    how = draw(st.sampled_from(CASES))
    parts = template.split("{}")
    assert len(parts) == len(verbatim) + 1
    flips = draw(st.lists(st.booleans(), min_size=len(template))) if how == "random" else []
    done, used = [recase(parts[0], how, flips)], len(parts[0]) + 2
    for value, part in zip(verbatim, parts[1:], strict=True):
        done += [value, recase(part, how, flips[used:])]
        used += len(part) + 2
    return "".join(done)


@st.composite
def decorated(
    draw: st.DrawFn,
    text: str,
    *,
    marks: tuple[str, ...] = ("", "!", "!!"),
    mentions: tuple[str, ...] = MENTIONS,
) -> str:
    """``text`` with a mention or emoji before it, a mark and an emoji after it, or none."""
    lead = draw(st.sampled_from(("", "", *mentions, *EMOJI)))
    mark = draw(st.sampled_from(marks))
    tail = draw(st.sampled_from(("", "", *EMOJI)))
    return f"{lead + ' ' if lead else ''}{text}{mark}{' ' + tail if tail else ''}"


@st.composite
def worded(
    draw: st.DrawFn,
    templates: Sequence[str],
    marks: tuple[str, ...] = ("", "!", "!!"),
    mentions: tuple[str, ...] = MENTIONS,
) -> str:
    """One of ``templates`` (no verbatim part), in a random case, decorated."""
    said = draw(phrase(draw(st.sampled_from(templates))))
    return draw(decorated(said, marks=marks, mentions=mentions))


def chatter(who: Person, text: str, hint: Mapping[str, Any], dm: str | None = None) -> Said:
    return Said(who, text, "chatter", hint=hint, dm=dm)


@dataclass(frozen=True)
class Spec:
    """A game as this property plays it: its seats, its commands (with the hint for noise),
    the chatter of its seats and host, its look-alikes by them, and spectators' command-like
    posts."""

    game: str
    seats: tuple[Person, Person]
    commands: Callable[[Spec], st.SearchStrategy[tuple[list[Said], Body]]]
    seat_chatter: tuple[str, ...]
    host_chatter: tuple[str, ...]
    lookalikes: tuple[tuple[Literal["seat", "host"], str], ...]
    decoys: tuple[str, ...]
    dms: bool = False

    @property
    def seat_names(self) -> list[str]:
        return [p.seat for p in self.seats if p.seat is not None]


# --- Zoom ---------------------------------------------------------------------------------------

ZOOM_LABELS = (*"ABCDEFGHIJKLMNOPQRSTUVWXYZ", "AB", "QX", "ZZ", "MK")
ZOOM_CELLS = st.builds(
    lambda col, row: f"{col}{row}", st.from_regex(r"[a-h]{1,2}", fullmatch=True), st.integers(1, 30)
)
ZOOM_FILLERS = ("at", "is", "on", "in")
ZOOM_SIGNS = ("", "", "=", "@", ":", "-")
ZOOM_JOINS = (" ", ", ", "; ", " & ", " + ", " and ", ", and ", "\n")
ZOOM_PRIORITY = (
    "priority",
    "prio",
    "I'll take priority",
    "priority pls",
    "calling priority now",
    "I'll use my priority",
    "I\u2019ll take priority",
    "let me use priority",
    "I choose priority",
    "priority for next round",
    "I'd like to take priority",
)
ZOOM_START_LINE = (
    "round {n} starts",
    "round {n} starts now",
    "Round {n} begins",
    "round {n} is starting",
    "round {n} has started",
    "Round {n} is live",
    "round {n} is on",
    "round {n} - go",
    "round {n}: go",
    "Round {n} go",
    "round number {n} go",
    "start round {n}",
    "starting the round {n}",
    "begin round {n} now",
    "round {word} starts",
    "{ordinal} round starts now",
    "{nth} round begins",
    "Round {n} of 11 starts now",
)
ZOOM_START_WHOLE_N = ("round {n}", "start round {n}", "start round {n} now", "round number {n}")
ZOOM_GO = (
    "go",
    "GO!",
    "ready, set, go!",
    "Ready... set... GO",
    "3, 2, 1, GO",
    "on your marks, get set, go",
    "goooo",
)
ZOOM_START_LINE_NO_N = (
    "next round starts now",
    "the next round begins",
    "final round starts",
    "last round go",
)
ZOOM_START_WHOLE = ("start", "next round", "start round", "final round", "go")
ZOOM_HOST_LINES = (
    "Alright everyone",
    "Targets are up 👀",
    "good luck!",
    "Grid posted above",
    "Remember: one buzz at a time",
)


def ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


@st.composite
def zoom_buzz(draw: st.DrawFn, pairs: list[tuple[str, str]]) -> str:
    said: list[str] = []
    for label, cell in pairs:
        fillers = draw(st.lists(st.sampled_from(ZOOM_FILLERS), max_size=2))
        # "A's at c4": the "s" is a filler (two at most)
        shown = f"{label}'s" if len(fillers) < 2 and draw(st.booleans()) else label
        sign = draw(st.sampled_from(ZOOM_SIGNS))  # signs are never words
        if sign and not fillers and shown == label and draw(st.booleans()):
            pair = f"{label}{sign}{cell}"  # written tight: A=c4, A@c4
        else:
            pair = " ".join([shown, *([sign] if sign else []), *fillers, cell])
        said.append(("target " if draw(st.booleans()) else "") + pair)
    text = said[0]
    for pair in said[1:]:
        text += draw(st.sampled_from(ZOOM_JOINS)) + pair
    prefix = draw(st.sampled_from(("", "", "buzz ", "buzzing ", "buzzed ", "buzz in ")))
    return draw(decorated(draw(phrase(prefix + text)), mentions=ALL_MENTIONS))


@st.composite
def zoom_start(draw: st.DrawFn, number: int | None) -> str:
    """A host post that starts round ``number`` (None: the post names no round)."""
    if number is None:
        if draw(st.booleans()):
            return draw(worded(ZOOM_START_WHOLE, mentions=ALL_MENTIONS))
        line = draw(worded((*ZOOM_GO, *ZOOM_START_LINE_NO_N), marks=("",)))
    else:
        names = {"n": number, "word": NUMBER_WORDS[number - 1], "ordinal": ORDINALS[number - 1]}
        names["nth"] = ordinal(number)
        form = draw(st.sampled_from(("line", "line", "whole", "heading")))
        if form == "whole":
            forms = [t.format(**names) for t in ZOOM_START_WHOLE_N]
            return draw(worded(forms, marks=("", "!"), mentions=ALL_MENTIONS))
        if form == "heading":  # a heading line "Round N", then a bare GO
            go = draw(worded(ZOOM_GO, marks=("",)))
            heading = draw(st.sampled_from((f"Round {number}", f"**Round {number} of 11**")))
            line = draw(phrase(heading)) + "\n" + go
        else:
            forms = [t.format(**names) for t in ZOOM_START_LINE]
            line = draw(worded(forms, marks=("", "!"), mentions=ALL_MENTIONS))
    lines = st.lists(st.sampled_from(ZOOM_HOST_LINES), max_size=2)
    return "\n".join([*draw(lines), line, *draw(lines)])  # inside a longer post


@st.composite
def zoom_commands(draw: st.DrawFn, spec: Spec) -> tuple[list[Said], Body]:
    labels = draw(st.lists(st.sampled_from(ZOOM_LABELS), min_size=1, max_size=4, unique=True))
    hint: Body = {"targets": sorted(labels)}
    kinds = draw(
        st.lists(st.sampled_from(("start", "buzz", "buzz", "priority")), min_size=1, max_size=10)
    )
    rounds, out = 0, []
    for kind in kinds:
        if kind == "start":
            rounds += 1
            number = rounds if draw(st.booleans()) else None
            body: Body = {"type": "start_round"} | ({} if number is None else {"round": number})
            out.append(Said(HOST, draw(zoom_start(number)), "command", body, hint))
            continue
        who = draw(st.sampled_from(spec.seats))
        if kind == "priority":
            body = {"type": "declare_priority", "seat": who.seat}
            text = draw(worded(ZOOM_PRIORITY, mentions=ALL_MENTIONS))
            out.append(Said(who, text, "command", body, hint))
            continue
        pairs = draw(
            st.lists(st.tuples(st.sampled_from(labels), ZOOM_CELLS), min_size=1, max_size=3)
        )
        body = {
            "type": "buzz",
            "seat": who.seat,
            "pairs": [{"target": t, "at": c} for t, c in pairs],
        }
        out.append(Said(who, draw(zoom_buzz(pairs)), "command", body, hint))
    return out, hint


ZOOM = Spec(
    game="zoom",
    seats=seat_people("alpha", "beta"),
    commands=zoom_commands,
    seat_chatter=(
        "hmm",
        "nice one",
        "gg",
        "that was close 😅",
        "wait what",
        "ugh, so close",
        "lol",
        "can you see the grid?",
        "my bad",
        "good luck!",
        "@Quizmaster one sec",
    ),
    host_chatter=(
        "nice buzz!",
        "welcome everyone 👋",
        "scores are tied",
        "well played both",
        "hold on, checking the grid",
        "targets A and B this time",
    ),
    lookalikes=(
        ("seat", "A c4 lol"),
        ("seat", "was it A c4?"),
        ("seat", "priority? not sure"),
        ("seat", "buzz A"),
        ("seat", "A c4?"),
        ("seat", "~~A c4~~ B d5"),
        ("host", "Round 7 starts in 5 minutes"),
        ("host", "round 2 starts soon"),
        ("host", "Round 3 starts now?"),
        ("host", "Shall we start round 3?"),
    ),
    decoys=("A c4", "priority", "round 2 starts now", "B d5 and A c3", "go!", "buzz Q aa12"),
)


# --- No, Not That! ------------------------------------------------------------------------------


def vocab(text: str) -> frozenset[str]:
    return frozenset(text.split())


# The word lists of the grammar in adjudicator/games/no_not_that/transcript.py's docstring: an
# object, token or verdict subject made of them is ambiguous by that grammar, so the draws keep
# such words where the grammar says what they mean and nowhere else.
CHAT = vocab(
    "lol lmao rofl haha hahaha hehe xd jk wait oops actually maybe hopefully idk hmm think guess"
    " probably gl hf glhf nvm ez or"
)
GREETING = vocab(
    "ok okay kk thanks thx ty hi hello hey yes no yeah yep nope sure gg wp ggwp sorry np cool"
    " nice brb"
)
POLITE = vocab("pls plz please thx thanks thank you ty tysm")
TAKE_BACK = vocab("wait oops undo nvm nevermind scratch meant instead cancel retract mistake typo")
LEAD = vocab(
    "i ll will m im am d id gonna going to wanna want would like let me lemme ok okay k so then"
    " and now pls plz please alright right yes yeah yep hmm hm um uh well actually ah oh"
)
HOST_LEAD = vocab(
    "ok okay yes yep yeah no nope so alright right well ruling verdict host i rule think d say"
    " sorry and but then hmm um confirmed that"
)
PRONOUN = vocab(
    "it that this the one object submission solution answer word these those they thing"
)
VERDICT_WORDS = vocab(
    "fits fit does counts count is valid not doesn t doesnt don dont isn isnt invalid meets meet"
    " does fails category prompt round rnd rd"
)
KEYWORDS = ("submit", "object", "invalid", "prompt", "challenge", "exchange", "solution", "accept")
REAL_WORDS = {"except", "summit", "accent"}  # one edit from a keyword, read as themselves
VOCAB = (
    CHAT
    | GREETING
    | POLITE
    | TAKE_BACK
    | LEAD
    | HOST_LEAD
    | PRONOUN
    | VERDICT_WORDS
    | set(KEYWORDS)
    | vocab(
        "submitting obj submission head start headstart use using activate activating play"
        " playing my an a solve solving nnt claim claiming claimed claims call calling thats s its"
        " your ur last on can could make met meeting won wont never do need from fine pass"
        " passing passes skip skipping this step time turn challenging challenged accepting"
        " accepted accepts extra safe extrasafe life ring lifering item around exchanging trade"
        " trading swap swapping convert converting times point points pt pts net nets for of"
        " safety into once twice thrice one two three four five six seven eight nine ten"
    )
)


def one_edit(word: str, keyword: str) -> bool:
    """Whether ``word`` is one edit (a letter added, dropped or changed, or two neighbours
    swapped) from ``keyword``."""
    if word == keyword or abs(len(word) - len(keyword)) > 1:
        return False
    if len(word) == len(keyword):
        diff = [i for i, (a, b) in enumerate(zip(word, keyword, strict=True)) if a != b]
        swapped = len(diff) == 2 and diff[1] == diff[0] + 1
        return len(diff) == 1 or (swapped and word[diff[0]] == keyword[diff[1]])
    short, long = sorted((word, keyword), key=len)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


# Words that make a seat's line a command or a near miss (STRONG and WEAK words, each PHRASE's
# own words, items): a direct message of them is no object.
COMMAND_WORDS = set(KEYWORDS) | vocab(
    "submitting obj submission head start headstart use using solve solving nnt claim claiming"
    " pass passing passes skip skipping challenging challenged accepting accepted accepts extra"
    " safe extrasafe life ring lifering exchanging trade trading swap swapping convert"
    " converting"
)


def typo_of_keyword(word: str) -> bool:
    return len(word) >= 5 and any(one_edit(word, k) for k in KEYWORDS)


def words_of(text: str) -> list[str]:
    return [w.lower() for w in re.findall(r"[0-9A-Za-z]+", text)]


def plain(text: str) -> bool:
    """Whether every word of ``text`` is outside the grammar's vocabulary (and no keyword typo)."""
    return all(w not in VOCAB and not typo_of_keyword(w) for w in words_of(text))


def bare_object(text: str) -> bool:
    """Whether ``text``, alone in a seat's DM during a step, is its object: one word that is no
    command word, or two or three outside the grammar's words; 32 characters at most."""
    found = words_of(text)
    if len(text) > 32 or any(w in COMMAND_WORDS or typo_of_keyword(w) for w in found):
        return False
    return len(found) == 1 or plain(text)


def argument(text: str) -> bool:
    """Whether ``text`` reads back whole as an ARGUMENT: several words none of which is CHAT,
    no polite word at its ends, no "is"/"to" that the key would take."""
    found = words_of(text)
    return (
        not (len(found) > 1 and set(found) & CHAT)
        and found[0] not in POLITE | {"is", "to"}
        and found[-1] not in POLITE
    )


def subject(text: str) -> bool:
    """Whether ``text`` reads back whole as a verdict's SUBJECT: not a lead, a pronoun, a verb or
    a seat."""
    found = words_of(text)
    return (
        found[0] not in HOST_LEAD
        and not set(found) <= PRONOUN
        and not set(found) & (VERDICT_WORDS | {"alpha", "beta", "s"})
    )


NNT_OBJECTS = (
    "Z",
    "K",
    "Q",
    "cat",
    "Blue Whale",
    "x-ray",
    "Sphinx",
    "K2",
    "42",
    "007",
    "O'Neil",
    "rhythm",
    "crwth",
    "Nth",
    "OK",
    "OR",
    "I",
    "New York",
)
NNT_OBJECT = st.one_of(
    st.sampled_from(NNT_OBJECTS),
    st.from_regex(r"[A-Za-z0-9]{1,8}( [A-Za-z0-9]{1,8}){0,2}", fullmatch=True),
)
NNT_TOKEN = st.from_regex(r"[A-Za-z]{1,3}|[0-9]{1,2}", fullmatch=True)
NNT_LEADS = ("", "", "", "ok ", "I'll ", "gonna ", "alright ", "hmm ", "so ", "yeah ")
NNT_POLITE = ("", "", "", " pls", " thanks", " please", " ty")
NNT_MARKDOWN = ("", "", "", "**", "__", "*")
NNT_MARKS = ("", "", "!", ".", "!!")
NNT_SUBMIT = (
    "submit {}",
    "Submit: {}",
    "submitting {}",
    "object: {}",
    "my object is {}",
    "My object is: {}",
    "obj {}",
    "my submission is {}",
    "submit\n{}",
    "submit -> {}",
    "submit => {}",
    "submit \u2192 {}",
    "submit - {}",
    "object = {}",
)
NNT_HEAD_START = (
    "head start {}",
    "Head start: {}",
    "use head start {}",
    "playing my headstart: {}",
    "head start\n{}",
)
NNT_SOLVE_SPACED = ("solve {}", "solving {}", "solve\n{}", "solve: {}")
NNT_SOLVE_LISTED = ("solution: {}", "my solution is {}", "Solution:\n{}", "solution = {}")
NNT_WORDED: dict[str, tuple[str, ...]] = {
    "claim_invalid": (
        "no, not that!",
        "No no, not that!",
        "not that",
        "claim invalid",
        "invalid",
        "that's invalid",
        "nnt",
        "I call invalid",
        "no, not that, invalid",
    ),
    "claim_prompt": (
        "claim prompt",
        "prompt",
        "I can meet the prompt",
        "claiming the prompt",
        "prompt claim",
    ),
    "pass": ("pass", "I'll pass", "skip", "pass this turn", "passing this one"),
    "challenge": (
        "challenge",
        "I challenge",
        "challenge that",
        "I challenge that solution",
        "challenged",
    ),
    "accept": (
        "accept",
        "accepted",
        "no challenge",
        "I won't challenge",
        "not gonna challenge",
        "I accept that solution",
    ),
}
NNT_ITEMS = {
    "extra_safe": ("use extra safe", "extra safe", "activate my extra safe", "extrasafe"),
    "life_ring": ("life ring", "using my life ring", "lifering", "use the life ring"),
    "head_start": ("use head start", "head start", "activating my head start"),
}
NNT_PROMPT_LINES = ("Prompt: a 4-letter word with exactly 1 vowel", "Category: consonants")
NNT_HOST_LINES = ("Alright everyone!", "Scores: alpha 2, beta 1", "Nice work both")
STEP_KINDS = ("submit", "head_start", "claim_invalid", "claim_prompt", "pass")
NNT_PHASES = {
    "solve": "claims",
    "challenge": "claims",
    "accept": "claims",
    "exchange": "between_rounds",
}


def nnt_hint(phase: str = "step", next_round: int = 1, **extra: Any) -> Body:
    """A hint as ``no_not_that.transcript.hint`` gives it: nothing pending unless ``extra``."""
    empty: Body = {"category_targets": {}, "prompt_claims": {}, "prompt_questions": {}}
    return (
        {"phase": phase, "next_round": next_round, "seats": ["alpha", "beta"]}
        | empty
        | {"solving": []}
        | extra
    )


@st.composite
def misspelt(draw: st.DrawFn, template: str) -> str:
    """``template``, or with one of its KEYWORDs one edit off ("sumbit", "promt"): a word of five
    letters or more that close to a keyword is read as it."""
    found = [m for m in re.finditer(r"[A-Za-z]+", template) if m.group().lower() in KEYWORDS]
    if not found or draw(st.integers(0, 3)) < 3:  # one in four, and never when shrunk
        return template
    at = draw(st.sampled_from(found))
    word, i = at.group(), draw(st.integers(0, len(at.group()) - 2))
    letter = draw(st.sampled_from("abcdefghijklmnopqrstuvwxyz"))
    typo = draw(
        st.sampled_from(
            (
                word[:i] + letter + word[i:],
                word[:i] + word[i + 1 :],
                word[:i] + letter + word[i + 1 :],
                word[:i] + word[i + 1] + word[i] + word[i + 2 :],
            )
        )
    )
    if typo.lower() == word.lower() or len(typo) < 5 or typo.lower() in REAL_WORDS:
        return template
    return template[: at.start()] + typo + template[at.end() :]


@st.composite
def nnt_line(draw: st.DrawFn, template: str, *verbatim: str, lead: bool = True) -> str:
    """A seat's line: LEAD words, the phrase (a keyword perhaps mistyped) in a random case with
    ``verbatim`` as is, a polite word, markdown, a mark, mentions and emoji."""
    said = draw(phrase(draw(misspelt(template)), *verbatim))
    if lead:
        said = draw(phrase(draw(st.sampled_from(NNT_LEADS)))) + said
    said += draw(st.sampled_from(NNT_POLITE))
    markdown = draw(st.sampled_from(NNT_MARKDOWN))
    if "\n" not in said and not markdown and draw(st.booleans()):
        markdown = "- "  # a bullet
    said = f"{markdown}{said}{markdown if markdown != '- ' else ''}"
    return draw(decorated(said, marks=NNT_MARKS, mentions=ALL_MENTIONS))


def exchange_forms(times: int) -> list[str]:
    """Ways to say "exchange ``times`` times" (N points are N times, N nets N/2 times)."""
    forms = [
        f"exchange {times}",
        f"exchange x{times}",
        f"exchange {times}x",
        f"exchange {times} times",
        f"trade {times} points",
        f"exchange {times} pts",
        f"swap {2 * times} nets",
        f"convert {times} points into {2 * times} nets",
    ]
    if times <= 10:
        forms.append(f"exchange {NUMBER_WORDS[times - 1]} times")
    forms += {
        1: ["exchange", "exchange once", "trade a point"],
        2: ["exchange twice"],
        3: ["exchange thrice"],
    }.get(times, [])
    return forms


@st.composite
def nnt_seat(draw: st.DrawFn, who: Person, kind: str, rounds: int) -> Said:
    assert who.seat is not None
    body: Body = {"type": kind, "seat": who.seat}
    dm = who.seat if kind in (*STEP_KINDS, "solve") and draw(st.booleans()) else None
    hint = nnt_hint(NNT_PHASES.get(kind, "step"), rounds + 1)
    if kind == "submit":
        obj = draw(NNT_OBJECT.filter(argument))
        body["object"] = obj
        if dm is not None and bare_object(obj) and draw(st.booleans()):
            # in its DM during a step, a short post is the object (a line of thanks beside it,
            # unless the object is such a word itself)
            greeting = set(words_of(obj)) <= GREETING | POLITE
            thanks = "" if greeting else draw(st.sampled_from(("", "", "\nthanks", "\nty", "ok\n")))
            text = f"{obj}{thanks}" if thanks.startswith("\n") else f"{thanks}{obj}"
            return Said(who, text, "command", body, hint, dm=dm)
        text = draw(nnt_line(draw(st.sampled_from(NNT_SUBMIT)), obj))
    elif kind == "head_start":
        obj = draw(NNT_OBJECT.filter(argument))
        text, body["object"] = draw(nnt_line(draw(st.sampled_from(NNT_HEAD_START)), obj)), obj
    elif kind == "solve":
        noise = CHAT | GREETING | POLITE | TAKE_BACK
        tokens = draw(
            st.lists(NNT_TOKEN.filter(lambda t: t.lower() not in noise), min_size=1, max_size=6)
        )
        body["tokens"] = tokens
        hint = nnt_hint("claims", rounds + 1, solving=[who.seat])
        spaced, listed = " ".join(tokens), draw(st.sampled_from((", ", ",", " , "))).join(tokens)
        if dm is not None and len(spaced) <= 32 and all(plain(t) for t in tokens):
            # in its DM during its solution window, a short post is its tokens
            return Said(who, draw(st.sampled_from((spaced, listed))), "command", body, hint, dm=dm)
        dm = None
        form = draw(st.sampled_from(("spaced", "listed", "working")))
        if form == "working":  # the working after "=" is not the solution
            text = draw(nnt_line("solve {} = {}", " + ".join(tokens), "".join(tokens)))
        elif form == "listed" and len(tokens) > 1:
            text = draw(nnt_line(draw(st.sampled_from(NNT_SOLVE_LISTED)), listed))
        else:
            text = draw(nnt_line(draw(st.sampled_from(NNT_SOLVE_SPACED)), spaced))
    elif kind == "use_item":
        item = draw(st.sampled_from(sorted(NNT_ITEMS)))
        text, body["item"] = draw(nnt_line(draw(st.sampled_from(NNT_ITEMS[item])))), item
    elif kind == "exchange":
        times = draw(st.integers(1, 100))
        text = draw(nnt_line(draw(st.sampled_from(exchange_forms(times)))))
        body["times"] = times
    else:
        text = draw(nnt_line(draw(st.sampled_from(NNT_WORDED[kind]))))
    return Said(who, text, "command", body, hint, dm=dm)


NNT_FITS = ("{} fits", "{} does fit", "{} counts", "{} is valid", "{} fits the category")
NNT_FITS_NOT = (
    "{} does not fit",
    "{} doesn't fit",
    "{} doesnt fit",
    "{} don't fit",
    "{} does not count",
    "{} isn't valid",
    "{} is invalid",
    "{} does not fit the category",
)
NNT_MEETS = ("{} meets", "{} does meet", "{} meets the prompt")
NNT_MEETS_NOT = (
    "{} does not meet",
    "{} doesn't meet the prompt",
    "{} fails",
    "{} fails the prompt",
)
NNT_HOST_LEADS = ("", "", "", "ok ", "ok, ", "I rule that ", "confirmed: ", "yes, ", "sorry, ")
NNT_PRONOUNS = ("it", "that one", "this", "the object", "that submission")


@st.composite
def verdict(draw: st.DrawFn, forms: tuple[str, ...], subject: str, *, verbatim: bool) -> str:
    """A host's verdict on ``subject`` (written as is when ``verbatim``), with a HOST-LEAD, a
    mark and emoji."""
    form, lead = draw(st.sampled_from(forms)), draw(st.sampled_from(NNT_HOST_LEADS))
    said = (
        draw(phrase(lead + form, subject))
        if verbatim
        else draw(phrase(lead + form.format(subject)))
    )
    return draw(decorated(said, marks=NNT_MARKS, mentions=ALL_MENTIONS))


@st.composite
def round_start(draw: st.DrawFn, number: int | None) -> str:
    """A host post that starts round ``number`` (None: "the next round", the hint's)."""
    n = number or 0
    first_line = False  # a ROUND alone starts only on the post's first line, or with a prompt
    if number is None:
        forms = ["the next round starts now", "new round begins", "on to the next round"]
        bare = ["next round", "Next round!", "new round"]
    else:
        forms = [
            f"round {n} starts now",
            f"Round {n} begins",
            f"start round {n}",
            f"Round {n} is live",
            f"time for round {n}",
            f"rnd {n} begins",
            f"kicking off round {n}",
            f"here's round {n}",
            f"Round {n}: prompt a 4-letter word",
            f"round {NUMBER_WORDS[n - 1]} starts",
            f"the {ORDINALS[n - 1]} round starts now",
            f"rd {n} - go",
        ]
        bare = [f"Round {n}", f"Round number {n}", f"Round {n} of 16", f"ROUND {n}"]
    if draw(st.booleans()):
        line, first_line = draw(st.sampled_from(bare)), True
    else:
        line = draw(st.sampled_from(forms))
    line = draw(decorated(draw(phrase(line)), marks=("", "!"), mentions=ALL_MENTIONS))
    before = [] if first_line else draw(st.lists(st.sampled_from(NNT_HOST_LINES), max_size=2))
    after = draw(st.lists(st.sampled_from(NNT_PROMPT_LINES), max_size=2, unique=True))
    return "\n".join([*before, line, *after])


def canonical(obj: str) -> str:
    """The value a category verdict names (as the hint keys it)."""
    value = normalise(obj)
    assert value is not None, obj
    return value


@st.composite
def nnt_category(draw: st.DrawFn, kind: str, rounds: int) -> Said:
    """A verdict on a value: ``judge_category`` names the one submission of it awaiting one
    (or, said of a pronoun, the one submission awaiting one); ``judge_value`` when none of that
    value awaits one, or several do."""
    fits, seq = draw(st.booleans()), draw(st.integers(1, 10**6))
    obj = draw(NNT_OBJECT.filter(subject))
    forms = NNT_FITS if fits else NNT_FITS_NOT
    other = {"QQQ": [seq + 1]} if draw(st.booleans()) else {}  # another value awaits one
    body: Body = {"type": kind, "fits": fits}
    if kind == "judge_category":
        targets = {canonical(obj): [seq]} | other
        body["target_seq"] = seq
        if not other and draw(st.booleans()):
            text = draw(verdict(forms, draw(st.sampled_from(NNT_PRONOUNS)), verbatim=False))
        else:
            text = draw(verdict(forms, obj, verbatim=True))
    else:
        targets = other | ({canonical(obj): [seq, seq + 2]} if draw(st.booleans()) else {})
        body["object"] = obj
        text = draw(verdict(forms, obj, verbatim=True))
    hint = nnt_hint("judging", rounds + 1, category_targets=targets)
    return Said(HOST, text, "command", body, hint)


@st.composite
def nnt_prompt(draw: st.DrawFn, spec: Spec, rounds: int) -> Said:
    """A verdict on a prompt claim: named by its seat, or the one solution awaiting the host."""
    meets, seq = draw(st.booleans()), draw(st.integers(1, 10**6))
    forms = NNT_MEETS if meets else NNT_MEETS_NOT
    seat = draw(st.sampled_from(spec.seat_names))
    body: Body = {"type": "judge_prompt", "target_seq": seq, "meets": meets}
    if draw(st.booleans()):
        pronoun = draw(st.sampled_from(("the solution", "it", "that answer", "this solution")))
        text = draw(verdict(forms, pronoun, verbatim=False))
        hint = nnt_hint("claims", rounds + 1, prompt_questions={seat: seq})
        return Said(HOST, text, "command", body, hint)
    other = [s for s in spec.seat_names if s != seat and draw(st.booleans())]
    claims = {seat: seq} | {s: seq + 1 for s in other}
    named = draw(st.sampled_from((seat, seat.title(), seat.upper(), f"{seat}'s solution")))
    text = draw(verdict(forms, named, verbatim=False))
    hint = nnt_hint("claims", rounds + 1, prompt_claims=claims)
    return Said(HOST, text, "command", body, hint)


@st.composite
def nnt_host(draw: st.DrawFn, spec: Spec, kind: str, rounds: int) -> Said:
    if kind in ("judge_category", "judge_value"):
        return draw(nnt_category(kind, rounds))
    if kind == "judge_prompt":
        return draw(nnt_prompt(spec, rounds))
    number = rounds + 1
    text = draw(round_start(number if draw(st.booleans()) else None))
    hint = nnt_hint("between_rounds", number)  # the next round's number when none is given
    return Said(HOST, text, "command", {"type": "start_round", "round": number}, hint)


@st.composite
def nnt_commands(draw: st.DrawFn, spec: Spec) -> tuple[list[Said], Body]:
    seat_kinds = (*STEP_KINDS, "solve", "challenge", "accept", "use_item", "exchange")
    host_kinds = ("start_round", "judge_category", "judge_value", "judge_prompt")
    kinds = draw(st.lists(st.sampled_from((*seat_kinds, *host_kinds)), min_size=1, max_size=12))
    rounds, out = 0, []
    for kind in kinds:
        if kind in host_kinds:
            out.append(draw(nnt_host(spec, kind, rounds)))
            rounds += kind == "start_round"
        else:
            out.append(draw(nnt_seat(draw(st.sampled_from(spec.seats)), kind, rounds)))
    return out, nnt_hint()


NNT = Spec(
    game="no_not_that",
    seats=seat_people("alpha", "beta"),
    commands=nnt_commands,
    # "submitted already?", "objection!" and "solved it!" read as commands before a512fce
    seat_chatter=(
        "hmm, tough one",
        "good luck!",
        "wait what",
        "lol",
        "gg",
        "nice one 👏",
        "brb",
        "thinking...",
        "oops",
        "that was close",
        "hi all",
        "submitted already?",
        "objection!",
        "solved it!",
        "@Quizmaster hi",
    ),
    host_chatter=(
        "got it",
        "well played!",
        "waiting for beta",
        "ok, next step",
        "Welcome to No, Not That! Category: consonants.",
        "scores: 2-1",
    ),
    lookalikes=(
        ("host", "beta meets"),
        ("host", "alpha does not meet"),  # no claim pending
        ("host", "Round 2 starts in 5 minutes"),
        ("host", "cat fits, dog fits"),
        ("seat", "that's not invalid, is it?"),
        ("seat", "pass me the water"),
        ("seat", "submit Q lol"),
        ("seat", "submit Q\nwait, no"),
        ("seat", "pass\nclaim prompt"),
    ),
    decoys=("submit Z", "no, not that!", "pass", "Round 3", "K fits", "alpha meets", "solve W H"),
    dms=True,
)


# --- Zombego ------------------------------------------------------------------------------------

ZOMBEGO_CELLS = st.builds(
    lambda f, r: f"{f}{r}", st.sampled_from("abcdefghijkl"), st.integers(1, 12)
)
ZOMBEGO_FORMS: dict[tuple[str, str], tuple[str, ...]] = {
    ("place", "value"): (
        "place:{v}:{c}",
        "place {v} {c}",
        "place {v} at {c}",
        "{v} {c}",
        "{v}@{c}",
        "put {v} on {c}",
        "drop {v} {c}",
        "v{v} {c}",
        "place v{v} at {c}",
        "palce {v} {c}",
        "placing my {v} on {c}",
        "{v} -> {c}",
    ),
    ("place", "slot"): (
        "slot {v} {c}",
        "slot{v} {c}",
        "place slot {v} on {c}",
        "put slot {v} at {c}",
    ),
    ("place_zombie", "value"): (
        "zombie:{v}:{c}",
        "zombie {v} {c}",
        "z{v} {c}",
        "zombie {v} at {c}",
        "place zombie {v} on {c}",
        "zombi {v} {c}",
        "z {v} {c}",
    ),
    ("place_zombie", "slot"): ("zombie slot {v} {c}", "z slot{v} {c}", "zombie slot{v} on {c}"),
}
ZOMBEGO_MOVES = (
    "move:{a}-{b}",
    "{a}-{b}",
    "{a} {b}",
    "{a} to {b}",
    "{a}x{b}",
    "move {a} {b}",
    "{a} \u2192 {b}",
    "mv {a} {b}",
    "{a} takes {b}",
    "from {a} to {b}",
    "to {b} from {a}",
    "moving the piece from {a} onto {b}",
    "mvoe {a} {b}",
    "zombie {a} to {b}",
    "{a} x {b}",
    "move\n{a} {b}",
)
ZOMBEGO_SAY = ("", "", "", "ok ", "I'll ", "my turn: ", "so ", "now ")
ZOMBEGO_LINES = ("good luck", "your turn next", "phew 😅", "here we go")


@st.composite
def zombego_post(draw: st.DrawFn, command: str) -> str:
    """``command`` said by a seat: SAY words, a random case, a polite word, emoji and mentions,
    perhaps a line of chatter before or after it."""
    said = draw(phrase(draw(st.sampled_from(ZOMBEGO_SAY)) + command))
    said += draw(st.sampled_from(("", "", " pls", " thanks")))
    said = draw(decorated(said, marks=("", "!", "."), mentions=ALL_MENTIONS))
    # a line of chatter beside a one-line command (a command over several lines is the whole
    # post run together: a chatter line beside it makes a near miss)
    chat = [] if "\n" in said else draw(st.lists(st.sampled_from(ZOMBEGO_LINES), max_size=1))
    return "\n".join([*chat, said] if draw(st.booleans()) else [said, *chat])


@st.composite
def zombego_commands(draw: st.DrawFn, spec: Spec) -> tuple[list[Said], Body]:
    out = []
    for _ in range(draw(st.integers(1, 12))):
        who = draw(st.sampled_from(spec.seats))
        kind = draw(st.sampled_from(("place", "place_zombie", "move")))
        if kind == "move":
            a, b = draw(ZOMBEGO_CELLS), draw(ZOMBEGO_CELLS)
            text = draw(zombego_post(draw(st.sampled_from(ZOMBEGO_MOVES)).format(a=a, b=b)))
            body: Body = {"type": "move", "seat": who.seat, "from": a, "to": b}
            out.append(Said(who, text, "command", body))
            continue
        by = draw(st.sampled_from(("value", "slot")))
        value = draw(st.integers(0, 110 if by == "value" else 31))
        cell = draw(ZOMBEGO_CELLS)
        form = draw(st.sampled_from(ZOMBEGO_FORMS[kind, by]))
        text = draw(zombego_post(form.format(v=value, c=cell)))
        body = {"type": kind, "seat": who.seat, "cell": cell, by: value}
        out.append(Said(who, text, "command", body))
    return out, {}


ZOMBEGO = Spec(
    game="zombego",
    seats=seat_people("white", "black"),
    commands=zombego_commands,
    seat_chatter=(
        "nice move",
        "hmm",
        "gg",
        "oops, I meant",
        "your turn",
        "good game 🧟",
        "@Ann good luck",
    ),
    host_chatter=("Zombego! white moves first, good luck", "gg", "5 minutes left"),
    lookalikes=(
        ("host", "b1-c3"),
        ("host", "white: b1-c3"),
        ("host", "place 3 at c2"),
        ("host", "z2 d4"),
        ("seat", "what about b1-c3?"),
        ("seat", "is c2 free?"),
        ("seat", "b1 c3 lol"),
        ("seat", "move b1"),
        ("seat", "place it"),
        ("seat", "b1-c3\nwait no, b1-c4"),
        ("seat", "b1-c3?"),
    ),
    decoys=("b1-c3", "place:3:c2", "z2 d4", "move b1 c3", "3@c2"),
)


# --- the match on a timeline, with noise ------------------------------------------------------

SYSTEM = (
    ("ChannelPinnedMessage", "Pinned a message."),
    ("ThreadCreated", "Started a thread."),
    ("GuildMemberJoin", "Joined the server."),
)
NOISE = ("seat_chatter", "host_chatter", "lookalike", "spectator", "bot", "system", "dm_ack")


@st.composite
def noise(draw: st.DrawFn, spec: Spec, hint: Body, echo: str | None) -> Said:
    kind = draw(st.sampled_from(NOISE if spec.dms else NOISE[:-1]))

    def cased(text: str) -> str:
        return draw(phrase(text))

    if kind == "seat_chatter":
        who = draw(st.sampled_from(spec.seats))
        return chatter(who, cased(draw(st.sampled_from(spec.seat_chatter))), hint)
    if kind == "host_chatter":
        return chatter(HOST, cased(draw(st.sampled_from(spec.host_chatter))), hint)
    if kind == "dm_ack":  # the host answers a seat in their direct messages
        seat = draw(st.sampled_from(spec.seats)).seat
        return chatter(
            HOST,
            cased(draw(st.sampled_from(("got it 👍", "noted", "received")))),
            hint | {"phase": "step"},
            dm=seat,
        )
    if kind == "lookalike":
        role, text = draw(st.sampled_from(spec.lookalikes))
        who = HOST if role == "host" else draw(st.sampled_from(spec.seats))
        return Said(who, cased(text), "lookalike", hint=hint)
    if kind in ("spectator", "bot"):
        who = BOT if kind == "bot" else draw(st.sampled_from(SPECTATORS))
        text = draw(st.sampled_from((*spec.decoys, *([echo] if echo else []))))
        return Said(who, text, "ignored", hint=hint)
    system, text = draw(st.sampled_from(SYSTEM))
    who = draw(st.sampled_from(SPECTATORS if system == "GuildMemberJoin" else (HOST, *spec.seats)))
    return Said(who, text, "system", hint=hint, system=system)


@dataclass(frozen=True, slots=True)
class Match:
    posts: list[Posted]  # in generation order; commands in time order
    commands: list[tuple[Body, datetime]]
    keys: tuple[tuple[str, bool], ...]  # how the author map names each of host, seats
    newline: str


GAPS = st.one_of(st.integers(1, 999), st.integers(1_000, 120_000_000))  # microseconds


@st.composite
def matches(draw: st.DrawFn, spec: Spec) -> Match:
    said, hint = draw(spec.commands(spec))
    lo, hi = datetime(2019, 1, 1), datetime(2035, 1, 1)  # noqa: DTZ001 (naive bounds, UTC draws)
    start = draw(st.datetimes(lo, hi, timezones=st.just(UTC)))
    posts: list[Posted] = []

    def post(item: Said, at: datetime) -> None:
        posts.append(Posted(item, at, draw(LOOKS)))

    def noise_between(lo: datetime, span: int, echo: str | None) -> None:
        for _ in range(draw(st.integers(0, 3))):
            post(
                draw(noise(spec, hint, echo)),
                lo + timedelta(microseconds=draw(st.integers(0, span))),
            )

    for who in (HOST, *spec.seats):  # everyone in the author map says hello before the match
        greeting = draw(st.sampled_from(spec.host_chatter if who is HOST else spec.seat_chatter))
        post(
            chatter(who, greeting, hint),
            start - timedelta(microseconds=draw(st.integers(1, 10**9))),
        )
    at, echo, commands = start, None, []
    for item in said:
        gap = draw(GAPS)
        noise_between(at, gap, echo)
        at += timedelta(microseconds=gap)
        post(item, at)
        commands.append((item.body or {}, at))
        echo = item.content
    noise_between(at, 60_000_000, echo)
    keys = tuple(
        (draw(st.sampled_from(("id", "name", "nickname"))), draw(st.booleans())) for _ in range(3)
    )
    return Match(posts, commands, keys, draw(st.sampled_from(("\n", "\r\n", "\r"))))


# --- the exports --------------------------------------------------------------------------------


def stamp(at: datetime, look: Look, *, offset: int | None = None, sep: str = "T") -> str:
    """``at`` as an exporter writes it: the same instant at a UTC offset, 7 fractional digits."""
    minutes = look.offset if offset is None else offset
    local = at.astimezone(timezone(timedelta(minutes=minutes)))
    fraction = f"{local.microsecond:06d}{look.seventh}"
    if look.trim:
        fraction = fraction.rstrip("0")
    sign, size = ("-" if minutes < 0 else "+"), abs(minutes)
    zone = "Z" if look.zulu and minutes == 0 else f"{sign}{size // 60:02d}:{size % 60:02d}"
    return f"{local:%Y-%m-%d}{sep}{local:%H:%M:%S}{'.' + fraction if fraction else ''}{zone}"


def ordered(match: Match) -> list[Posted]:
    """The posts as the exporter lists them: by time (posts of one instant in the order said)."""
    return [p for _, p in sorted(enumerate(match.posts), key=lambda n: (n[1].at, n[0]))]


def channel_of(posted: Posted) -> str:
    return "channel" if posted.said.dm is None else f"dm-{posted.said.dm}"


def user(person: Person) -> Body:
    return {
        "id": person.id,
        "name": person.name,
        "discriminator": "0000",
        "nickname": person.shown,
        "color": "#E91E63" if person.role == "host" else None,
        "isBot": person.role == "bot",
        "roles": [{"id": ROLE_ID, "name": "Host", "color": "#E91E63", "position": 3}]
        if person.role == "host"
        else [],
        "avatarUrl": f"https://cdn.discordapp.com/avatars/{person.id}/a.png?size=512",
    }


PEOPLE = (HOST, BOT, *SPECTATORS, *seat_people("a", "b"))
PEOPLE_BY_ID = {p.id: p for p in PEOPLE}
PEOPLE_BY_NAME = {p.shown: p for p in PEOPLE}


def message(posted: Posted, snowflake: int, channel: str, earlier: list[str]) -> Body:
    said, look = posted.said, posted.look
    reply = look.reply and earlier and said.system is None
    raw = [PEOPLE_BY_ID[i] for i in re.findall(r"<@!?(\d+)>", said.content)]
    shown = [
        PEOPLE_BY_NAME[n] for n in re.findall(r"@([\w.]+)", said.content) if n in PEOPLE_BY_NAME
    ]
    mentioned = list(dict.fromkeys([*raw, *shown]))
    edited = None
    if look.edited is not None and said.system is None:
        edited = stamp(
            posted.at + timedelta(microseconds=look.edited), look, offset=look.edit_offset
        )
    twemoji = "https://cdn.jsdelivr.net/gh/twitter/twemoji@latest/assets/svg/1f44d.svg"
    thumbs = {"id": "", "name": "👍", "code": "thumbsup", "isAnimated": False, "imageUrl": twemoji}
    data: Body = {
        "id": str(snowflake),
        "type": said.system or ("Reply" if reply else "Default"),
        "timestamp": stamp(posted.at, look),
        "timestampEdited": edited,
        "callEndedTimestamp": None,
        "isPinned": look.pinned and said.system is None,
        "content": said.content,
        "author": user(said.who),
        "attachments": [],
        "embeds": [],
        "stickers": [],
        "reactions": [{"emoji": thumbs, "count": 1, "users": [user(SPECTATORS[0])]}]
        if look.reaction
        else [],
        "mentions": [user(p) for p in mentioned],
    }
    if reply:
        data["reference"] = {"messageId": earlier[-1], "channelId": channel, "guildId": GUILD_ID}
    return data


def discord_exports(match: Match, spec: Spec) -> list[tuple[bytes, bool, dict[str, Posted]]]:
    """One DCE JSON export per channel (the match's, each seat's DMs with the host), as the
    exporter writes its file (indented UTF-8, characters unescaped)."""
    channels: dict[str, tuple[str, list[Body], dict[str, Posted]]] = {}
    dm_ids = {"channel": CHANNEL_ID} | {
        f"dm-{s.seat}": f"12990000000000000{n}" for n, s in enumerate(spec.seats)
    }
    posts = ordered(match)
    assert len(posts) < 4096
    for position, posted in enumerate(posts):
        snowflake = (
            _ms(posted.at) - DISCORD_EPOCH_MS
        ) << 22 | position  # rises with time, then with order
        name = channel_of(posted)
        channel_id, messages, index = channels.setdefault(name, (dm_ids[name], [], {}))
        earlier = [m["id"] for m in messages]
        messages.append(message(posted, snowflake, channel_id, earlier))
        index[str(snowflake)] = posted
    exported = max(p.at for p in posts) + timedelta(hours=1)
    out = []
    for name, (channel_id, messages, index) in channels.items():
        dm = name != "channel"
        data = {
            "guild": {"id": "0", "name": "Direct Messages", "iconUrl": ""}
            if dm
            else {"id": GUILD_ID, "name": "Puzzle Night", "iconUrl": ""},
            "channel": {
                "id": channel_id,
                "type": "DirectTextChat" if dm else "GuildTextChat",
                "categoryId": None if dm else "1150000000000000000",
                "category": None if dm else "games",
                "name": name if dm else f"{spec.game}-finals",
                "topic": None,
            },
            "dateRange": {"after": None, "before": None},
            "exportedAt": stamp(exported, posts[0].look),
            "messages": messages,
            "messageCount": len(messages),
        }
        out.append((json.dumps(data, ensure_ascii=False, indent=2).encode(), dm, index))
    return out


def _ms(at: datetime) -> int:
    """Milliseconds since the Unix epoch, exactly (a float timestamp would round)."""
    return (at - datetime(1970, 1, 1, tzinfo=UTC)) // timedelta(milliseconds=1)


def text_exports(match: Match) -> list[tuple[str, str, bool, dict[str, Posted]]]:
    """One plain-text transcript per channel: its text, name, DM flag, and posts by line."""
    files: dict[str, tuple[list[str], dict[str, Posted]]] = {}
    for posted in ordered(match):
        lines, index = files.setdefault(channel_of(posted), ([], {}))
        when = stamp(posted.at, posted.look, sep=" " if posted.look.space else "T")
        first, *rest = posted.said.content.split("\n")
        index[str(len(lines) + 1)] = posted
        lines += [f"[{when}] {posted.said.who.shown}: {first}", *rest]
        lines += [""] * posted.look.blank
    return [
        (match.newline.join(lines), name, name != "channel", index)
        for name, (lines, index) in files.items()
    ]


def casts(match: Match, spec: Spec) -> tuple[Cast, Cast]:
    """The author map for the Discord exports (by id, name or nickname, any case) and for the
    plain text (by the name shown, any case)."""
    people = (HOST, *spec.seats)
    discord: list[str] = []
    text: list[str] = []
    for person, (style, upper) in zip(people, match.keys, strict=True):
        key = {"id": person.id, "name": person.name, "nickname": person.shown}[style]
        discord.append(key.upper() if upper else key)
        text.append(person.shown.upper() if upper else person.shown)

    def cast(keys: list[str]) -> Cast:
        return Cast({k: p.seat or "" for k, p in zip(keys[1:], people[1:], strict=True)}, [keys[0]])

    return cast(discord), cast(text)


# --- reading back -------------------------------------------------------------------------------


def key_of(post: Post) -> tuple[str, str]:
    return post.channel_id, post.message_id if post.line is None else str(post.line)


def read_back(
    spec: Spec, sources: list[Source], cast: Cast, index: Mapping[tuple[str, str], Posted]
) -> list[tuple[Body, datetime]]:
    """The commands the posts read as, in order, each at its post's game time; every other
    post checked for what it must be (chatter, a look-alike, ignored)."""
    reader = READERS[spec.game]
    got: list[tuple[Body, datetime]] = []
    triaged = triage(sources, cast)
    assert len(triaged) == len(index)
    for item in triaged:
        posted = index[key_of(item.post)]
        said, where = posted.said, (item.post.kind, item.post.content)
        assert item.post.game_time == posted.at, where
        assert item.dm == (said.dm is not None), where
        if said.who.role in ("spectator", "bot") or (said.system and item.post.kind == "discord"):
            assert item.status == "ignored", where
            continue
        assert (item.status, item.role, item.seat) == ("candidate", said.who.role, said.who.seat)
        hint = {**said.hint, "private": item.dm}
        reading = reader.read_post(
            item.post.content, author_role=item.role, seat=item.seat, state_hint=hint
        )
        if said.what == "command":
            assert reading.body == said.body, (*where, reading)
        else:
            assert reading.body is None, (*where, reading)
            assert said.what == "lookalike" or reading.is_chatter, (*where, reading)
        if reading.body is not None:
            got.append((reading.body, item.post.game_time))
    return got


def check(spec: Spec, match: Match) -> None:
    discord_cast, text_cast = casts(match, spec)
    exports = discord_exports(match, spec)
    sources = [Source(read_discord(data), dm=dm) for data, dm, _ in exports]
    loaded = [read_discord(json.loads(data)) for data, _, _ in exports]
    assert [s.export for s in sources] == loaded  # the bytes read as the loaded JSON
    index = {
        (source.export.channel_id, mid): posted
        for source, (_, _, by_id) in zip(sources, exports, strict=True)
        for mid, posted in by_id.items()
    }
    edited = [p for s in sources for p in s.export.posts if p.edited_at is not None]
    assert all(p.edited_at is not None and p.edited_at > p.posted_at for p in edited)
    assert read_back(spec, sources, discord_cast, index) == match.commands

    texts = text_exports(match)
    sources = [Source(read_text(text, name), dm=dm) for text, name, dm, _ in texts]
    index = {(name, line): p for _, name, _, by_line in texts for line, p in by_line.items()}
    assert read_back(spec, sources, text_cast, index) == match.commands


@SETTINGS
@given(match=matches(ZOOM))
def test_a_zoom_match_reads_back_from_its_exports_exactly(match: Match) -> None:
    check(ZOOM, match)


@SETTINGS
@given(match=matches(NNT))
def test_a_no_not_that_match_reads_back_from_its_exports_exactly(match: Match) -> None:
    check(NNT, match)


@SETTINGS
@given(match=matches(ZOMBEGO))
def test_a_zombego_match_reads_back_from_its_exports_exactly(match: Match) -> None:
    check(ZOMBEGO, match)
