"""The command line's output as a person reads it (issue 26): ``./dev help`` in two aligned
columns, ``verify --json | head`` quiet when the reader stops early, transcript progress that
ends its line, and counts in the singular for one."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from adjudicator.kernel.errors import InvalidCommand
from api.cli import transcript as transcript_cli
from api.cli.demo_zombego import result_line
from api.cli.main import main
from api.service import transcripts
from api.service.audit import verify_text
from tests.unit.api.test_cli import transcript
from tests.unit.audit.records import GAMES, HIDDEN

ROOT = Path(__file__).resolve().parents[3]


def test_dev_help_prints_every_command_in_two_aligned_columns() -> None:
    done = subprocess.run(
        ["bash", str(ROOT / "dev"), "help"], capture_output=True, text=True, timeout=120, check=True
    )
    rows = [line for line in done.stdout.splitlines() if line.startswith("  ")]
    assert len(rows) > 10 and rows[0].split()[0] == "test"
    starts = {len(row) - len(row[2:].split("  ", 1)[1].lstrip()) for row in rows}
    assert len(starts) == 1, rows


def test_verify_json_into_a_pipe_closed_early_exits_without_an_error() -> None:
    records = [str(p) for p in sorted((ROOT / "tests" / "golden").glob("*/*.match.jsonl"))]
    command = [sys.executable, "-m", "api.cli.main", "verify", "--json", *records]
    reader = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert reader.stdout is not None and reader.stderr is not None
    reader.stdout.close()  # ``| head -0``: the reader is gone before the report is written
    errors = reader.stderr.read().decode()
    reader.stderr.close()
    reader.wait(timeout=120)
    assert errors == ""
    assert reader.returncode == 141  # as a shell tool stopped by SIGPIPE


def test_transcript_progress_ends_its_line_before_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def stops_half_way(*args: object) -> dict[str, object]:
        progress = args[-1]
        assert callable(progress)
        progress(1000, 2000)
        raise InvalidCommand("unknown_post", "stopped half way")

    monkeypatch.setattr(transcripts, "preview", stops_half_way)
    assert main(["transcript", "preview", *transcript(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert "error: unknown_post: stopped half way" in err
    assert all(line.startswith("error:") or not line for line in err.split("\n")), repr(err)
    assert err.endswith("\n")


def test_transcript_progress_of_one_post_is_singular(capsys: pytest.CaptureFixture[str]) -> None:
    transcript_cli.Progress()(1, 1)
    assert capsys.readouterr().err == "1/1 post\n"


def test_one_zombie_is_singular_in_the_zombego_demo_s_result() -> None:
    counts = {"alpha": {"living": 3, "zombies": 1}, "beta": {"living": 1, "zombies": 2}}
    state = {"counts": counts, "ply": 9, "result": {"winner": "alpha", "reason": "points"}}
    assert result_line(state).splitlines()[0] == (
        "after ply 9: alpha 3 living/1 zombie, beta 1 living/2 zombies"
    )


def test_a_count_of_one_is_singular_in_a_verify_report() -> None:
    lines = HIDDEN.read_text(encoding="utf-8").splitlines()
    report = verify_text("\n".join(lines[:2]) + "\n", GAMES)
    details = {check.name: check.detail for check in report.checks}
    assert details["chain"].startswith("1 event, seq 1..1")
    lines = HIDDEN.read_text(encoding="utf-8").splitlines()
    report = verify_text("\n".join(lines[:3]) + "\n", GAMES)
    details = {check.name: check.detail for check in report.checks}
    assert details["commitments"] == "1 revealed commitment matches"
