"""The audit CLI: export from a store, verify a file offline, import it into another store."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli.main import main
from events.migrate import upgrade
from tests.api.conftest import Api
from tests.api.test_audit import closed_zoom_match, first_buzz_seq, tamper_one_byte
from tests.unit.audit.records import HIDDEN, edited


def exported(api: Api, database_url: str, tmp_path: Path) -> Path:
    closed_zoom_match(api)
    file = tmp_path / "match.jsonl"
    assert main(["export", api.match_id, "--database-url", database_url, "-o", str(file)]) == 0
    return file


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
    text = file.read_text(encoding="utf-8")
    seq = first_buzz_seq(text)
    file.write_text(tamper_one_byte(text, seq), encoding="utf-8")
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
    assert again.read_text().splitlines()[1:] == file.read_text().splitlines()[1:]


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
