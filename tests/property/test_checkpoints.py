"""Property: the fold resumed from checkpoints (``projections.checkpoints``) equals the full fold,
for random histories of Zoom and No, Not That! with rulings (void, undo, amend, adjust_score,
end_round at past game times), at random (``at``, ``known``): the state, and the timeline's
points. The log is fed to one cache in batches and queried in between, so checkpoints taken
before a ruling was recorded are offered to queries made after it (a void of an early event must
not resume from them)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import rulings
from adjudicator.games.no_not_that import Phase
from adjudicator.games.zoom.commands import Buzz, Pair, StartRound
from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import HOST, Fact, Game, Role, Setup, Viewer
from adjudicator.kernel.fold import Running, fold, timeline
from adjudicator.registry import decode
from projections.checkpoints import MatchFolds
from projections.timetravel import timeline_point
from projections.views import Known
from tests.kit import T0
from tests.support import zombego_play
from tests.support.nnt_harness import Match
from tests.support.nnt_moves import config as nnt_config
from tests.support.nnt_moves import legal_moves
from tests.support.zoom_play import play, steps

HOST_VIEW = Viewer(Role.HOST)
RULINGS = ("void", "undo", "amend", "adjust_score", "end_round")
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def ruling(
    data: st.DataObject, facts: list[Fact], seats: tuple[str, str], outcome: dict[str, Any]
) -> Fact:
    """A ruling recorded after ``facts``, acting at a random past game time."""
    kind = data.draw(st.sampled_from(RULINGS), label="ruling")
    end = max((f.at for f in facts), default=T0)
    payload: dict[str, Any] = {"reason": "property"}
    target = data.draw(st.integers(1, max(len(facts), 1)), label="target")
    if kind in ("void", "amend"):
        payload["target_seq"] = target
    if kind == "amend":
        payload["outcome"] = outcome
    if kind == "undo":
        payload["to_seq"] = target
    if kind == "adjust_score":
        payload |= {"seat": data.draw(st.sampled_from(seats)), "delta": -1}
    back = data.draw(st.floats(0, 120), label="back")
    at = end - timedelta(seconds=back)
    if data.draw(st.booleans(), label="payload at"):  # an older record's way to name it
        payload["at"], at = iso(at), end
    return Fact(len(facts) + 1, f"ruling.{kind}", HOST, at, decode(f"ruling.{kind}", payload))


def check(data: st.DataObject, game: Game[Any, Any], setup: Setup, facts: list[Fact]) -> None:
    """Feed ``facts`` to one cache in batches; after each, checkpoint + tail == full fold."""
    folds = MatchFolds(game, setup, every=data.draw(st.integers(1, 5)), per_match=6)
    t0 = facts[0].at if facts else T0
    recorded = [t0 + timedelta(seconds=i // 2) for i in range(len(facts))]  # ties too
    fed = 0
    while fed < len(facts):
        batch = data.draw(st.integers(1, max(len(facts) - fed, 1)), label="batch")
        folds.add_facts(facts[fed : fed + batch], recorded[fed : fed + batch])
        fed += batch
        for _ in range(data.draw(st.integers(1, 4), label="queries")):
            query(data, folds, facts[:fed], recorded[:fed])


def query(
    data: st.DataObject, folds: MatchFolds, facts: list[Fact], recorded: list[datetime]
) -> None:
    seq = data.draw(st.none() | st.integers(0, len(facts) + 2), label="known_seq")
    moment = data.draw(st.none() | st.sampled_from(recorded), label="known_at")
    known = Known(moment, seq)
    cut = [
        f
        for f, r in zip(facts, recorded, strict=True)
        if (seq is None or f.seq <= seq) and (moment is None or r <= moment)
    ]
    n = folds.cutoff(known)
    assert n == len(cut)
    times = [f.at for f in facts] or [recorded[0]]
    at = data.draw(st.sampled_from(times), label="at") + timedelta(
        seconds=data.draw(st.sampled_from([-1.0, 0.0, 0.5, 30.0]), label="shift")
    )
    got, want = folds.fold(n, at), fold(folds.game, folds.setup, cut, at)
    assert got.effects.voided == want.effects.voided
    assert folds.game.view(got.state, HOST_VIEW) == folds.game.view(want.state, HOST_VIEW)
    if data.draw(st.booleans(), label="timeline"):
        assert folds.points(n, timeline_point) == full_points(folds.game, folds.setup, cut)


def full_points(game: Game[Any, Any], setup: Setup, facts: list[Fact]) -> list[dict[str, Any]]:
    """The timeline's points folded from scratch, fact by fact, with no cache."""
    effects = rulings.resolve(facts)
    running = Running(game.initial(setup), effects, 0, None, None)
    points = []
    for fact in timeline(facts, effects):
        running = running.extend(game, [fact])
        points.append(timeline_point(game, running.state, fact))
    return points


def zoom_history(
    data: st.DataObject, seed: int, script: Any
) -> tuple[Game[Any, Any], Setup, list[Fact]]:
    """A random Zoom match with rulings at past game times and plays recorded after them."""
    table = play(seed, script)
    facts = list(table.facts)
    for _ in range(data.draw(st.integers(0, 4), label="rulings")):
        facts.append(ruling(data, facts, table.setup.seats, {"A": "correct", "B": "incorrect"}))
        facts += [
            Fact(len(facts) + 1 + i, f.type, f.actor, f.at, f.payload)
            for i, f in enumerate(data.draw(st.sampled_from([[], table.facts[-2:]])))
        ]
    return table.game, table.setup, facts


def nnt_history(data: st.DataObject) -> tuple[Game[Any, Any], Setup, list[Fact]]:
    """A random legal No, Not That! match with rulings during and after it."""
    m = Match(nnt_config())
    now = 0.0
    for turn in range(30):
        now += data.draw(st.sampled_from([0.0, 1.0, 5.0, 31.0, 61.0]), label="wait")
        state = m.state(now)
        moves = legal_moves(state, f"U{turn}")
        if state.phase is Phase.FINISHED or not moves:
            break
        who, kind, fields = data.draw(st.sampled_from(moves), label="move")
        m.do(now, who, kind, state=state, **fields)
        if data.draw(st.integers(0, 5), label="rule now") == 0:
            m.facts.append(ruling(data, m.facts, m.setup.seats, {"verdict": "correct"}))
    for _ in range(data.draw(st.integers(0, 3), label="rulings")):
        m.facts.append(ruling(data, m.facts, m.setup.seats, {"verdict": "incorrect"}))
    return m.game, m.setup, m.facts


def zombego_history(data: st.DataObject) -> tuple[Game[Any, Any], Setup, list[Fact]]:
    """A random legal Zombego match with rulings at past game times after it."""
    options = data.draw(zombego_play.options, label="options")
    seed = data.draw(st.none() | st.integers(0, 2**32), label="seed")
    table, _ = zombego_play.play_turns(data, options, seed)
    facts = list(table.facts)
    for _ in range(data.draw(st.integers(0, 3), label="rulings")):
        facts.append(ruling(data, facts, table.setup.seats, {}))
    return table.game, table.setup, facts


@SETTINGS
@given(st.data(), st.integers(0, 2**32), steps)
def test_zoom_checkpoints_equal_the_full_fold(
    data: st.DataObject, seed: int, script: list[tuple[Any, float, str | None]]
) -> None:
    check(data, *zoom_history(data, seed, script))


@SETTINGS
@given(st.data())
def test_no_not_that_checkpoints_equal_the_full_fold(data: st.DataObject) -> None:
    check(data, *nnt_history(data))


@SETTINGS
@given(st.data())
def test_zombego_checkpoints_equal_the_full_fold(data: st.DataObject) -> None:
    check(data, *zombego_history(data))


def warmed_zoom() -> tuple[MatchFolds, list[Fact]]:
    """A Zoom match of a round and four buzzes, every prefix checkpointed by a late query."""
    script: list[tuple[Any, float, str | None]] = [(StartRound(), 1.0, None)]
    script += [
        (Buzz(seat=seat, pairs=[Pair(target="A", at="a1")]), 1.0, seat)
        for seat in ("alpha", "beta", "alpha", "beta")
    ]
    table = play(7, script)
    folds = MatchFolds(table.game, table.setup, every=1, per_match=64)
    folds.add_facts(table.facts, [f.at for f in table.facts])
    folds.fold(len(table.facts), table.facts[-1].at + timedelta(seconds=1))
    return folds, list(table.facts)


def host_view_after(folds: MatchFolds, facts: list[Fact], rule: Fact) -> tuple[Any, Any]:
    folds.add_facts([rule], [rule.at])
    at = rule.at + timedelta(seconds=1)
    got = folds.fold(len(facts) + 1, at).state
    want = fold(folds.game, folds.setup, [*facts, rule], at).state
    before = fold(folds.game, folds.setup, facts, at).state
    assert folds.game.view(before, HOST_VIEW) != folds.game.view(want, HOST_VIEW)
    return folds.game.view(got, HOST_VIEW), folds.game.view(want, HOST_VIEW)


def test_a_later_void_of_an_early_event_does_not_resume_from_checkpoints_past_it() -> None:
    folds, facts = warmed_zoom()
    first_buzz = next(f.seq for f in facts if f.type == "zoom.buzzed")
    voided = decode("ruling.void", {"target_seq": first_buzz})
    void = Fact(len(facts) + 1, "ruling.void", HOST, facts[-1].at, voided)
    got, want = host_view_after(folds, facts, void)
    assert got == want


def test_a_later_amend_does_not_resume_from_checkpoints_past_the_amended_event() -> None:
    folds, facts = warmed_zoom()  # every buzz at a1 misses (seed 7)
    buzz = next(f.seq for f in facts if f.type == "zoom.buzzed")
    payload = {"target_seq": buzz, "outcome": {"A": "correct"}}
    amend = Fact(
        len(facts) + 1, "ruling.amend", HOST, facts[-1].at, decode("ruling.amend", payload)
    )
    got, want = host_view_after(folds, facts, amend)
    assert got == want
