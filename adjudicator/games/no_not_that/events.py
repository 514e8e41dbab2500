"""No, Not That!'s event types and their payloads, exactly as ``decide`` records them.

``nnt.acted`` (every sealed step action, one type so the public envelope does not tell which) and
``nnt.solved`` are private to the acting seat; ``nnt.revealed`` and ``nnt.solution_revealed``
make them public. Verdicts and points are derived by the fold, never recorded. Each payload is
a frozen struct, decoded once where the store's events become facts (as Zoom's, see its
``events.py``). ``payload_of`` and ``upcast`` are
:class:`~adjudicator.kernel.payloads.EventTypes`'s (every payload is at version 1).
"""

from __future__ import annotations

import msgspec

from adjudicator.kernel.payloads import EventTypes, Payload

ROUND_STARTED = "nnt.round_started"
ACTED = "nnt.acted"
REVEALED = "nnt.revealed"
SOLVED = "nnt.solved"
SOLUTION_REVEALED = "nnt.solution_revealed"
CHALLENGED = "nnt.challenged"
ACCEPTED = "nnt.accepted"
ITEM_USED = "nnt.item_used"
EXCHANGED = "nnt.exchanged"
CATEGORY_JUDGED = "nnt.category_judged"
PROMPT_JUDGED = "nnt.prompt_judged"
PLAYS = frozenset(
    {
        ROUND_STARTED,
        ACTED,
        REVEALED,
        SOLVED,
        SOLUTION_REVEALED,
        CHALLENGED,
        ACCEPTED,
        ITEM_USED,
        EXCHANGED,
        CATEGORY_JUDGED,
        PROMPT_JUDGED,
    }
)
"""Every event type of the game itself: what the fold's last play (the game time entered
commands may not go back before) is the time of."""


class RoundStarted(Payload, frozen=True):
    round: int


class Acted(Payload, frozen=True):
    """Private: a seat's step action (a ``Kind`` value), with the object as posted if it has one."""

    seat: str
    round: int
    step: int
    action: str
    object: str | msgspec.UnsetType = msgspec.UNSET


class RevealedAction(Payload, frozen=True):
    """A revealed action; only a submission shows its object (a Head Start's stays hidden)."""

    action: str
    object: str | msgspec.UnsetType | None = msgspec.UNSET


class Revealed(Payload, frozen=True):
    """Both seats acted in this step: their actions by seat."""

    round: int
    step: int
    actions: dict[str, RevealedAction]


class Solved(Payload, frozen=True):
    """Private: a seat's solution of its prompt claim, as tokens in order."""

    seat: str
    tokens: tuple[str, ...]


class SolutionRevealed(Payload, frozen=True):
    """The sealed solutions of the step, by seat."""

    solutions: dict[str, tuple[str, ...]]


class Challenged(Payload, frozen=True):
    """The seat challenging a prompt claim."""

    seat: str


class Accepted(Payload, frozen=True):
    """The seat accepting a prompt claim."""

    seat: str


class ItemUsed(Payload, frozen=True):
    """A seat used an item (an ``Item`` value)."""

    seat: str
    item: str


class Exchanged(Payload, frozen=True):
    """A seat traded ``times`` points for two safety nets each."""

    seat: str
    times: int


class CategoryJudged(Payload, frozen=True):
    """The host ruled whether an object fits the round's host-judged category.

    With ``target_seq`` (``judge_category``): the verdict on the one question it names (a
    ``claim_invalid`` action, or a submission), ``object`` its value for readability. Without
    it (``judge_value``, and every record made before ``target_seq`` existed): a ruling on the
    value ``object`` for the round."""

    object: str
    fits: bool
    target_seq: int | msgspec.UnsetType = msgspec.UNSET


class PromptJudged(Payload, frozen=True):
    """The host ruled whether a seat's solution meets the round's host-judged prompt.

    ``target_seq`` names the prompt claim (or its solution); ``seat`` is its claimant. Records
    made before ``target_seq`` existed name the claim by ``seat`` alone (one per seat a step)."""

    seat: str
    meets: bool
    target_seq: int | msgspec.UnsetType = msgspec.UNSET


NntEvent = (
    RoundStarted
    | Acted
    | Revealed
    | Solved
    | SolutionRevealed
    | Challenged
    | Accepted
    | ItemUsed
    | Exchanged
    | CategoryJudged
    | PromptJudged
)
"""Every payload of the game's own events."""

EVENTS = EventTypes(
    {
        ROUND_STARTED: RoundStarted,
        ACTED: Acted,
        REVEALED: Revealed,
        SOLVED: Solved,
        SOLUTION_REVEALED: SolutionRevealed,
        CHALLENGED: Challenged,
        ACCEPTED: Accepted,
        ITEM_USED: ItemUsed,
        EXCHANGED: Exchanged,
        CATEGORY_JUDGED: CategoryJudged,
        PROMPT_JUDGED: PromptJudged,
    }
)
payload_of = EVENTS.payload_of
upcast = EVENTS.upcast
