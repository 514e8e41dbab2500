"""No, Not That!'s event types and their payloads, exactly as ``decide`` records them.

``nnt.acted`` (every sealed step action, one type so the public envelope does not tell which) and
``nnt.solved`` are private to the acting seat; ``nnt.revealed`` and ``nnt.solution_revealed``
make them public. Verdicts and points are derived by the fold, never recorded. ``payload_of``
and ``upcast`` are :class:`~adjudicator.games.payloads.EventTypes`'s (every payload is at
version 1).
"""

from __future__ import annotations

from typing import NotRequired

from pydantic import with_config
from typing_extensions import TypedDict

from adjudicator.games.payloads import STRICT, EventTypes

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


@with_config(STRICT)
class RoundStarted(TypedDict):
    round: int


@with_config(STRICT)
class Acted(TypedDict):
    """Private: a seat's step action (a ``Kind`` value), with the object as posted if it has one."""

    seat: str
    round: int
    step: int
    action: str
    object: NotRequired[str]


@with_config(STRICT)
class RevealedAction(TypedDict):
    """A revealed action; only a submission shows its object (a Head Start's stays hidden)."""

    action: str
    object: NotRequired[str]


@with_config(STRICT)
class Revealed(TypedDict):
    """Both seats acted in this step: their actions by seat."""

    round: int
    step: int
    actions: dict[str, RevealedAction]


@with_config(STRICT)
class Solved(TypedDict):
    """Private: a seat's solution of its prompt claim, as tokens in order."""

    seat: str
    tokens: list[str]


@with_config(STRICT)
class SolutionRevealed(TypedDict):
    """The sealed solutions of the step, by seat."""

    solutions: dict[str, list[str]]


@with_config(STRICT)
class SeatOnly(TypedDict):
    """``nnt.challenged`` and ``nnt.accepted``: the seat answering a prompt claim."""

    seat: str


@with_config(STRICT)
class ItemUsed(TypedDict):
    """A seat used an item (an ``Item`` value)."""

    seat: str
    item: str


@with_config(STRICT)
class Exchanged(TypedDict):
    """A seat traded ``times`` points for two safety nets each."""

    seat: str
    times: int


@with_config(STRICT)
class CategoryJudged(TypedDict):
    """The host ruled whether an object fits the round's host-judged category.

    With ``target_seq`` (``judge_category``): the verdict on the one question it names (a
    ``claim_invalid`` action, or a submission), ``object`` its value for readability. Without
    it (``judge_value``, and every record made before ``target_seq`` existed): a ruling on the
    value ``object`` for the round."""

    object: str
    fits: bool
    target_seq: NotRequired[int]


@with_config(STRICT)
class PromptJudged(TypedDict):
    """The host ruled whether a seat's solution meets the round's host-judged prompt.

    ``target_seq`` names the prompt claim (or its solution); ``seat`` is its claimant. Records
    made before ``target_seq`` existed name the claim by ``seat`` alone (one per seat a step)."""

    seat: str
    meets: bool
    target_seq: NotRequired[int]


EVENTS = EventTypes(
    {
        ROUND_STARTED: RoundStarted,
        ACTED: Acted,
        REVEALED: Revealed,
        SOLVED: Solved,
        SOLUTION_REVEALED: SolutionRevealed,
        CHALLENGED: SeatOnly,
        ACCEPTED: SeatOnly,
        ITEM_USED: ItemUsed,
        EXCHANGED: Exchanged,
        CATEGORY_JUDGED: CategoryJudged,
        PROMPT_JUDGED: PromptJudged,
    }
)
payload_of = EVENTS.payload_of
upcast = EVENTS.upcast
