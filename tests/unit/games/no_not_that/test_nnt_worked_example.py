"""The spec's worked example, played step by step: the round ends Alpha 4, Beta 1."""

from __future__ import annotations

from adjudicator.games.no_not_that import Phase
from tests.support.nnt_harness import Match


def test_worked_example_ends_the_round_alpha_4_beta_1() -> None:
    m = Match()
    m.do(0, "host", "start_round", round=1)
    m.step(5, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(10, Alpha=("submit", "Z"), Beta=("submit", "Z"))
    m.step(15, Alpha=("submit", "W"), Beta=("submit", "A"))
    m.step(20, Alpha=("claim_invalid",), Beta=("claim_invalid",))
    assert m.score(20) == {"Alpha": 1, "Beta": 1}
    pool = m.view(20, "spectator")["round"]["pool"]
    assert [(o["object"], o["step"], o["removed"]) for o in pool] == [
        ("Q", 1, False),
        ("W", 1, False),
        ("Z", 2, False),
        ("W", 3, True),
        ("A", 3, True),
    ]
    m.step(25, Alpha=("submit", "Y"), Beta=("submit", "H"))
    m.step(30, Alpha=("claim_prompt",), Beta=("submit", "V"))
    m.do(40, "Alpha", "solve", tokens=["W", "H", "I", "Z"])
    assert m.state(40).phase is Phase.CLAIMS
    assert m.score(40) == {"Alpha": 1, "Beta": 1}
    # Beta does not challenge: the window (30 s in round 1) closes and the 3 points stand.
    state = m.state(70)
    assert m.score(70) == {"Alpha": 4, "Beta": 1}
    assert state.phase is Phase.BETWEEN_ROUNDS
    assert state.round_results[-1]["gained"] == {"Alpha": 4, "Beta": 1}
    assert all(o["object"] != "V" for o in m.view(70, "spectator")["round"]["pool"])
    assert not state.voided
