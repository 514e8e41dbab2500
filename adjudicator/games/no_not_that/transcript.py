"""No, Not That! posts as players and hosts write them, read as the service's command bodies.

Pure. A leading keyword names the command; what follows it is its argument:

* seats: ``submit X`` / ``object: X`` / ``my object is X``; ``head start X``; ``no, not that!``
  / ``claim invalid`` / ``invalid``; ``claim prompt`` / ``prompt``; ``pass``; ``solve W H I Z``
  / ``solution: W, H, I, Z`` (commas split tokens when present, else spaces); ``challenge``;
  ``accept`` / ``no challenge``; ``use extra safe`` / ``life ring`` (items); ``exchange [N]``.
  In a seat's direct messages with the host (hint ``private``) while a step is open, a bare
  one-line post of at most 32 characters is its object (``submit``).
* host: ``round N`` / ``start round [N]`` / ``next round`` on a post's first line (the hint's
  next round when no number; the lines after it may carry the prompt and category texts);
  ``X fits`` / ``X does not fit``; ``<seat> meets`` / ``<seat> does not meet`` / ``<seat>
  fails``.

A host's verdict answers the question in front of the host, so it is read against the pending
questions of the state hint. ``X fits`` is ``judge_category`` naming the one submission of value
X that awaits a verdict (its ``target_seq``); when several submissions of X await one (a Head
Start and an object in play, say) or none does, the post is a ruling on the value X for the
round, ``judge_value`` (refused ``nothing_to_judge`` when nothing is pending). ``<seat> meets``
is ``judge_prompt`` naming that seat's prompt claim of the current step (matched without regard
to case); a seat with no prompt claim in the step makes it chatter.

Everything else is chatter. The rules judge what is parsed, as when posted live.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from adjudicator.games.no_not_that import judge
from adjudicator.games.no_not_that.judging import normalise
from adjudicator.games.no_not_that.state import NoNotThatState, Phase
from adjudicator.transcripts.reading import CHATTER, Reading, command
from adjudicator.transcripts.words import clean, is_phrase, words

Body = dict[str, Any]
_ARGUMENT = re.compile(
    r"^\s*(?P<key>submit|object|obj|my object is|head ?start|solve|solution|my solution is)"
    r"\s*[:=-]?\s*(?P<rest>.+?)\s*$",
    re.IGNORECASE | re.DOTALL,
)
_ARG_TYPES = {"head start": "head_start", "headstart": "head_start"}
_SOLVE = {"solve", "solution", "my solution is"}
_BARE_OBJECT = re.compile(r"^[^\n]{1,32}$")
_ITEMS = {"extra safe": "extra_safe", "life ring": "life_ring", "head start": "head_start"}
_PHRASES: list[tuple[set[str], set[str], str]] = [
    ({"invalid", "nnt"}, {"claim", "claiming", "i", "that", "s", "that's", "is"}, "claim_invalid"),
    ({"prompt"}, {"claim", "claiming", "i", "can", "make", "the", "meet"}, "claim_prompt"),
    ({"pass", "passing"}, {"i"}, "pass"),
    ({"challenge", "challenged"}, {"i"}, "challenge"),
    ({"accept", "accepted"}, {"i"}, "accept"),
]


def hint(state: NoNotThatState) -> dict[str, Any]:
    """What the parser may use of the state: the phase, the next round's number, and what a
    host's verdict would name: by value, the target of each submission awaiting a category
    verdict; by seat, the seq of its prompt claim in the current step."""
    number = state.round.number if state.round is not None else state.rounds_played
    targets: dict[str, dict[int, int]] = {}
    for question in judge.pending_category(state):
        targets.setdefault(question.object, {}).setdefault(question.key, question.target_seq)
    claims = state.round.prompt_claims if state.round is not None else []
    return {
        "phase": state.phase.value,
        "next_round": number + 1,
        "category_targets": {value: list(by_key.values()) for value, by_key in targets.items()},
        "prompt_claims": {claim.seat: claim.seq for claim in claims},
    }


def read_post(
    text: str, *, author_role: str, seat: str | None, state_hint: Mapping[str, Any] | None = None
) -> Reading:
    """What the post says: a command body, a near miss, or chatter."""
    body = _body(text, author_role=author_role, seat=seat, state_hint=state_hint)
    return CHATTER if body is None else command(body)


def _body(
    text: str, *, author_role: str, seat: str | None, state_hint: Mapping[str, Any] | None
) -> dict[str, Any] | None:
    hinted = state_hint or {}
    if author_role == "host":
        return _host(text, hinted)
    if seat is None:
        return None
    return _seat(text, seat, hinted)


def _seat(text: str, seat: str, hinted: Mapping[str, Any]) -> Body | None:
    for parse in _SEAT_PARSERS:
        body = parse(text)
        if body is not None:
            return {**body, "seat": seat}
    open_step = hinted.get("private") and hinted.get("phase") == Phase.STEP.value
    if open_step and _BARE_OBJECT.match(text.strip()):
        return {"type": "submit", "seat": seat, "object": text.strip()}
    return None


def _with_argument(text: str) -> Body | None:
    found = _ARGUMENT.match(text)
    if found is None:
        return None
    key, rest = " ".join(found["key"].lower().split()), found["rest"]
    if key in _SOLVE:
        parts = rest.split(",") if "," in rest else rest.split()
        return {"type": "solve", "tokens": [p.strip() for p in parts if p.strip()]}
    return {"type": _ARG_TYPES.get(key, "submit"), "object": rest}


_EXACT = {"no not that": "claim_invalid", "no challenge": "accept"}


def _exact(text: str) -> Body | None:
    """Whole phrases: the game's own cry, ``No, not that!``, claims the opponent's last object
    invalid; ``no challenge`` accepts a solution."""
    kind = _EXACT.get(" ".join(words(text)))
    return None if kind is None else {"type": kind}


def _item(text: str) -> Body | None:
    said = " ".join(w for w in words(text) if w not in {"use", "using", "i", "my", "the"})
    item = _ITEMS.get(said.replace("_", " ")) or _ITEMS.get(said)
    return None if item is None else {"type": "use_item", "item": item}


def _exchange(text: str) -> Body | None:
    found = words(text)
    if not found or found[0] != "exchange" or len(found) > 2:
        return None
    times = found[1].lstrip("x") if len(found) == 2 else "1"
    return {"type": "exchange", "times": int(times)} if times.isdigit() else None


def _phrase(text: str) -> Body | None:
    found = words(clean(text).replace("'", " "))
    for needed, allowed, kind in _PHRASES:
        if is_phrase(found, needed, allowed):
            return {"type": kind}
    return None


_SEAT_PARSERS: list[Callable[[str], Body | None]] = [
    _exact,
    _item,
    _with_argument,
    _exchange,
    _phrase,
]
_VERDICT = re.compile(
    r"^\s*(?P<subject>.+?)\s+(?P<verdict>fits|does not fit|doesn't fit|doesnt fit|"
    r"meets(?: the prompt)?|does not meet(?: the prompt)?|doesn't meet(?: the prompt)?|fails)"
    r"\s*[.!]?\s*$",
    re.IGNORECASE,
)
_START = {"round", "start", "next", "begin"}


def _host(text: str, hinted: Mapping[str, Any]) -> Body | None:
    found = words(text.strip().split("\n")[0])
    numbers = [w for w in found if w.isdigit()]
    rest = [w for w in found if not w.isdigit()]
    if len(numbers) <= 1 and "round" in rest and is_phrase(rest, _START, {"the", "now"}):
        number = int(numbers[0]) if numbers else hinted.get("next_round")
        return None if number is None else {"type": "start_round", "round": int(number)}
    verdict = _VERDICT.match(text.replace("\u2019", "'"))
    if verdict is None:
        return None
    subject, said = verdict["subject"].strip(), verdict["verdict"].lower()
    if said.startswith(("meets", "does not meet", "doesn't meet", "fails")):
        return _judge_prompt(subject, said.startswith("meets"), hinted)
    return _judge_category(subject, said == "fits", hinted)


def _judge_category(subject: str, fits: bool, hinted: Mapping[str, Any]) -> Body:
    """The one submission of that value awaiting a verdict, else a ruling on the value."""
    targets = hinted.get("category_targets", {}).get(normalise(subject), [])
    if len(targets) == 1:
        return {"type": "judge_category", "target_seq": int(targets[0]), "fits": fits}
    return {"type": "judge_value", "object": subject, "fits": fits}


def _judge_prompt(subject: str, meets: bool, hinted: Mapping[str, Any]) -> Body | None:
    """The seat's prompt claim of the current step; a verdict on no claim is chatter."""
    claims: Mapping[str, int] = hinted.get("prompt_claims", {})
    seq = next((s for seat, s in claims.items() if seat.casefold() == subject.casefold()), None)
    return None if seq is None else {"type": "judge_prompt", "target_seq": int(seq), "meets": meets}
