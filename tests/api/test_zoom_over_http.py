"""Zoom end to end over HTTP: a whole generated match, live seats with server time, state at past
instants and before/after a ruling, and two simultaneous correct buzzes."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

from fastapi.testclient import TestClient

from api.cli.demo import ZoomScript
from tests.api.conftest import OPERATOR, Api
from tests.store.support import ManualClock

GRID = ["RGBRGB", "GBRGBR", "BRGYYY", "KKKWRG"]
TARGETS = {"A": ["YYY"], "B": ["KKK"], "C": ["W"], "D": ["RG"]}


def supplied_match(api: Api, **extra: Any) -> None:
    config = {"rounds": 2, "supplied_rounds": {"1": {"grid": GRID, "targets": TARGETS}}}
    api.create(config=config, **extra)
    api.ok("host", {"type": "start_round"})


def buzz(seat: str, target: str, cell: str) -> dict[str, Any]:
    return {"type": "buzz", "seat": seat, "pairs": [{"target": target, "at": cell}]}


def test_a_generated_eleven_round_match_ends_with_the_right_winner(api: Api) -> None:
    start = api.clock.now - timedelta(hours=3)
    script = ZoomScript(api.client, OPERATOR, seed=11, rounds=11, start=start)
    final = script.play()
    assert final["phase"] == "finished"
    assert final["rounds_completed"] == 11
    correct = {"alpha": 0, "beta": 0}
    for b in final["buzzes"]:
        correct[b["seat"]] += sum(p["outcome"] == "correct" for p in b["pairs"])
    assert final["scores"] == correct
    winner = max(correct, key=lambda seat: correct[seat])
    assert correct["alpha"] != correct["beta"]
    assert final["result"] == {"winner": winner, "reason": "points", "scores": correct}
    assert any(b["pairs"][0]["outcome"] == "incorrect" for b in final["buzzes"])
    assert any(r["end_reason"] == "round_clock" for r in final["played"])


def test_state_at_past_instants_and_before_a_ruling(api: Api) -> None:
    t0 = api.clock.now
    supplied_match(api)
    api.clock.advance(10)
    wrong = api.ok("alpha", buzz("alpha", "A", "a1"))
    api.clock.advance(5)
    assert api.ok("alpha", buzz("alpha", "A", "d3"))["outcome"]["pairs"][0]["reason"] == (
        "locked_out"
    )
    api.clock.advance(5)
    api.ok("beta", buzz("beta", "B", "a4"))
    api.clock.advance(5)
    api.ok("alpha", buzz("alpha", "A", "d3"))

    at12 = api.state(at=t0 + timedelta(seconds=12))["state"]
    assert at12["round"]["lockouts"] == [
        {"seat": "alpha", "target": "A", "since": _iso(t0, 10), "until": _iso(t0, 70)}
    ]
    assert at12["round"]["found"] == {}
    assert at12["round"]["clock_deadline"] == _iso(t0, 120)
    at22 = api.state(at=t0 + timedelta(seconds=22))["state"]
    assert at22["round"]["lockouts"] == []
    assert list(at22["round"]["found"]) == ["B"]
    assert at22["scores"] == {"alpha": 0, "beta": 1}
    assert at22["round"]["clock_deadline"] == _iso(t0, 140)
    at30 = api.state(at=t0 + timedelta(seconds=30))["state"]
    assert at30["scores"] == {"alpha": 1, "beta": 1}
    assert at30["round"]["found"]["A"]["when"] == _iso(t0, 25)

    before_ruling = api.clock.advance(10)
    api.clock.advance(1)
    seq = wrong["events"][0]["seq"]
    response = api.rule({"type": "void", "target_seq": seq, "reason": "grid misprint"})
    assert response.status_code == 201, response.text

    t17 = t0 + timedelta(seconds=17)
    then = api.state(at=t17, known_at=before_ruling)["state"]
    now = api.state(at=t17)["state"]
    assert then["scores"] == {"alpha": 0, "beta": 0}
    assert now["scores"] == {"alpha": 1, "beta": 0}
    assert [b["pairs"][0]["outcome"] for b in then["buzzes"]] == ["incorrect", "ineligible"]
    assert [b["pairs"][0]["outcome"] for b in now["buzzes"]] == ["correct"]
    assert str(seq) in api.state()["voided"]


def _iso(t0: Any, seconds: float) -> str:
    from adjudicator.kernel.canonical import iso

    return iso(t0 + timedelta(seconds=seconds))


def test_two_simultaneous_correct_buzzes_give_exactly_one_point(
    app: Any, clock: ManualClock
) -> None:
    with TestClient(app) as first, TestClient(app) as second:
        api = Api(first, clock)
        supplied_match(api)
        clock.advance(3)
        barrier = threading.Barrier(2)
        answers: dict[str, Any] = {}

        def press(client: TestClient, seat: str) -> None:
            barrier.wait()
            headers = Api.auth(api.tokens["seats"][seat])
            url = f"/matches/{api.match_id}/commands"
            answers[seat] = client.post(url, json=buzz(seat, "A", "d3"), headers=headers)

        threads = [
            threading.Thread(target=press, args=(client, seat))
            for client, seat in ((first, "alpha"), (second, "beta"))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert {a.status_code for a in answers.values()} == {201}
        verdicts = sorted(a.json()["outcome"]["pairs"][0]["outcome"] for a in answers.values())
        assert verdicts == ["correct", "ineligible"]
        state = api.state()["state"]
        assert sum(state["scores"].values()) == 1
        assert len(state["buzzes"]) == 2


def test_a_retried_buzz_gets_the_first_answer_and_records_nothing_new(api: Api) -> None:
    supplied_match(api)
    first = api.ok("alpha", buzz("alpha", "A", "d3"), key="buzz-1")
    api.clock.advance(5)
    again = api.ok("alpha", buzz("alpha", "A", "d3"), key="buzz-1")
    assert again["replayed"] is True
    assert again["events"] == first["events"]
    assert again["outcome"] == first["outcome"]
    assert api.last_seq() == first["events"][0]["seq"]
    other = api.command("alpha", buzz("alpha", "B", "a4"), key="buzz-1")
    assert other.status_code == 422
    assert other.json()["code"] == "idempotency_key_reused"


def test_a_host_enters_a_match_played_elsewhere_with_its_game_times(api: Api) -> None:
    api.create(config={"rounds": 1, "supplied_rounds": {"1": {"grid": GRID, "targets": TARGETS}}})
    posted = api.clock.now - timedelta(minutes=30)
    api.ok("host", {"type": "start_round", "occurred_at": posted.isoformat()})
    entered = posted + timedelta(seconds=42)
    done = api.ok("host", {**buzz("beta", "C", "d4"), "occurred_at": entered.isoformat()})
    assert done["events"][0]["occurred_at"] == _iso(entered, 0)
    assert done["events"][0]["recorded_at"] == _iso(api.clock.now, 0)
    earlier = (entered - timedelta(seconds=1)).isoformat()
    backwards = api.command("host", {**buzz("beta", "A", "d3"), "occurred_at": earlier})
    assert backwards.status_code == 409
    assert backwards.json()["code"] == "game_time_backwards"
    future = (api.clock.now + timedelta(seconds=1)).isoformat()
    ahead = api.command("host", {**buzz("beta", "A", "d3"), "occurred_at": future})
    assert (ahead.status_code, ahead.json()["code"]) == (422, "game_time_in_future")
    from_seat = api.command("beta", {**buzz("beta", "A", "d3"), "occurred_at": entered.isoformat()})
    assert from_seat.status_code == 403
    assert from_seat.json()["code"] == "game_time_host_only"
