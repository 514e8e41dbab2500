"""``adjudicator demo``'s Zoom match (a generated one, played through the real HTTP API) and the
local server every demo runs on (``api.cli.demo_run`` runs the demos).

The host enters the match as if refereeing it from a chat channel afterwards: every round start
and every buzz is posted with its game time, some buzzes are wrong on purpose (lockouts), and the
result table is printed from the service's own state.
"""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

import httpx

from api.cli.entering import HostEntry


def find(grid: list[Any], target: list[Any]) -> str:
    """The coordinate of ``target``'s first occurrence in ``grid`` (what a sharp player posts)."""
    from adjudicator.games.zoom.coords import format_cell

    height, width = len(target), len(target[0])
    for row in range(len(grid) - height + 1):
        for col in range(len(grid[0]) - width + 1):
            if all(
                list(grid[row + i][col : col + width]) == list(target[i]) for i in range(height)
            ):
                return format_cell(row, col)
    raise ValueError("target not in grid")


class ZoomScript(HostEntry):
    """Plays a Zoom match as the host entering posts with their game times."""

    def __init__(
        self,
        client: httpx.Client,
        operator: str,
        seed: int,
        rounds: int,
        start: datetime | None = None,
    ) -> None:
        super().__init__(client, operator, start)
        self.seed, self.rounds = seed, rounds
        self.tokens: dict[str, Any] = {}

    def create(self) -> dict[str, Any]:
        made = self.create_match(
            {
                "game": "zoom",
                "seats": ["alpha", "beta"],
                "advantage": "beta",
                "config": {"rounds": self.rounds},
                "seed": self.seed,
            }
        )
        self.tokens = made["tokens"]
        return made

    def play(self) -> dict[str, Any]:
        self.create()
        for number in range(1, self.rounds + 1):
            self.play_round(number)
        return self.state()

    def play_round(self, number: int) -> None:
        self.post({"type": "start_round", "round": number}, after=30)
        current = self.state()["round"]
        labels = sorted(current["targets"])
        for i, label in enumerate(labels):
            seat = "alpha" if (i + number) % 3 else "beta"
            answer = find(current["grid"], current["targets"][label])
            if i == 1:  # a wrong buzz first: the seat is locked out, the other seat takes it
                self.post(buzz(seat, label, "a1" if answer != "a1" else "b1"), after=4)
                seat = "beta" if seat == "alpha" else "alpha"
            if number % 4 == 0 and i == len(labels) - 1:
                self.wait(125)  # nobody finds it: the round clock ends it
                return
            self.post(buzz(seat, label, answer), after=7)


def buzz(seat: str, label: str, cell: str) -> dict[str, Any]:
    """A Zoom buzz command: ``seat`` says target ``label`` is at ``cell``."""
    return {"type": "buzz", "seat": seat, "pairs": [{"target": label, "at": cell}]}


def result_table(state: dict[str, Any]) -> str:
    seats = state["seats"]
    lines = [f"{'round':>5}  " + "  ".join(f"{s:>6}" for s in seats) + "  void  ended by"]
    for played in state["played"]:
        counts = [sum(f["seat"] == s for f in played["found"].values()) for s in seats]
        void = ",".join(played["void_targets"]) or "-"
        cells = "  ".join(f"{c:>6}" for c in counts)
        lines.append(f"{played['number']:>5}  {cells}  {void:>4}  {played['end_reason']}")
    totals = "  ".join(f"{state['scores'][s]:>6}" for s in seats)
    lines.append(f"{'total':>5}  {totals}")
    result = state["result"]
    lines.append(f"result: winner={result['winner']} reason={result['reason']}")
    return "\n".join(lines)


class DemoError(Exception):
    """A demo could not run (its server did not start, or the service refused a step)."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextmanager
def running_server(database_url: str, operator: str, port: int | None = None) -> Iterator[str]:
    """A service on ``127.0.0.1:port`` (a free port when None) in a thread, for as long as the
    ``with`` block runs; ``DemoError`` when it does not start (e.g. the port is taken)."""
    import uvicorn

    from api.http.app import create_app
    from api.service.settings import Settings

    settings = Settings(database_url=database_url, operator_token=operator, log_level="warning")
    port = port or free_port()
    config = uvicorn.Config(create_app(settings), port=port, log_level="critical", access_log=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started and thread.is_alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    if not server.started:
        server.should_exit = True
        raise DemoError(f"the demo server did not start on 127.0.0.1:{port} (port taken?)")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
