"""Bad input (issue 3): each refused with a 4xx-kind error and a stable code; nothing recorded."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from adjudicator.games.no_not_that.commands import COMMAND_MODELS
from adjudicator.kernel.errors import InvalidCommand, NotPermitted, RuleViolation
from tests.support.nnt_harness import Match, make_config, started


@pytest.mark.parametrize("value", [5, None, ["Q"], {"o": "Q"}])
def test_an_object_that_is_not_a_string_is_refused_by_the_schema(value: object) -> None:
    with pytest.raises(ValidationError):
        COMMAND_MODELS["submit"].model_validate(
            {"type": "submit", "seat": "Alpha", "object": value}
        )


@pytest.mark.parametrize("value", ["", "   ", "X" * 33, "Q\x00", "tab\tin"[:3] + "\x07"])
def test_an_object_of_insane_length_or_characters_is_refused(value: str) -> None:
    m = started()
    error = m.refused(1, "Alpha", "submit", object=value)
    assert isinstance(error, InvalidCommand)
    assert error.code == "bad_object"


def test_extra_fields_are_refused_by_the_schema() -> None:
    with pytest.raises(ValidationError):
        COMMAND_MODELS["claim_prompt"].model_validate(
            {"type": "claim_prompt", "seat": "Alpha", "object": "Q"}
        )


def test_a_second_action_in_one_step_is_refused() -> None:
    m = started()
    m.do(1, "Alpha", "submit", object="Q")
    error = m.when(2, "Alpha", "claim_prompt").then_refused("already_acted")
    assert isinstance(error, RuleViolation)


def test_an_action_before_the_round_or_during_claims_is_refused() -> None:
    m = Match()
    assert m.refused(0, "Alpha", "submit", object="Q").code == "no_step_open"
    m.do(0, "host", "start_round", round=1)
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(4, Alpha=("claim_prompt",), Beta=("submit", "B"))
    assert m.refused(5, "Beta", "submit", object="C").code == "no_step_open"


def test_a_seat_may_act_only_for_itself() -> None:
    error = started().when(1, "Alpha", "submit", seat="Beta", object="Q").then_refused("wrong_seat")
    assert isinstance(error, NotPermitted)


def test_an_unknown_seat_is_refused() -> None:
    m = started()
    assert m.refused(1, "host", "submit", seat="Gamma", object="Q").code == "unknown_seat"


def test_the_host_may_act_for_a_seat() -> None:
    m = started()
    drafts = m.do(1, "host", "submit", seat="Alpha", object="Q")
    assert drafts[0].private_to == ("Alpha",)


def test_round_commands_are_the_hosts_and_in_order() -> None:
    m = Match()
    assert m.refused(0, "Alpha", "start_round", round=1).code == "host_only"
    assert m.refused(0, "host", "start_round", round=2).code == "wrong_round"
    m.do(0, "host", "start_round", round=1)
    assert m.refused(1, "host", "start_round", round=2).code == "round_in_progress"


def test_a_solution_token_that_is_no_sane_object_is_refused() -> None:
    m = started()
    m.step(2, Alpha=("submit", "Q"), Beta=("submit", "W"))
    m.step(4, Alpha=("claim_prompt",), Beta=("submit", "B"))
    assert m.refused(5, "Alpha", "solve", tokens=["W", ""]).code == "bad_object"
    assert m.refused(5, "Beta", "solve", tokens=["W"]).code == "no_solution_window"


def test_after_the_match_every_action_is_refused() -> None:
    m = started(make_config(rounds=1))
    m.rule(2, {"type": "end_round", "at": "2030-01-01T12:00:02Z", "reason": "x"})
    assert m.refused(3, "Alpha", "submit", object="Q").code == "match_finished"
    assert m.refused(3, "host", "start_round", round=2).code == "match_finished"
    assert m.refused(3, "Alpha", "use_item", item="life_ring").code == "match_finished"
