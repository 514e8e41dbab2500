"""Random Zoom play: scripts of commands (valid and not) at increasing instants, and a table
that has played one (refused commands leave nothing, as in the service)."""

from __future__ import annotations

import contextlib
from typing import Any

from hypothesis import strategies as st

from adjudicator.games.zoom import ZoomGame
from adjudicator.games.zoom.commands import Buzz, DeclarePriority, Pair, StartRound
from adjudicator.kernel.decider import Role, Setup, Viewer
from adjudicator.kernel.errors import DomainError
from tests.kit import Table, Turn

SEATS = ("alpha", "beta")
HOST = Viewer(Role.HOST)
config = {"rounds": 3, "grid_height": 6, "grid_width": 6, "target_height": 2, "target_width": 2}

cells = st.builds(lambda c, r: f"{'abcdef'[c]}{r}", st.integers(0, 5), st.integers(1, 6))
pairs = st.lists(st.builds(Pair, target=st.sampled_from("ABCDE"), at=cells), min_size=1, max_size=3)
commands = st.one_of(
    st.builds(StartRound),
    st.builds(Buzz, seat=st.sampled_from(SEATS), pairs=pairs),
    st.builds(DeclarePriority, seat=st.sampled_from(SEATS)),
)
steps = st.lists(
    st.tuples(commands, st.floats(0, 40), st.sampled_from([None, *SEATS])), max_size=40
)
quick_steps = st.lists(
    st.tuples(
        commands, st.one_of(st.floats(0, 0.5), st.floats(0, 40)), st.sampled_from([None, *SEATS])
    ),
    max_size=40,
)
"""Scripts whose commands often come within half a second of each other: runs of buzzes
before a round's next deadline, which Zoom's ``buzz_run`` grades at once."""


Script = list[tuple[Any, float, str | None]]


def play(seed: int, script: Script) -> Table:
    return play_turns(seed, script)[0]


def play_turns(seed: int, script: Script) -> tuple[Table, list[Turn]]:
    """Play ``script`` (command, gap in seconds, seat or None for the host); the accepted
    commands' decisions are returned with their instants."""
    table = Table(ZoomGame(), Setup("m", SEATS, config, advantage="alpha", seed=seed))
    turns: list[Turn] = []
    t = 0.0
    for command, gap, seat in script:
        t += gap
        with contextlib.suppress(DomainError):
            decision = table.decide(command, t=t, seat=seat)
            table.enter(decision, t=t, seat=seat)
            turns.append(Turn(decision, t))
    return table, turns
