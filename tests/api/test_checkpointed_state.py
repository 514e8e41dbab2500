"""Issue 9: the state at a past (at, known) through the route, answered from checkpoints of the
fold (taken every 2 facts here, before and after a ruling that voids an early buzz), equals
the full fold of the log as known then."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from typing import Any

from adjudicator.kernel.decider import Role, Viewer
from projections.checkpoints import Checkpoints
from projections.views import Known, snapshot, state_view
from tests.api.conftest import Api
from tests.api.test_zoom_over_http import buzz, supplied_match


def full_fold(app: Any, match_id: str, at: datetime, known_at: datetime | None) -> Any:
    service = app.state.service
    match = service.match(match_id)
    game = service.game(match.game)
    events = service.store.read(match_id, recorded_by=known_at)
    snap = snapshot(game, match, events, at, Known(known_at))
    view = state_view(game, snap, Viewer(Role.HOST))
    return json.loads(json.dumps({k: view[k] for k in ("state", "voided", "last_seq")}))


def test_a_past_known_state_through_the_route_equals_the_full_fold(app: Any, api: Api) -> None:
    service = app.state.service
    service.checkpoints = Checkpoints(service.store, every=2)
    t0 = api.clock.now
    supplied_match(api)
    seqs = []
    for i, cell in enumerate(["a1", "b2", "c3", "d3", "a4", "b4", "c1", "d1"]):
        api.clock.advance(3)
        seqs.append(api.ok(("alpha", "beta")[i % 2], buzz(("alpha", "beta")[i % 2], "A", cell)))
    moments = [t0 + timedelta(seconds=s) for s in (1, 7, 13, 20, 40)]
    for at in moments:  # warm the checkpoints as known now, before the ruling
        api.state(at=at)
    before = api.clock.advance(5)
    api.clock.advance(5)
    first = seqs[0]["events"][0]["seq"]
    ruling = api.rule({"type": "void", "target_seq": first, "reason": "misprint"})
    assert ruling.status_code == 201, ruling.text
    for at in moments:
        for known_at in (before, None):
            got = api.state(at=at, known_at=known_at)
            want = full_fold(app, api.match_id, at, known_at)
            assert {k: got[k] for k in want} == want
    mid = moments[2]
    assert api.state(at=mid, known_at=before)["voided"] == {}
    assert api.state(at=mid)["voided"] != {}


def test_the_cache_drops_the_least_recently_asked_match_beyond_its_event_bound(
    app: Any, api: Api
) -> None:
    service = app.state.service
    made = []
    for _ in range(3):
        supplied_match(api)
        made.append(service.match(api.match_id))
    held = len(service.store.read(made[0].match_id))  # each match holds as many events
    service.checkpoints = cache = Checkpoints(service.store, max_events=2 * held)
    game = service.game("zoom")
    for match in made:
        assert cache.known(game, match, Known()).last_seq == held
    assert [m.match_id in cache for m in made] == [False, True, True]
    cache.known(game, made[1], Known())  # asked again: now the most recent
    cache.known(game, made[0], Known())
    assert [m.match_id in cache for m in made] == [True, True, False]
