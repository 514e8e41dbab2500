"""``demo --keep``: the demo's server stays up for inspection and its database file is kept."""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import parse_qs

import httpx
import pytest
from sqlalchemy.engine import make_url

from api.cli.demo import free_port
from api.cli.demo_run import DemoOptions, run_demo
from events import EventStore


def printed(text: str, label: str) -> str:
    """What the line that starts with ``label`` says after it."""
    return next(line[len(label) :].strip() for line in text.splitlines() if line.startswith(label))


def test_a_kept_demo_serves_its_match_until_stopped_and_keeps_its_file(
    capsys: pytest.CaptureFixture[str],
) -> None:
    port = free_port()
    seen: dict[str, int] = {}
    outputs: list[str] = []

    def inspect() -> None:  # stands for the wait until Ctrl-C: the server answers meanwhile
        out = capsys.readouterr().out
        seen["state"] = httpx.get(printed(out, "state:").split()[0]).status_code
        seen["verify"] = httpx.get(printed(out, "verify:")).status_code
        page, fragment = printed(out, "console, host:").split("#")
        seen["console"] = httpx.get(page).status_code
        assert parse_qs(fragment) == {"role": ["host"], "token": [printed(out, "host:")]}
        outputs.append(out)

    code = run_demo(DemoOptions("zoom", rounds=1, seed=7, keep=True, port=port), wait=inspect)

    [out] = outputs
    assert code == 0 and (seen["state"], seen["verify"], seen["console"]) == (200, 200, 200)
    assert f"http://127.0.0.1:{port}/matches/" in out
    for label in ("match:", "operator:", "host:", "auditor:", "seat alpha:", "seat beta:"):
        assert printed(out, label)
    seat = printed(out, "console, seat alpha:").split("#")[1]
    assert parse_qs(seat) == {"role": ["seat:alpha"], "token": [printed(out, "seat alpha:")]}
    assert printed(out, "console, spectator:").endswith("#role=spectator")
    database = Path(str(make_url(printed(out, "database:")).database))
    try:
        store = EventStore.from_url(f"sqlite:///{database}")
        try:
            assert store.get_match(printed(out, "match:")) is not None
        finally:
            store.dispose()
    finally:
        shutil.rmtree(database.parent)
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"http://127.0.0.1:{port}/health")
