"""Zoom fold properties: random command sequences (valid and not) never crash the fold, the
fold of the whole log equals the fold extended fact by fact, rulings never crash it, and the
replay by runs of buzzes (``buzz_run``) equals the replay fact by fact, also when the runs are
cut at any indices (as the checkpoints cut them) or kept open (``Running``)."""

from __future__ import annotations

import itertools
from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from adjudicator import rulings as ruling_effects
from adjudicator.games.zoom.commands import Buzz, Pair, StartRound
from adjudicator.kernel.canonical import iso
from adjudicator.kernel.fold import Running, apply, replay, states, timeline
from tests.kit import at
from tests.support.zoom_play import HOST, play, quick_steps, steps


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


BUZZ_A1 = Buzz(seat="alpha", pairs=[Pair(target="A", at="a1")])
rulings_lists = st.lists(
    st.tuples(
        st.sampled_from(["void", "undo", "end_round", "adjust_score", "amend"]),
        st.integers(1, 45),
        st.floats(0, 400),
    ),
    max_size=5,
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), script=steps, rulings=rulings_lists)
def test_rulings_anywhere_in_history_never_crash_the_fold(
    seed: int, script: list[tuple[Any, float, str | None]], rulings: list[tuple[str, int, float]]
) -> None:
    table = play(seed, script)
    rule(table, rulings)
    for t in (0, 50, 200, 1000):
        table.game.view(table.state(t), HOST)


class OneByOne:
    """The game without its ``evolve_run``: ``replay`` applies each fact by itself."""

    def __init__(self, game: Any) -> None:
        self.evolve, self.advance = game.evolve, game.advance


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), script=quick_steps, rulings=rulings_lists)
def test_the_replay_by_runs_of_buzzes_is_the_replay_fact_by_fact(
    seed: int, script: list[tuple[Any, float, str | None]], rulings: list[tuple[str, int, float]]
) -> None:
    table = play(seed, script)
    rule(table, rulings)
    ordered = timeline(table.facts, ruling_effects.resolve(table.facts))
    start = table.game.initial(table.setup)
    for t in (0, 5, 30, 61, 100, 200, 1000):
        moment = at(t)
        assert replay(table.game, start, ordered, moment) == replay(
            OneByOne(table.game),  # type: ignore[arg-type]
            start,
            ordered,
            moment,
        )


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    script=quick_steps,
    rulings=rulings_lists,
    every=st.integers(1, 4),
)
@example(  # two buzzes in one quiet window, cut between them
    seed=0,
    script=[
        (StartRound(), 0.0, None),
        *[(Buzz(seat="alpha", pairs=[Pair(target="A", at="a1")]), 0.0, None)] * 2,
    ],
    rulings=[],
    every=1,
)
def test_runs_cut_anywhere_and_the_open_fold_equal_the_fold_fact_by_fact(
    seed: int,
    script: list[tuple[Any, float, str | None]],
    rulings: list[tuple[str, int, float]],
    every: int,
) -> None:
    """``apply`` from cut to cut, every ``every`` facts (a run of buzzes never passes its
    stop), and a ``Running`` extended piece by piece, reach the state after every fact one by
    one (``states``)."""
    table = play(seed, script)
    rule(table, rulings)
    ordered = timeline(table.facts, ruling_effects.resolve(table.facts))
    start = table.game.initial(table.setup)
    one_by_one = start
    for one_by_one in states(table.game, start, ordered):  # noqa: B007 (the last is kept)
        pass
    bounds = sorted({*range(0, len(ordered), every), len(ordered)})
    state, running = start, Running(start, ruling_effects.resolve([]), 0, None, None)
    for lo, hi in itertools.pairwise(bounds):
        state = apply(table.game, state, ordered, lo, hi)
        running = running.extend(table.game, ordered[lo:hi])
    assert state == one_by_one
    assert running.state == one_by_one


def rule(table: Any, rulings: list[tuple[str, int, float]]) -> None:
    """Record the host's ``rulings`` (kind, target seq or ``to_seq``, game time) at t=500."""
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
