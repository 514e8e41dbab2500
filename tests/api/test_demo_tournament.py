"""``demo --tournament``: the README's tournament walkthrough, run against a real local server by
one command. What it prints is what the service answered: the champion at the end (Bo), the
champion after the round-2 void (Ada) and as known before it (Bo), the rounds paired on the
changed result, the diff naming the void, and the verify; with ``--keep`` the tournament's
console page answers, and the organizer's link carries the organizer token in its fragment."""

from __future__ import annotations

import shutil
from pathlib import Path

import httpx
import pytest
from sqlalchemy.engine import make_url

from api.cli.demo import free_port
from api.cli.demo_run import DemoOptions, run_demo
from tests.api.test_demo_keep import printed


def block(text: str, title: str) -> list[str]:
    """The lines of the standings table printed under ``title``, up to its status line."""
    lines = text.splitlines()
    start = lines.index(title) + 1
    end = next(i for i in range(start, len(lines)) if lines[i].startswith("("))
    return lines[start : end + 1]


def leader(table: list[str]) -> tuple[str, str]:
    """The first row's name and points."""
    cells = table[1].split()
    return cells[2], cells[3]


def test_the_tournament_demo_tells_the_walkthrough_as_the_service_answered_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    seen: dict[str, int] = {}
    outputs: list[str] = []

    def inspect() -> None:  # stands for the wait until Ctrl-C: the server answers meanwhile
        out = capsys.readouterr().out
        seen["console"] = httpx.get(printed(out, "console:")).status_code
        seen["verify"] = httpx.get(printed(out, "verify:")).status_code
        outputs.append(out)

    code = run_demo(DemoOptions(tournament=True, keep=True, port=free_port()), wait=inspect)

    [out] = outputs
    assert code == 0 and (seen["console"], seen["verify"]) == (200, 200)
    assert "round 2: Hal-Ed 1-0, Flo-Di 1-0, Gus-Cy 1-0, Ada-Bo 0-1" in out
    end = block(out, "Standings at the end:")
    assert leader(end) == ("Bo", "7.0") and "champion p2" in end[-1]
    now = block(out, "Standings now:")
    assert leader(now) == ("Ada", "7.0") and "champion p1" in now[-1]
    believed = next(line for line in out.splitlines() if line.endswith("(before the void):"))
    before = block(out, believed)
    assert leader(before) == ("Bo", "7.0") and "champion p2" in before[-1]
    for number in range(3, 8):
        assert f"round {number} was paired on a result since changed: round 2 board 4" in out
    diff = printed(out, "  round 2, match")
    assert diff.endswith(": winner Bo -> Ada, by ruling.void seq 7 ('grid misprint at a1')")
    assert "  champion: Bo -> Ada" in out
    assert "Verify: every check passes (chain 1, match 28, pairing 7)" in out
    organizer = printed(out, "console, organizer:")
    assert organizer.endswith(f"#token={printed(out, 'organizer:')}")
    shutil.rmtree(Path(str(make_url(printed(out, "database:")).database)).parent)
