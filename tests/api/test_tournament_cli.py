"""``adjudicator tournament …`` against the HTTP API, and ``adjudicator verify BUNDLE``
offline: create, pair, standings as a table and as JSON, the service's verify, export, and the
exported bundle verified (and a forged one refused) without the service."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from pathlib import Path
from typing import Any

import pytest

from api.cli import tournament as tournament_cli
from api.cli.main import main, parser
from api.cli.tournament import tournament_command
from api.service import tournament_audit
from api.service.tournament_audit import Job, in_turn
from tests.api.conftest import OPERATOR, Api
from tests.api.tournament_client import declare


def run(api: Api, capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    args = parser().parse_args(["tournament", *argv])
    code = tournament_command(args, client=api.client)
    out, err = capsys.readouterr()
    return code, out, err


def play(api: Api, capsys: pytest.CaptureFixture[str], tid: str, token: str) -> None:
    code, out, _ = run(api, capsys, "pair", tid, "--token", token)
    assert code == 0
    paired: dict[str, Any] = json.loads(out)
    for board in paired["pairings"]:
        if board["second"] is not None:
            winner = min(board["first"], board["second"], key=lambda p: int(p[1:]))
            declare(api, board, winner)


def test_a_tournament_run_by_the_command_line(
    api: Api, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(
        api, capsys, "create", "--name", "Cup", "--game", "zoom", "--format", "round_robin",
        "--tiebreak", "sonneborn_berger", "--player", "Ada", "--player", "Bo",
        "--player", "Cy", "--token", OPERATOR, "--config", '{"rounds": 3}',
    )  # fmt: skip
    assert code == 0, out
    made = json.loads(out)
    tid, token = made["tournament_id"], made["organizer_token"]
    assert made["config"]["rounds"] == 3

    refused = run(api, capsys, "pair", tid, "--token", OPERATOR)
    assert refused[0] == 1 and "403 not_organizer" in refused[2]
    for _ in range(3):
        play(api, capsys, tid, token)

    code, table, _ = run(api, capsys, "standings", tid)
    lines = table.splitlines()
    assert lines[0].split() == [
        "rank",
        "player",
        "name",
        "points",
        "wins",
        "played",
        "sonneborn_berger",
    ]
    assert lines[1].split()[:4] == ["1", "p1", "Ada", "3.0"]  # two wins and a bye
    assert "finished, champion p1" in table
    code, answer, _ = run(api, capsys, "standings", tid, "--json")
    assert json.loads(answer)["champion"] == "p1"

    code, report, _ = run(api, capsys, "verify", tid)
    assert code == 0 and report.splitlines()[-1].endswith("verified")
    assert report.splitlines()[-2].startswith("the service's verify began at 20")

    bundle = tmp_path / "cup.json"
    assert run(api, capsys, "export", tid, "-o", str(bundle))[0] == 1  # the organizer's
    assert run(api, capsys, "export", tid, "-o", str(bundle), "--token", token)[0] == 0
    assert main(["verify", "--jobs", "1", str(bundle)]) == 0
    assert "verified" in capsys.readouterr().out
    side_by_side = subprocess.run(  # forked workers: in a process of its own, not pytest's
        [sys.executable, "-m", "api.cli.main", "verify", "--jobs", "2", str(bundle)],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert side_by_side.returncode == 0, side_by_side.stderr
    assert side_by_side.stdout.count("ok   pairing round") == 3

    forged = tmp_path / "forged.json"
    data = json.loads(bundle.read_text())
    match_id = next(iter(data["matches"]))
    data["matches"][match_id] = data["matches"][match_id].replace('"beta"', '"gamma"', 1)
    forged.write_text(json.dumps(data))
    assert main(["verify", "--jobs", "1", "--json", str(forged)]) == 1
    report_json = json.loads(capsys.readouterr().out)
    assert not next(c for c in report_json["checks"] if c["name"] == f"match {match_id}")["ok"]


def test_a_bundle_verified_with_key_checks_each_match_s_transparency_log_proof(
    api: Api, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``verify BUNDLE --key KEYS`` adds each match record's transparency-log checks to its
    check (the key was once ignored for a bundle, silently): a match not closed carries no
    proof and fails; a byte changed that the hash chain cannot see (a space in an envelope)
    verifies without the key and fails its log leaf with it; forked workers check the same.
    The tournament's own log is checked against its proof (``seal``): it fails until the
    organizer seals the finished event, which closes the last open match."""
    code, out, _ = run(
        api, capsys, "create", "--name", "Cup", "--game", "zoom", "--format", "round_robin",
        "--player", "Ada", "--player", "Bo", "--player", "Cy", "--token", OPERATOR,
    )  # fmt: skip
    made = json.loads(out)
    tid, token = made["tournament_id"], made["organizer_token"]
    boards = []
    for _ in range(3):
        code, out, _ = run(api, capsys, "pair", tid, "--token", token)
        board = next(b for b in json.loads(out)["pairings"] if b["second"] is not None)
        declare(api, board, board["first"])
        boards.append(board)
    for board in boards[:2]:
        closed = api.client.post(
            f"/matches/{board['match_id']}/close", headers=api.auth(board["tokens"]["host"])
        )
        assert closed.status_code == 201, closed.text
    keys = tmp_path / "keys.json"
    keys.write_text(api.client.get("/.well-known/adjudicator-keys").text)
    bundle = tmp_path / "cup.json"

    def verified(*flags: str) -> tuple[int, dict[str, dict[str, Any]]]:
        code = main(["verify", "--jobs", "1", "--json", *flags, str(bundle)])
        checks = json.loads(capsys.readouterr().out)["checks"]
        return code, {c["name"]: c for c in checks}

    assert run(api, capsys, "export", tid, "-o", str(bundle), "--token", token)[0] == 0
    code, checks = verified("--key", str(keys))
    open_match = f"match {boards[2]['match_id']}"
    assert code == 1
    assert checks[open_match]["detail"] == (
        "log_leaf: the record carries no transparency-log proof"
    )
    for board in boards[:2]:
        assert checks[f"match {board['match_id']}"] == {
            "name": f"match {board['match_id']}",
            "ok": True,
            "detail": tournament_audit.LOGGED_MATCH_OK,
            "seq": None,
        }
    assert checks["seal"] == {
        "name": "seal",
        "ok": False,
        "detail": "log_leaf: the record carries no transparency-log proof",
        "seq": None,
    }
    assert verified()[0] == 0  # without the key: the records' own checks

    code, out, _ = run(api, capsys, "seal", tid, "--reason", "final", "--token", token)
    assert code == 0, out  # closes the last match, then signs the log
    assert json.loads(out)["type"] == "tournament.sealed"
    assert run(api, capsys, "export", tid, "-o", str(bundle), "--token", token)[0] == 0
    code, checks = verified("--key", str(keys))
    assert code == 0, checks
    assert checks["seal"]["detail"] == tournament_audit.SEALED_OK
    side_by_side = subprocess.run(  # forked workers: in a process of its own, not pytest's
        [sys.executable, "-m", "api.cli.main", "verify", "--jobs", "2", "--key", str(keys),
         str(bundle)],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert side_by_side.returncode == 0, side_by_side.stdout + side_by_side.stderr
    assert side_by_side.stdout.count(tournament_audit.LOGGED_MATCH_OK) == 3
    assert tournament_audit.SEALED_OK in side_by_side.stdout

    data = json.loads(bundle.read_text())
    changed = boards[0]["match_id"]
    assert '"seq": 3,' in data["matches"][changed]
    data["matches"][changed] = data["matches"][changed].replace('"seq": 3,', '"seq": 3 ,', 1)
    bundle.write_text(json.dumps(data))
    assert verified()[0] == 0  # the envelopes are hashed in their canonical form
    code, checks = verified("--key", str(keys))
    assert code == 1
    assert checks[f"match {changed}"]["detail"].startswith("log_leaf: ")
    assert "record_sha256" in checks[f"match {changed}"]["detail"]


def test_create_registers_each_players_chat_authors(
    api: Api, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["create", "--name", "Cup", "--game", "zoom", "--format", "round_robin",
            "--player", "Ada", "--player", "Bo", "--token", OPERATOR]  # fmt: skip
    code, out, _ = run(api, capsys, *base, "--chat-author", "Ada=411", "--chat-author", "Ada=ada")
    assert code == 0, out
    assert [p["chat_authors"] for p in json.loads(out)["players"]] == [["411", "ada"], []]
    for bad in ("Cy=1", "Ada", "Ada="):
        code, _, err = run(api, capsys, *base, "--chat-author", bad)
        assert code != 0 and "--chat-author takes NAME=AUTHOR" in err, (bad, err)
    code, _, err = run(api, capsys, *base, "--chat-author", "Ada=7", "--chat-author", "Bo=7")
    assert code == 1 and "422 duplicate_chat_author" in err


def test_an_event_ended_early_by_the_command_line(
    api: Api, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(
        api, capsys, "create", "--name", "Cup", "--game", "zoom", "--format", "round_robin",
        "--player", "Ada", "--player", "Bo", "--player", "Cy", "--player", "Di",
        "--token", OPERATOR,
    )  # fmt: skip
    made = json.loads(out)
    tid, token = made["tournament_id"], made["organizer_token"]
    play(api, capsys, tid, token)
    conclude = ["conclude", tid, "--reason", "the venue closed"]
    assert run(api, capsys, *conclude)[0] == 1  # the organizer's token is needed
    code, out, _ = run(api, capsys, *conclude, "--token", token)
    assert code == 0 and json.loads(out)["type"] == "tournament.concluded"
    code, table, _ = run(api, capsys, "standings", tid)
    assert "finished, champion p1 (ended early: the venue closed)" in table
    refused = run(api, capsys, "pair", tid, "--token", token)
    assert refused[0] == 1 and "409 tournament_finished" in refused[2]


def test_an_unknown_tournament_and_an_unreachable_service_are_clear(
    api: Api, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(api, capsys, "standings", "nope")
    assert code == 1 and "404 unknown_tournament" in err
    args = parser().parse_args(["tournament", "standings", "x", "--url", "http://127.0.0.1:9"])
    assert tournament_command(args) == 2
    assert "did not answer" in capsys.readouterr().err


def test_side_by_side_runs_each_job_once_its_needs_are_done_and_gives_what_in_turn_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The scheduler of ``verify --jobs N`` (threads stand in for the forked workers here, the
    slow test above forks): a job starts only once every job it needs has given its output,
    is handed those outputs in order, and the outputs come back in the jobs' order, as
    ``in_turn`` gives them; jobs that need each other are refused, not waited on."""
    started: list[int] = []

    def work(name: int, *needed: Any) -> tuple[int, tuple[Any, ...]]:
        started.append(name)
        return name, needed

    needs = [(), (), (0,), (1, 0), (), (2, 3), (4,)]
    jobs = [Job(partial(work, i), n) for i, n in enumerate(needs)]
    monkeypatch.setattr(tournament_cli, "_JOBS", jobs)
    with ThreadPoolExecutor(max_workers=2) as pool:
        outputs = tournament_cli._scheduled(pool, jobs, 2)
    assert outputs == in_turn(jobs)
    assert outputs[5] == (5, (outputs[2], outputs[3]))
    for i, need in enumerate(needs):
        assert all(started.index(n) < started.index(i) for n in need)
    circle = [Job(partial(work, 0), (1,)), Job(partial(work, 1), (0,))]
    monkeypatch.setattr(tournament_cli, "_JOBS", circle)
    with ThreadPoolExecutor(max_workers=2) as pool, pytest.raises(ValueError, match="none can"):
        tournament_cli._scheduled(pool, circle, 2)


def _killed(*args: object) -> object:
    os._exit(1)  # a worker that dies as an out-of-memory kill would end it


@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_a_bundle_verify_whose_worker_dies_is_one_error_line_and_exit_2(
    api: Api,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    code, out, _ = run(
        api, capsys, "create", "--name", "Cup", "--game", "zoom", "--format", "round_robin",
        "--player", "Ada", "--player", "Bo", "--token", OPERATOR,
    )  # fmt: skip
    assert code == 0, out
    made = json.loads(out)
    play(api, capsys, made["tournament_id"], made["organizer_token"])
    bundle = tmp_path / "cup.json"
    exported = run(
        api, capsys, "export", made["tournament_id"], "-o", str(bundle),
        "--token", made["organizer_token"],
    )  # fmt: skip
    assert exported[0] == 0
    monkeypatch.setattr(tournament_audit, "_checked", _killed)

    assert main(["verify", "--jobs", "2", str(bundle)]) == 2

    assert capsys.readouterr().err.startswith("error: a verifying process stopped:")
