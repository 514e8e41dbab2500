"""A No, Not That! match played through the real HTTP API, for ``adjudicator demo`` and tests.

The host enters the match with the game times of the posts (as when refereeing a chat channel
afterwards): round starts, both seats' sealed actions, solutions, challenges, items, exchanges and
host judgements. Four kinds of rounds rotate (consonants and a word prompt; integers and a sum;
a host-judged category and prompt; a list and a product), in turn or, given a seed, in a seeded
order within each block of four rounds; slow seats lose safety nets, then points.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

import httpx

from api.cli.entering import HostEntry

ALPHA, BETA = "Alpha", "Beta"
ITEMS = ["extra_safe", "life_ring", "head_start"]


def round_kinds() -> list[dict[str, Any]]:
    """The four round kinds the demo plays (see ``kind_order``)."""
    return [
        {
            "prompt_text": "a 4-letter word with exactly 1 vowel (A E I O U are free)",
            "category_text": "consonants",
            "category": {"kind": "letters", "letters": "consonants"},
            "prompt": {"kind": "word", "length": 4, "vowels": 1, "free_letters": "AEIOU"},
        },
        {
            "prompt_text": "numbers that add up to 10",
            "category_text": "whole numbers from 1 to 20",
            "category": {"kind": "integers", "minimum": 1, "maximum": 20},
            "prompt": {"kind": "sum", "target": 10},
        },
        {
            "prompt_text": "two animals that could share a barn",
            "category_text": "animals",
            "category": {"kind": "host"},
            "prompt": {"kind": "host"},
        },
        {
            "prompt_text": "numbers whose product is 12",
            "category_text": "divisors of 12",
            "category": {"kind": "list", "members": ["1", "2", "3", "4", "6", "12"]},
            "prompt": {"kind": "product", "target": 12},
        },
    ]


def kind_order(rounds: int, seed: int | None = None) -> list[int]:
    """Which kind each round plays: the four in turn, or with a seed, each block of four rounds
    in an order drawn from ``random.Random(seed)`` (every kind still once per block)."""
    if seed is None:
        return [(n - 1) % 4 for n in range(1, rounds + 1)]
    rng = random.Random(seed)
    order: list[int] = []
    while len(order) < rounds:
        order += rng.sample(range(4), 4)
    return order[:rounds]


def match_config(rounds: int, order: list[int] | None = None) -> dict[str, Any]:
    kinds = round_kinds()
    order = order if order is not None else kind_order(rounds)
    return {"rounds": [kinds[k] for k in order], "items": {ALPHA: ITEMS, BETA: ITEMS}}


class NntScript(HostEntry):
    """Plays a No, Not That! match as the host entering each post with its game time."""

    def __init__(
        self,
        client: httpx.Client,
        operator: str,
        rounds: int = 16,
        start: datetime | None = None,
        seed: int | None = None,
    ) -> None:
        super().__init__(client, operator, start)
        self.rounds, self.seed = rounds, seed
        self.order = kind_order(rounds, seed)
        self.tokens: dict[str, Any] = {}

    def create(self) -> dict[str, Any]:
        config = match_config(self.rounds, self.order)
        body: dict[str, Any] = {"game": "no_not_that", "seats": [ALPHA, BETA], "config": config}
        made = self.create_match(body if self.seed is None else {**body, "seed": self.seed})
        self.tokens = made["tokens"]
        return made

    def act(self, seat: str, kind: str, after: float = 1, **fields: Any) -> dict[str, Any]:
        return self.post({"type": kind, "seat": seat, **fields}, after)

    def step(self, alpha: tuple[Any, ...], beta: tuple[Any, ...], after: float = 4) -> None:
        """Both seats act, Alpha first; ``("submit", "Q")``, ``("claim_prompt",)``, ..."""
        for seat, (kind, *rest) in ((ALPHA, alpha), (BETA, beta)):
            fields = {"object": rest[0]} if rest else {}
            self.act(seat, kind, after, **fields)

    def play(self) -> dict[str, Any]:
        self.create()
        for number in range(1, self.rounds + 1):
            self.between(number)
            self.post({"type": "start_round", "round": number}, after=20)
            PLANS[self.order[number - 1]](self, number)
        self.wait(1)
        return self.state()

    def judge(self, kind: str, about: str, verdict: bool, after: float) -> dict[str, Any]:
        """Rule on the pending question about ``about`` (an object, or a prompt claim's seat),
        naming it by the ``target_seq`` the host's state lists for it."""
        field = {"category": "object", "prompt": "seat"}[kind]
        waiting = self.state()["awaiting_ruling"][f"{kind}_questions"]
        target = next(q["target_seq"] for q in waiting if q[field] == about)
        ruling = {"fits" if kind == "category" else "meets": verdict}
        return self.post({"type": f"judge_{kind}", "target_seq": target, **ruling}, after=after)

    def between(self, number: int) -> None:
        """Between rounds 8 and 9 Beta buys nets; items are used early in the match."""
        if number == 9:
            self.act(BETA, "exchange", times=1)
        if number == 2:
            self.act(ALPHA, "use_item", item="extra_safe")


def plan_word(s: NntScript, number: int) -> None:
    """Alpha spells WHIZ (with a Head Start H in round 5); Beta accepts or lets the window run."""
    if number == 5:
        s.step(("head_start", "H"), ("submit", "W"))
        s.step(("submit", "Z"), ("submit", "B"))
    else:
        s.step(("submit", "W"), ("submit", "H"))
        s.step(("submit", "Z"), ("submit", "B"))
    s.step(("submit", "X"), ("submit", "C"))
    s.step(("claim_prompt",), ("submit", "D"))
    s.act(ALPHA, "solve", tokens=["W", "H", "I", "Z"], after=12)
    if number in (1, 5):
        s.act(BETA, "accept", after=3)
    else:
        s.wait(61)  # the challenge window (the step time) runs out: the 3 points stand


def plan_sum(s: NntScript, number: int) -> None:
    """Beta slips 25 past the range; Alpha catches it; Beta sums 3 + 7, Alpha challenges wrongly.
    With its Life Ring (round 6) Alpha's first, wrong, claim costs nothing."""
    if number == 6:
        s.act(ALPHA, "use_item", item="life_ring")
    s.step(("submit", "3"), ("submit", "7"))
    if number == 6:
        s.step(("claim_invalid",), ("submit", "5"))  # 7 is fine: protected by the Life Ring
    s.step(("submit", "6"), ("submit", "25"))
    s.step(("claim_invalid",), ("submit", "4"))
    s.step(("submit", "8"), ("claim_prompt",))
    s.act(BETA, "solve", tokens=["3", "7"], after=9)
    s.act(ALPHA, "challenge", after=5)


def plan_host(s: NntScript, number: int) -> None:
    """Animals judged by the host: TABLE is caught; the host accepts Alpha's DOG and COW."""
    s.step(("submit", "cat"), ("submit", "dog"))
    s.step(("submit", "table"), ("submit", "cow"))
    s.step(("submit", "pig"), ("claim_invalid",))
    s.judge("category", "TABLE", False, after=20)
    s.step(("claim_prompt",), ("submit", "hen"))
    s.act(ALPHA, "solve", tokens=["DOG", "COW"], after=15)
    s.judge("prompt", ALPHA, True, after=10)
    s.act(BETA, "accept", after=2)


def plan_product(s: NntScript, number: int) -> None:
    """Beta is slow in the first step (a net, or more); Alpha multiplies 2 x 6."""
    step_seconds = 30 if number <= 8 else 60
    slow = 3 + step_seconds + (60 * 3 if number == 16 else 5)
    s.act(ALPHA, "submit", object="2", after=4)
    s.act(BETA, "submit", object="6", after=slow)
    s.step(("submit", "3"), ("submit", "4"))
    s.step(("claim_prompt",), ("submit", "1"))
    s.act(ALPHA, "solve", tokens=["2", "6"], after=20)
    s.act(BETA, "accept", after=2)


PLANS = [plan_word, plan_sum, plan_host, plan_product]


def result_table(state: dict[str, Any]) -> str:
    seats = list(state["seats"])
    lines = [f"{'round':>5}  " + "  ".join(f"{s:>6}" for s in seats) + "  ended by"]
    for played in state["round_results"]:
        cells = "  ".join(f"{played['gained'][s]:>6}" for s in seats)
        lines.append(f"{played['round']:>5}  {cells}  {played['reason']}")
    totals = "  ".join(f"{state['seats'][s]['score']:>6}" for s in seats)
    lines.append(f"{'total':>5}  {totals}")
    nets = ", ".join(f"{s} {state['seats'][s]['nets_lost']}" for s in seats)
    lines.append(f"safety nets lost: {nets}")
    result = state["result"]
    lines.append(f"result: winner={result['winner']} reason={result['reason']}")
    return "\n".join(lines)
