"""Steps: sealed actions, the reveal, resolution and the next step (spec "Steps", "Time")."""

from __future__ import annotations

from typing import Any

from adjudicator.games.no_not_that import Phase
from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import Draft
from tests.support.nnt_harness import (
    Match,
    at,
    by,
    command,
    consonant_round,
    given_match,
    make_config,
    viewer,
)


def started(config: dict[str, Any] | None = None) -> Match:
    m = Match(config)
    m.do(0, "host", "start_round", round=1)
    return m


def test_the_host_starts_a_round_and_its_first_step_opens() -> None:
    table = (
        given_match()
        .when(command("host", "start_round", round=1), t=0)
        .then(events=[("nnt.round_started", {"round": 1})])
    )
    view = table.game.view(table.state(0), viewer("spectator"))
    assert view["phase"] == "step"
    assert view["round"]["step"] == 1
    assert view["round"]["prompt"].startswith("a 4-letter word")


def test_a_first_action_is_private_to_its_seat() -> None:
    acted = {"seat": "Alpha", "round": 1, "step": 1, "action": "submit", "object": "Q"}
    given_match(by("host", "start_round", round=1, t=0)).when(
        command("Alpha", "submit", object="Q"), seat="Alpha", t=1
    ).then(events=[Draft("nnt.acted", acted, private_to=("Alpha",))])


def test_the_opponent_sees_only_that_the_seat_has_acted() -> None:
    m = started()
    m.do(1, "Alpha", "submit", object="Q")
    beta = m.view(1, "Beta")
    assert beta["seats"]["Alpha"]["acted"] is True
    assert "action" not in beta["seats"]["Alpha"]
    assert "Q" not in repr(beta)
    assert m.view(1, "Alpha")["seats"]["Alpha"]["action"] == {"action": "submit", "object": "Q"}


def test_the_second_action_also_records_the_public_reveal() -> None:
    m = started()
    m.do(1, "Alpha", "submit", object="Q")
    acted = {"seat": "Beta", "round": 1, "step": 1, "action": "submit", "object": "W"}
    actions = {
        "Alpha": {"action": "submit", "object": "Q"},
        "Beta": {"action": "submit", "object": "W"},
    }
    m.when(2, "Beta", "submit", object="W").then(
        events=[
            Draft("nnt.acted", acted, private_to=("Beta",)),
            Draft("nnt.revealed", {"round": 1, "step": 1, "actions": actions}),
        ]
    )


def test_without_claims_both_objects_enter_play_and_the_next_step_opens_then() -> None:
    m = started()
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    view = m.view(2, "spectator")
    assert [o["object"] for o in view["round"]["pool"]] == ["Q", "W"]
    assert view["round"]["step"] == 2
    assert view["round"]["step_opened_at"] == iso(at(2))
    assert view["seats"]["Alpha"]["deadline"] == iso(at(2 + 3 + 30))


def test_the_same_object_from_both_seats_is_one_object_and_not_a_duplicate() -> None:
    m = started()
    m.step(2, Alpha=("submit", "z"), Beta=("submit", " Z "))
    pool = m.view(2, "spectator")["round"]["pool"]
    assert pool == [{"object": "Z", "step": 1, "seats": ["Alpha", "Beta"], "removed": False}]
    m.step(4, Alpha=("claim_invalid",), Beta=("submit", "B"))
    assert m.score(4) == {"Alpha": 0, "Beta": 1}


def test_an_object_held_back_by_a_claim_enters_play_after_the_claims() -> None:
    m = started()
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(4, Alpha=("claim_invalid",), Beta=("submit", "H"))
    view = m.view(4, "spectator")
    assert [o["object"] for o in view["round"]["pool"]] == ["Q", "W", "H"]


def test_an_object_held_back_during_a_prompt_claim_is_not_usable_in_its_solution() -> None:
    m = started()
    m.step(2, Alpha=("submit", "W"), Beta=("submit", "Z"))
    m.step(4, Alpha=("submit", "B"), Beta=("submit", "C"))
    m.step(6, Alpha=("claim_prompt",), Beta=("submit", "H"))
    m.do(8, "Alpha", "solve", tokens=["W", "H", "I", "Z"])
    assert m.score(8) == {"Alpha": 0, "Beta": 1}
    assert "H" in [o["object"] for o in m.view(8, "spectator")["round"]["pool"]]


def test_step_time_is_30_s_in_rounds_1_to_8_and_60_s_after() -> None:
    m = Match(make_config(rounds=9))
    state = m.state(0)
    assert [state.config.step_seconds(n) for n in (1, 8, 9)] == [30.0, 30.0, 60.0]


def test_step_time_and_countdown_are_configurable() -> None:
    config = make_config(rounds=1, countdown_seconds=0)
    config["rounds"] = [consonant_round(step_seconds=45)]
    m = started(config)
    assert m.view(0, "spectator")["seats"]["Beta"]["deadline"] == iso(at(45))


def test_a_step_deadline_does_not_run_during_a_solution_window() -> None:
    m = started()
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(4, Alpha=("claim_prompt",), Beta=("submit", "H"))
    state = m.state(60)
    assert state.phase is Phase.CLAIMS
    assert all(p.nets == 3 for p in state.seats.values())
    # The window closes at 64 s; the next step opens then.
    assert m.view(64, "spectator")["round"]["step_opened_at"] == iso(at(64))


def bzzt_match() -> Match:
    config = make_config(rounds=1)
    config["rounds"] = [consonant_round(prompt={"kind": "word", "length": 4})]
    return started(config)


def test_one_object_submitted_by_both_seats_is_usable_once_in_a_solution() -> None:
    m = bzzt_match()
    m.step(2, Alpha=("submit", "B"), Beta=("submit", "T"))
    m.step(4, Alpha=("submit", "Z"), Beta=("submit", "Z"))
    m.step(6, Alpha=("submit", "C"), Beta=("submit", "D"))
    m.step(8, Alpha=("claim_prompt",), Beta=("submit", "F"))
    m.do(9, "Alpha", "solve", tokens=["B", "Z", "Z", "T"])  # BZZT needs two Zs: only one
    assert m.score(9) == {"Alpha": 0, "Beta": 1}


def test_two_submissions_of_a_value_are_two_objects() -> None:
    m = bzzt_match()
    m.step(2, Alpha=("submit", "B"), Beta=("submit", "T"))
    m.step(4, Alpha=("submit", "Z"), Beta=("submit", "K"))
    m.step(6, Alpha=("submit", "C"), Beta=("submit", "Z"))
    m.step(8, Alpha=("claim_prompt",), Beta=("submit", "F"))
    m.do(9, "Alpha", "solve", tokens=["B", "Z", "Z", "T"])
    assert m.view(9, "Beta")["round"]["prompt_claims"][0]["verdict"] == "correct"


def test_the_view_lists_plainly_what_is_in_play_and_what_was_removed() -> None:
    m = started()
    m.step(1, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(2, Alpha=("submit", "A"), Beta=("submit", "Z"))
    m.step(3, Alpha=("submit", "R"), Beta=("claim_invalid",))
    shown = m.view(3, "spectator")["round"]
    assert shown["in_play"] == ["Q", "W", "Z", "R"]
    assert shown["removed"] == ["A"]
