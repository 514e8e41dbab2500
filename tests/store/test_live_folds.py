"""The live folds' memory bound (``projections.live.LiveFolds``): at most ``max_events`` events
folded in all, least recently used dropped first, the most recently used kept however long;
a dropped fold is folded again, equal, when next asked for."""

from __future__ import annotations

from adjudicator.games.zoom.game import ZoomGame
from adjudicator.kernel.payloads import plain
from events import EventStore, MatchRecord, NewEvent
from infra.bench.zoom_bench import long_match
from projections.live import LiveFolds
from tests.store.support import new_match


def got(store: EventStore, match_id: str) -> MatchRecord:
    found = store.get_match(match_id)
    assert found is not None
    return found


def matches(store: EventStore, sizes: list[int]) -> list[str]:
    """Zoom matches of a round started and ``size - 1`` wrong buzzes each."""
    made = []
    for size in sizes:
        match_id = new_match(store)
        _, facts = long_match(size)
        store.append(
            match_id, 0, [NewEvent(f.type, f.actor, f.at, plain(f.payload)) for f in facts]
        )
        made.append(match_id)
    return made


def test_the_folds_held_never_fold_more_than_max_events(store: EventStore) -> None:
    game = ZoomGame()
    ids = matches(store, [4, 4, 4, 9])
    live = LiveFolds(store, max_events=10)
    for match_id in ids[:2]:
        live.current(game, got(store, match_id))
    assert live.held == (2, 8)
    live.current(game, got(store, ids[2]))  # 12 > 10: the least recently used goes
    assert live.held == (2, 8)
    assert live.peek(ids[0]) is None and live.peek(ids[1]) is not None
    live.current(game, got(store, ids[1]))  # now the most recently used
    live.current(game, got(store, ids[3]))  # 9: only it stays
    assert live.held == (1, 9)
    assert live.peek(ids[3]) is not None


def test_a_fold_longer_than_the_bound_is_still_held_alone(store: EventStore) -> None:
    game = ZoomGame()
    (big,) = matches(store, [12])
    live = LiveFolds(store, max_events=10)
    first = live.current(game, got(store, big))
    assert live.held == (1, 12)
    assert live.peek(big) is not None and live.peek(big).running is first  # type: ignore[union-attr]


def test_a_dropped_fold_is_folded_again_equal(store: EventStore) -> None:
    game = ZoomGame()
    ids = matches(store, [5, 5])
    live = LiveFolds(store, max_events=6)
    before = live.current(game, got(store, ids[0]))
    live.current(game, got(store, ids[1]))
    assert live.peek(ids[0]) is None
    again = live.current(game, got(store, ids[0]))
    assert again is not before and again == before
