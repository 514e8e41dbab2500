"""Property: no read endpoint ever shows a restricted viewer a sealed value, whatever it asks.

Hypothesis plays random legal No, Not That! and hidden-variant Zombego ("Stratego Style with
Zombies") matches through the HTTP API, with the manual clock moving between commands. After
every command it reads every endpoint a non-host can reach (``tests/support/http_probe.py``) as
each seat (the other's opponent), a spectator and the auditor before the close, at a random game
time ``at`` and record time ``known_at`` — now, far future (year 9999), far past, just after a
step, solution or challenge deadline — and checks the raw answers: no 5xx, no sealed string of
another seat (objects, Head Start objects, solution tokens), no salt, no match seed anywhere in
the bytes; no private payload outside its seats; no sealed Head Start in a seat's items; in
Zombego, no value of another seat's living piece.

What is sealed is judged at the real now: a deadline that has not passed yet reveals nothing.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, Phase, event, given, settings
from hypothesis import strategies as st

from events.migrate import upgrade
from tests.api.conftest import OPERATOR, make_app
from tests.store.support import ManualClock
from tests.support import leak_checks as checks
from tests.support.http_probe import Moments, Probe
from tests.support.nnt_http import HOST, SEATS, NntPlay
from tests.support.zombego_http import ZombegoPlay

FAR_FUTURE = datetime(9999, 1, 1, tzinfo=UTC)
FAR_PAST = datetime(1900, 1, 1, tzinfo=UTC)
WAITS = (0.0, 1.0, 4.0, 11.0, 16.0, 21.0, 61.0)
SETTINGS = settings(
    max_examples=4,
    deadline=None,
    derandomize=True,
    phases=(Phase.explicit, Phase.generate),  # a failure is reported as found: no shrinking
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.function_scoped_fixture,
        HealthCheck.large_base_example,
        HealthCheck.data_too_large,
    ],
)


class Served:
    def __init__(self, client: TestClient, clock: ManualClock) -> None:
        self.client, self.clock = client, clock
        self.probe = Probe(client, OPERATOR)
        self.feed_after = 0

    def skip_feed(self) -> None:
        """Read the operator's feed from this point on only (the earlier matches are done)."""
        while page := self.probe.get("/feed", OPERATOR, f"after_position={self.feed_after}").json():
            self.feed_after = page[-1]["position"]


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    url = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    upgrade(url)
    clock = ManualClock(datetime(2024, 5, 1, 12, 0, 0, 123456, tzinfo=UTC))
    app = make_app(url, clock, stream_poll_seconds=0.02)
    with TestClient(app) as client:
        yield Served(client, clock)
    app.state.service.store.dispose()


def deadlines(view: dict[str, Any]) -> list[datetime]:
    """Every deadline the host's view names (step, solution and challenge windows)."""
    found = [s["deadline"] for s in view["seats"].values()]
    for claim in view["round"]["prompt_claims"] if view.get("round") else []:
        found += [claim["solution_deadline"], claim["challenge_deadline"]]
    return [datetime.fromisoformat(d) for d in found if d]


def moments(data: st.DataObject, now: datetime, near: list[datetime]) -> Moments:
    just_after = [d + timedelta(milliseconds=1) for d in near]
    times = st.sampled_from([None, now, FAR_FUTURE, FAR_PAST, now + timedelta(hours=1)])
    at = data.draw(st.one_of(times, st.sampled_from(just_after)) if near else times, label="at")
    known_at = data.draw(st.sampled_from([None, now, FAR_FUTURE, FAR_PAST]), label="known_at")
    before = data.draw(st.sampled_from([FAR_PAST, now - timedelta(seconds=30), now]))
    return Moments(at, known_at, before)


def salts(served: Served, play: NntPlay | ZombegoPlay) -> list[str]:
    url = f"/matches/{play.match_id}/export"
    answer = served.client.get(url, headers={"Authorization": f"Bearer {play.token(HOST)}"})
    assert answer.status_code == 200, answer.text
    lines = [line for line in answer.text.splitlines()[1:] if line]
    return [s for s in (_salt(line) for line in lines) if s]


def _salt(line: str) -> str | None:
    import json

    salt = json.loads(line).get("salt")
    return str(salt) if salt else None


def viewers(seats: tuple[str, str]) -> list[tuple[str | None, str | None]]:
    """(seat, who) for every restricted viewer: each seat, a spectator, the auditor."""
    return [(seats[0], seats[0]), (seats[1], seats[1]), (None, None), (None, "auditor")]


def shared_problems(
    served: Served, match_id: str, secrets: list[str], zombego: bool = False
) -> list[str]:
    """What the reads every asker shares (verify, lists, the feed of this match) give away."""
    answers = served.probe.read_shared(match_id, served.feed_after)
    problems = checks.server_errors(answers) + checks.byte_leaks(answers, secrets)
    problems += checks.zombego_leaks(answers, None) if zombego else []
    return problems + checks.event_leaks(answers, None)


def assert_nnt_sealed(served: Served, play: NntPlay, data: st.DataObject) -> None:
    view = play.host_view()
    play.note_public(view)
    hidden_salts = salts(served, play)
    when = moments(data, served.clock.now, deadlines(view))
    sealed_head_starts = [
        seat
        for seat in SEATS
        if view["phase"] == "step"
        and (view["seats"][seat].get("action") or {}).get("action") == "head_start"
    ]
    everyone = [*play.sealed.hidden_from(None), *hidden_salts, str(play.seed)]
    problems = shared_problems(served, play.match_id, everyone)
    for seat, who in viewers(SEATS):
        answers = served.probe.read_all(play.match_id, play.token(who), when)
        secrets = [*play.sealed.hidden_from(seat), *hidden_salts, str(play.seed)]
        problems += checks.server_errors(answers)
        problems += checks.byte_leaks(answers, secrets)
        problems += checks.event_leaks(answers, seat)
        problems += checks.forbidden_reads(answers)
        for owner in sealed_head_starts:
            if owner != seat:
                problems += checks.head_start_leaks(answers, owner)
    assert not problems, "\n".join([f"as asked at {when}:", *problems])


@SETTINGS
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_no_nnt_read_shows_a_sealed_value(
    served: Served, data: st.DataObject, rng: random.Random
) -> None:
    seed = data.draw(st.integers(10**17, 2**63 - 1), label="seed")
    served.skip_feed()
    play = NntPlay(served.client, served.clock, OPERATOR, seed)
    for _ in range(data.draw(st.integers(6, 16), label="commands")):
        served.clock.advance(data.draw(st.sampled_from(WAITS), label="wait"))
        view = play.host_view()
        play.note_public(view)
        moves = play.moves(view, rng)
        if not moves:
            continue
        who, body = data.draw(st.sampled_from(moves), label="move")
        event(body["type"])
        play.play(who, body)
        assert_nnt_sealed(served, play, data)


@SETTINGS
@given(data=st.data(), rng=st.randoms(use_true_random=False))
def test_no_zombego_read_shows_a_hidden_value(
    served: Served, data: st.DataObject, rng: random.Random
) -> None:
    seed = data.draw(st.integers(10**17, 2**63 - 1), label="seed")
    board = data.draw(st.sampled_from([4, 5, 6]), label="board")
    served.skip_feed()
    play = ZombegoPlay(served.client, OPERATOR, seed, board)
    for _ in range(data.draw(st.integers(4, 10), label="plies")):
        served.clock.advance(data.draw(st.sampled_from(WAITS), label="wait"))
        if not play.play_one(rng):
            break
        when = moments(data, served.clock.now, [])
        hidden_salts = salts(served, play)
        problems = shared_problems(served, play.match_id, [*hidden_salts, str(seed)], True)
        for seat, who in viewers(play.seats):
            answers = served.probe.read_all(play.match_id, play.token(who), when)
            problems += checks.server_errors(answers)
            problems += checks.byte_leaks(answers, [*hidden_salts, str(seed)])
            problems += checks.event_leaks(answers, seat)
            problems += checks.forbidden_reads(answers)
            problems += checks.zombego_leaks(answers, seat)
        assert not problems, "\n".join([f"as asked at {when}:", *problems])
