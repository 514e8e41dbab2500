"""Closing through the store: racing closing appends on one store, from threads."""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial

from events import EventStore, MatchClosed, NewEvent, VersionConflict
from tests.store.support import GAME_TIME, event, new_match

ROUNDS = 30
CLOSED = NewEvent("match.closed", "host", GAME_TIME, {"result": None})


def until_settled(store: EventStore, match_id: str, new: NewEvent, close: bool) -> str:
    """Append after the current tail, re-reading after each conflict, as the service does;
    ``"recorded"`` or the refusal's code."""
    while True:
        try:
            store.append(match_id, store.last_seq(match_id), [new], close=close)
            return "recorded"
        except VersionConflict:
            continue
        except MatchClosed as error:
            return error.code


def race(actions: list[Callable[[], str]]) -> list[str]:
    barrier, answers = threading.Barrier(len(actions)), [""] * len(actions)

    def run(index: int) -> None:
        barrier.wait()
        answers[index] = actions[index]()

    threads = [threading.Thread(target=run, args=(index,)) for index in range(len(actions))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_of_racing_closes_exactly_one_is_recorded(store: EventStore) -> None:
    for _ in range(ROUNDS):
        match_id = new_match(store)
        store.append(match_id, 0, [event(1)])

        answers = race([partial(until_settled, store, match_id, CLOSED, True)] * 3)

        assert sorted(answers) == ["match_closed", "match_closed", "recorded"]
        assert [e.type for e in store.read(match_id)] == ["zoom.buzzed", "match.closed"]


def test_an_append_racing_a_close_lands_before_it_or_is_refused(store: EventStore) -> None:
    for _ in range(ROUNDS):
        match_id = new_match(store)

        closed, buzzed = race(
            [
                partial(until_settled, store, match_id, CLOSED, True),
                partial(until_settled, store, match_id, event(1), False),
            ]
        )

        types = [e.type for e in store.read(match_id)]
        assert closed == "recorded"
        assert types[-1] == "match.closed"
        assert types == (["zoom.buzzed", "match.closed"] if buzzed == "recorded" else types[-1:])
        match = store.get_match(match_id)
        assert match is not None
        assert (match.status, match.last_seq) == ("closed", len(types))
        assert buzzed in ("recorded", "match_closed")
