"""The command line: options checked by argparse, JSON where tools read the output, one-line
errors (exit 2) instead of tracebacks, and a ``help`` that lists every command."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path
from uuid import uuid4

import pytest

from api.cli.demo_nnt import kind_order
from api.cli.demo_run import max_rounds, rounds_problem
from api.cli.main import commands, main, parser

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
ZOOM_RECORD = GOLDEN / "zoom" / "zoom-11-rounds.match.jsonl"
UNREACHABLE = "postgresql+psycopg://postgres@127.0.0.1:1/nothing_here"


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``argv``, expecting argparse to refuse it (exit 2); the error line it printed."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1]


@pytest.mark.parametrize("rounds", ["0", "-3"])
def test_demo_refuses_fewer_than_one_round(rounds: str, capsys: pytest.CaptureFixture[str]) -> None:
    line = refused(["demo", "--rounds", rounds], capsys)
    assert line == f"adjudicator demo: error: argument --rounds: must be at least 1, not {rounds}"


@pytest.mark.parametrize("extra", [["--game", "zombego"], ["--rounds", "3"]])
def test_the_tournament_demo_takes_no_game_nor_rounds(
    extra: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    line = refused(["demo", "--tournament", *extra], capsys)
    assert line.endswith("--tournament plays the README's Zoom round robin: leave out --game and"
                         " --rounds")  # fmt: skip


def test_demo_refuses_more_rounds_than_the_game_allows(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(["demo", "--rounds", "51"], capsys).endswith("zoom plays 1 to 50 rounds, not 51")
    line = refused(["demo", "--game", "no_not_that", "--rounds", "65"], capsys)
    assert line.endswith("no_not_that plays 1 to 64 rounds, not 65")
    line = refused(["demo", "--game", "zombego", "--rounds", "3"], capsys)
    assert line.endswith("zombego has no rounds: leave out --rounds")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["demo", "--seed", "x"], "argument --seed: not an integer: 'x'"),
        (["demo", "--seed", "-1"], "argument --seed: must be from 0 to 9223372036854775807"),
        (["demo", "--port", "70000"], "argument --port: must be from 1 to 65535, not 70000"),
        (["demo", "--game", "chess"], "argument --game: invalid choice: 'chess'"),
        (["serve", "--port", "0"], "argument --port: must be from 1 to 65535, not 0"),
        (["serve", "--workers", "0"], "argument --workers: must be at least 1, not 0"),
        (["serve", "--workers", "-2"], "argument --workers: must be at least 1, not -2"),
    ],
)
def test_bad_option_values_are_argparse_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert message in refused(argv, capsys)


def test_the_round_limits_come_from_each_games_config() -> None:
    assert (max_rounds("zoom"), max_rounds("no_not_that"), max_rounds("zombego")) == (50, 64, None)
    assert rounds_problem("zoom", 50) is None
    assert rounds_problem("no_not_that", None) is None


def test_help_lists_every_command_once_with_one_line_each(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["help"]) == 0

    *rows, last = capsys.readouterr().out.splitlines()
    listed = [tuple(re.split(r"\s{2,}", row.strip(), maxsplit=1)) for row in rows]
    assert listed == commands(parser())
    names = [name for name, _ in listed]
    assert len(names) == len(set(names))
    core = {"serve", "db upgrade", "demo", "export", "ludii-export", "verify", "import", "help"}
    assert core <= set(names)
    assert all(text for _, text in listed)
    assert "--help" in last


def test_import_prints_json_with_the_tokens_and_the_verify_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = f"sqlite:///{tmp_path / 'store.sqlite3'}"

    assert main(["import", str(ZOOM_RECORD), "--database-url", store]) == 0

    printed = json.loads(capsys.readouterr().out)
    header = json.loads(ZOOM_RECORD.read_text(encoding="utf-8").splitlines()[0])
    assert printed["imported"] is True
    assert (printed["match_id"], printed["game"]) == (header["match_id"], "zoom")
    assert set(printed["tokens"]) == {"host", "auditor", "seats"}
    assert set(printed["tokens"]["seats"]) == {"alpha", "beta"}
    assert printed["verify"]["ok"] is True
    assert {c["name"] for c in printed["verify"]["checks"]} >= {"chain", "refold"}


def test_importing_the_same_match_twice_is_refused_in_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    assert main(["import", str(ZOOM_RECORD), "--database-url", store]) == 0
    capsys.readouterr()

    assert main(["import", str(ZOOM_RECORD), "--database-url", store]) == 1

    captured = capsys.readouterr()
    assert json.loads(captured.out)["code"] == "match_exists"
    assert len(captured.err.splitlines()) == 1 and captured.err.startswith("error: refused")


def test_verify_can_print_the_report_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "--json", str(ZOOM_RECORD)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is True and report["first_bad_seq"] is None


def one_error_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("error: ")
    return lines[0]


def test_db_upgrade_against_an_unreachable_server_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    line = one_error_line(["db", "upgrade", "--database-url", UNREACHABLE], capsys)
    assert line.startswith("error: database postgresql+psycopg://postgres@127.0.0.1:1/nothing_here")
    assert "Connection refused" in line


@pytest.mark.skipif(not os.environ.get("DATABASE_URL"), reason="needs a PostgreSQL server")
def test_db_upgrade_against_a_missing_database_is_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from events.engine import normalise_url

    server = normalise_url(os.environ["DATABASE_URL"])
    missing = server.set(database=f"missing_{uuid4().hex}").render_as_string(hide_password=False)
    line = one_error_line(["db", "upgrade", "--database-url", missing], capsys)
    assert "does not exist" in line


@pytest.mark.parametrize("url", ["bogus://x", "not a url"])
def test_a_database_url_that_is_no_url_is_one_line(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert one_error_line(["db", "upgrade", "--database-url", url], capsys).startswith(
        "error: database "
    )


def test_export_from_an_unreachable_store_and_import_of_a_missing_file_are_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one_error_line(["export", "some-match", "--database-url", UNREACHABLE], capsys)
    store = f"sqlite:///{tmp_path / 'store.sqlite3'}"
    line = one_error_line(
        ["import", str(tmp_path / "absent.jsonl"), "--database-url", store], capsys
    )
    assert "cannot read" in line


def test_the_demo_of_no_not_that_honours_its_seed() -> None:
    assert kind_order(6) == [0, 1, 2, 3, 0, 1]
    seeded = kind_order(16, seed=5)
    assert seeded == kind_order(16, seed=5)
    assert any(kind_order(16, seed=s) != seeded for s in range(6, 10))
    assert all(sorted(seeded[i : i + 4]) == [0, 1, 2, 3] for i in range(0, 16, 4))


def test_dev_help_lists_its_own_tasks_and_every_cli_command() -> None:
    root = Path(__file__).resolve().parents[3]
    done = subprocess.run(
        ["bash", str(root / "dev"), "help"], capture_output=True, text=True, timeout=120, check=True
    )
    lines = [line.strip() for line in done.stdout.splitlines()]
    assert any(line.startswith("test ") for line in lines)
    for name, text in commands(parser()):
        assert [line for line in lines if re.split(r"\s{2,}", line) == [name, text]], name


def test_operator_token_rotate_revokes_every_earlier_token(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from api.service.tokens import token_hash
    from events import EventStore

    url = f"sqlite:///{tmp_path / 'ops.sqlite3'}"
    assert main(["operator-token", "rotate", "--database-url", url]) == 0
    said = json.loads(capsys.readouterr().out)
    first = said["operator_token"]
    assert said["revoked"] == 0  # a fresh database had no operator token to revoke
    assert main(["operator-token", "rotate", "--database-url", url]) == 0
    said = json.loads(capsys.readouterr().out)
    second = said["operator_token"]
    assert said["revoked"] == 1
    store = EventStore.from_url(url)
    try:
        assert store.has_operator_token(token_hash(second))
        assert not store.has_operator_token(token_hash(first))
        assert main(["operator-token", "revoke", "--database-url", url]) == 0
        assert store.operator_token_count() == 0
    finally:
        store.dispose()


# ``transcript preview|enter``: files read by the upload's bytes reader; ``--correct``.

ZOOM_EXPORT = Path(__file__).resolve().parents[2] / "fixtures" / "transcripts" / "zoom-channel.json"
ZOOM_CONFIG = {
    "rounds": 2,
    "targets_per_round": 2,
    "supplied_rounds": {
        "1": {"grid": ["ABCD", "EFGH", "IJKL", "MNOP"], "targets": {"A": ["FG"], "B": ["K"]}},
        "2": {"grid": ["QRST", "UVWX", "YZ12", "3456"], "targets": {"A": ["6"], "B": ["Q"]}},
    },
}


def zoom_store(tmp_path: Path) -> tuple[str, str]:
    """A SQLite store holding one Zoom match (the fixture export's): (url, match id)."""
    from datetime import UTC, datetime

    from adjudicator import registry
    from api.service.matches import MatchService
    from events import EventStore
    from events.migrate import upgrade

    url = f"sqlite:///{tmp_path / 'transcript.sqlite3'}"
    upgrade(url)
    store = EventStore.from_url(url)
    try:
        service = MatchService(store, registry.games(frozenset()), lambda: datetime.now(UTC))
        drafted = service.new_match("zoom", ("alpha", "beta"), "beta", ZOOM_CONFIG, seed=5)
        made = service.create(drafted)
        return url, made.match.match_id
    finally:
        store.dispose()


def transcript(tmp_path: Path, *more: str) -> list[str]:
    url, match_id = zoom_store(tmp_path)
    cast = ["--seat", "101=alpha", "--seat", "bob=beta", "--host", "Quizmaster"]
    return [str(ZOOM_EXPORT), "--match", match_id, *cast, "--json", "--database-url", url, *more]


def first_id() -> str:
    return str(json.loads(ZOOM_EXPORT.read_text(encoding="utf-8"))["messages"][0]["id"])


def test_transcript_preview_reads_the_export_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["transcript", "preview", *transcript(tmp_path)]) == 0
    rows = {r["message_id"]: r for r in json.loads(capsys.readouterr().out)["posts"]}
    assert (rows[first_id()]["status"], rows[first_id()]["flag"]) == ("flagged", "near_miss")


def test_transcript_correct_gives_the_command_a_post_means(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start = json.dumps({"type": "start_round", "round": 1})
    argv = transcript(tmp_path, "--correct", f"{first_id()}={start}", "--reason", "early start")

    assert main(["transcript", "enter", *argv]) == 0

    answer = json.loads(capsys.readouterr().out)
    row = next(r for r in answer["posts"] if r["message_id"] == first_id())
    assert (row["reading"], row["command"]) == ("host", json.loads(start))
    assert row["enters"] and answer["entered"] >= 1


@pytest.mark.parametrize(
    ("more", "said"),
    [
        (["--correct", "1={}"], "one --reason"),
        (
            [
                "--correct",
                "1={}",
                "--correct",
                "2={}",
                "--reason",
                "a",
                "--reason",
                "b",
                "--reason",
                "c",
            ],
            "one --reason",
        ),
        (["--correct", "nothing", "--reason", "r"], "MESSAGE_ID=JSON_COMMAND"),
        (["--correct", "1={oops", "--reason", "r"], "not JSON"),
        (["--correct", "1=[1]", "--reason", "r"], "JSON object"),
        (["--reason", "why"], "one --reason"),
    ],
)
def test_transcript_correct_that_cannot_be_read_is_exit_2(
    tmp_path: Path, more: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["transcript", "preview", *transcript(tmp_path, *more)]) == 2
    assert said in capsys.readouterr().err


def test_transcript_correct_of_an_unknown_post_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    start = json.dumps({"type": "start_round", "round": 1})
    argv = transcript(tmp_path, "--correct", f"404={start}", "--reason", "r")
    assert main(["transcript", "preview", *argv]) == 1
    assert "unknown_post" in capsys.readouterr().err


def test_transcript_file_that_is_no_export_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text('{"messages": [', encoding="utf-8")
    argv = transcript(tmp_path)
    argv[0] = str(broken)
    assert main(["transcript", "preview", *argv]) == 2
    assert "broken.json" in capsys.readouterr().err
