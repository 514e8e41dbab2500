"""Prompt claims (spec "Prompt claims", "Exact resolutions"): windows, solutions, challenges."""

from __future__ import annotations

from adjudicator.games.no_not_that import Phase
from adjudicator.kernel.payloads import plain
from tests.support.nnt_harness import Match, consonant_round, make_config, started


def pool_whz(m: Match) -> None:
    """Steps 1-3 at 2, 4, 6 s: W and Z from Alpha, H and B from Beta, then X / C."""
    m.step(2, Alpha=("submit", "W"), Beta=("submit", "H"))
    m.step(4, Alpha=("submit", "Z"), Beta=("submit", "B"))
    m.step(6, Alpha=("submit", "X"), Beta=("submit", "C"))


def test_the_solution_window_is_60_s_from_the_resolution() -> None:
    m = started()
    pool_whz(m)
    m.step(8, Alpha=("claim_prompt",), Beta=("submit", "D"))
    claim = m.view(8, "spectator")["round"]["prompt_claims"][0]
    assert claim["solution_deadline"] == "2030-01-01T12:01:08.000000Z"


def test_no_solution_in_time_cancels_the_claim_without_points() -> None:
    m = started()
    pool_whz(m)
    m.step(8, Alpha=("claim_prompt",), Beta=("submit", "D"))
    state = m.state(68)
    assert state.phase is Phase.STEP
    assert m.score(68) == {"Alpha": 0, "Beta": 0}
    assert m.outcome(68, m.seq_of("nnt.acted", "Alpha")) == {
        "claim": "prompt",
        "status": "cancelled",
    }
    assert m.refused(68, "Alpha", "solve", tokens=["W", "H", "I", "Z"]).code == (
        "no_solution_window"
    )


def test_a_solution_is_sealed_and_revealed_in_the_same_batch() -> None:
    m = started()
    pool_whz(m)
    m.step(8, Alpha=("claim_prompt",), Beta=("submit", "D"))
    drafts = m.decide(9, "Alpha", "solve", tokens=["W", "H", "I", "Z"])
    assert [(d.type, d.private_to) for d in drafts] == [
        ("nnt.solved", ("Alpha",)),
        ("nnt.solution_revealed", None),
    ]
    assert plain(drafts[1].payload) == {"solutions": {"Alpha": ["W", "H", "I", "Z"]}}


def test_a_correct_solution_opens_a_challenge_window_then_gains_3() -> None:
    m = started()
    pool_whz(m)
    m.step(8, Alpha=("claim_prompt",), Beta=("submit", "D"))
    m.do(9, "Alpha", "solve", tokens=["W", "H", "I", "Z"])
    claim = m.view(9, "Beta")["round"]["prompt_claims"][0]
    assert (claim["verdict"], claim["challenge_deadline"]) == (
        "correct",
        "2030-01-01T12:00:39.000000Z",
    )
    assert m.score(38) == {"Alpha": 0, "Beta": 0}
    assert m.score(39) == {"Alpha": 3, "Beta": 0}


def test_accepting_closes_the_challenge_window_at_once() -> None:
    m = started()
    pool_whz(m)
    m.step(8, Alpha=("claim_prompt",), Beta=("submit", "D"))
    m.do(9, "Alpha", "solve", tokens=["W", "H", "I", "Z"])
    m.do(10, "Beta", "accept")
    assert m.score(10) == {"Alpha": 3, "Beta": 0}
    assert m.state(10).phase is Phase.BETWEEN_ROUNDS


def test_a_solution_that_does_not_meet_the_prompt_gains_the_opponent_1() -> None:
    m = started()
    pool_whz(m)
    m.step(8, Alpha=("claim_prompt",), Beta=("submit", "D"))
    m.do(9, "Alpha", "solve", tokens=["B", "I", "Z"])
    assert m.score(9) == {"Alpha": 0, "Beta": 1}
    assert m.state(9).phase is Phase.STEP


def test_the_claimants_most_recent_object_may_not_be_used() -> None:
    m = started()
    m.step(2, Alpha=("submit", "H"), Beta=("submit", "Z"))
    m.step(4, Alpha=("submit", "W"), Beta=("submit", "B"))
    m.step(6, Alpha=("claim_prompt",), Beta=("submit", "C"))
    m.do(7, "Alpha", "solve", tokens=["W", "H", "I", "Z"])
    assert m.score(7) == {"Alpha": 0, "Beta": 1}


def test_a_removed_object_may_not_be_used() -> None:
    config = make_config(rounds=1)
    config["rounds"] = [consonant_round(category={"kind": "letters", "exclude": ["H"]})]
    m = started(config)
    m.step(2, Alpha=("submit", "W"), Beta=("submit", "Z"))
    m.step(4, Alpha=("submit", "C"), Beta=("submit", "H"))
    m.step(6, Alpha=("claim_invalid",), Beta=("submit", "D"))
    m.step(8, Alpha=("submit", "F"), Beta=("claim_prompt",))
    m.do(9, "Beta", "solve", tokens=["W", "H", "I", "Z"])
    assert m.score(9) == {"Alpha": 2, "Beta": 0}


def test_an_incorrect_challenge_gains_the_claimant_1_more() -> None:
    m = started()
    m.step(2, Alpha=("submit", "W"), Beta=("submit", "H"))
    m.step(4, Alpha=("submit", "Z"), Beta=("submit", "H"))  # Beta's H is a duplicate
    m.step(6, Alpha=("submit", "X"), Beta=("submit", "C"))
    m.step(8, Alpha=("claim_prompt",), Beta=("submit", "D"))
    m.do(9, "Alpha", "solve", tokens=["W", "H", "I", "Z"])  # the earliest H: valid
    m.do(10, "Beta", "challenge")
    assert m.score(10) == {"Alpha": 4, "Beta": 0}
    assert m.outcome(10, m.seq_of("nnt.challenged")) == {
        "verdict": "incorrect",
        "invalid_objects": [],
        "head_start_invalid": False,
        "points": {"Alpha": 4, "Beta": 0},
    }


def test_a_correct_challenge_gains_2_and_removes_the_invalid_object() -> None:
    m = started()
    m.step(2, Alpha=("submit", "H"), Beta=("submit", "Z"))
    m.step(4, Alpha=("submit", "W"), Beta=("submit", "B"))
    m.step(6, Alpha=("claim_invalid",), Beta=("submit", "W"))  # Beta's W: a duplicate
    m.step(8, Alpha=("claim_prompt",), Beta=("submit", "C"))
    # Alpha's own W is its last object, so the token W means Beta's duplicate W.
    m.do(9, "Alpha", "solve", tokens=["W", "H", "I", "Z"])
    m.do(10, "Beta", "challenge")
    assert m.score(10) == {"Alpha": 0, "Beta": 3}
    pool = [
        (o["object"], o["step"], o["removed"]) for o in m.view(10, "spectator")["round"]["pool"]
    ]
    assert ("W", 3, True) in pool
    assert m.state(10).round_results[-1]["reason"] == "claim_points"


def test_a_challenge_removes_an_invalid_object_and_cancels_the_points() -> None:
    config = {
        "rounds": [
            {
                "prompt_text": "a word",
                "category_text": "consonants",
                "category": {"kind": "letters", "letters": "consonants"},
                "prompt": {"kind": "word", "length": 3, "free_letters": ""},
            }
        ]
    }
    m = started(config)
    m.step(2, Alpha=("submit", "C"), Beta=("submit", "A"))  # A never claimed
    m.step(4, Alpha=("submit", "T"), Beta=("submit", "B"))
    m.step(6, Alpha=("submit", "X"), Beta=("submit", "D"))
    m.step(8, Alpha=("claim_prompt",), Beta=("submit", "F"))
    m.do(9, "Alpha", "solve", tokens=["C", "A", "T"])
    m.do(10, "Beta", "challenge")
    assert m.score(10) == {"Alpha": 0, "Beta": 2}
    pool = {o["object"]: o["removed"] for o in m.view(10, "spectator")["round"]["pool"]}
    assert pool["A"] is True
    assert m.state(10).phase is Phase.STEP


def test_a_challenge_needs_a_correct_prompt_claim() -> None:
    m = started()
    assert m.refused(1, "Beta", "challenge").code == "nothing_to_challenge"
    pool_whz(m)
    m.step(8, Alpha=("claim_prompt",), Beta=("submit", "D"))
    assert m.refused(8, "Beta", "challenge").code == "nothing_to_challenge"
    m.do(9, "Alpha", "solve", tokens=["W", "H", "I", "Z"])
    assert m.refused(9, "Alpha", "challenge").code == "nothing_to_challenge"
    assert m.refused(39, "Beta", "challenge").code == "nothing_to_challenge"


def test_two_prompt_claims_in_one_step_are_each_resolved() -> None:
    m = started()
    pool_whz(m)
    m.step(8, Alpha=("claim_prompt",), Beta=("claim_prompt",))
    first = m.do(9, "Alpha", "solve", tokens=["W", "H", "I", "Z"])
    assert [d.type for d in first] == ["nnt.solved"]  # sealed: Beta's window is open
    beta_view = m.view(9, "Beta")["round"]["prompt_claims"]
    assert beta_view[0]["solved"] is True
    assert beta_view[0]["solution"] is None
    assert "WHIZ" not in repr(m.view(9, "Beta"))
    second = m.do(12, "Beta", "solve", tokens=["B", "A", "T"])
    assert second[-1].type == "nnt.solution_revealed"
    assert plain(second[-1].payload) == {
        "solutions": {"Alpha": ["W", "H", "I", "Z"], "Beta": ["B", "A", "T"]}
    }
    assert m.score(12) == {"Alpha": 1, "Beta": 0}  # BAT: 3 letters, incorrect
    m.do(13, "Beta", "accept")
    assert m.score(13) == {"Alpha": 4, "Beta": 0}


def test_a_sealed_solution_is_revealed_when_the_other_window_lapses() -> None:
    m = started()
    pool_whz(m)
    m.step(8, Alpha=("claim_prompt",), Beta=("claim_prompt",))
    m.do(9, "Alpha", "solve", tokens=["W", "H", "I", "Z"])
    claims = m.view(68, "Beta")["round"]["prompt_claims"]
    assert claims[1]["verdict"] == "cancelled"
    # measured from the solution (9 s + 30 s): run out by the reveal at 68 s, so it closes then
    assert m.score(68) == {"Alpha": 3, "Beta": 0}


def test_each_challenge_window_runs_from_its_own_solution_s_time() -> None:
    m = started()
    pool_whz(m)
    m.step(8, Alpha=("claim_prompt",), Beta=("claim_prompt",))
    m.do(9, "Alpha", "solve", tokens=["W", "H", "I", "Z"])
    m.do(20, "Beta", "solve", tokens=["B", "A", "T"])  # reveals both; BAT is incorrect
    claims = m.view(20, "Beta")["round"]["prompt_claims"]
    assert claims[0]["solution"] == ["W", "H", "I", "Z"]
    assert claims[0]["challenge_deadline"] == "2030-01-01T12:00:39.000000Z"  # 9 s + 30 s
    assert m.score(39) == {"Alpha": 4, "Beta": 0}


def test_unusable_tokens_are_an_incorrect_solution() -> None:
    m = started()
    pool_whz(m)
    m.step(8, Alpha=("claim_prompt",), Beta=("submit", "D"))
    m.do(9, "Alpha", "solve", tokens=["W", "H", "I", "Z", "Z"])
    assert m.score(9) == {"Alpha": 0, "Beta": 1}
