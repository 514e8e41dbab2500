"""No, Not That! posts as players and hosts write them in a channel or a direct message, read as
command bodies.

Pure. Every post is read to a :class:`~adjudicator.transcripts.reading.Reading`: a command, a
near miss (it looks like a command but is not one as written: the host is shown it first), or
chatter. Code (fenced or inline) and quoted lines (``>``, and all after ``>>>``) are never read;
mentions (``<@id>``, ``@name``), emoji and markdown (``*`` ``_`` ``~`` ``|``, a leading ``#`` or
bullet) are dropped; words are read in any case, split at anything that is not a letter or digit
(``that's`` is ``that s``). A word of five letters or more one edit (a letter added, dropped or
changed, or two neighbours swapped) from a KEYWORD is read as it (``sumbit``, ``promt``,
``invlaid``, ``accpet``), except the real words "except", "summit" and "accent". The grammar,
word by word (``docs/transcripts/no-not-that.md`` has it with examples)::

    KEYWORD      = submit | object | invalid | prompt | challenge | exchange | solution | accept

    seat post    = its LINEs read in turn: the one command they give, when every other line is
                   chatter with no TAKE-BACK word; the same command twice is one. Two different
                   commands, a near-miss line, or a TAKE-BACK line beside a command: a near miss
                 | else, in the seat's direct messages with the host (hint ``private``), a post
                   of one line of at most 32 characters (besides lines of only GREETING and
                   POLITE words: "Q" / "thanks"): during a step (phase ``step``) its object, an
                   ARGUMENT of one word, or of two or three with no CHAT or GREETING word
                   ("K", "OK", "New York"); during its own solution window (phase ``claims``,
                   the seat in ``solving``) its TOKENS, with no CHAT or GREETING word unless
                   one word; such a post that asks ("?") or fails those tests is a near miss
                   (the object, or chatter?); in another phase, or of more than one word all
                   GREETING or POLITE ("ok thanks"), chatter
    TAKE-BACK    = wait oops undo nvm nevermind scratch meant instead cancel retract mistake typo
    LINE         = { LEAD } ( KEYED | PHRASE )          a LINE ending in "?" asks: a near miss
    POLITE       = pls plz please thx thanks ty tysm
    LEAD         = i ll will m im am d id gonna going to wanna want would like let me lemme ok
                   okay k so then and now pls plz please alright right yes yeah yep hmm hm um uh
                   well actually ah oh
    KEYED        = SUBMIT-KEY ARGUMENT                  -> submit {object}
                 | HEAD-KEY ARGUMENT                    -> head_start {object}
                 | SOLVE-KEY TOKENS                     -> solve {tokens}
                   An ARGUMENT empty on its line is the whole next line ("solve" / "W H I Z");
                   still empty: a near miss, but a HEAD-KEY alone is use_item head_start (the
                   rules refuse it: a Head Start is a first step's action naming its object).
    SUBMIT-KEY   = submit | submitting | [my] (object | obj | submission) [is]
                   ("object to ..." is no key: "I object to that" is not a submission)
    HEAD-KEY     = { use using activate activating play playing my the a an }
                   (head start | headstart)
    SOLVE-KEY    = solve | solving | [my] solution [is]
    ARGUMENT     = the rest of the line as written after one separator (a run of ":" and "=",
                   "->", "=>", "→", or dashes followed by a space: "submit -3" is -3), without
                   pls plz please thx thanks "thank you" ty tysm at its end or pls plz please
                   at its start, nor . , ! ? ; : quotes or brackets at its edges. Of several
                   words one of which is CHAT: a near miss ("submit Q lol")
    TOKENS       = ARGUMENT up to its first "=", "→", "->" or "(" (the working after it is not
                   the solution), split at , ; + * / & (and the times and middle-dot signs)
                   when it has one, else at spaces: "W, H, I, Z" | "W H I Z" | "3 + 4 + 10 =
                   17". "WHIZ" is one token, as the rules take it (an object may be a word)
    CHAT         = lol lmao rofl haha hahaha hehe xd jk wait oops actually maybe hopefully idk
                   hmm think guess probably gl hf glhf nvm ez or
    GREETING     = ok okay kk thanks thx ty hi hello hey yes no yeah yep nope sure gg wp ggwp
                   sorry np cool nice brb

    PHRASE       = the rest of the LINE, POLITE words at its end dropped, exactly one of:
      claim_invalid  ["no"] ["no"] "not that" { INVALID-WORD | invalid | nnt }  ("No, not that!")
                   | words of {invalid nnt} with INVALID-WORDs ("that's invalid", "claim invalid")
      accept       a NEGATION before challenge/challenging, every word a NEGATION, a RESPONSE,
                   challenge or challenging ("no challenge", "I won't challenge")
                   | words of {accept accepting accepted accepts} with RESPONSEs
      claim_prompt words of {prompt} with claim claiming claimed claims i can could make meet
                   met meeting it the m im ll will now is call calling on
      pass         words of {pass passing passes skip skipping} with i ll m im will this one
                   step time turn on it the last s
      challenge    words of {challenge challenging challenged} with RESPONSEs
      use_item     ITEM with any of use using activate activating play playing my the a an i ll
                   m im will item now around it;  ITEM = extra safe | extrasafe | life ring
                   | lifering  -> use_item {item}
      exchange     (exchange | exchanging | trade | trading | swap | swapping | convert
                   | converting) { AMOUNT [UNIT] | UNIT | for of my safety into to me now }
                   AMOUNT = 1-3 digits, a an one two ... ten; as times also xN, Nx, once, twice,
                   thrice; UNIT = time(s) | point(s) | pt(s) | net(s); an AMOUNT without a unit
                   is times. N points are N times, N nets N/2 times; no amount: once; amounts
                   that disagree ("1 point for 3 nets") or an odd number of nets: no exchange
                   -> exchange {times}
    ("words of N with A": every word in N or A, at least one in N.)
    INVALID-WORD = claim claiming claimed call calling that thats s is it its this your ur last
                   one object obj the an a on i m im ll will now
    NEGATION     = no not won wont don dont t never nope gonna going to do need from me
    RESPONSE     = i ll m im will that this it the solution your s thats one word answer fine
                   ok okay

    host post    = a ROUND-START anywhere in it (the rest is the announcement: its prompt and
                   category texts are not read as verdicts)       -> start_round {round}
                 | else its one VERDICT, the post split into clauses at , ; ! ? "." before a
                   space, and dashes (more than one verdict, or a verdict-like clause beside
                   one: a near miss)
    ROUND        = (round | rnd | rd) [no | number | nr] N | [the] (next | final | new) round
                   N: 1-3 digits, a number word one..twenty, or "first".."twentieth" before round
    ROUND-START  = a line with ROUND then (starts | start | begins | begin | starting
                   | beginning | is starting | is beginning | is on | is live | kicks off) then
                   "now", the line's end, or a word that is not a later time (in at after soon
                   later when once tomorrow tonight shortly before around by if next on)
                 | a line with ROUND [is] (go | lets go)
                 | a line with (start | starting | starts | begin | beginning | begins | kick off
                   | kicking off | time for | here s | here is | on to | onto) [the | with] ROUND,
                   then as in the first form
                 | a line beginning ROUND [of N] [the] (prompt | category): "Round 2: prompt ..."
                 | a line of only { start begin starting lets let s go the now } ROUND [of N]
                   { now go start starts begins begin } that has a start word (start starts
                   starting begin begins beginning go kick kicks kicking lets), or that is the
                   post's first line, or when another line begins [the] (prompt | category)
                 | a line of only { start begin starting lets let s go the now new } round
                   { now go start starts begins begin } that has a start word ("start round",
                   "let's start the round")
                   The round is N, else the hint's next round, else left out (the rules take
                   the next); two different N in one post: a near miss.
    VERDICT      = { HOST-LEAD } SUBJECT VERB [TAIL]
    HOST-LEAD    = ok okay yes yep yeah no nope so alright right well ruling verdict host i rule
                   think d say sorry and but then hmm um confirmed; then a "that" before a
                   longer subject is dropped ("I rule that Q fits")
    VERB         = category, yes: fits | does fit | counts | is valid
                   category, no:  does not fit | doesn't fit | doesnt fit | don't fit | dont
                                  fit | does not count | doesn't count | doesnt count | is not
                                  valid | isn't valid | isnt valid | is invalid
                   prompt, yes:   meets | does meet
                   prompt, no:    does not meet | doesn't meet | doesnt meet | fails
    TAIL         = the category | category | the prompt | prompt | it   (a tail naming the
                   category or the prompt says which kind of verdict it is)
    SUBJECT      = as written. Category verdict: a PRONOUN (or nothing) is the one submission
                   awaiting a verdict (hint ``category_targets``), if exactly one does, else a
                   near miss; an object X names the one submission of X awaiting a verdict
                   -> judge_category {target_seq, fits}; when several of X await one (a Head
                   Start and an object in play), none does, or there is no hint -> judge_value
                   {object, fits} (the rules refuse it, nothing_to_judge, when none does).
                   Prompt verdict: a seat ("Alpha", any case, "Alpha's solution") names its
                   prompt claim of the step (hint ``prompt_claims``; a seat of the hint's
                   ``seats`` without one: a near miss) -> judge_prompt {target_seq, meets};
                   anything else names the one solution awaiting the host (hint
                   ``prompt_questions``) if exactly one does, else a near miss
    PRONOUN      = words of it that this the one object submission solution answer word these
                   those they thing

A seat line that reads as no command is a near miss when it has a STRONG word or phrase
(invalid, nnt, submit, submitting, claim, claiming, exchange, headstart, "no not that", "head
start", "life ring", "extra safe") or begins, after its LEAD, with a WEAK word (prompt, pass,
passing, skip, challenge, challenging, accept, solve, solution, object, obj, use); otherwise it
is chatter. A host post that reads as no command is a near miss when a clause has fit, fits,
meet, meets, valid or invalid, or the post says round (rnd, rd) and a start word ("Round 2
starts in 5 minutes"); otherwise it is a remark. The rules judge what is read, exactly as when
posted live.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from adjudicator.games.no_not_that import judge
from adjudicator.games.no_not_that.judging import normalise
from adjudicator.games.no_not_that.state import NoNotThatState, Phase
from adjudicator.transcripts.reading import CHATTER, Reading, command, near_miss
from adjudicator.transcripts.words import is_phrase, markup_out, mention, spoken_lines

Body = dict[str, Any]
Words = tuple[str, ...]


def hint(state: NoNotThatState) -> dict[str, Any]:
    """What the reader may use of the state: the phase, the next round's number, the seats, and
    what a host's verdict would name: by value, the target of each submission awaiting a category
    verdict; by seat, the seq of its prompt claim in the current step, and of each solution
    awaiting the host; and the seats whose solution window is open."""
    number = state.round.number if state.round is not None else state.rounds_played
    targets: dict[str, dict[int, int]] = {}
    for question in judge.pending_category(state):
        targets.setdefault(question.object, {}).setdefault(question.key, question.target_seq)
    claims = state.round.prompt_claims if state.round is not None else []
    solving = [c.seat for c in claims if c.awaiting_solution] if state.phase is Phase.CLAIMS else []
    return {
        "phase": state.phase.value,
        "next_round": number + 1,
        "seats": list(state.fixed.seats),
        "category_targets": {value: list(by_key.values()) for value, by_key in targets.items()},
        "prompt_claims": {claim.seat: claim.seq for claim in claims},
        "prompt_questions": {q.seat: q.target_seq for q in judge.pending_prompt(state)},
        "solving": solving,
    }


def read_post(
    text: str, *, author_role: str, seat: str | None, state_hint: Mapping[str, Any] | None = None
) -> Reading:
    """What the post says: a command body, a near miss, or chatter."""
    hinted = state_hint or {}
    if author_role == "host":
        return _host(_lines(text), hinted)
    if author_role != "seat" or seat is None:
        return CHATTER
    return _seat(_lines(text), seat, hinted)


# Lines as written, and their words ------------------------------------------------------------

_WORD = re.compile(r"[^\W_]+")
_MENTION = mention()
_DECOR = re.compile(r"^\s*(?:-#|#{1,3}|[-•])\s+|[*~|_\\]")
_SYMBOLS = {"So", "Sk", "Cf", "Co", "Cs", "Me"}
_KEYWORDS = ("submit", "object", "invalid", "prompt", "challenge", "exchange", "solution", "accept")
_REAL_WORDS = {"except", "summit", "accent"}


@dataclass(frozen=True, slots=True)
class _Line:
    """A line as written (chat decoration out, case kept), its words and where they stand."""

    shown: str
    words: Words
    spans: tuple[tuple[int, int], ...]

    @property
    def asks(self) -> bool:
        return self.shown.endswith("?")

    def after(self, count: int) -> str:
        """The line as written after its first ``count`` words."""
        return self.shown[self.spans[count - 1][1] :] if count else self.shown

    def between(self, start: int, end: int) -> str:
        return self.shown[self.spans[start][0] : self.spans[end - 1][1]] if start < end else ""


def _lines(text: str) -> list[_Line]:
    """The post's lines that have words; code and quotes taken out."""
    found = (_line(_shown(raw)) for raw in spoken_lines(text))
    return [line for line in found if line.words]


def _shown(raw: str) -> str:
    text = markup_out(_MENTION.sub(" ", raw.replace("\u2019", "'").replace("\u2018", "'")))
    kept = (" " if unicodedata.category(c) in _SYMBOLS or c in "\ufe0e\ufe0f" else c for c in text)
    return " ".join(_DECOR.sub(" ", "".join(kept)).split())


def _line(shown: str) -> _Line:
    found = list(_WORD.finditer(shown))
    return _Line(shown, tuple(_typo(m[0].lower()) for m in found), tuple(m.span() for m in found))


def _typo(word: str) -> str:
    """A keyword misspelt by one edit is read as the keyword."""
    if len(word) < 5 or word in _KEYWORDS or word in _REAL_WORDS:
        return word
    return next((key for key in _KEYWORDS if _one_edit(word, key)), word)


def _one_edit(word: str, key: str) -> bool:
    """Whether one letter added, dropped or changed, or two neighbours swapped, make ``key``."""
    if len(word) == len(key):
        diff = [i for i, (a, b) in enumerate(zip(word, key, strict=True)) if a != b]
        if len(diff) != 2:
            return len(diff) == 1
        first, second = diff
        return second == first + 1 and (word[first], word[second]) == (key[second], key[first])
    short, long = sorted((word, key), key=len)
    return len(long) - len(short) == 1 and any(
        long[:i] + long[i + 1 :] == short for i in range(len(long))
    )


def _skip(words: Sequence[str], start: int, skipped: set[str]) -> int:
    while start < len(words) and words[start] in skipped:
        start += 1
    return start


_NUMBER_WORDS = (
    *("one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven"),
    *("twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen"),
    *("nineteen", "twenty"),
)

# Seats ----------------------------------------------------------------------------------------

_LEAD = {
    *("i", "ll", "will", "m", "im", "am", "d", "id", "gonna", "going", "to", "wanna", "want"),
    *("would", "like", "let", "me", "lemme", "ok", "okay", "k", "so", "then", "and", "now"),
    *("pls", "plz", "please", "alright", "right", "yes", "yeah", "yep", "hmm", "hm", "um"),
    *("uh", "well", "actually", "ah", "oh"),
}
_POLITE = {"pls", "plz", "please", "thx", "thanks", "ty", "tysm"}
_TAKE_BACK = {
    *("wait", "oops", "undo", "nvm", "nevermind", "scratch", "meant", "instead", "cancel"),
    *("retract", "mistake", "typo"),
}
_CHAT = {
    *("lol", "lmao", "rofl", "haha", "hahaha", "hehe", "xd", "jk", "wait", "oops", "actually"),
    *("maybe", "hopefully", "idk", "hmm", "think", "guess", "probably", "gl", "hf", "glhf"),
    *("nvm", "ez", "or"),
}
_GREETING = {
    *("ok", "okay", "kk", "thanks", "thx", "ty", "hi", "hello", "hey", "yes", "no", "yeah"),
    *("yep", "nope", "sure", "gg", "wp", "ggwp", "sorry", "np", "cool", "nice", "brb"),
}
_KEYS: list[tuple[Words, str]] = [
    (("my", "object", "is"), "submit"),
    (("my", "obj", "is"), "submit"),
    (("my", "submission", "is"), "submit"),
    (("my", "object"), "submit"),
    (("my", "obj"), "submit"),
    (("my", "submission"), "submit"),
    (("object", "is"), "submit"),
    (("obj", "is"), "submit"),
    (("submission", "is"), "submit"),
    (("submit",), "submit"),
    (("submitting",), "submit"),
    (("object",), "submit"),
    (("obj",), "submit"),
    (("submission",), "submit"),
    (("my", "solution", "is"), "solve"),
    (("my", "solution"), "solve"),
    (("solution", "is"), "solve"),
    (("solution",), "solve"),
    (("solve",), "solve"),
    (("solving",), "solve"),
]
_ITEM_VERBS = {"use", "using", "activate", "activating", "play", "playing", "my", "the", "a", "an"}
_HEAD_START: list[Words] = [("head", "start"), ("headstart",)]
_SEPARATOR = re.compile(r"^\s*(?:->|=>|\u2192|[:=]+|[-\u2013\u2014]+(?=\s|$))?\s*")
_POLITE_END = re.compile(r"[\s,.!]*\b(?:pls|plz|please|thx|thanks|thank you|ty|tysm)\s*$", re.I)
_POLITE_START = re.compile(r"^(?:pls|plz|please)\b[\s,:]*", re.IGNORECASE)
_EDGE = " .,!?;:\"'“”«»()[]{}"
_WORKING = re.compile(r"\s*(?:=|\u2192|->|\()")
_TOKEN_SPLIT = re.compile(r"[,;+*\u00d7\u00b7&/]")
_NAMES = {
    "submit": "a submission",
    "head_start": "a Head Start",
    "solve": "a solution",
    "claim_invalid": "an invalid-object claim",
    "claim_prompt": "a prompt claim",
    "pass": "a pass",
    "challenge": "a challenge",
    "accept": "an acceptance",
    "use_item": "an item's use",
    "exchange": "an exchange",
}


def _seat(lines: list[_Line], seat: str, hinted: Mapping[str, Any]) -> Reading:
    readings: list[Reading] = []
    chatter: list[_Line] = []
    index = 0
    while index < len(lines):
        reading, used = _seat_line(lines, index)
        if reading.is_chatter:
            chatter.append(lines[index])
        else:
            readings.append(reading)
        index += used
    bodies: list[Body] = []
    for body in (r.body for r in readings if r.body is not None):
        if body not in bodies:
            bodies.append(body)
    nears = [r.near for r in readings if r.near is not None]
    if len(bodies) > 1:
        return near_miss("gives more than one command in one post")
    if nears:
        return near_miss(nears[0])
    if bodies and any(_TAKE_BACK & set(line.words) for line in chatter):
        return near_miss("gives a command but takes something back in the same post")
    if bodies:
        return command({**bodies[0], "seat": seat})
    return _bare(lines, seat, hinted)


def _seat_line(lines: list[_Line], index: int) -> tuple[Reading, int]:
    """What line ``index`` says, and how many lines that took (a key's argument may stand on the
    next line)."""
    line = lines[index]
    start = _skip(line.words, 0, _LEAD)
    keyed = _keyed(line.words, start)
    if keyed is not None:
        kind, end = keyed
        argument, asks, used = _argument(line.after(end)), line.asks, 1
        if not argument and index + 1 < len(lines):
            following = lines[index + 1]
            argument, asks, used = _argument(following.shown), following.asks, 2
        return _with_argument(kind, argument, asks), used
    said = list(line.words[start:])
    while said and said[-1] in _POLITE:
        said.pop()
    body = _phrase(said)
    if body is None:
        return _looks_like(line.words, start), 1
    if line.asks:
        return near_miss(f"asks rather than gives {_NAMES[body['type']]}"), 1
    return command(body), 1


def _keyed(words: Words, start: int) -> tuple[str, int] | None:
    """The key at ``start`` and where its argument begins."""
    for key, kind in _KEYS:
        end = start + len(key)
        if words[start:end] == key and not (
            key[-1] in ("object", "obj") and words[end:][:1] == ("to",)
        ):
            return kind, end
    at = _skip(words, start, _ITEM_VERBS)
    for key in _HEAD_START:
        if words[at : at + len(key)] == key:
            return "head_start", at + len(key)
    return None


def _argument(text: str) -> str:
    """An argument as written: separator, polite words and edge punctuation taken off."""
    text = _SEPARATOR.sub("", text, count=1)
    for _ in range(2):
        text = _POLITE_START.sub("", _POLITE_END.sub("", text.strip(_EDGE))).strip(_EDGE)
    return text


def _with_argument(kind: str, argument: str, asks: bool) -> Reading:
    if not argument and kind == "head_start":
        return command({"type": "use_item", "item": "head_start"})  # the rules say how to use it
    if not argument:
        return near_miss(f"{_NAMES[kind]} with nothing after it")
    if asks:
        return near_miss(f"asks rather than gives {_NAMES[kind]}")
    if kind == "solve":
        return _solve(_solution(argument))
    if _chatty(list(_line(argument).words)):
        return near_miss(f"{_NAMES[kind]} with chatter around its object")
    return command({"type": kind, "object": argument})


def _solve(tokens: list[str]) -> Reading:
    if not tokens:
        return near_miss("a solution with no tokens")
    if _chatty([word for token in tokens for word in _line(token).words]):
        return near_miss("a solution with chatter in it")
    return command({"type": "solve", "tokens": tokens})


def _solution(argument: str) -> list[str]:
    said = _WORKING.split(argument, maxsplit=1)[0]
    parts = _TOKEN_SPLIT.split(said) if _TOKEN_SPLIT.search(said) else said.split()
    return [token for token in (p.strip(_EDGE) for p in parts) if token]


def _chatty(found: list[str]) -> bool:
    return len(found) > 1 and bool(_CHAT & set(found))


_INVALID = {"invalid", "nnt"}
_INVALID_WORDS = {
    *("claim", "claiming", "claimed", "call", "calling", "that", "thats", "s", "is", "it"),
    *("its", "this", "your", "ur", "last", "one", "object", "obj", "the", "an", "a", "on", "i"),
    *("m", "im", "ll", "will", "now"),
}
_CRIES: list[Words] = [("no", "no", "not", "that"), ("no", "not", "that"), ("not", "that")]
_RESPONSE = {
    *("i", "ll", "m", "im", "will", "that", "this", "it", "the", "solution", "your", "s"),
    *("thats", "one", "word", "answer", "fine", "ok", "okay"),
}
_NEGATION = {
    *("no", "not", "won", "wont", "don", "dont", "t", "never", "nope", "gonna", "going", "to"),
    *("do", "need", "from", "me"),
}
_CHALLENGE = {"challenge", "challenging"}
_SIMPLE: list[tuple[set[str], set[str], str]] = [
    (
        {"prompt"},
        {
            *("claim", "claiming", "claimed", "claims", "i", "can", "could", "make", "meet"),
            *("met", "meeting", "it", "the", "m", "im", "ll", "will", "now", "is", "call"),
            *("calling", "on"),
        },
        "claim_prompt",
    ),
    (
        {"pass", "passing", "passes", "skip", "skipping"},
        {"i", "ll", "m", "im", "will", "this", "one", "step", "time", "turn", "on", "it", "the"}
        | {"last", "s"},
        "pass",
    ),
    ({"accept", "accepting", "accepted", "accepts"}, _RESPONSE, "accept"),
    ({"challenge", "challenging", "challenged"}, _RESPONSE, "challenge"),
]
_ITEM_WORDS = _ITEM_VERBS | {"i", "ll", "m", "im", "will", "item", "now"}
_ITEMS: dict[Words, str] = {
    ("extra", "safe"): "extra_safe",
    ("extrasafe",): "extra_safe",
    ("life", "ring"): "life_ring",
    ("lifering",): "life_ring",
}


def _phrase(said: list[str]) -> Body | None:
    """A command without an argument, said by the whole of ``said``."""
    if not said:
        return None
    for read in _PHRASES:
        body = read(said)
        if body is not None:
            return body
    return None


def _claim_invalid(said: list[str]) -> Body | None:
    for cry in _CRIES:
        if tuple(said[: len(cry)]) == cry:
            rest = set(said[len(cry) :])
            return {"type": "claim_invalid"} if rest <= _INVALID_WORDS | _INVALID else None
    return {"type": "claim_invalid"} if is_phrase(said, _INVALID, _INVALID_WORDS) else None


def _declined(said: list[str]) -> Body | None:
    """``no challenge``, ``I won't challenge``: an acceptance."""
    first = next((i for i, w in enumerate(said) if w in _CHALLENGE), None)
    if first is None or not _NEGATION & set(said[:first]):
        return None
    return {"type": "accept"} if set(said) <= _NEGATION | _RESPONSE | _CHALLENGE else None


def _simple(said: list[str]) -> Body | None:
    for needed, allowed, kind in _SIMPLE:
        if is_phrase(said, needed, allowed):
            return {"type": kind}
    return None


def _item(said: list[str]) -> Body | None:
    item = _ITEMS.get(tuple(w for w in said if w not in _ITEM_WORDS))
    return None if item is None else {"type": "use_item", "item": item}


_TRADE = {"exchange", "exchanging", "trade", "trading", "swap", "swapping", "convert", "converting"}
_EXCHANGE_FILLER = {"for", "of", "my", "safety", "into", "to", "me", "now"}
_UNITS = {
    **dict.fromkeys(("time", "times"), "times"),
    **dict.fromkeys(("point", "points", "pt", "pts"), "points"),
    **dict.fromkeys(("net", "nets"), "nets"),
}
_AMOUNTS = {"a": 1, "an": 1} | {w: n for n, w in enumerate(_NUMBER_WORDS[:10], start=1)}
_TIMES = {"once": 1, "twice": 2, "thrice": 3}
_FUSED = re.compile(r"^(?:x(\d{1,3})|(\d{1,3})x)$")


def _exchange(said: list[str]) -> Body | None:
    if said[0] not in _TRADE:
        return None
    counted: dict[str, int] = {}
    pending: int | None = None
    for word in (w for w in said[1:] if w not in _EXCHANGE_FILLER):
        unit, fused = _UNITS.get(word), _FUSED.match(word)
        if unit is not None:
            if pending is not None and counted.setdefault(unit, pending) != pending:
                return None
            pending = None
        elif fused is not None or word in _TIMES:
            times = int(fused[1] or fused[2]) if fused is not None else _TIMES[word]
            if counted.setdefault("times", times) != times:
                return None
        elif pending is None and ((word.isdigit() and len(word) <= 3) or word in _AMOUNTS):
            pending = int(word) if word.isdigit() else _AMOUNTS[word]
        else:
            return None
    if pending is not None and counted.setdefault("times", pending) != pending:
        return None
    return _exchanged(counted)


def _exchanged(counted: dict[str, int]) -> Body | None:
    nets = counted.get("nets")
    if nets is not None and nets % 2:
        return None
    implied = {counted.get("times"), counted.get("points"), None if nets is None else nets // 2}
    implied.discard(None)
    if len(implied) > 1:
        return None
    times = next(iter(implied), 1)
    return {"type": "exchange", "times": times}


_PHRASES: list[Callable[[list[str]], Body | None]] = [
    _claim_invalid,
    _declined,
    _simple,
    _item,
    _exchange,
]
_STRONG = {
    **dict.fromkeys(("invalid", "nnt"), "an invalid-object claim"),
    **dict.fromkeys(("submit", "submitting"), "a submission"),
    **dict.fromkeys(("claim", "claiming"), "a claim"),
    "exchange": "an exchange",
    "headstart": "a Head Start",
}
_STRONG_PHRASES = {
    ("no", "not", "that"): "an invalid-object claim",
    ("head", "start"): "a Head Start",
    ("life", "ring"): "an item's use",
    ("extra", "safe"): "an item's use",
}
_WEAK = {
    "prompt": "a prompt claim",
    **dict.fromkeys(("pass", "passing", "skip"), "a pass"),
    **dict.fromkeys(("challenge", "challenging"), "a challenge"),
    "accept": "an acceptance",
    **dict.fromkeys(("solve", "solution"), "a solution"),
    **dict.fromkeys(("object", "obj"), "a submission"),
    "use": "an item's use",
}


def _looks_like(words: Words, start: int) -> Reading:
    """A near miss when the line has a command's strong word, or begins with a weak one."""
    what = next((name for word, name in _STRONG.items() if word in words), None)
    for phrase, name in _STRONG_PHRASES.items():
        if what is None and any(words[i : i + len(phrase)] == phrase for i in range(len(words))):
            what = name
    if what is None and start < len(words):
        what = _WEAK.get(words[start])
    return CHATTER if what is None else near_miss(f"looks like {what} but does not read whole")


def _bare(lines: list[_Line], seat: str, hinted: Mapping[str, Any]) -> Reading:
    """A short post in a seat's direct messages: its object during a step, its solution during
    its solution window."""
    said = [line for line in lines if not set(line.words) <= _GREETING | _POLITE]
    if not said and len(lines) == 1 and len(lines[0].words) == 1:
        said = lines  # one word, even "ok", may be the object
    if not hinted.get("private") or len(said) != 1 or len(said[0].shown) > 32:
        return CHATTER
    line = said[0]
    argument = _argument(line.shown)
    found = _line(argument).words
    chat = line.asks or (len(found) > 1 and bool(set(found) & (_CHAT | _GREETING)))
    if hinted.get("phase") == Phase.STEP.value:
        if chat or len(found) > 3 or not argument:
            return near_miss("a short direct message during a step: the object, or chatter?")
        return command({"type": "submit", "seat": seat, "object": argument})
    if hinted.get("phase") == Phase.CLAIMS.value and seat in hinted.get("solving", []):
        tokens = _solution(argument)
        if chat or not tokens:
            return near_miss("a direct message in the seat's solution window: the solution?")
        return command({"type": "solve", "seat": seat, "tokens": tokens})
    return CHATTER


# The host -------------------------------------------------------------------------------------

_ORDINALS = (
    *("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth"),
    *("tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth"),
    *("seventeenth", "eighteenth", "nineteenth", "twentieth"),
)
_ROUND_WORDS = {"round", "rnd", "rd"}
_R = r"(?:(?:round|rnd|rd) (?:no |number |nr )?(?P<n>\d{1,3})|(?:the )?(?:next|final|new) round)"
_NOT_NOW = (
    r"(?:in|at|after|soon|later|when|once|tomorrow|tonight|shortly|before|around|by|if|next|on)"
)
_NOW = rf"(?= now\b|$| (?!{_NOT_NOW}\b))"
_STARTS = (
    r"(?:starts|start|begins|begin|starting|beginning|is starting|is beginning|is on|is live"
    r"|kicks off)"
)
_STARTING = (
    r"(?:start|starting|starts|begin|beginning|begins|kick off|kicking off|time for|here s"
    r"|here is|on to|onto)"
)
_IN_LINE = [
    re.compile(rf"(?:^| ){_R} {_STARTS}{_NOW}"),
    re.compile(rf"(?:^| ){_R} (?:is )?(?:go|lets go|let s go)(?: |$)"),
    re.compile(rf"(?:^| ){_STARTING}(?: the| with)? {_R}{_NOW}"),
    re.compile(rf"^{_R}(?: of \d{{1,3}})? (?:the )?(?:prompt|category)\b"),
]
_SHORT = re.compile(
    rf"^(?:(?:start|begin|starting|lets|let|s|go|the|now) )*{_R}(?: of \d{{1,3}})?"
    r"(?: (?:now|go|start|starts|begins|begin))*$"
)
_BARE = re.compile(
    r"^(?:(?:start|begin|starting|lets|let|s|go|the|now|new) )*round"
    r"(?: (?:now|go|start|starts|begins|begin))*$"
)
_START_WORDS = {"start", "starts", "starting", "begin", "begins", "beginning", "go", "kick"}
_START_WORDS |= {"kicks", "kicking", "lets"}


def _host(lines: list[_Line], hinted: Mapping[str, Any]) -> Reading:
    started = _round_start(lines, hinted)
    if started is not None:
        return started
    readings = [
        r for line in lines for c in _clauses(line) if not (r := _verdict(c, hinted)).is_chatter
    ]
    commands = [r for r in readings if r.body is not None]
    if len(readings) > 1 and not all(r == readings[0] for r in readings):
        return near_miss("gives more than one verdict in one post; give them one at a time")
    if readings:
        return commands[0] if commands else readings[0]
    every = {w for line in lines for w in line.words}
    if every & _ROUND_WORDS and every & _START_WORDS:
        return near_miss("speaks of a round starting, but not as a start now")
    return CHATTER


def _said(words: Words) -> str:
    """The line's words, a round's number word or ordinal read as digits."""
    out = list(words)
    for i, word in enumerate(out):
        following = out[i + 1] if i + 1 < len(out) else ""
        if word in _NUMBER_WORDS and i and out[i - 1] in _ROUND_WORDS:
            out[i] = str(_NUMBER_WORDS.index(word) + 1)
        elif word in _ORDINALS and following in _ROUND_WORDS:
            out[i], out[i + 1] = "round", str(_ORDINALS.index(word) + 1)
    return " ".join(out)


def _round_start(lines: list[_Line], hinted: Mapping[str, Any]) -> Reading | None:
    announced = any(_announces(line.words) for line in lines)
    numbers: set[int | None] = set()
    for index, line in enumerate(lines):
        said = _said(line.words)
        for pattern in _IN_LINE:
            found = pattern.search(said)
            if found is not None:
                numbers.add(None if found["n"] is None else int(found["n"]))
        short = _SHORT.match(said)
        if short is not None and (set(line.words) & _START_WORDS or index == 0 or announced):
            numbers.add(None if short["n"] is None else int(short["n"]))
        if _BARE.match(said) and set(line.words) & _START_WORDS:
            numbers.add(None)
    named = {n for n in numbers if n is not None}
    if len(named) > 1:
        return near_miss(f"starts more than one round ({', '.join(map(str, sorted(named)))})")
    if not numbers:
        return None
    number = next(iter(named), hinted.get("next_round"))
    return command({"type": "start_round"} | ({} if number is None else {"round": int(number)}))


_CLAUSE = re.compile(r"[,;!?]|\s[-\u2013\u2014]+\s|[\u2013\u2014]|\.(?=\s|$)")
_HOST_LEAD = {
    *("ok", "okay", "yes", "yep", "yeah", "no", "nope", "so", "alright", "right", "well"),
    *("ruling", "verdict", "host", "i", "rule", "think", "d", "say", "sorry", "and", "but"),
    *("then", "hmm", "um", "confirmed"),
}
_NOT = (("does", "not"), ("doesn", "t"), ("doesnt",))
_VERBS: list[tuple[Words, str, bool]] = [
    *(((*neg, "fit"), "category", False) for neg in (*_NOT, ("don", "t"), ("dont",))),
    *(((*neg, "count"), "category", False) for neg in _NOT),
    *(((*neg, "valid"), "category", False) for neg in (("is", "not"), ("isn", "t"), ("isnt",))),
    (("is", "invalid"), "category", False),
    (("does", "fit"), "category", True),
    (("fits",), "category", True),
    (("counts",), "category", True),
    (("is", "valid"), "category", True),
    *(((*neg, "meet"), "prompt", False) for neg in _NOT),
    (("fails",), "prompt", False),
    (("does", "meet"), "prompt", True),
    (("meets",), "prompt", True),
]
_TAILS: list[tuple[Words, str | None]] = [
    (("the", "category"), "category"),
    (("category",), "category"),
    (("the", "prompt"), "prompt"),
    (("prompt",), "prompt"),
    (("it",), None),
    ((), None),
]
_VERDICT_WORDS = {"fit", "fits", "meet", "meets", "valid", "invalid"}
_PRONOUN = {
    *("it", "that", "this", "the", "one", "object", "submission", "solution", "answer", "word"),
    *("these", "those", "they", "thing"),
}
_SOLUTION_WORDS = {"solution", "answer", "claim", "word", "one"}


def _announces(words: Words) -> bool:
    """Whether the line begins a round's prompt or category text."""
    first = _skip(words, 0, {"the"})
    return words[first : first + 1] in (("prompt",), ("category",))


def _clauses(line: _Line) -> list[_Line]:
    return [c for c in (_line(part.strip()) for part in _CLAUSE.split(line.shown)) if c.words]


def _verdict(clause: _Line, hinted: Mapping[str, Any]) -> Reading:
    found = _verdict_phrase(clause.words)
    if found is None:
        if _VERDICT_WORDS & set(clause.words):
            return near_miss("speaks of a verdict but does not read as one (X fits, SEAT meets)")
        return CHATTER
    kind, yes, end = found
    start = _skip(clause.words[:end], 0, _HOST_LEAD)
    if start and end - start > 1 and clause.words[start] == "that":
        start += 1
    subject = clause.words[start:end]
    if kind == "prompt":
        return _judge_prompt(subject, yes, hinted)
    return _judge_category(clause.between(start, end).strip(_EDGE), subject, yes, hinted)


def _verdict_phrase(words: Words) -> tuple[str, bool, int] | None:
    """The verdict the clause ends with: its kind, yes or no, and where its subject ends."""
    for tail, forced in _TAILS:
        if tail and words[-len(tail) :] != tail:
            continue
        said = words[: len(words) - len(tail)]
        for verb, kind, yes in _VERBS:
            if len(said) >= len(verb) and said[-len(verb) :] == verb:
                return forced or kind, yes, len(said) - len(verb)
    return None


def _judge_category(subject: str, words: Words, fits: bool, hinted: Mapping[str, Any]) -> Reading:
    """The one submission of that value awaiting a verdict, else a ruling on the value."""
    targets: Mapping[str, list[int]] | None = hinted.get("category_targets")
    if set(words) <= _PRONOUN:
        pending = [seq for seqs in (targets or {}).values() for seq in seqs]
        if len(pending) == 1:
            return command({"type": "judge_category", "target_seq": int(pending[0]), "fits": fits})
        return near_miss("a verdict that names no object, and not exactly one awaits the host")
    value = normalise(subject)
    if value is None:
        return near_miss("a verdict on no sane object")
    seqs = (targets or {}).get(value, [])
    if len(seqs) == 1:
        return command({"type": "judge_category", "target_seq": int(seqs[0]), "fits": fits})
    return command({"type": "judge_value", "object": subject, "fits": fits})


def _judge_prompt(words: Words, meets: bool, hinted: Mapping[str, Any]) -> Reading:
    """The named seat's prompt claim of the step, else the one solution awaiting the host."""
    claims = {_name(seat): int(seq) for seat, seq in hinted.get("prompt_claims", {}).items()}
    seats = {_name(seat) for seat in hinted.get("seats", [])} | set(claims)
    said = list(words[_skip(words, 0, {"the"}) :])
    while said and said[-1] in _SOLUTION_WORDS:
        said.pop()
    if said[-1:] == ["s"]:
        said.pop()
    named = " ".join(said)
    if named in seats:
        seq = claims.get(named)
        if seq is None:
            return near_miss(f"a verdict on {named}'s solution, but {named} has no prompt claim")
        return command({"type": "judge_prompt", "target_seq": seq, "meets": meets})
    pending = list(hinted.get("prompt_questions", {}).values())
    if len(pending) == 1:
        return command({"type": "judge_prompt", "target_seq": int(pending[0]), "meets": meets})
    return near_miss("a verdict on a solution, but it names no seat with a prompt claim")


def _name(seat: str) -> str:
    return " ".join(_line(seat).words)
