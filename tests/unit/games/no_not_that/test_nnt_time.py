"""Time (spec "Time"): step deadlines, safety nets and repeating 60-s extensions."""

from __future__ import annotations

from adjudicator.kernel.canonical import iso
from tests.support.nnt_harness import at, started


def test_a_missed_deadline_costs_a_net_and_gives_60_s_more() -> None:
    m = started()
    m.do(1, "Alpha", "submit", object="Q")
    state = m.state(32.9)
    assert state.seats["Beta"].nets == 3
    state = m.state(33)  # 0 + 3 s countdown + 30 s: passed at t >= d
    assert (state.seats["Beta"].nets, state.seats["Beta"].score) == (2, 0)
    assert state.seats["Beta"].deadline == at(93)
    assert state.seats["Alpha"].nets == 3


def test_the_extension_repeats_and_without_nets_a_point_is_lost_each_time() -> None:
    m = started()
    m.do(1, "Alpha", "submit", object="Q")
    state = m.state(33 + 60 * 4)
    beta = state.seats["Beta"]
    assert (beta.nets, beta.score, beta.nets_lost, beta.points_lost) == (0, -2, 3, 2)
    view = m.view(33 + 60 * 4, "spectator")
    assert view["seats"]["Beta"]["deadline"] == iso(at(33 + 60 * 5))
    assert view["seats"]["Beta"]["round_gained"] == -2


def test_acting_after_an_extension_resolves_the_step_normally() -> None:
    m = started()
    m.do(1, "Alpha", "submit", object="Q")
    m.do(50, "Beta", "submit", object="W")
    state = m.state(50)
    assert state.seats["Beta"].nets == 2
    assert state.round is not None and state.round.step == 2


def test_both_seats_lose_nets_when_neither_acts() -> None:
    m = started()
    state = m.state(34)
    assert [p.nets for p in state.seats.values()] == [2, 2]
