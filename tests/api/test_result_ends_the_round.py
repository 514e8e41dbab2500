"""A declared result ends the round in progress (issue 26): after ``declare_result`` (and a
close) no game still shows a round in progress or a clock running toward a deadline."""

from __future__ import annotations

from typing import Any

from tests.api.conftest import Api
from tests.api.test_nnt_over_http import EXAMPLE
from tests.api.test_zoom_over_http import supplied_match


def declared_then_closed(api: Api) -> tuple[str, dict[str, Any]]:
    api.clock.advance(2)
    ruled = api.rule({"type": "declare_result", "winner": "alpha", "reason": "beta forfeits"})
    assert ruled.status_code == 201, ruled.text
    at = ruled.json()["events"][0]["occurred_at"]
    api.clock.advance(2)
    closed = api.client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
    assert closed.status_code == 201, closed.text
    api.clock.advance(600)  # well past every deadline the round had
    state: dict[str, Any] = api.state()["state"]
    return at, state


def test_a_result_ends_a_zoom_round_in_progress(api: Api) -> None:
    supplied_match(api)
    if api.state()["state"]["phase"] != "in_round":
        api.ok("host", {"type": "start_round"})
    at, state = declared_then_closed(api)
    assert state["phase"] == "finished"
    assert state["round"]["in_progress"] is False
    assert (state["round"]["ended_at"], state["round"]["end_reason"]) == (at, "result")
    assert state["result"]["winner"] == "alpha"
    assert state["played"][-1]["end_reason"] == "result"


def test_a_result_ends_a_no_not_that_round_and_stops_its_step_clock(api: Api) -> None:
    api.create(game="no_not_that", seats=["alpha", "beta"], config={"rounds": [EXAMPLE] * 2})
    api.ok("host", {"type": "start_round", "round": 1})
    at, state = declared_then_closed(api)
    assert state["phase"] == "finished"
    assert [seat["deadline"] for seat in state["seats"].values()] == [None, None]
    assert state["round_results"][-1]["ended_at"] == at
    assert state["round_results"][-1]["reason"] == "result"
    assert state["result"]["winner"] == "alpha"


def test_a_result_leaves_no_zombego_side_to_move(api: Api) -> None:
    api.create(game="zombego", seats=["alpha", "beta"], config={})
    _, state = declared_then_closed(api)
    assert state["to_move"] is None
    assert state["result"]["winner"] == "alpha"
