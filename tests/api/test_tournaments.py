"""Tournaments over HTTP: create, pair, forfeit, withdraw, re-pair, standings at (at,
known_at), the diff naming the ruling, verify and the offline bundle; and every bad input
answered with a clear 4xx that records nothing."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
import threading
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from adjudicator.kernel.errors import DomainError
from adjudicator.kernel.fold import fold
from adjudicator.rulings import DeclareResult
from api.service import host
from api.service.tournament_audit import record_reader, verify_bundle
from api.service.tournaments import ORGANIZER, TournamentService
from events import NewEvent, TokenGrant
from events.record import loads
from events.tournaments import TournamentStore
from projections.facts import to_facts
from projections.record import setup_from_events
from projections.tournaments import FORFEIT
from tests.api.conftest import OPERATOR, Api
from tests.api.tournament_client import Organizer, declare, play_round

EIGHT = ["Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal"]


def first_wins(first: str, second: str) -> str:
    return first


def better_seed(first: str, second: str) -> str:
    return min(first, second, key=lambda p: int(p[1:]))


def points(table: dict[str, Any], player: str) -> float:
    return float(next(r["points"] for r in table["rows"] if r["player"] == player))


def stored_count(api: Api) -> int:
    return TournamentStore(api.client.app.state.service.store).count()  # type: ignore[attr-defined]


@pytest.fixture
def org(api: Api) -> Organizer:
    return Organizer(api)


def test_create_answers_the_id_an_organizer_token_and_the_players_in_seed_order(
    org: Organizer,
) -> None:
    made = org.create(EIGHT[:4])
    assert made["organizer_token"].startswith("org_")
    assert [(p["id"], p["name"], p["seed"]) for p in made["players"]] == [
        ("p1", "Ada", 1), ("p2", "Bo", 2), ("p3", "Cy", 3), ("p4", "Di", 4),
    ]  # fmt: skip
    assert made["settings"]["format"] == "round_robin" and made["settings"]["points_game"]
    events = org.api.client.get(f"/tournaments/{org.id}/events").json()
    assert [e["type"] for e in events] == ["tournament.created"]
    assert org.token not in json.dumps(events)  # only its hash is stored, never in the log


@pytest.mark.parametrize(
    ("change", "status", "code"),
    [
        ({"game": "chess"}, 422, "unknown_game"),
        (
            {"format": "single_elimination", "tiebreaks": ["buchholz"]},
            422,
            "tiebreak_not_for_format",
        ),
        ({"players": [{"name": "Solo"}]}, 422, "too_few_players"),
        (
            {"format": "swiss", "rounds": 9, "players": [{"name": f"P{i}"} for i in range(129)]},
            422,
            "too_many_players",
        ),
        ({"config": {"rounds": 0}}, 422, "invalid_config"),
        ({"round_configs": {"2": {"grid_height": 1}}}, 422, "invalid_config"),
        ({"format": "swiss"}, 422, "bad_rounds"),
        ({"format": "knockout"}, 422, "invalid_request"),
        ({"tiebreaks": ["coin_flip"]}, 422, "invalid_request"),
        (
            {"players": [{"name": "Ada"}, {"name": "Bo"}, {"name": " ada  "}]},
            422,
            "duplicate_player",
        ),
        (
            {
                "players": [
                    {"name": "Ada", "chat_authors": ["41"]},
                    {"name": "Bo", "chat_authors": ["41"]},
                ]
            },
            422,
            "duplicate_chat_author",
        ),
        (
            {"players": [{"name": "Ada", "chat_authors": ["7", "7"]}, {"name": "Bo"}]},
            422,
            "duplicate_chat_author",
        ),
        ({"round_configs": {"0": {"rounds": 2}}}, 422, "bad_round_config"),
        ({"round_configs": {"4": {"rounds": 2}}}, 422, "bad_round_config"),  # 4 players: 3 rounds
        ({"format": "swiss", "rounds": 2, "round_configs": {"3": {}}}, 422, "bad_round_config"),
        ({"format": "double_elimination", "round_configs": {"6": {}}}, 422, "bad_round_config"),
    ],
)
def test_bad_input_to_create_is_a_clear_4xx_and_records_nothing(
    api: Api, change: dict[str, Any], status: int, code: str
) -> None:
    body = {
        "name": "Open",
        "game": "zoom",
        "format": "round_robin",
        "players": [{"name": n} for n in EIGHT[:4]],
        **change,
    }
    stored = stored_count(api)  # PostgreSQL: other tests' tournaments stay (never deleted)
    response = api.client.post("/tournaments", json=body, headers=api.auth(OPERATOR))
    assert (response.status_code, response.json()["code"]) == (status, code), response.text
    assert stored_count(api) == stored


def test_round_configs_for_the_rounds_a_format_plays_are_kept(api: Api, org: Organizer) -> None:
    """The last round a format plays takes a config: round robin of 4 its 3rd, a 2-round Swiss
    its 2nd, a double elimination of 4 its grand final's reset (round 2k + 1 = 5)."""
    for format_, last in (("round_robin", 3), ("swiss", 2), ("double_elimination", 5)):
        rounds = {"rounds": 2} if format_ == "swiss" else {}
        configs = {str(last): {"rounds": 2}}
        made = org.create(EIGHT[:4], format=format_, tiebreaks=[], round_configs=configs, **rounds)
        assert list(made["round_configs"]) == [str(last)], format_
        assert made["round_configs"][str(last)]["rounds"] == 2


def test_only_the_operator_creates(api: Api, org: Organizer) -> None:
    body = {"name": "O", "game": "zoom", "format": "round_robin", "players": [{"name": "a"}] * 2}
    stored = stored_count(api)
    assert api.client.post("/tournaments", json=body).json()["code"] == "missing_token"
    refused = api.client.post("/tournaments", json=body, headers=api.auth("nope"))
    assert (refused.status_code, refused.json()["code"]) == (403, "not_operator")
    assert stored_count(api) == stored


def test_a_round_creates_ordinary_matches_with_every_role_token_and_link(
    api: Api, org: Organizer
) -> None:
    org.create(EIGHT[:4])
    paired = org.pair()
    assert paired["round"] == 1 and len(paired["pairings"]) == 2
    for board in paired["pairings"]:
        match = api.client.get(f"/matches/{board['match_id']}").json()
        assert (match["game"], match["seats"], match["advantage"]) == (
            "zoom", ["alpha", "beta"], "alpha",
        )  # fmt: skip
        assert match["tournament"] == {
            "tournament_id": org.id, "round": 1, "board": board["board"],
            "first": board["first"], "second": board["second"],
        }  # fmt: skip
        listed = api.client.get("/matches", params={"limit": 50}).json()
        assert next(m for m in listed if m["match_id"] == board["match_id"]) == match
        created = api.client.get(f"/matches/{board['match_id']}/events").json()[0]
        assert created["type"] == "match.created"
        assert created["payload"]["tournament"] == {
            "id": org.id, "round": 1, "board": board["board"],
            "first": board["first"], "second": board["second"],
        }  # fmt: skip
        assert set(board["tokens"]) == {"host", "auditor", "seats"}
        assert set(board["links"]) == {"host", "alpha", "beta", "auditor", "spectator"}
        assert board["links"]["alpha"].startswith(f"/console/matches/{board['match_id']}#role=seat")
    players = sorted(p for b in paired["pairings"] for p in (b["first"], b["second"]))
    assert players == ["p1", "p2", "p3", "p4"]


def test_a_match_created_on_its_own_names_no_tournament(api: Api) -> None:
    made = api.create(config={"rounds": 1})
    assert api.client.get(f"/matches/{made['match_id']}").json()["tournament"] is None


def test_the_next_round_waits_for_every_result(api: Api, org: Organizer) -> None:
    org.create(EIGHT[:4])
    paired = org.pair()
    declare(api, paired["pairings"][0], paired["pairings"][0]["first"])
    early = org.post("/rounds")
    assert (early.status_code, early.json()["code"]) == (409, "round_not_finished")
    assert len(org.get("")["rounds"]) == 1  # nothing recorded
    declare(api, paired["pairings"][1], None)  # a draw
    assert org.pair()["round"] == 2


def test_the_organizer_token_is_required_and_checked(api: Api, org: Organizer) -> None:
    org.create(EIGHT[:4])
    other = Organizer(api)
    other.create(EIGHT[:4])
    assert org.post("/rounds", token=None).status_code == 401
    wrong = org.post("/rounds", token=other.token)
    assert (wrong.status_code, wrong.json()["code"]) == (403, "not_organizer")
    assert org.post("/rounds", token=OPERATOR).json()["code"] == "not_organizer"
    unknown = api.client.post("/tournaments/nope/rounds", headers=api.auth(org.token))
    assert (unknown.status_code, unknown.json()["code"]) == (404, "unknown_tournament")
    assert api.client.get("/tournaments/nope/standings").status_code == 404


def test_standings_rank_points_and_say_who_won(api: Api, org: Organizer) -> None:
    org.create(EIGHT[:4])
    for _ in range(3):
        play_round(api, org.pair(), better_seed)  # the better seed wins
    table = org.standings()
    assert table["finished"] and table["champion"] == "p1"
    assert [(r["player"], r["points"], r["rank"]) for r in table["rows"]] == [
        ("p1", 3, 1), ("p2", 2, 2), ("p3", 1, 3), ("p4", 0, 4),
    ]  # fmt: skip
    assert table["crosstable"]["p1"]["p2"][0]["score"] == 1
    finished = org.post("/rounds")
    assert (finished.status_code, finished.json()["code"]) == (409, "tournament_finished")


def test_a_forfeit_decides_an_unfinished_board_only(api: Api, org: Organizer) -> None:
    org.create(EIGHT[:4])
    paired = org.pair()
    one, two = paired["pairings"]
    declare(api, one, one["first"])
    decided = org.post(
        "/forfeits", {"round": 1, "board": 1, "winner": one["second"], "reason": "x"}
    )
    assert (decided.status_code, decided.json()["code"]) == (409, "board_decided")
    stranger = org.post("/forfeits", {"round": 1, "board": 2, "winner": "p9", "reason": "late"})
    assert (stranger.status_code, stranger.json()["code"]) == (422, "unknown_player")
    nowhere = org.post("/forfeits", {"round": 3, "board": 1, "winner": None, "reason": "late"})
    assert (nowhere.status_code, nowhere.json()["code"]) == (422, "unknown_board")
    no_reason = org.post("/forfeits", {"round": 1, "board": 2, "winner": two["first"]})
    assert no_reason.status_code == 422
    body = {"round": 1, "board": 2, "winner": two["second"], "reason": "no-show after 15 min"}
    done = org.post("/forfeits", body)
    assert done.status_code == 201 and done.json()["type"] == "tournament.forfeit"
    again = org.post("/forfeits", body)
    assert (again.status_code, again.json()["code"]) == (409, "board_decided")
    result = org.standings()["rounds"][0]["pairings"][1]["result"]
    assert result == {
        "winner": two["second"],
        "first_points": 0,
        "second_points": 0,
        "forfeit": True,
    }
    assert org.pair()["round"] == 2  # the forfeit finished the round


def test_a_match_closed_without_a_result_is_decided_by_forfeit_one_closed_with_one_is_not(
    api: Api, org: Organizer
) -> None:
    """A host who closes an abandoned match (nobody played: no result) leaves its board to the
    organizer's forfeit, else the round could never finish; a match closed with a result is
    finished and its board refuses a forfeit, nothing recorded."""
    org.create(EIGHT[:4])
    one, two = org.pair()["pairings"]
    declare(api, one, one["first"])
    for board in (one, two):
        closed = api.client.post(
            f"/matches/{board['match_id']}/close", headers=api.auth(board["tokens"]["host"])
        )
        assert closed.status_code == 201, closed.text
    before = len(org.get("/events"))
    finished = org.post("/forfeits", {"round": 1, "board": 1, "winner": None, "reason": "x"})
    assert (finished.status_code, finished.json()["code"]) == (409, "board_decided")
    assert len(org.get("/events")) == before
    body = {"round": 1, "board": 2, "winner": None, "reason": "neither player came"}
    assert org.post("/forfeits", body).status_code == 201
    result = org.standings()["rounds"][0]["pairings"][1]["result"]
    assert result == {"winner": None, "first_points": 0, "second_points": 0, "forfeit": True}
    assert org.pair()["round"] == 2


def test_a_knockout_whose_two_next_opponents_both_withdrew_pairs_on_and_finishes(
    api: Api, org: Organizer
) -> None:
    """Seeds 1 and 4 would meet in round 2 of an 8-player knockout; both withdraw after round
    1. Round 2 pairs the other semi-final only, the final is a bye, and the standings answer
    (the bracket's replay refused the recorded round 2, so the event was stuck for good)."""
    org.create(EIGHT, format="single_elimination", tiebreaks=[])
    play_round(api, org.pair(), better_seed)
    for player in ("p1", "p4"):
        assert org.post("/withdrawals", {"player": player, "reason": "left"}).status_code == 201
    second = org.pair()
    assert [(b["first"], b["second"]) for b in second["pairings"]] == [("p2", "p3")]
    play_round(api, second, better_seed)
    assert [(b["first"], b["second"]) for b in org.pair()["pairings"]] == [("p2", None)]
    table = org.standings()
    assert table["finished"] and table["champion"] == "p2"
    assert org.get("/verify")["ok"]


def test_a_withdrawn_player_is_not_paired_again(api: Api, org: Organizer) -> None:
    org.create(EIGHT[:6], format="swiss", rounds=3, tiebreaks=["buchholz"])
    play_round(api, org.pair(), first_wins)
    assert org.post("/withdrawals", {"player": "p9", "reason": "x"}).json()["code"] == (
        "unknown_player"
    )
    assert org.post("/withdrawals", {"player": "p6", "reason": "ill"}).status_code == 201
    twice = org.post("/withdrawals", {"player": "p6", "reason": "ill"})
    assert (twice.status_code, twice.json()["code"]) == (409, "player_withdrawn")
    second = org.pair()
    paired = {p for b in second["pairings"] for p in (b["first"], b["second"])}
    assert "p6" not in paired
    row = next(r for r in org.standings()["rows"] if r["player"] == "p6")
    assert row["withdrawn"] and row["played"] == 1


def test_repairing_replaces_an_unstarted_round_and_refuses_a_started_one(
    api: Api, org: Organizer
) -> None:
    org.create(EIGHT[:6], format="swiss", rounds=3, tiebreaks=["buchholz"])
    play_round(api, org.pair(), first_wins)
    first_try = org.pair()
    assert org.post("/withdrawals", {"player": "p1", "reason": "called away"}).status_code == 201
    assert org.post("/rounds/current/repair", {}).status_code == 422  # a reason is required
    redone = org.post("/rounds/current/repair", {"reason": "p1 withdrew before round 2"})
    assert redone.status_code == 201, redone.text
    boards = redone.json()["pairings"]
    assert "p1" not in {p for b in boards for p in (b["first"], b["second"])}
    old_ids = {b["match_id"] for b in first_try["pairings"]}
    assert old_ids.isdisjoint({b["match_id"] for b in boards})
    events = api.client.get(f"/tournaments/{org.id}/events").json()
    assert events[-1]["type"] == "tournament.repaired"
    assert events[-1]["payload"]["reason"] == "p1 withdrew before round 2"
    for old in first_try["pairings"]:  # the replaced matches are closed: their links refuse play
        if old["match_id"] is None:
            continue
        summary = api.client.get(f"/matches/{old['match_id']}").json()
        assert summary["status"] == "closed", summary
        replay = api.client.post(
            f"/matches/{old['match_id']}/commands",
            json={"type": "start_round"},
            headers=api.auth(old["tokens"]["host"]),
        )
        assert (replay.status_code, replay.json()["code"]) == (409, "match_closed")
    board = next(b for b in boards if b["second"] is not None)
    start = api.client.post(
        f"/matches/{board['match_id']}/commands",
        json={"type": "start_round"},
        headers=api.auth(board["tokens"]["host"]),
    )
    assert start.status_code == 201, start.text
    late = org.post("/rounds/current/repair", {"reason": "again"})
    assert (late.status_code, late.json()["code"]) == (409, "round_started")


def test_a_changed_result_changes_the_standings_from_then_on_and_the_diff_names_the_ruling(
    api: Api, org: Organizer
) -> None:
    org.create(EIGHT[:4])
    first = org.pair()
    play_round(api, first, first_wins)
    play_round(api, org.pair(), first_wins)
    before = api.clock.advance(60)
    api.clock.advance(60)
    board = first["pairings"][0]
    url = f"/matches/{board['match_id']}/rulings"
    body = {"type": "declare_result", "winner": "beta", "reason": "alpha used a bot"}
    assert (
        api.client.post(url, json=body, headers=api.auth(board["tokens"]["host"])).status_code
        == 201
    )

    old, new = org.standings(known_at=before), org.standings()
    assert (points(old, board["first"]), points(new, board["first"])) == (
        points(old, board["first"]), points(old, board["first"]) - 1,
    )  # fmt: skip
    assert new["stale_pairings"][0]["round"] == 2
    assert new["stale_pairings"][0]["changed"][0]["board"] == "1.1"
    assert old["stale_pairings"] == []

    diff = org.get("/diff", before=before)
    [change] = diff["results"]
    assert (change["round"], change["board"], change["match_id"]) == (1, 1, board["match_id"])
    assert change["before"]["winner"] == board["first"]
    assert change["after"]["winner"] == board["second"]
    [ruling] = change["rulings"]
    assert ruling["type"] == "ruling.declare_result"
    assert ruling["payload"]["reason"] == "alpha used a bot"
    assert isinstance(ruling["seq"], int)
    assert api.client.get(f"/tournaments/{org.id}/diff").status_code == 422  # before is required
    backwards = api.client.get(
        f"/tournaments/{org.id}/diff",
        params={"before": api.clock.now.isoformat(), "after": before.isoformat()},
    )
    assert (backwards.status_code, backwards.json()["code"]) == (422, "diff_backwards")
    long_ago = {"known_at": "2000-01-01T00:00:00Z"}
    unborn = api.client.get(f"/tournaments/{org.id}/standings", params=long_ago)
    assert (unborn.status_code, unborn.json()["code"]) == (404, "unknown_tournament")
    assert "was created at" in unborn.json()["message"]  # it exists: not yet then
    nowhere = api.client.get("/tournaments/nope/standings", params=long_ago).json()["message"]
    assert nowhere == "no tournament with id 'nope'"


def test_verify_checks_the_chain_every_match_and_every_pairing(api: Api, org: Organizer) -> None:
    org.create(EIGHT[:6], format="swiss", rounds=3, tiebreaks=["buchholz"])
    for _ in range(3):
        play_round(api, org.pair(), better_seed)
    report = org.get("/verify")
    assert report["ok"], report
    names = [c["name"] for c in report["checks"]]
    assert names[0] == "chain" and sum(n.startswith("match ") for n in names) == 9
    assert [n for n in names if n.startswith("pairing")] == [
        "pairing round 1 (seq 2)", "pairing round 2 (seq 3)", "pairing round 3 (seq 4)",
    ]  # fmt: skip


def test_a_bundle_s_result_reader_answers_as_the_fold_of_what_was_known_at_every_instant(
    api: Api, org: Organizer
) -> None:
    """The offline pairing checks read each match's result through ``record_reader``, which
    folds each known prefix of a record once and advances it: at every instant (each event's
    record and game times, a moment before and after), with a result changed afterwards by a
    ruling, it answers what folding the events then known gives."""
    org.create(EIGHT[:4])
    first = org.pair()
    play_round(api, first, first_wins)
    play_round(api, org.pair(), first_wins)
    api.clock.advance(60)
    board = first["pairings"][0]
    body = {"type": "declare_result", "winner": "beta", "reason": "alpha used a bot"}
    url, host = f"/matches/{board['match_id']}/rulings", api.auth(board["tokens"]["host"])
    assert api.client.post(url, json=body, headers=host).status_code == 201
    text = api.client.get(f"/tournaments/{org.id}/export", headers=api.auth(org.token)).text
    games = api.client.app.state.service.games  # type: ignore[attr-defined]
    records = {m: loads(t) for m, t in json.loads(text)["matches"].items()}
    read = record_reader(records, games)
    tick = timedelta(microseconds=1)
    for match_id, record in records.items():
        times = {t for e in record.events for t in (e.recorded_at, e.occurred_at)}
        for instant in sorted(times | {t + d for t in times for d in (tick, -tick)}):
            known = [e for e in record.events if e.recorded_at <= instant]
            if not known:
                continue
            recorded = setup_from_events(known)
            game = games[recorded.game]
            want = game.result(fold(game, recorded.setup, to_facts(known), instant).state)
            assert read(match_id, instant, None) == want, (match_id, instant)
        for event in record.events:  # as a pairing that recorded it read seqs 1..n
            prefix = record.events[: event.seq]
            recorded = setup_from_events(prefix)
            game = games[recorded.game]
            at = event.recorded_at
            want = game.result(fold(game, recorded.setup, to_facts(prefix), at).state)
            assert read(match_id, at, event.seq) == want, (match_id, event.seq)
    changed = records[board["match_id"]]
    now = read(board["match_id"], changed.events[-1].recorded_at, None)
    assert now is not None and now["winner"] == "beta"


def test_the_exported_bundle_verifies_offline_and_a_forged_pairing_does_not(
    api: Api, org: Organizer
) -> None:
    org.create(EIGHT[:4])
    for _ in range(3):
        play_round(api, org.pair(), better_seed)
    assert api.client.get(f"/tournaments/{org.id}/export").status_code == 401
    response = api.client.get(f"/tournaments/{org.id}/export", headers=api.auth(org.token))
    assert response.status_code == 200
    games = api.client.app.state.service.games  # type: ignore[attr-defined]
    report = verify_bundle(response.text, games)
    assert report["ok"], report
    bundle = json.loads(response.text)
    bundle["log"] = bundle["log"].replace('"first": "p1"', '"first": "p9"', 1)
    forged = verify_bundle(json.dumps(bundle), games)
    assert not forged["ok"]
    assert not next(c for c in forged["checks"] if c["name"] == "chain")["ok"]
    assert not verify_bundle("{}", games)["ok"]


def three_rounds_exported(api: Api, org: Organizer) -> tuple[str, Any]:
    """A four-player Swiss of three rounds played (the better seed wins), exported as a bundle
    by its organizer; and the service's games, to verify it with."""
    org.create(EIGHT[:4])
    for _ in range(3):
        play_round(api, org.pair(), better_seed)
    text = api.client.get(f"/tournaments/{org.id}/export", headers=api.auth(org.token)).text
    return text, api.client.app.state.service.games  # type: ignore[attr-defined]


def test_a_bundle_with_a_record_that_does_not_parse_or_whose_setup_cannot_be_read_fails(
    api: Api, org: Organizer
) -> None:
    """A record that does not parse makes the bundle fail its ``format`` check alone; records
    that parse but do not say how their matches were set up fail their own checks, and every
    pairing that reads their results says it cannot recompute, naming why."""
    text, games = three_rounds_exported(api, org)
    bundle = json.loads(text)
    first = next(iter(bundle["matches"]))
    cut = {**bundle, "matches": {**bundle["matches"], first: bundle["matches"][first][:-40]}}
    report = verify_bundle(json.dumps(cut), games)
    assert [c["name"] for c in report["checks"]] == ["format"]
    assert report["checks"][0]["detail"].startswith("not a tournament bundle: line")
    unset = {
        m: t.replace('"match.created"', '"match.made"', 1) for m, t in bundle["matches"].items()
    }
    report = verify_bundle(json.dumps({**bundle, "matches": unset}), games)
    checks = {c["name"]: c for c in report["checks"]}
    assert not report["ok"] and not checks[f"match {first}"]["ok"]
    pairings = [c for name, c in checks.items() if name.startswith("pairing")]
    assert pairings[0]["ok"]  # round 1 reads no result
    for later in pairings[1:]:
        assert not later["ok"] and later["detail"].startswith("cannot recompute: SetupMissing(")


@pytest.mark.slow
def test_a_bundle_verified_in_forked_workers_gives_the_report_verified_in_turn(
    api: Api, org: Organizer, tmp_path: Path
) -> None:
    """``adjudicator verify --jobs 2`` (records' checks and pairings as tasks in a pool of
    forked workers, in a process of its own: not pytest's, which runs threads) reports check by
    check as the one-process verify does: on the bundle, on one with a forged pairing, and on
    one whose match record has one changed seq."""
    text, games = three_rounds_exported(api, org)
    bundle = json.loads(text)
    forged = {**bundle, "log": bundle["log"].replace('"first": "p1"', '"first": "p9"', 1)}
    first = next(iter(bundle["matches"]))
    changed = bundle["matches"][first].replace('"seq": 3', '"seq": 4', 1)
    broken = {**bundle, "matches": {**bundle["matches"], first: changed}}
    unset = bundle["matches"][first].replace('"match.created"', '"match.made"', 1)
    unread = {**bundle, "matches": {**bundle["matches"], first: unset}}
    reports = []
    for name, each in (
        ("good", text),
        ("forged", json.dumps(forged)),
        ("broken", json.dumps(broken)),
        ("unread", json.dumps(unread)),
    ):
        file = tmp_path / f"{name}.json"
        file.write_text(each, encoding="utf-8")
        workers = subprocess.run(
            [sys.executable, "-m", "api.cli.main", "verify", "--jobs", "2", "--json", str(file)],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
        )
        assert workers.stderr == ""
        reports.append(json.loads(workers.stdout))
        assert reports[-1] == verify_bundle(each, games)
    assert [r["ok"] for r in reports] == [True, False, False, False]
    assert not next(c for c in reports[2]["checks"] if c["name"] == f"match {first}")["ok"]


def test_standings_at_an_earlier_game_time_show_the_results_of_then(
    api: Api, org: Organizer
) -> None:
    org.create(EIGHT[:4])
    play_round(api, org.pair(), first_wins)
    api.clock.advance(60)
    second = org.pair()
    between = api.clock.advance(60)
    api.clock.advance(60)
    assert org.standings()["rounds"][1]["pairings"][0]["result"] is None
    play_round(api, second, first_wins)  # every fold is now kept, its horizon after ``between``

    then, now = org.standings(at=between), org.standings()
    assert [b["result"] for b in then["rounds"][1]["pairings"]] == [None, None]
    assert all(b["result"] is not None for b in now["rounds"][1]["pairings"])
    assert sum(r["points"] for r in then["rows"]) == 2
    assert sum(r["points"] for r in now["rows"]) == 4
    early = org.standings(at=between - timedelta(seconds=90))  # before round 2 was paired
    assert [r["round"] for r in early["rounds"]] == [1]


def test_odd_reads_and_writes_are_clear_4xx_answers(api: Api, org: Organizer) -> None:
    org.create(EIGHT[:4])
    created = api.clock.now
    nul = {"name": "a\x00b", "game": "zoom", "format": "round_robin", "players": [{"name": "x"}]}
    response = api.client.post("/tournaments", json=nul, headers=api.auth(OPERATOR))
    assert (response.status_code, response.json()["code"]) == (422, "invalid_request")
    early = api.client.get(
        f"/tournaments/{org.id}/standings",
        params={"known_at": (created - timedelta(seconds=1)).isoformat()},
    )
    assert (early.status_code, early.json()["code"]) == (404, "unknown_tournament")
    naive = api.client.get(f"/tournaments/{org.id}/standings", params={"at": "2026-01-01T00:00"})
    assert (naive.status_code, naive.json()["code"]) == (422, "naive_time")
    assert api.client.get("/tournaments/a%00b").status_code == 404
    assert api.client.get(f"/tournaments/{org.id}/verify").json()["ok"]
    withdraw = org.post("/withdrawals", {"player": "p\x001", "reason": "x"})
    assert withdraw.status_code == 422
    no_round = org.post("/rounds/current/repair", {"reason": "nothing paired yet"})
    assert (no_round.status_code, no_round.json()["code"]) == (409, "round_not_paired")


@pytest.mark.parametrize("format_", ["single_elimination", "double_elimination"])
def test_an_elimination_bracket_runs_to_its_champion_and_verifies(
    api: Api, org: Organizer, format_: str
) -> None:
    org.create(EIGHT[:5], format=format_, tiebreaks=[])
    for _ in range(20):
        response = org.post("/rounds")
        if response.status_code == 409:
            assert response.json()["code"] == "tournament_finished"
            break
        assert response.status_code == 201, response.text
        play_round(api, response.json(), better_seed)
    table = org.standings()
    assert table["finished"] and table["champion"] == "p1"
    assert table["bracket"] and table["crosstable"] is None
    assert {m["bracket"] for m in table["bracket"]} >= {"winners"}
    report = org.get("/verify")
    assert report["ok"]
    final = [c for c in report["checks"] if c["name"].startswith("pairing")][-1]
    assert final["detail"] == "1 board recomputed from the results then known"


def test_two_pairings_at_once_create_one_round_of_matches(
    api: Api, org: Organizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A double click: two requests pair the same round at the same time. One after the
    other, the second sees the round paired and is refused before it drafts any match."""
    org.create(EIGHT[:4])
    service: TournamentService = api.client.app.state.tournaments  # type: ignore[attr-defined]
    both_inside = threading.Barrier(2, timeout=0.5)  # met only when both run at once
    created: list[int] = []
    create = TournamentService._new_matches

    def slow_create(self: TournamentService, *args: Any) -> Any:
        with contextlib.suppress(threading.BrokenBarrierError):
            both_inside.wait()
        created.append(1)
        return create(self, *args)

    monkeypatch.setattr(TournamentService, "_new_matches", slow_create)
    answers: list[object] = []

    def pair() -> None:
        try:
            answers.append(service.pair(org.id)[0].number)
        except DomainError as refusal:
            answers.append(refusal.code)

    threads = [threading.Thread(target=pair) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(answers, key=str) == [1, "round_not_finished"]
    assert created == [1]
    assert len(org.get("")["rounds"]) == 1


def test_a_pairing_refused_for_another_replica_s_leaves_no_match_behind(
    api: Api, org: Organizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two replicas (two services, each with its own locks, one store) pair the same round:
    the second to record is refused (``version_conflict``), and none of the matches it drafted
    is stored, because a round's matches are stored in the transaction of its event."""
    org.create(EIGHT[:4])
    service: TournamentService = api.client.app.state.tournaments  # type: ignore[attr-defined]
    other = TournamentService(service.matches)
    draft = TournamentService._new_matches
    meanwhile = [other.pair]

    def other_pairs_meanwhile(self: TournamentService, *args: Any) -> Any:
        if self is service and meanwhile:
            meanwhile.pop()(org.id)  # the other replica records round 1 while this one drafts
        return draft(self, *args)

    monkeypatch.setattr(TournamentService, "_new_matches", other_pairs_meanwhile)

    with pytest.raises(DomainError) as refused:
        service.pair(org.id)

    assert refused.value.code == "version_conflict"
    in_tournament = [
        m.match_id
        for m in service.matches.store.list_matches()
        if m.setup.get("tournament", {}).get("id") == org.id
    ]
    (paired,) = service.tournament(org.id).rounds
    boards = [b.match_id for b in paired.boards if b.match_id is not None]
    assert sorted(in_tournament) == sorted(boards)
    assert len(boards) == 2


def test_a_drawn_elimination_match_leaves_its_board_undecided_and_the_standings_readable(
    api: Api, org: Organizer
) -> None:
    """A host may rule a draw in any match, and an elimination match needs a winner: the board
    stays without a result (the standings answer; before, they and the console answered 422
    ``elimination_needs_winner`` to everyone from then on), the next round is refused with a
    409 naming the drawn board, and the organizer may then decide it by forfeit."""
    org.create(EIGHT[:4], format="single_elimination", tiebreaks=[])
    one, two = org.pair()["pairings"]
    declare(api, one, None)  # a draw
    declare(api, two, two["first"])
    table = org.standings()
    drawn, decided = table["rounds"][0]["pairings"]
    assert (drawn["result"], drawn["drawn"], decided["drawn"]) == (None, True, False)
    assert not table["finished"] and table["champion"] is None
    refused = org.post("/rounds")
    assert (refused.status_code, refused.json()["code"]) == (409, "round_not_finished")
    assert "board 1" in refused.json()["message"] and "draw" in refused.json()["message"]
    body = {"round": 1, "board": 1, "winner": None, "reason": "both late"}
    double = org.post("/forfeits", body)
    assert (double.status_code, double.json()["code"]) == (422, "elimination_needs_winner")
    body["winner"] = one["second"]
    assert org.post("/forfeits", body).status_code == 201
    final = org.pair()["pairings"]
    assert [{b["first"], b["second"]} for b in final] == [{two["first"], one["second"]}]
    assert org.get("/verify")["ok"]


def test_a_winnerless_knockout_forfeit_recorded_by_an_earlier_version_can_still_be_decided(
    api: Api, org: Organizer
) -> None:
    """Before the service refused it, a forfeit without a winner could be recorded on a knockout
    board, and the standings of that tournament then answered 422 ``elimination_needs_winner``
    for good. Such a board reads as one still needing a winner (as a drawn match's does): the
    standings answer, the next round is refused naming the board, and the organizer decides it
    by a forfeit that names the winner; the verify recomputes every pairing."""
    org.create(EIGHT[:4], format="single_elimination", tiebreaks=[])
    one, two = org.pair()["pairings"]
    declare(api, two, two["first"])
    service: TournamentService = api.client.app.state.tournaments  # type: ignore[attr-defined]
    payload = {"round": 1, "board": 1, "winner": None, "reason": "both late"}
    legacy = NewEvent(FORFEIT, ORGANIZER, api.clock(), payload)
    service.store.append(org.id, service.tournament(org.id).last_seq, [legacy], [])

    board = org.standings()["rounds"][0]["pairings"][0]
    assert (board["result"], board["drawn"]) == (None, True)
    refused = org.post("/rounds")
    assert (refused.status_code, refused.json()["code"]) == (409, "round_not_finished")
    assert "board 1" in refused.json()["message"]
    decided = org.post("/forfeits", payload | {"winner": one["second"]})
    assert decided.status_code == 201, decided.text
    final = org.pair()["pairings"]
    assert [{b["first"], b["second"]} for b in final] == [{two["first"], one["second"]}]
    report = org.get("/verify")
    assert report["ok"], [c for c in report["checks"] if not c["ok"]]


def test_a_draw_ruled_after_the_next_round_was_paired_marks_that_pairing_stale(
    api: Api, org: Organizer
) -> None:
    """A retroactive draw in a knockout match already followed by the next round: the standings
    still answer, the board has no result from then on, the later round is named as paired on
    a result since changed, and verify recomputes every pairing from the results of its time."""
    org.create(EIGHT[:4], format="single_elimination", tiebreaks=[])
    one, two = org.pair()["pairings"]
    play_round(api, {"pairings": [one, two]}, better_seed)
    org.pair()
    api.clock.advance(60)
    declare(api, one, None)
    table = org.standings()
    assert table["rounds"][0]["pairings"][0]["result"] is None
    assert table["stale_pairings"], table["stale_pairings"]
    report = org.get("/verify")
    assert report["ok"], [c for c in report["checks"] if not c["ok"]]


@pytest.mark.parametrize("format_", ["single_elimination", "double_elimination"])
def test_a_knockout_result_changed_after_the_next_round_was_paired_keeps_the_bracket_as_played(
    api: Api, org: Organizer, format_: str
) -> None:
    """Round 1's host gives the match to the other player once round 2 is paired (a retroactive
    ruling): the played rounds are not paired again, so the bracket goes on as it was paired
    (the old winner plays on, the change is named in ``stale_pairings``); the standings, the
    next pairing and the verify all answer. Before, the bracket's replay no longer found the
    recorded round 2 and every one of them answered 422 ``bad_round`` from then on."""
    org.create(EIGHT[:4], format=format_, tiebreaks=[])
    first = org.pair()
    play_round(api, first, better_seed)
    second = org.pair()
    api.clock.advance(60)
    board = first["pairings"][0]
    loser = (
        board["second"]
        if better_seed(board["first"], board["second"]) == board["first"]
        else board["first"]
    )
    declare(api, board, loser)
    table = org.standings()
    assert table["rounds"][0]["pairings"][0]["result"]["winner"] == loser
    assert [s["round"] for s in table["stale_pairings"]] == [2]
    play_round(api, second, better_seed)
    for _ in range(6):
        response = org.post("/rounds")
        if response.status_code == 409:
            assert response.json()["code"] == "tournament_finished", response.text
            break
        assert response.status_code == 201, response.text
        play_round(api, response.json(), better_seed)
    table = org.standings()
    assert table["finished"] and table["champion"] == "p1"
    report = org.get("/verify")
    assert report["ok"], [c for c in report["checks"] if not c["ok"]]


def test_a_ruling_committed_while_a_round_is_being_paired_does_not_fail_the_verify(
    api: Api, org: Organizer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A host's ruling that commits after the pairing read the results but before the pairing
    is recorded carries an earlier record time than the pairing: read by record time, it was
    "known" to the pairing, whose basis lacks it, and the verify called the honest pairing's
    basis false. The pairing records the last seq of each match it read (``known_seqs``), and
    the verify reads exactly those, online and offline; the changed result is a stale pairing."""
    org.create(EIGHT[:4])
    first = org.pair()
    play_round(api, first, first_wins)
    board = first["pairings"][0]
    read_now = TournamentService._results_now

    def racing(self: TournamentService, t: Any) -> Any:
        found = read_now(self, t)
        grant = TokenGrant(board["match_id"], "host", None)
        late = DeclareResult(winner="beta", reason="the host's late correction")
        host.rule(self.matches, board["match_id"], grant, late)
        return found

    monkeypatch.setattr(TournamentService, "_results_now", racing)
    second = org.pair()
    monkeypatch.undo()
    paired = api.client.get(f"/tournaments/{org.id}/events").json()[-1]
    assert paired["payload"]["known_seqs"][board["match_id"]] > 0
    report = org.get("/verify")
    assert report["ok"], [c for c in report["checks"] if not c["ok"]]
    bundle = api.client.get(f"/tournaments/{org.id}/export", headers=api.auth(org.token)).text
    games = api.client.app.state.service.games  # type: ignore[attr-defined]
    offline = verify_bundle(bundle, games)
    assert offline["ok"], [c for c in offline["checks"] if not c["ok"]]
    assert [s["round"] for s in org.standings()["stale_pairings"]] == [second["round"]]
