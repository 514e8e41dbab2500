"""A host-entered command never goes back in game time, in every game.

No, Not That!'s events are ``nnt.*`` while its game is ``no_not_that``: the fold once knew
"a play" by the game's name as a prefix, so its entered commands could go back in time (seq 4
at +10 s, then seq 5 at +5 s: 201, where 409 ``game_time_backwards`` is promised).
"""

from __future__ import annotations

from datetime import timedelta

from tests.api.conftest import Api
from tests.support.nnt_harness import make_config


def test_a_no_not_that_command_entered_before_the_last_one_is_refused(api: Api) -> None:
    api.create(game="no_not_that", config=make_config(rounds=2))
    start = api.clock.now - timedelta(minutes=10)
    at = (start + timedelta(seconds=10)).isoformat()
    api.ok("host", {"type": "start_round", "round": 1, "occurred_at": at})
    seq = api.last_seq()
    earlier = (start + timedelta(seconds=5)).isoformat()

    refused = api.command("host", {"type": "pass", "seat": "alpha", "occurred_at": earlier})

    assert (refused.status_code, refused.json()["code"]) == (409, "game_time_backwards")
    assert api.last_seq() == seq


def test_each_game_names_its_plays_and_they_are_its_own_events() -> None:
    from adjudicator.registry import GAMES

    for game in GAMES.values():
        assert game.plays, game.name
        assert all(not kind.startswith(("match.", "ruling.")) for kind in game.plays)
