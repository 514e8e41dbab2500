"""Invalid-object claims (spec "Invalid-object claims"): category, duplicates, removal."""

from __future__ import annotations

from tests.support.nnt_harness import started


def test_a_correct_claim_gains_the_accuser_1_and_removes_the_object() -> None:
    m = started()
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "A"))
    m.step(4, Alpha=("claim_invalid",), Beta=("submit", "W"))
    assert m.score(4) == {"Alpha": 1, "Beta": 0}
    pool = {o["object"]: o["removed"] for o in m.view(4, "spectator")["round"]["pool"]}
    assert pool == {"Q": False, "A": True, "W": False}
    claim = m.seq_of("nnt.acted", "Alpha")
    assert m.outcome(4, claim) == {
        "claim": "invalid",
        "object": "A",
        "verdict": "correct",
        "points": {"Alpha": 1, "Beta": 0},
    }


def test_an_incorrect_claim_gains_the_accused_1() -> None:
    m = started()
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(4, Alpha=("claim_invalid",), Beta=("submit", "H"))
    assert m.score(4) == {"Alpha": 0, "Beta": 1}


def test_a_duplicate_of_either_seats_earlier_submission_is_invalid() -> None:
    m = started()
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(4, Alpha=("submit", "B"), Beta=("submit", "Q"))
    m.step(6, Alpha=("claim_invalid",), Beta=("submit", "C"))
    assert m.score(6) == {"Alpha": 1, "Beta": 0}


def test_removal_acts_on_the_submission_not_on_every_copy() -> None:
    m = started()
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(4, Alpha=("submit", "W"), Beta=("submit", "B"))
    m.step(6, Alpha=("submit", "C"), Beta=("claim_invalid",))
    pool = [(o["object"], o["step"], o["removed"]) for o in m.view(6, "spectator")["round"]["pool"]]
    assert ("W", 1, False) in pool
    assert ("W", 2, True) in pool


def test_a_removed_object_still_counts_as_already_submitted() -> None:
    m = started()
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "A"))
    m.step(4, Alpha=("claim_invalid",), Beta=("submit", "W"))
    m.step(6, Alpha=("submit", "B"), Beta=("submit", "A"))
    m.step(8, Alpha=("claim_invalid",), Beta=("submit", "C"))
    assert m.score(8) == {"Alpha": 2, "Beta": 0}


def test_a_claim_in_the_first_step_has_nothing_to_accuse() -> None:
    m = started()
    error = m.refused(1, "Alpha", "claim_invalid")
    assert error.code == "nothing_to_accuse"


def test_a_claim_after_the_opponent_claimed_has_nothing_to_accuse() -> None:
    m = started()
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(4, Alpha=("submit", "B"), Beta=("claim_prompt",))
    m.do(5, "Beta", "solve", tokens=["Q"])
    assert m.refused(6, "Alpha", "claim_invalid").code == "nothing_to_accuse"


def test_both_seats_may_accuse_each_other_in_one_step() -> None:
    m = started()
    m.step(2, Alpha=("submit", "E"), Beta=("submit", "A"))
    m.step(4, Alpha=("claim_invalid",), Beta=("claim_invalid",))
    assert m.score(4) == {"Alpha": 1, "Beta": 1}
    assert m.view(4, "spectator")["round"]["pool"][0]["removed"] is True
