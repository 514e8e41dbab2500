"""An organizer seals a finished event (``POST /tournaments/{id}/seal``): its open matches are
closed as their hosts would close them, ``tournament.sealed`` names every match with the hash of
its last event, and the tournament's log becomes a leaf of the transparency log in the same
transaction. Its standings are final from then on; the online verify checks the seal, and
``adjudicator verify BUNDLE --key`` proves the whole event offline."""

from __future__ import annotations

import json
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
import pytest

from adjudicator.kernel.canonical import canonical_json
from adjudicator.kernel.errors import DomainError
from api.cli import log as log_cli
from api.cli.log import LogTrust
from api.service import tournament_audit
from api.service.tournament_audit import SEALED_OK, seal_leaf_check, verify_bundle
from api.service.tournaments import TournamentService
from events import tlog
from events.record import loads
from events.signing import current_signer
from tests.api.conftest import Api
from tests.api.test_tournaments import EIGHT, better_seed
from tests.api.tournament_client import Organizer, play_round


@pytest.fixture
def org(api: Api) -> Organizer:
    return Organizer(api)


def code(response: httpx.Response) -> tuple[int, str]:
    return response.status_code, response.json()["code"]


def match_ids(org: Organizer) -> list[str]:
    return [b["match_id"] for r in org.get("")["rounds"] for b in r["pairings"] if b["match_id"]]


def status_of(api: Api, match_id: str, board_token: str) -> str:
    answer = api.client.get(f"/matches/{match_id}", headers=api.auth(board_token))
    assert answer.status_code == 200, answer.text
    status: str = answer.json()["status"]
    return status


def bundle_of(api: Api, org: Organizer) -> str:
    answer = api.client.get(f"/tournaments/{org.id}/export", headers=api.auth(org.token))
    assert answer.status_code == 200, answer.text
    text: str = answer.text
    return text


def trust(api: Api) -> LogTrust:
    return LogTrust(api.client.get("/.well-known/adjudicator-keys").text)


def games(api: Api) -> Any:
    return api.client.app.state.service.games  # type: ignore[attr-defined]


def test_a_seal_before_the_event_is_finished_is_refused_and_changes_nothing(
    api: Api, org: Organizer
) -> None:
    org.create(EIGHT[:4])
    play_round(api, org.pair(), better_seed)
    org.pair()
    events = org.get("/events")
    refused = org.post("/seal", {"reason": "done"})
    assert code(refused) == (409, "tournament_not_finished")
    assert org.get("/events") == events
    hosts = {b["match_id"]: b["tokens"]["host"] for r in org.rounds for b in r["pairings"]}
    assert "closed" not in {status_of(api, m, hosts[m]) for m in match_ids(org)}
    assert org.post("/seal", {}).status_code == 422  # a reason is required
    assert code(org.post("/seal", {"reason": "x"}, token="nope")) == (403, "not_organizer")


def test_a_sealed_event_is_final_proven_online_and_offline(
    api: Api, org: Organizer, tmp_path: Path
) -> None:
    org.create(EIGHT[:4])
    for _ in range(3):
        play_round(api, org.pair(), better_seed)
    board = org.rounds[0]["pairings"][0]
    host = board["tokens"]["host"]
    closed = api.client.post(f"/matches/{board['match_id']}/close", headers=api.auth(host))
    assert closed.status_code == 201  # one closed by its host already: the seal keeps it
    before = org.standings()
    assert before["finished"] and before["sealed"] is None
    assert [t["sealed_leaf"] for t in api.client.get("/tournaments").json()] == [None]
    size = api.client.get("/log/entries", params={"start": 0}).json()["tree_size"]

    sealed = org.post("/seal", {"reason": "final standings"})
    assert sealed.status_code == 201, sealed.text
    event = sealed.json()
    assert event["type"] == "tournament.sealed"
    hosts = {b["match_id"]: b["tokens"]["host"] for r in org.rounds for b in r["pairings"]}
    ids = match_ids(org)
    assert set(event["payload"]["matches"]) == set(ids) and len(ids) == 6
    for match_id in ids:
        assert status_of(api, match_id, hosts[match_id]) == "closed"
        log = api.client.get(f"/matches/{match_id}/events", headers=api.auth(hosts[match_id]))
        assert event["payload"]["matches"][match_id] == log.json()[-1]["hash"]
    entries = api.client.get("/log/entries", params={"start": size}).json()["entries"]
    assert [e["kind"] for e in entries] == ["match"] * 5 + ["tournament"]  # 5 closed by it
    listed = {t["tournament_id"]: t for t in api.client.get("/tournaments").json()}
    assert listed[org.id]["sealed_leaf"] == entries[-1]["index"]
    leaf = json.loads(entries[-1]["leaf"])
    assert leaf["tournament_id"] == org.id and leaf["chain_head"] == event["hash"]
    assert leaf["matches"] == event["payload"]["matches"]

    after = org.standings()
    assert after["sealed"] == "final standings" and org.get("")["sealed"] == "final standings"
    assert after["rows"] == before["rows"] and after["champion"] == before["champion"]
    events = org.get("/events")
    for path, body in [
        ("/seal", {"reason": "again"}),
        ("/rounds", None),
        ("/conclusion", {"reason": "x"}),
        ("/withdrawals", {"player": "p1", "reason": "late"}),
        ("/forfeits", {"round": 3, "board": 1, "winner": None, "reason": "x"}),
    ]:
        assert code(org.post(path, body)) == (409, "tournament_sealed"), path
    assert org.get("/events") == events
    ruling = {"type": "declare_result", "winner": "beta", "reason": "late appeal"}
    late = api.client.post(
        f"/matches/{ids[0]}/rulings", json=ruling, headers=api.auth(hosts[ids[0]])
    )
    assert code(late) == (409, "match_closed")  # the standings are final

    report = org.get("/verify")
    assert report["ok"], [c for c in report["checks"] if not c["ok"]]
    assert {"name": "seal", "ok": True, "detail": SEALED_OK, "seq": None} in report["checks"]

    text = bundle_of(api, org)
    assert bundle_of(api, org) == text  # byte-stable once sealed
    offline = verify_bundle(text, games(api), log_checks=trust(api).checks)
    assert offline["ok"], [c for c in offline["checks"] if not c["ok"]]
    assert offline["checks"][1] == {"name": "seal", "ok": True, "detail": SEALED_OK, "seq": None}
    standings = offline["checks"][-1]  # recomputed offline from the records, as online
    assert standings["name"].startswith("standings (sealed") and standings["ok"]
    assert standings == next(c for c in report["checks"] if c["name"] == standings["name"])

    data = json.loads(text)  # a space in an envelope: the chain cannot see it, the leaf can
    assert '"seq": 2,' in data["log"]
    data["log"] = data["log"].replace('"seq": 2,', '"seq": 2 ,', 1)
    changed = json.dumps(data)
    assert verify_bundle(changed, games(api))["ok"]
    failed = verify_bundle(changed, games(api), log_checks=trust(api).checks)
    seal = next(c for c in failed["checks"] if c["name"] == "seal")
    assert not failed["ok"] and seal["detail"].startswith("log_leaf: ")
    assert "record_sha256" in seal["detail"]


def test_a_concluded_event_is_sealed_and_the_seal_names_the_records_beside_it(
    api: Api, org: Organizer
) -> None:
    org.create(EIGHT[:5], format="swiss", rounds=4, tiebreaks=["buchholz"])
    play_round(api, org.pair(), better_seed)
    assert org.post("/conclusion", {"reason": "snowed in"}).status_code == 201
    sealed = org.post("/seal", {"reason": "as it stands"})
    assert sealed.status_code == 201, sealed.text
    assert org.get("/verify")["ok"]
    text = bundle_of(api, org)
    assert verify_bundle(text, games(api), log_checks=trust(api).checks)["ok"]

    log = loads(json.loads(text)["log"])
    heads = dict(log.events[-1].payload["matches"])
    assert seal_leaf_check(heads)(log).ok
    first = sorted(heads)[0]
    other = {**heads, first: "0" * 64}  # a record beside it that is not the one sealed
    wrong = seal_leaf_check(other)(log)
    assert not wrong.ok and "matches" in wrong.detail
    fewer = {m: h for m, h in heads.items() if m != first}
    assert not seal_leaf_check(fewer)(log).ok
    assert tournament_audit.seal_check(log, heads, trust(api).checks).ok


def test_two_seals_at_once_and_two_replicas_record_one_seal(api: Api, org: Organizer) -> None:
    """A double click, and two replicas (two services, one store): both close the matches
    (a match closed by the other is left as it is), one records the seal and its leaf, the
    others are refused (``tournament_sealed``, or ``version_conflict`` across replicas):
    one seal event, one tournament leaf, every match closed once."""
    org.create(EIGHT[:4])
    for _ in range(3):
        play_round(api, org.pair(), better_seed)
    service: TournamentService = api.client.app.state.tournaments  # type: ignore[attr-defined]
    other = TournamentService(service.matches)
    size = api.client.get("/log/entries", params={"start": 0}).json()["tree_size"]
    start = threading.Barrier(3, timeout=5)
    answers: list[str] = []

    def seal(by: TournamentService) -> None:
        start.wait()
        try:
            answers.append(by.seal(org.id, "final").type)
        except DomainError as refusal:
            answers.append(refusal.code)

    threads = [threading.Thread(target=seal, args=(s,)) for s in (service, service, other)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert answers.count("tournament.sealed") == 1, answers
    assert set(answers) <= {"tournament.sealed", "tournament_sealed", "version_conflict"}
    events = api.client.get(f"/tournaments/{org.id}/events").json()
    assert [e["type"] for e in events].count("tournament.sealed") == 1
    entries = api.client.get("/log/entries", params={"start": size}).json()["entries"]
    assert sorted(e["kind"] for e in entries) == ["match"] * 6 + ["tournament"]
    assert org.get("/verify")["ok"]


def test_the_sealed_standings_are_recomputed_from_the_match_results(
    api: Api, org: Organizer
) -> None:
    """The seal records each player's rank and the champion (as read from the matches, like a
    pairing's ``known_seqs``); the verify recomputes them: another champion, other ranks, or
    an event recorded after the seal fail the check."""
    org.create(EIGHT[:4])
    for _ in range(3):
        play_round(api, org.pair(), better_seed)
    table = org.standings()
    assert org.post("/seal", {"reason": "final"}).status_code == 201
    service: TournamentService = api.client.app.state.tournaments  # type: ignore[attr-defined]
    events = service.events(org.id)
    sealed = events[-1]
    assert sealed.payload["champion"] == table["champion"] == "p1"
    assert sealed.payload["standings"] == [
        {"rank": row["rank"], "player": row["player"]} for row in table["rows"]
    ]
    report = org.get("/verify")
    check = next(c for c in report["checks"] if c["name"].startswith("standings"))
    assert check == {
        "name": f"standings (sealed, seq {sealed.seq})",
        "ok": True,
        "detail": "4 players ranked, champion p1: recomputed from the results",
        "seq": None,
    }
    ids = service.tournament(org.id).match_ids()
    _, logs = service.store.match_streams(ids)
    read = tournament_audit.log_reader(logs, games(api))
    last = len(events) - 1

    def checked(changed: dict[str, Any], after: int = 0) -> dict[str, Any]:
        forged = [*events[:-1], replace(sealed, payload={**sealed.payload, **changed})]
        forged += [replace(sealed, seq=sealed.seq + 1 + i) for i in range(after)]
        return tournament_audit.reading_check_at(forged, last, read).as_json()

    assert checked({})["ok"]
    assert checked({"champion": "p2"})["detail"] == (
        "the sealed champion differs from the recomputed p1"
    )
    ranks = [*reversed(sealed.payload["standings"])]
    assert checked({"standings": ranks})["detail"] == "the sealed ranks differ from the recomputed"
    after = checked({}, after=1)
    assert after["detail"] == "events are recorded after the seal" and not after["ok"]


def test_a_log_watcher_checks_each_tournament_leaf_against_the_match_leaves_it_names(
    api: Api, org: Organizer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``adjudicator log watch`` follows the log; a tournament leaf added since its last look
    must name matches whose own leaves, earlier in the same tree, have the hashes it names. A
    leaf that names a match with another head, or one never logged, makes it exit 1."""
    org.create(EIGHT[:4])
    for _ in range(3):
        play_round(api, org.pair(), better_seed)
    state = tmp_path / "seen.json"
    assert log_cli.watch("http://testserver", str(state), None, client=api.client) == 0
    assert org.post("/seal", {"reason": "final"}).status_code == 201
    assert log_cli.watch("http://testserver", str(state), None, client=api.client) == 0
    capsys.readouterr()

    store = api.client.app.state.service.store  # type: ignore[attr-defined]
    first = match_ids(org)[0]
    named = {first: "0" * 64, "gone": "1" * 64}
    forged = canonical_json({"tournament_id": "forged", "matches": named})
    now = api.clock.now
    with store._writer() as conn:  # a log that signs what its match leaves contradict
        index, known = tlog.append_reading(conn, "tournament", None, forged, now, tournament_id="x")
        signer = current_signer(conn, store.signer)
        assert signer is not None
        tlog.store_checkpoint(conn, index + 1, signer, now, known)
    assert log_cli.watch("http://testserver", str(state), None, client=api.client) == 1
    err = capsys.readouterr().err
    assert f"match {first} has another last hash in its own leaf" in err
    assert "match gone has no leaf in the log" in err
