"""Host judgements and rulings: pending questions, judge commands, amend, void, adjust."""

from __future__ import annotations

import itertools

from adjudicator.games.no_not_that import Phase
from adjudicator.kernel.payloads import plain
from tests.support.nnt_harness import Match, consonant_round, make_config, started


def host_category_match() -> Match:
    config = make_config(rounds=1)
    config["rounds"] = [
        consonant_round(category_text="animals", category={"kind": "host"}),
    ]
    return started(config)


def host_prompt_match() -> Match:
    config = make_config(rounds=1)
    config["rounds"] = [consonant_round(prompt_text="something funny", prompt={"kind": "host"})]
    return started(config)


def test_an_invalid_claim_in_a_host_category_awaits_a_ruling() -> None:
    m = host_category_match()
    m.step(2, Alpha=("submit", "cat"), Beta=("submit", "table"))
    m.step(4, Alpha=("claim_invalid",), Beta=("submit", "dog"))
    view = m.view(4, "spectator")
    claim = m.seq_of("nnt.acted", "Alpha")
    assert view["phase"] == "judging"
    assert view["awaiting_ruling"]["category"] == ["TABLE"]
    assert view["awaiting_ruling"]["category_questions"] == [
        {"target_seq": claim, "object": "TABLE", "about": "invalid_claim", "waiting_seq": claim}
    ]
    assert view["round"]["invalid_claims"] == [
        {"seq": claim, "seat": "Alpha", "object": "TABLE", "verdict": None}
    ]
    # No step deadline runs while the host is asked.
    assert m.state(200).seats["Alpha"].nets == 3


def test_the_hosts_judgement_settles_the_claim() -> None:
    m = host_category_match()
    m.step(2, Alpha=("submit", "cat"), Beta=("submit", "table"))
    m.step(4, Alpha=("claim_invalid",), Beta=("submit", "dog"))
    claim = m.seq_of("nnt.acted", "Alpha")
    drafts = m.do(9, "host", "judge_category", target_seq=claim, fits=False)
    assert [(d.type, plain(d.payload)) for d in drafts] == [
        ("nnt.category_judged", {"target_seq": claim, "object": "TABLE", "fits": False})
    ]
    assert m.score(9) == {"Alpha": 1, "Beta": 0}
    view = m.view(9, "spectator")
    assert view["phase"] == "step"
    assert view["round"]["step_opened_at"] == "2030-01-01T12:00:09.000000Z"
    assert "DOG" in [o["object"] for o in view["round"]["pool"]]


def test_duplicates_are_found_without_the_host() -> None:
    m = host_category_match()
    m.step(2, Alpha=("submit", "cat"), Beta=("submit", "dog"))
    m.step(4, Alpha=("submit", "cow"), Beta=("submit", "cat"))
    m.step(6, Alpha=("claim_invalid",), Beta=("submit", "pig"))
    assert m.score(6) == {"Alpha": 1, "Beta": 0}


def test_only_the_host_judges_and_only_a_pending_question() -> None:
    m = host_category_match()
    assert m.refused(1, "host", "judge_category", target_seq=1, fits=True).code == (
        "nothing_to_judge"
    )
    assert m.refused(1, "host", "judge_value", object="cat", fits=True).code == ("nothing_to_judge")
    assert m.refused(1, "Alpha", "judge_category", target_seq=1, fits=True).code == "host_only"
    assert m.refused(1, "Alpha", "judge_value", object="cat", fits=True).code == "host_only"
    assert m.refused(1, "host", "judge_prompt", target_seq=1, meets=True).code == (
        "nothing_to_judge"
    )


def test_a_challenge_in_a_host_category_asks_about_the_solution_objects() -> None:
    config = make_config(rounds=1)
    config["rounds"] = [
        consonant_round(category={"kind": "host"}, prompt={"kind": "sum", "target": 10})
    ]
    m = started(config)
    m.step(2, Alpha=("submit", "3"), Beta=("submit", "7"))
    m.step(4, Alpha=("submit", "1"), Beta=("claim_prompt",))
    m.do(5, "Beta", "solve", tokens=["3", "7"])  # 7 is Beta's last object: unusable
    assert m.score(5) == {"Alpha": 1, "Beta": 0}
    m.step(6, Alpha=("submit", "2"), Beta=("submit", "9"))
    m.step(8, Alpha=("claim_prompt",), Beta=("submit", "4"))
    m.do(9, "Alpha", "solve", tokens=["3", "7"])
    m.do(10, "Beta", "challenge")
    waiting = m.view(10, "spectator")["awaiting_ruling"]
    assert waiting["category"] == ["3", "7"]
    targets = {q["object"]: q["target_seq"] for q in waiting["category_questions"]}
    assert targets == {
        "3": m.seq_of("nnt.acted", "Alpha", 0),
        "7": m.seq_of("nnt.acted", "Beta", 0),
    }
    m.do(11, "host", "judge_category", target_seq=targets["3"], fits=True)
    m.do(12, "host", "judge_category", target_seq=targets["7"], fits=False)
    assert m.score(12) == {"Alpha": 1, "Beta": 2}


def test_a_host_prompt_awaits_the_hosts_verdict() -> None:
    m = host_prompt_match()
    m.step(2, Alpha=("submit", "W"), Beta=("submit", "H"))
    m.step(3, Alpha=("submit", "Z"), Beta=("submit", "C"))
    m.step(4, Alpha=("claim_prompt",), Beta=("submit", "B"))
    m.do(5, "Alpha", "solve", tokens=["W", "H"])
    waiting = m.view(5, "spectator")["awaiting_ruling"]
    claim = m.seq_of("nnt.acted", "Alpha")
    assert waiting["prompt"] == ["Alpha"]
    assert waiting["prompt_questions"] == [
        {"target_seq": claim, "seat": "Alpha", "solution_seq": m.seq_of("nnt.solved")}
    ]
    m.do(20, "host", "judge_prompt", target_seq=claim, meets=True)
    claim = m.view(20, "Beta")["round"]["prompt_claims"][0]
    assert (claim["verdict"], claim["challenge_deadline"]) == (
        "correct",
        "2030-01-01T12:00:50.000000Z",
    )
    assert m.score(50) == {"Alpha": 3, "Beta": 0}


def test_amend_overrides_an_automatic_invalid_claim_verdict() -> None:
    m = started()
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(4, Alpha=("claim_invalid",), Beta=("submit", "B"))
    assert m.score(4) == {"Alpha": 0, "Beta": 1}
    claim = m.seq_of("nnt.acted", "Alpha")
    m.rule(
        30,
        {
            "type": "amend",
            "target_seq": claim,
            "outcome": {"verdict": "correct"},
            "reason": "W was posted as a vowel sign",
        },
    )
    assert m.score(30) == {"Alpha": 1, "Beta": 0}
    assert m.view(30, "spectator")["round"]["pool"][1]["removed"] is True


def test_amend_overrides_a_solution_verdict() -> None:
    m = started()
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(4, Alpha=("claim_prompt",), Beta=("submit", "B"))
    m.do(5, "Alpha", "solve", tokens=["Q", "U", "I", "W"])
    assert m.score(5) == {"Alpha": 0, "Beta": 1}
    solved = m.seq_of("nnt.solved")
    m.rule(
        50,
        {
            "type": "amend",
            "target_seq": solved,
            "outcome": {"verdict": "correct"},
            "reason": "house rules",
        },
    )
    assert m.score(50) == {"Alpha": 3, "Beta": 0}


def test_a_voided_action_reopens_the_step_for_its_seat() -> None:
    m = started()
    m.do(1, "Alpha", "submit", object="Q")
    m.do(2, "Beta", "submit", object="W")
    m.rule(
        3,
        {
            "type": "void",
            "target_seq": m.seq_of("nnt.acted", "Alpha"),
            "reason": "Alpha disconnected; the post was garbled",
        },
    )
    state = m.state(3)
    assert state.phase is Phase.STEP
    assert state.seats["Alpha"].action is None
    assert state.seats["Beta"].action is not None
    drafts = m.do(4, "Alpha", "submit", object="Z")
    assert [d.type for d in drafts] == ["nnt.acted", "nnt.revealed"]
    assert [o["object"] for o in m.view(4, "spectator")["round"]["pool"]] == ["Z", "W"]


def test_events_a_ruling_makes_impossible_fold_as_void_with_a_reason() -> None:
    m = started()
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.rule(3, {"type": "void", "target_seq": 1, "reason": "the round was posted by mistake"})
    state = m.state(3)
    assert state.phase is Phase.WAITING
    assert m.outcome(3, 2) == {
        "void": True,
        "reason": "no_step_open: no step is open (phase waiting)",
    }


def test_adjust_score_counts_for_the_round_but_not_its_claim_points() -> None:
    m = started()
    m.rule(
        5,
        {
            "type": "adjust_score",
            "seat": "Beta",
            "delta": 5,
            "at": "2030-01-01T12:00:05Z",
            "reason": "penalty to Alpha",
        },
    )
    state = m.state(5)
    assert (state.seats["Beta"].score, state.seats["Beta"].gained) == (5, 5)
    assert state.seats["Beta"].claim_points == 0
    assert state.phase is Phase.STEP


def test_end_round_ruling_outside_a_round_is_void() -> None:
    m = Match()
    seq = m.rule(5, {"type": "end_round", "at": "2030-01-01T12:00:05Z", "reason": "oops"})
    reason = "no_round_in_progress: no round is in progress"
    assert m.outcome(5, seq) == {"void": True, "reason": reason}


def test_an_amendment_whose_verdict_is_not_a_verdict_has_no_effect_and_raises_nothing() -> None:
    """An amend's outcome is read by the game: a verdict that is a list, an object or a number
    is no verdict (as an unknown word is), at every later time the fold is asked about, also
    when the amended solution is judged by a deadline passing (``advance``), not by an
    event."""
    for odd, beta_solves in itertools.product((["correct"], {"verdict": "x"}, 1), (True, False)):
        m = started()
        m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
        m.step(4, Alpha=("claim_prompt",), Beta=("claim_prompt",))
        m.do(5, "Alpha", "solve", tokens=["Q", "U", "I", "W"])
        if beta_solves:
            m.do(6, "Beta", "solve", tokens=["Q", "U", "I", "W"])
        plain_scores = [m.score(t) for t in (6, 30, 60, 120, 600)]
        solved = m.seq_of("nnt.solved")
        m.rule(
            7, {"type": "amend", "target_seq": solved, "outcome": {"verdict": odd}, "reason": "x"}
        )
        assert [m.score(t) for t in (6, 30, 60, 120, 600)] == plain_scores
