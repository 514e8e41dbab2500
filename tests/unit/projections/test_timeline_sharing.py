"""``known_timeline`` hands out the checkpoints' own list of points exactly when no outcome on
it is withheld from the viewer, and a redacted copy (the cached list untouched) otherwise."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from adjudicator.kernel.decider import Role, Viewer
from projections.checkpoints import KnownLog
from projections.timetravel import known_timeline


@dataclass
class _Private:
    seq: int
    private_to: tuple[str, ...]


class Folds:
    """What ``known_timeline`` reads of a match's folds: its private events, its facts (for
    the last seq known) and the cached points."""

    def __init__(self, points: list[dict[str, Any]], private: list[_Private]) -> None:
        self.cached, self.private = points, private
        self.facts = [_Private(p["seq"], ()) for p in points]

    def points(self, n: int, point: Any) -> list[dict[str, Any]]:
        return self.cached


def point(seq: int, outcome: Any) -> dict[str, Any]:
    return {"seq": seq, "at": "t", "type": "x", "actor": "a", "outcome": outcome, "summary": {}}


def timeline(folds: Folds, viewer: Viewer) -> tuple[list[dict[str, Any]], bool]:
    log = KnownLog(folds, len(folds.facts))  # type: ignore[arg-type]
    return known_timeline(None, log, viewer)  # type: ignore[arg-type]


ALPHA, BETA = Viewer(Role.SEAT, "alpha"), Viewer(Role.SEAT, "beta")
HOST, SPECTATOR = Viewer(Role.HOST), Viewer(Role.SPECTATOR)


def test_an_outcome_a_viewer_may_not_see_is_withheld_in_a_copy_of_its_own() -> None:
    points = [point(1, None), point(2, {"verdict": "correct"}), point(3, {"n": 3})]
    folds = Folds(points, [_Private(2, ("alpha",))])
    for viewer in (BETA, SPECTATOR):
        seen, shared = timeline(folds, viewer)
        assert not shared and seen is not points
        assert [p["outcome"] for p in seen] == [None, None, {"n": 3}]
    assert points[1]["outcome"] == {"verdict": "correct"}  # the cache's own list untouched
    for viewer in (ALPHA, HOST):
        seen, shared = timeline(folds, viewer)
        assert shared and seen is points


def test_the_cached_list_is_shared_when_the_private_points_have_no_outcome() -> None:
    points = [point(1, None), point(2, None), point(3, {"n": 3})]
    for private in ([], [_Private(2, ("alpha",))], [_Private(9, ("alpha",))]):
        seen, shared = timeline(Folds(points, private), BETA)
        assert shared and seen is points
