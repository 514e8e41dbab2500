"""The audit CLI: export from a store, verify a file offline, import it into another store."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from api.cli import audit as cli_audit
from api.cli.main import main
from events.migrate import upgrade
from events.record import split_log_proof
from tests.api.conftest import Api
from tests.api.test_audit import closed_zoom_match, first_buzz_seq, tamper_one_byte
from tests.unit.audit.records import HIDDEN, edited


def exported(api: Api, database_url: str, tmp_path: Path) -> Path:
    closed_zoom_match(api)
    file = tmp_path / "match.jsonl"
    assert main(["export", api.match_id, "--database-url", database_url, "-o", str(file)]) == 0
    return file


def tampered(record: Path, into: Path) -> int:
    """``record`` with one byte of its first buzz changed, written to ``into``; that seq."""
    text = record.read_text(encoding="utf-8")
    seq = first_buzz_seq(text)
    into.write_text(tamper_one_byte(text, seq), encoding="utf-8")
    return seq


def test_an_exported_file_verifies_offline_check_by_check(
    api: Api, database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = exported(api, database_url, tmp_path)
    capsys.readouterr()

    assert main(["verify", str(file)]) == 0

    printed = capsys.readouterr().out
    for check in ("chain", "commitments", "header", "refold"):
        assert f"ok   {check}:" in printed
    assert printed.rstrip().endswith("verified")


def test_a_file_with_one_changed_byte_fails_and_names_the_seq(
    api: Api, database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = exported(api, database_url, tmp_path)
    seq = tampered(file, file)
    capsys.readouterr()

    assert main(["verify", str(file)]) == 1

    printed = capsys.readouterr().out
    assert f"FAIL chain: seq {seq}:" in printed
    assert f"NOT verified (first bad seq: {seq})" in printed


def test_an_unreadable_file_fails_on_its_format(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "broken.jsonl"
    file.write_text('{"format": "something else"}\n', encoding="utf-8")
    assert main(["verify", str(file)]) == 1
    assert "FAIL format: line 1:" in capsys.readouterr().out


def test_exporting_an_unknown_match_fails(database_url: str, tmp_path: Path) -> None:
    assert main(["export", "no-such-match", "--database-url", database_url]) == 1


def test_import_stores_the_file_once_in_another_database(
    api: Api, database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = exported(api, database_url, tmp_path)
    elsewhere = f"sqlite:///{tmp_path / 'elsewhere.sqlite3'}"
    upgrade(elsewhere)

    assert main(["import", str(file), "--database-url", elsewhere]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert (printed["match_id"], printed["game"], printed["status"]) == (
        api.match_id,
        "zoom",
        "closed",
    )
    assert main(["import", str(file), "--database-url", elsewhere]) == 1
    assert "already exists" in capsys.readouterr().err
    again = tmp_path / "again.jsonl"
    assert main(["export", api.match_id, "--database-url", elsewhere, "-o", str(again)]) == 0
    # the same record byte for byte; the proof line is each log's own (this database has no
    # signing key yet: no service ever started on it, so its export carries no proof line)
    assert split_log_proof(again.read_text())[0] == split_log_proof(file.read_text())[0]


def test_a_file_whose_salt_is_a_number_fails_its_format_instead_of_crashing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    file = tmp_path / "salted.jsonl"
    file.write_text(edited(HIDDEN, 5, "salt", 12345), encoding="utf-8")

    assert main(["verify", str(file)]) == 1

    printed = capsys.readouterr().out
    assert "FAIL format: line 5: salt: Input should be a valid string" in printed
    assert "NOT verified (first bad seq: 4)" in printed


def test_a_file_that_is_not_utf8_is_unreadable(tmp_path: Path) -> None:
    file = tmp_path / "binary.jsonl"
    file.write_bytes(b"\xff\xfe\x00garbage")
    assert main(["verify", str(file)]) == 2


FORKS = pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
"""The CLI forks its workers from a process without other threads; pytest's has some (Python
3.12 and later warn of that)."""


@FORKS
def test_several_files_are_verified_in_worker_processes_each_under_its_name(
    api: Api, database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = exported(api, database_url, tmp_path)
    bad = tmp_path / "tampered.jsonl"
    seq = tampered(good, bad)
    capsys.readouterr()

    assert main(["verify", str(good), str(bad), str(good), "--jobs", "2"]) == 1

    sections = capsys.readouterr().out.split("== ")[1:]
    assert [section.splitlines()[0] for section in sections] == [str(good), str(bad), str(good)]
    assert sections[0].splitlines()[-1] == "verified"
    assert f"NOT verified (first bad seq: {seq})" in sections[1]
    assert sections[2].rstrip().endswith("2 of 3 records verified")


@FORKS
def test_several_files_as_json_and_one_unreadable_exit_2_after_verifying_the_rest(
    api: Api, database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = exported(api, database_url, tmp_path)
    missing = tmp_path / "missing.jsonl"
    capsys.readouterr()

    assert main(["verify", str(good), str(missing), "--json", "--jobs", "2"]) == 2

    captured = capsys.readouterr()
    printed = json.loads(captured.out)
    assert [entry["file"] for entry in printed] == [str(good), str(missing)]
    assert printed[0]["report"]["ok"] is True and printed[0]["report"]["match_id"] == api.match_id
    assert printed[1]["error"].startswith(f"cannot read {missing}:")
    assert f"error: cannot read {missing}:" in captured.err


@FORKS
def test_every_file_verified_in_one_process_or_in_two_gives_the_same_reports(
    api: Api, database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = exported(api, database_url, tmp_path)
    files = [str(good)] * 3
    capsys.readouterr()

    assert main(["verify", *files, "--json", "--jobs", "1"]) == 0
    alone = capsys.readouterr().out
    assert main(["verify", *files, "--json", "--jobs", "2"]) == 0
    assert capsys.readouterr().out == alone


def test_jobs_must_be_a_positive_integer(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["verify", str(tmp_path / "x.jsonl"), "--jobs", "0"])
    assert exit_.value.code == 2


def _killed(file: str, trust: object = None) -> object:
    os._exit(1)  # a worker that dies as an out-of-memory kill would end it


@FORKS
def test_a_worker_that_dies_is_one_error_line_and_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(cli_audit, "verify_file", _killed)
    files = [str(tmp_path / "a.jsonl"), str(tmp_path / "b.jsonl")]

    assert main(["verify", *files, "--jobs", "2"]) == 2

    assert capsys.readouterr().err.startswith("error: a verifying process stopped:")
