"""A Zombego game played through the real HTTP API by a seeded random player, for
``adjudicator demo --game zombego`` and tests.

The host enters every ply for the seat to move (as when refereeing a game played elsewhere): the
player picks one of the legal moves the service lists, uniformly with ``random.Random(seed)``,
until the game ends (no legal move, zombie majority, or the ply cap: a draw). The match's own
seed, which orders the hands, is the same number, so one seed gives one game.
"""

from __future__ import annotations

import random
from datetime import datetime
from typing import Any

import httpx

from adjudicator.games.zombego.notation import command_body as command_for
from api.cli.entering import HostEntry
from projections.verify import counting

WHITE, BLACK = "white", "black"
DEMO_PLY_CAP = 400


class ZombegoScript(HostEntry):
    """Plays a whole Zombego game, the host entering a seeded random player's plies."""

    def __init__(
        self,
        client: httpx.Client,
        operator: str,
        seed: int,
        config: dict[str, Any] | None = None,
        start: datetime | None = None,
    ) -> None:
        super().__init__(client, operator, start)
        self.seed = seed
        self.config = config if config is not None else {"ply_cap": DEMO_PLY_CAP}
        self.rng = random.Random(seed)
        self.tokens: dict[str, Any] = {}
        self.played: list[tuple[str, str, str]] = []

    def create(self) -> dict[str, Any]:
        body = {"game": "zombego", "seats": [WHITE, BLACK], "config": self.config}
        made = self.create_match({**body, "seed": self.seed})
        self.tokens = made["tokens"]
        return made

    def play(self) -> dict[str, Any]:
        self.create()
        state = self.state()
        while state["result"] is None:
            self.ply(state)
            state = self.state()
        return state

    def ply(self, state: dict[str, Any]) -> None:
        """Play one legal move, chosen at random, for the seat to move."""
        seat = state["to_move"]
        move = self.rng.choice(state["legal"])["move"]
        answer = self.post(command_for(seat, move), after=5)
        self.played.append((seat, move, answer["outcome"]["outcome"]))


def moves_text(played: list[tuple[str, str, str]]) -> str:
    """One line per ply: number, seat, Ludii move and its outcome when not a plain one."""
    lines = []
    for number, (seat, move, outcome) in enumerate(played, start=1):
        note = "" if outcome == "plain" else f"  ({outcome.replace('_', ' ')})"
        lines.append(f"{number:>4}  {seat:<5}  {move}{note}")
    return "\n".join(lines)


def result_line(state: dict[str, Any]) -> str:
    counts = ", ".join(
        f"{seat} {c['living']} living/{counting(c['zombies'], 'zombie')}"
        for seat, c in state["counts"].items()
    )
    result = state["result"]
    winner = result["winner"] if result["winner"] is not None else "none (draw)"
    return f"after ply {state['ply']}: {counts}\nresult: winner={winner} reason={result['reason']}"
