"""Zoom fold properties: random command sequences (valid and not) never crash the fold, the
fold of the whole log equals the fold extended fact by fact, and rulings never crash it."""

from __future__ import annotations

import contextlib
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.games.zoom import ZoomGame
from adjudicator.games.zoom.commands import Buzz, DeclarePriority, Pair, StartRound
from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import Role, Setup, Viewer
from adjudicator.kernel.errors import DomainError
from adjudicator.kernel.fold import Running
from tests.kit import Table, at

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


def play(seed: int, script: list[tuple[Any, float, str | None]]) -> Table:
    table = Table(ZoomGame(), Setup("m", SEATS, config, advantage="alpha", seed=seed))
    t = 0.0
    for command, gap, seat in script:
        t += gap
        with contextlib.suppress(DomainError):
            table.act(command, t=t, seat=seat)
    return table


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), script=steps)
def test_random_play_never_crashes_and_folds_incrementally_to_the_same_state(
    seed: int, script: list[tuple[Any, float, str | None]]
) -> None:
    table = play(seed, script)
    end = (table.facts[-1].at if table.facts else at(0)).timestamp() - at(0).timestamp()
    whole = table.state(end + 1)
    running = Running.start(table.game, table.setup, [])
    for fact in table.facts:
        running = running.extend(table.game, [fact])
    assert running.at(table.game, at(end + 1)) == whole
    view = table.game.view(whole, HOST)
    assert sum(view["scores"].values()) == sum(
        p["outcome"] == "correct" for b in view["buzzes"] for p in b["pairs"]
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    script=steps,
    rulings=st.lists(
        st.tuples(
            st.sampled_from(["void", "undo", "end_round", "adjust_score", "amend"]),
            st.integers(1, 45),
            st.floats(0, 400),
        ),
        max_size=5,
    ),
)
def test_rulings_anywhere_in_history_never_crash_the_fold(
    seed: int, script: list[tuple[Any, float, str | None]], rulings: list[tuple[str, int, float]]
) -> None:
    table = play(seed, script)
    for kind, target, when in rulings:
        payload: dict[str, Any] = {"reason": "property"}
        if kind in ("void", "amend"):
            payload["target_seq"] = min(target, max(table.last_seq, 1))
        if kind == "amend":
            payload["outcome"] = {"A": "correct", "B": "incorrect"}
        if kind == "undo":
            payload["to_seq"] = min(target, max(table.last_seq, 1))
        if kind in ("end_round", "adjust_score"):
            payload["at"] = iso(at(when))
        if kind == "adjust_score":
            payload |= {"seat": "beta", "delta": -1}
        table.record(f"ruling.{kind}", payload, t=500)
    for t in (0, 50, 200, 1000):
        table.game.view(table.state(t), HOST)
