"""Host judgements name the question they rule on (``target_seq``); ``judge_value`` rules on a
value for the round; judgements recorded before ``target_seq`` existed fold as they always did."""

from __future__ import annotations

from typing import Any

from adjudicator.games.no_not_that.transcript import hint, read_post
from tests.support.nnt_harness import Match, consonant_round, make_config, started


def host_category(**round_changes: Any) -> Match:
    config = make_config(rounds=1, items={"Alpha": ["head_start"]})
    config["rounds"] = [consonant_round(category={"kind": "host"}, **round_changes)]
    return started(config)


def table_claimed() -> Match:
    """Beta's TABLE (step 1) is accused by Alpha in step 2; the host is asked."""
    m = host_category()
    m.step(2, Alpha=("submit", "cat"), Beta=("submit", "table"))
    m.step(4, Alpha=("claim_invalid",), Beta=("submit", "dog"))
    return m


def solution_for_the_host() -> Match:
    """Alpha's solution W H of a host-judged prompt is revealed at 5 s."""
    m = started({"rounds": [consonant_round(prompt={"kind": "host"})]})
    m.step(2, Alpha=("submit", "W"), Beta=("submit", "H"))
    m.step(3, Alpha=("submit", "Z"), Beta=("submit", "C"))
    m.step(4, Alpha=("claim_prompt",), Beta=("submit", "B"))
    m.do(5, "Alpha", "solve", tokens=["W", "H"])
    return m


def head_start_and_pool_challenged() -> Match:
    """A solution uses Beta's 3 and 4 from the pool and Alpha's Head Start 3; Beta challenges:
    three submissions await the host, two of them of the value 3."""
    m = host_category(prompt={"kind": "sum", "target": 10})
    m.step(2, Alpha=("head_start", "3"), Beta=("submit", "4"))
    m.step(4, Alpha=("submit", "1"), Beta=("submit", "3"))
    m.step(6, Alpha=("claim_prompt",), Beta=("submit", "5"))
    m.do(7, "Alpha", "solve", tokens=["3", "3", "4"])  # pool 3, then the Head Start 3, pool 4
    m.do(8, "Beta", "challenge")
    return m


def questions(m: Match, seconds: float, who: str = "host") -> list[tuple[str, int]]:
    waiting = m.view(seconds, who)["awaiting_ruling"]["category_questions"]
    return [(q["object"], q["target_seq"]) for q in waiting]


def test_judging_an_invalid_claim_by_its_seq_settles_that_claim() -> None:
    m = table_claimed()
    claim = m.seq_of("nnt.acted", "Alpha")
    assert questions(m, 4) == [("TABLE", claim)]

    m.when(9, "host", "judge_category", target_seq=claim, fits=False).then(
        events=[("nnt.category_judged", {"target_seq": claim, "object": "TABLE", "fits": False})]
    )

    assert m.score(9) == {"Alpha": 1, "Beta": 0}
    assert m.outcome(9, claim) == {
        "claim": "invalid",
        "object": "TABLE",
        "verdict": "correct",
        "points": {"Alpha": 1, "Beta": 0},
    }
    assert m.view(9, "spectator")["awaiting_ruling"]["category_questions"] == []


def test_the_accused_submission_names_the_same_question() -> None:
    m = table_claimed()
    table = m.seq_of("nnt.acted", "Beta", 0)
    m.do(9, "host", "judge_category", target_seq=table, fits=True)
    assert m.score(9) == {"Alpha": 0, "Beta": 1}


def test_a_settled_question_and_other_seqs_are_refused_naming_what_is_pending() -> None:
    m = table_claimed()
    claim = m.seq_of("nnt.acted", "Alpha")
    for seq in (1, m.seq_of("nnt.revealed"), 999):
        error = m.when(5, "host", "judge_category", target_seq=seq, fits=True).then_refused(
            "nothing_to_judge"
        )
        assert error.message == (f"seq {seq} is not a pending category question (pending: {claim})")
    m.when(5, "host", "judge_prompt", target_seq=claim, meets=True).then_refused("nothing_to_judge")
    m.do(6, "host", "judge_category", target_seq=claim, fits=False)
    m.when(7, "host", "judge_category", target_seq=claim, fits=True).then_refused(
        "nothing_to_judge"
    )


def test_a_judgement_of_the_wrong_kind_says_which_command_it_needs() -> None:
    m = solution_for_the_host()
    claim = m.seq_of("nnt.acted", "Alpha")
    error = m.when(6, "host", "judge_category", target_seq=claim, fits=True).then_refused(
        "nothing_to_judge"
    )
    assert "awaiting judge_prompt" in error.message

    c = table_claimed()
    accused = c.seq_of("nnt.acted", "Alpha")
    error = c.when(5, "host", "judge_prompt", target_seq=accused, meets=True).then_refused(
        "nothing_to_judge"
    )
    assert "awaiting judge_category" in error.message


def test_a_prompt_claim_is_judged_by_its_seq_or_its_solutions() -> None:
    for name in ("claim", "solution"):
        m = solution_for_the_host()
        seq = m.seq_of("nnt.acted", "Alpha") if name == "claim" else m.seq_of("nnt.solved")
        m.when(6, "host", "judge_prompt", target_seq=seq, meets=False).then(
            events=[("nnt.prompt_judged", {"target_seq": seq, "seat": "Alpha", "meets": False})]
        )
        assert m.score(6) == {"Alpha": 0, "Beta": 1}, name


def test_one_verdict_settles_every_claim_about_the_same_submission() -> None:
    m = host_category()
    m.step(2, Alpha=("submit", "dog"), Beta=("submit", "dog"))  # one object in play
    m.step(4, Alpha=("claim_invalid",), Beta=("claim_invalid",))
    alpha, beta = m.seq_of("nnt.acted", "Alpha"), m.seq_of("nnt.acted", "Beta")
    assert questions(m, 4) == [("DOG", alpha), ("DOG", beta)]
    m.do(5, "host", "judge_category", target_seq=beta, fits=False)
    assert m.score(5) == {"Alpha": 1, "Beta": 1}
    assert questions(m, 5) == []


def test_a_challenge_asks_about_each_submission_and_a_verdict_settles_only_its_own() -> None:
    m = head_start_and_pool_challenged()
    pool_three, four = m.seq_of("nnt.acted", "Beta", 1), m.seq_of("nnt.acted", "Beta", 0)
    head = m.seq_of("nnt.acted", "Alpha", 0)
    assert questions(m, 8) == [("3", pool_three), ("4", four), ("3", head)]
    assert m.view(8, "Beta")["awaiting_ruling"] == m.view(8, "host")["awaiting_ruling"]

    m.do(9, "host", "judge_category", target_seq=pool_three, fits=True)
    m.do(10, "host", "judge_category", target_seq=four, fits=True)

    assert questions(m, 10) == [("3", head)]  # the Head Start 3 is a submission of its own
    m.do(11, "host", "judge_category", target_seq=head, fits=False)
    assert m.score(11) == {"Alpha": 0, "Beta": 2}


def test_judge_value_rules_on_every_copy_of_a_value_for_the_round() -> None:
    m = head_start_and_pool_challenged()
    m.when(9, "host", "judge_value", object="3", fits=False).then(
        events=[("nnt.category_judged", {"object": "3", "fits": False})]
    )
    assert questions(m, 9) == [("4", m.seq_of("nnt.acted", "Beta", 0))]
    m.do(10, "host", "judge_value", object="4", fits=True)
    assert m.score(10) == {"Alpha": 0, "Beta": 2}
    outcome = m.outcome(10, m.seq_of("nnt.challenged"))
    assert outcome is not None
    assert (outcome["invalid_objects"], outcome["head_start_invalid"]) == (["3"], True)
    m.when(11, "host", "judge_value", object="3", fits=True).then_refused("nothing_to_judge")


def test_judgements_recorded_before_target_seq_fold_as_before() -> None:
    old = head_start_and_pool_challenged()
    old.record(9, "nnt.category_judged", {"object": "3", "fits": False})  # the whole round
    old.record(10, "nnt.category_judged", {"object": "4", "fits": True})
    assert old.score(10) == {"Alpha": 0, "Beta": 2}

    prompt = solution_for_the_host()
    prompt.record(6, "nnt.prompt_judged", {"seat": "Alpha", "meets": True})
    prompt.do(7, "Beta", "accept")
    assert prompt.score(7) == {"Alpha": 3, "Beta": 0}


def test_a_judgement_whose_value_or_seat_is_not_its_targets_folds_as_void() -> None:
    m = table_claimed()
    claim = m.seq_of("nnt.acted", "Alpha")
    seq = m.record(9, "nnt.category_judged", {"target_seq": claim, "object": "dog", "fits": False})
    assert m.outcome(9, seq) == {
        "void": True,
        "reason": "nothing_to_judge: the target is about 'TABLE', not 'DOG'",
    }
    assert m.view(9, "spectator")["phase"] == "judging"

    p = solution_for_the_host()
    claim = p.seq_of("nnt.acted", "Alpha")
    seq = p.record(6, "nnt.prompt_judged", {"target_seq": claim, "seat": "Beta", "meets": True})
    assert p.outcome(6, seq) == {
        "void": True,
        "reason": "nothing_to_judge: the target is about 'Alpha', not 'Beta'",
    }


def test_a_hosts_chat_verdict_names_the_pending_question_it_answers() -> None:
    m = head_start_and_pool_challenged()
    hinted = hint(m.state(8))
    four = m.seq_of("nnt.acted", "Beta", 0)
    assert read_post("4 fits", author_role="host", seat=None, state_hint=hinted).body == {
        "type": "judge_category",
        "target_seq": four,
        "fits": True,
    }
    # Two submissions of 3 await a verdict: "3 does not fit" is about the value.
    said = read_post("3 does not fit", author_role="host", seat=None, state_hint=hinted)
    assert said.body == {
        "type": "judge_value",
        "object": "3",
        "fits": False,
    }


def test_a_hosts_chat_verdict_on_a_prompt_names_the_seats_claim() -> None:
    m = solution_for_the_host()
    hinted = hint(m.state(5))
    claim = m.seq_of("nnt.acted", "Alpha")
    assert read_post(
        "alpha meets the prompt", author_role="host", seat=None, state_hint=hinted
    ).body == {
        "type": "judge_prompt",
        "target_seq": claim,
        "meets": True,
    }
    # Beta has no prompt claim: the verdict looks like one but names none (a near miss).
    assert read_post("beta fails", author_role="host", seat=None, state_hint=hinted).near
