"""A tournament's verify is shared by its readers (every spectator's console page asks for it):
given again while nothing is added to the tournament or its matches and the report is recent
(``verified_at`` says when it began), computed anew once an event is added; with
``ADJUDICATOR_VERIFY_REUSE_SECONDS=0`` every reader gets a verify of its own, which sees a
change made to the store behind the service's back at once."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import text

from api.service import tournament_audit
from api.service.shared_reports import BoundedMemo
from api.service.tournaments import PAIRING_CHECKS
from tests.api.conftest import Api, make_app
from tests.api.tournament_client import Organizer, declare, play_round
from tests.store.support import ManualClock

PLAYERS = ["Ada", "Bo", "Cy", "Di"]


def first_wins(first: str, second: str) -> str:
    return first


def played_round(org: Organizer) -> dict[str, Any]:
    org.create(PLAYERS)
    paired = org.pair()
    play_round(org.api, paired, first_wins)
    return paired


def test_readers_share_a_verify_until_an_event_is_added(api: Api) -> None:
    org = Organizer(api)
    paired = played_round(org)
    first = org.get("/verify")
    api.clock.advance(5)

    again = org.get("/verify")
    assert first["ok"] and again == first  # the same report, verified_at and all

    board = paired["pairings"][0]
    api.clock.advance(5)
    declare(api, board, board["second"])  # a ruling: the match has one more event
    after_ruling = org.get("/verify")
    assert after_ruling["ok"] and after_ruling["verified_at"] > first["verified_at"]

    api.clock.advance(5)
    org.pair()  # the tournament's own log grows
    after_pairing = org.get("/verify")
    assert after_pairing["verified_at"] > after_ruling["verified_at"]
    assert len(after_pairing["checks"]) > len(after_ruling["checks"])  # round 2's matches


def _tamper(api: Api, match_id: str) -> None:
    """Rewrite a stored event's payload behind the service's back (its guards set aside)."""
    engine = api.client.app.state.service.store.engine  # type: ignore[attr-defined]
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SET LOCAL session_replication_role = replica"))
        else:
            conn.execute(text("DROP TRIGGER events_no_update"))
        conn.execute(
            text("UPDATE events SET payload = :p WHERE match_id = :m AND seq = 1"),
            {"p": '{"forged": true}', "m": match_id},
        )


def test_a_change_behind_the_service_s_back_is_seen_once_the_report_is_not_reused(
    database_url: str, clock: ManualClock
) -> None:
    """Reuse set to 0: each verify is computed for its reader and sees the forged event at
    once. (With reuse, such a change keeps the fingerprint: the report says what it said for
    at most ADJUDICATOR_VERIFY_REUSE_SECONDS, and its ``verified_at`` shows its age.)"""
    with unshared(database_url, clock) as api:
        org = Organizer(api)
        paired = played_round(org)
        before = org.get("/verify")
        clock.advance(1)
        assert org.get("/verify")["verified_at"] > before["verified_at"]

        _tamper(api, paired["pairings"][0]["match_id"])
        after = org.get("/verify")
        failing = [c["name"] for c in after["checks"] if not c["ok"]]
        assert before["ok"] and not after["ok"]
        assert failing == [f"match {paired['pairings'][0]['match_id']}"]


@contextmanager
def unshared(database_url: str, clock: ManualClock) -> Iterator[Api]:
    """A client of an app whose verify reports are computed for every reader."""
    app = make_app(database_url, clock, verify_reuse_seconds=0)
    try:
        with TestClient(app) as client:
            yield Api(client, clock)
    finally:
        app.state.service.store.dispose()


def test_a_verify_recomputes_only_the_pairings_whose_inputs_changed(
    database_url: str, clock: ManualClock, monkeypatch: Any
) -> None:
    """Each recorded pairing's check is remembered by what it read (the pairing event's hash,
    each read match's length and last hash) and taken again only when its matches' checks
    pass in the same verify: a result in the round in play recomputes none; a ruling in a
    round-1 match recomputes the two pairings that read it; a forged event recomputes them
    too. Each report equals one computed from nothing."""
    calls: list[int] = []
    original = tournament_audit.reading_check_at

    def counted(*args: Any) -> Any:
        calls.append(1)
        return original(*args)

    monkeypatch.setattr(tournament_audit, "reading_check_at", counted)
    with unshared(database_url, clock) as api:
        org = Organizer(api)
        first = played_round(org)
        play_round(api, org.pair(), first_wins)
        third = org.pair()  # round 3 in play

        def verified(recomputed: int) -> dict[str, Any]:
            calls.clear()
            report = org.get("/verify")
            assert len(calls) == recomputed
            service = api.client.app.state.tournaments  # type: ignore[attr-defined]
            fresh = tournament_audit.verify_stored(_forgetful(service), org.id)
            assert report["checks"] == fresh["checks"]
            return report

        assert verified(3)["ok"]
        assert verified(0)["ok"]
        clock.advance(1)
        board = third["pairings"][0]
        declare(api, board, board["first"])  # a result in the round in play
        assert verified(0)["ok"]
        clock.advance(1)
        board = first["pairings"][0]
        declare(api, board, board["second"])  # a retroactive ruling in round 1
        assert verified(2)["ok"]
        _tamper(api, board["match_id"])
        assert not verified(2)["ok"]


def _forgetful(service: Any) -> Any:
    """The service with an empty memory of pairing checks (its reads otherwise the same)."""
    clone = copy.copy(service)
    clone.pairing_checks = BoundedMemo(PAIRING_CHECKS)
    return clone
