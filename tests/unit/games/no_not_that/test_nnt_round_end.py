"""The end of a round (spec "End of a round"): 3 claim points, and the 17-object last step."""

from __future__ import annotations

from adjudicator.games.no_not_that import Phase
from tests.support.nnt_harness import Match, consonant_round, make_config, started

LETTERS = "BCDFGHJKLMNPQRSTVWXZ"


def all_letters_match() -> Match:
    config = make_config(rounds=2)
    config["rounds"] = [consonant_round(category={"kind": "letters"})] * 2
    return started(config)


def fill_17(m: Match) -> float:
    """Nine steps of two new letters each: 18 distinct objects in play. Returns the last time."""
    now = 0.0
    for n in range(9):
        now = 2.0 * (n + 1)
        m.step(now, Alpha=("submit", LETTERS[2 * n]), Beta=("submit", LETTERS[2 * n + 1]))
    return now


def test_three_claim_points_end_the_round_whoever_raised_the_claims() -> None:
    m = started()
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(4, Alpha=("submit", "B"), Beta=("claim_invalid",))  # incorrect: Alpha +1
    m.step(6, Alpha=("submit", "C"), Beta=("claim_prompt",))
    m.do(7, "Beta", "solve", tokens=["Q"])  # incorrect: Alpha +1 (2)
    assert m.state(7).phase is Phase.STEP
    m.step(8, Alpha=("submit", "D"), Beta=("claim_invalid",))  # incorrect: Alpha +1 (3)
    state = m.state(8)
    assert state.phase is Phase.BETWEEN_ROUNDS
    assert state.round_results[-1]["claim_points"] == {"Alpha": 3, "Beta": 0}


def test_the_round_end_rule_waits_for_both_prompt_claims() -> None:
    m = started()
    m.step(2, Alpha=("submit", "W"), Beta=("submit", "H"))
    m.step(4, Alpha=("submit", "Z"), Beta=("submit", "B"))
    m.step(6, Alpha=("submit", "X"), Beta=("submit", "C"))
    m.step(8, Alpha=("claim_prompt",), Beta=("claim_prompt",))
    m.do(9, "Alpha", "solve", tokens=["W", "H", "I", "Z"])
    m.do(10, "Beta", "solve", tokens=["Q"])
    assert m.score(10) == {"Alpha": 1, "Beta": 0}
    assert m.state(10).phase is Phase.CLAIMS
    m.do(11, "Beta", "accept")
    assert m.state(11).phase is Phase.BETWEEN_ROUNDS
    assert m.score(11) == {"Alpha": 4, "Beta": 0}


def test_seventeen_distinct_objects_announce_the_last_step() -> None:
    m = all_letters_match()
    now = fill_17(m)
    view = m.view(now, "spectator")["round"]
    assert view["distinct_in_play"] == 18
    assert view["last_step"] is True


def test_sixteen_objects_do_not_announce_the_last_step() -> None:
    m = all_letters_match()
    for n in range(8):
        m.step(2.0 * (n + 1), Alpha=("submit", LETTERS[2 * n]), Beta=("submit", LETTERS[2 * n + 1]))
    assert m.view(16, "spectator")["round"]["last_step"] is False


def test_in_the_last_step_submit_is_refused_and_pass_allowed() -> None:
    m = all_letters_match()
    now = fill_17(m)
    assert m.refused(now + 1, "Alpha", "submit", object="Y").code == "submit_in_last_step"
    m.step(now + 1, Alpha=("pass",), Beta=("pass",))
    state = m.state(now + 1)
    assert state.phase is Phase.BETWEEN_ROUNDS
    assert state.round_results[-1]["reason"] == "last_step"


def test_pass_is_refused_before_the_last_step() -> None:
    m = started()
    assert m.refused(1, "Alpha", "pass").code == "pass_only_in_last_step"


def test_the_last_step_ends_after_its_prompt_claim_and_challenge() -> None:
    m = all_letters_match()
    now = fill_17(m)
    m.step(now + 1, Alpha=("claim_prompt",), Beta=("pass",))
    assert m.state(now + 1).phase is Phase.CLAIMS
    m.do(now + 2, "Alpha", "solve", tokens=["B", "Q"])
    state = m.state(now + 2)
    assert state.phase is Phase.BETWEEN_ROUNDS
    assert m.score(now + 2) == {"Alpha": 0, "Beta": 1}


def test_a_claim_in_the_last_step_accuses_the_previous_steps_object() -> None:
    m = all_letters_match()
    now = fill_17(m)
    m.step(now + 1, Alpha=("claim_invalid",), Beta=("pass",))
    assert m.score(now + 1) == {"Alpha": 0, "Beta": 1}
