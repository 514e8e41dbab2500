"""Issue 5: a host voids an incorrect buzz after the round; the state known before and after the
ruling differ exactly as the diff says; the timeline plots the match over game time."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

from adjudicator.kernel.canonical import iso
from tests.api.conftest import Api
from tests.api.test_zoom_over_http import buzz, supplied_match


def play_and_void(api: Api) -> tuple[Any, Any, int, int]:
    t0 = api.clock.now
    supplied_match(api)
    api.clock.advance(10)
    wrong = api.ok("alpha", buzz("alpha", "A", "a1"))["events"][0]["seq"]
    api.clock.advance(20)
    later = api.ok("alpha", buzz("alpha", "A", "d3"))["events"][0]["seq"]  # locked out
    api.clock.advance(200)  # the round clock ends the round
    assert api.state()["state"]["phase"] == "between_rounds"
    before = api.clock.advance(5)
    api.clock.advance(5)
    ruling = api.rule({"type": "void", "target_seq": wrong, "reason": "grid misprint at a1"})
    assert ruling.status_code == 201, ruling.text
    return t0, before, wrong, later


def test_the_diff_says_exactly_what_the_void_changed(api: Api) -> None:
    t0, before, wrong, later = play_and_void(api)
    at = t0 + timedelta(seconds=35)
    old = api.state(at=at, known_at=before)["state"]
    new = api.state(at=at)["state"]
    assert old["round"]["lockouts"][0]["target"] == "A" and new["round"]["lockouts"] == []
    assert [p["outcome"] for b in old["buzzes"] for p in b["pairs"]] == ["incorrect", "ineligible"]
    assert [p["outcome"] for b in new["buzzes"] for p in b["pairs"]] == ["correct"]
    assert (old["scores"]["alpha"], new["scores"]["alpha"]) == (0, 1)

    params = {"at": at.isoformat(), "before": before.isoformat()}
    answer = api.client.get(f"/matches/{api.match_id}/diff", params=params).json()
    changes = {c["path"]: (c["before"], c["after"]) for c in answer["changes"]}
    assert [r["type"] for r in answer["rulings"]] == ["ruling.void"]
    assert changes["state.scores.alpha"] == (0, 1)
    assert changes[f"state.buzzes[seq={later}].pairs[0].outcome"] == ("ineligible", "correct")
    assert changes[f"state.buzzes[seq={later}].pairs[0].reason"] == ("locked_out", None)
    assert changes[f"state.buzzes[seq={wrong}]"][0]["pairs"][0]["outcome"] == "incorrect"
    assert changes[f"state.buzzes[seq={wrong}]"][1] is None
    assert changes["state.round.lockouts[0]"][0]["target"] == "A"
    assert changes["state.round.lockouts[0]"][1] is None
    assert changes["state.round.found.A"][1]["seat"] == "alpha"
    assert changes["state.round.clock_deadline"] == (
        iso(t0 + timedelta(seconds=120)),
        iso(t0 + timedelta(seconds=150)),
    )
    assert changes[f"voided.{wrong}"][0] is None
    swapped = {
        "at": at.isoformat(),
        "before": api.clock.now.isoformat(),
        "after": before.isoformat(),
    }
    for params in (swapped, {"before_seq": later + 1, "after_seq": later}):
        backwards = api.client.get(f"/matches/{api.match_id}/diff", params=params)
        assert (backwards.status_code, backwards.json()["code"]) == (422, "diff_backwards")
    same = {"at": at.isoformat(), "before": before.isoformat(), "after": before.isoformat()}
    assert api.client.get(f"/matches/{api.match_id}/diff", params=same).json()["changes"] == []
    views = api.state(at=at, known_at=before), api.state(at=at)
    for path, (was, now) in changes.items():
        assert (_lookup(views[0], path), _lookup(views[1], path)) == (was, now)
    assert set(changes) == {
        "state.scores.alpha",
        f"state.buzzes[seq={wrong}]",
        f"state.buzzes[seq={later}].pairs[0].outcome",
        f"state.buzzes[seq={later}].pairs[0].reason",
        "state.round.lockouts[0]",
        "state.round.found.A",
        "state.round.clock_deadline",
        f"voided.{wrong}",
    }


def _lookup(data: Any, path: str) -> Any:
    """Follow a diff path such as ``state.buzzes[seq=5].pairs[0].outcome`` (None if absent)."""
    for part in re.findall(r"[^.\[\]]+|\[[^\]]+\]", path):
        if data is None:
            return None
        if part.startswith("[seq="):
            seq = int(part[5:-1])
            data = next((item for item in data if item["seq"] == seq), None)
        elif part.startswith("["):
            index = int(part[1:-1])
            data = data[index] if index < len(data) else None
        else:
            data = data.get(part)
    return data


def test_the_timeline_plots_scores_over_game_time(api: Api) -> None:
    t0, _, _, later = play_and_void(api)
    points = api.client.get(f"/matches/{api.match_id}/timeline").json()["points"]
    buzzes = [p for p in points if p["type"] == "zoom.buzzed"]
    assert [p["seq"] for p in buzzes] == [later]
    assert buzzes[0]["at"] == iso(t0 + timedelta(seconds=30))
    assert buzzes[0]["summary"]["scores"] == {"alpha": 1, "beta": 0}
    assert buzzes[0]["outcome"]["pairs"][0]["outcome"] == "correct"
    before = api.clock.now - timedelta(seconds=5)
    old = api.client.get(
        f"/matches/{api.match_id}/timeline", params={"known_at": before.isoformat()}
    ).json()["points"]
    assert [p["outcome"]["pairs"][0]["outcome"] for p in old if p["type"] == "zoom.buzzed"] == [
        "incorrect",
        "ineligible",
    ]
