"""Items, exchange and the end of the match (spec "Items", "Time", "End of match")."""

from __future__ import annotations

from adjudicator.games.no_not_that import Phase
from adjudicator.kernel.payloads import plain
from tests.support.nnt_harness import Match, consonant_round, make_config, started

ITEMS = {"Alpha": ["extra_safe", "life_ring", "head_start"]}


def with_items() -> Match:
    return started(make_config(items=ITEMS))


def test_seats_start_with_3_nets_and_the_granted_items() -> None:
    view = Match(make_config(items=ITEMS)).view(0, "spectator")
    assert view["seats"]["Alpha"]["safety_nets"] == 3
    assert view["seats"]["Alpha"]["items"] == ["extra_safe", "life_ring", "head_start"]
    assert view["seats"]["Beta"]["items"] == []


def test_extra_safe_gives_3_nets_once() -> None:
    m = with_items()
    drafts = m.do(1, "Alpha", "use_item", item="extra_safe")
    assert [(d.type, plain(d.payload)) for d in drafts] == [
        ("nnt.item_used", {"seat": "Alpha", "item": "extra_safe"})
    ]
    assert m.state(1).seats["Alpha"].nets == 6
    assert m.refused(2, "Alpha", "use_item", item="extra_safe").code == "item_already_used"
    assert m.refused(2, "Beta", "use_item", item="extra_safe").code == "item_not_held"


def test_life_ring_protects_the_next_incorrect_invalid_claim_once() -> None:
    m = with_items()
    m.do(1, "Alpha", "use_item", item="life_ring")
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(4, Alpha=("claim_invalid",), Beta=("submit", "B"))
    assert m.score(4) == {"Alpha": 0, "Beta": 0}
    m.step(6, Alpha=("claim_invalid",), Beta=("submit", "C"))
    assert m.score(6) == {"Alpha": 0, "Beta": 1}


def test_life_ring_protects_the_next_incorrect_prompt_claim_once() -> None:
    m = with_items()
    m.do(1, "Alpha", "use_item", item="life_ring")
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(4, Alpha=("claim_prompt",), Beta=("submit", "B"))
    m.do(5, "Alpha", "solve", tokens=["W"])
    assert m.score(5) == {"Alpha": 0, "Beta": 0}
    m.step(6, Alpha=("claim_prompt",), Beta=("submit", "C"))
    m.do(7, "Alpha", "solve", tokens=["W"])
    assert m.score(7) == {"Alpha": 0, "Beta": 1}


def test_life_ring_does_not_cover_challenges() -> None:
    m = with_items()
    m.do(1, "Alpha", "use_item", item="life_ring")
    m.step(2, Alpha=("submit", "W"), Beta=("submit", "H"))
    m.step(4, Alpha=("submit", "Z"), Beta=("submit", "B"))
    m.step(6, Alpha=("submit", "C"), Beta=("claim_prompt",))
    m.do(7, "Beta", "solve", tokens=["W", "H", "I", "Z"])
    m.do(8, "Alpha", "challenge")
    assert m.score(8) == {"Alpha": 0, "Beta": 4}


def test_head_start_is_a_hidden_first_step_action() -> None:
    m = with_items()
    m.step(1, Alpha=("head_start", "H"), Beta=("submit", "W"))
    beta = m.view(1, "Beta")
    assert beta["round"]["history"][0]["actions"]["Alpha"] == {"action": "head_start"}
    assert "head_start" not in beta["seats"]["Alpha"]
    assert m.view(1, "spectator")["round"]["pool"] == [
        {"object": "W", "step": 1, "seats": ["Beta"], "removed": False}
    ]
    assert m.view(1, "Alpha")["seats"]["Alpha"]["head_start"] == "H"
    assert m.refused(2, "Beta", "claim_invalid").code == "nothing_to_accuse"


def test_head_start_only_in_a_first_step_and_only_if_held() -> None:
    m = with_items()
    assert m.refused(1, "Beta", "head_start", object="H").code == "item_not_held"
    m.step(1, Alpha=("submit", "Q"), Beta=("submit", "W"))
    assert m.refused(2, "Alpha", "head_start", object="H").code == "head_start_first_step_only"
    assert m.refused(2, "Alpha", "use_item", item="head_start").code == (
        "head_start_is_a_step_action"
    )


def test_only_its_owner_may_use_the_head_start_object() -> None:
    m = with_items()
    m.step(1, Alpha=("head_start", "H"), Beta=("submit", "W"))
    m.step(2, Alpha=("submit", "Z"), Beta=("submit", "B"))
    m.step(3, Alpha=("submit", "C"), Beta=("claim_prompt",))
    m.do(4, "Beta", "solve", tokens=["W", "H", "I", "Z"])
    assert m.score(4) == {"Alpha": 1, "Beta": 0}
    m.step(5, Alpha=("claim_prompt",), Beta=("submit", "D"))
    m.do(6, "Alpha", "solve", tokens=["W", "H", "I", "Z"])
    m.do(7, "Beta", "accept")
    assert m.score(7) == {"Alpha": 4, "Beta": 0}


def test_a_head_start_object_is_subject_to_challenge() -> None:
    config = make_config(items=ITEMS)
    config["rounds"] = [consonant_round(category={"kind": "letters", "exclude": ["H"]})] * 2
    m = started(config)
    m.step(1, Alpha=("head_start", "H"), Beta=("submit", "W"))
    m.step(2, Alpha=("submit", "Z"), Beta=("submit", "B"))
    m.step(3, Alpha=("submit", "C"), Beta=("submit", "D"))
    m.step(4, Alpha=("claim_prompt",), Beta=("submit", "F"))
    m.do(5, "Alpha", "solve", tokens=["W", "H", "I", "Z"])
    assert m.view(5, "Beta")["round"]["prompt_claims"][0]["solution"] == ["W", "H", "I", "Z"]
    m.do(6, "Beta", "challenge")
    assert m.score(6) == {"Alpha": 0, "Beta": 2}
    state = m.state(6)
    assert state.seats["Alpha"].head_start_spent is True


def test_exchange_gives_2_nets_per_point_between_rounds_only() -> None:
    m = started(make_config(rounds=2))
    assert m.refused(1, "Alpha", "exchange").code == "exchange_between_rounds_only"
    m.rule(2, {"type": "end_round", "at": "2030-01-01T12:00:02Z", "reason": "test"})
    assert m.state(3).phase is Phase.BETWEEN_ROUNDS
    m.do(3, "Alpha", "exchange", times=2)
    state = m.state(3)
    assert (state.seats["Alpha"].score, state.seats["Alpha"].nets) == (-2, 7)


def test_exchange_is_refused_before_the_first_round_and_after_the_last() -> None:
    m = Match(make_config(rounds=1))
    assert m.refused(0, "Alpha", "exchange").code == "exchange_between_rounds_only"
    m.do(0, "host", "start_round", round=1)
    m.rule(2, {"type": "end_round", "at": "2030-01-01T12:00:02Z", "reason": "test"})
    assert m.state(3).phase is Phase.FINISHED
    assert m.refused(3, "Alpha", "exchange").code == "exchange_between_rounds_only"


def end_round(m: Match, seconds: int) -> None:
    m.rule(seconds, {"type": "end_round", "at": f"2030-01-01T12:00:{seconds:02d}Z", "reason": "x"})


def test_more_points_wins_the_match() -> None:
    m = started(make_config(rounds=1))
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "A"))
    m.step(4, Alpha=("claim_invalid",), Beta=("submit", "W"))
    end_round(m, 5)
    assert m.state(5).result == {
        "winner": "Alpha",
        "reason": "points",
        "scores": {"Alpha": 1, "Beta": 0},
    }


def test_a_tie_goes_to_the_winner_of_the_last_round() -> None:
    m = started(make_config(rounds=2))
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "A"))
    m.step(4, Alpha=("claim_invalid",), Beta=("submit", "W"))
    end_round(m, 5)
    m.do(10, "host", "start_round", round=2)
    m.step(12, Alpha=("submit", "E"), Beta=("submit", "Q"))
    m.step(14, Alpha=("submit", "W"), Beta=("claim_invalid",))
    end_round(m, 15)
    result = m.state(15).result
    assert result is not None
    assert (result["winner"], result["reason"]) == ("Beta", "last_round")


def test_a_full_tie_is_a_draw_pending_a_host_ruling() -> None:
    m = started(make_config(rounds=1))
    end_round(m, 5)
    result = m.state(5).result
    assert result is not None
    assert (result["winner"], result["reason"]) == (None, "draw")
    m.rule(
        6,
        {
            "type": "declare_result",
            "winner": "Beta",
            "at": "2030-01-01T12:00:06Z",
            "reason": "coin toss",
        },
    )
    result = m.state(6).result
    assert result is not None
    assert (result["winner"], result["reason"]) == ("Beta", "ruling")


def test_a_sealed_head_start_shows_no_item_used_until_the_step_resolves() -> None:
    m = with_items()
    m.step(1, Alpha=("head_start", "H"))
    for who in ("Beta", "spectator"):
        seen = m.view(1, who)["seats"]["Alpha"]
        assert seen["items_used"] == []
        assert "head_start" in seen["items"]
        assert seen["acted"] is True
    assert m.view(1, "Alpha")["seats"]["Alpha"]["items_used"] == ["head_start"]
    m.step(2, Beta=("submit", "W"))
    assert m.view(2, "Beta")["seats"]["Alpha"]["items_used"] == ["head_start"]
    assert "head_start" not in m.view(2, "Beta")["seats"]["Alpha"]["items"]
