"""Regenerate the golden match records under ``tests/golden/<game>/*.match.jsonl``.

Each is a finished, CLOSED match played through the real HTTP API (in process, on a temporary
SQLite file, with a clock that only moves when told to), then exported as the portable record
(``GET /matches/{id}/export``). ``tests/golden/test_recorded_matches.py`` re-verifies every file
offline: hash chain, commitments, and the re-fold of the result under the current rules. A rules
change that alters a finished result fails that test; only regenerate the files after reviewing
such a change on purpose.

    .venv/bin/python infra/golden/make_golden.py            # from the repository root
    .venv/bin/python infra/golden/make_golden.py no_not_that   # only the named games

Writes ``tests/golden/zoom/zoom-11-rounds.match.jsonl`` (a generated 11-round Zoom match with
wrong buzzes and a round ended by its clock) and
``tests/golden/zombego/zombego-hidden.match.jsonl`` (a hidden-variant Zombego match, privately
dealt pieces with commitments, moves chosen by a seeded random player until black wins) and
``tests/golden/no_not_that/nnt-16-rounds.match.jsonl`` (the scripted 16-round No, Not That!
match of ``adjudicator demo --game no_not_that``: sealed actions, timeouts, items, host rulings).
Salts and tokens are random, so the files change on every run even when the play does not.
"""

from __future__ import annotations

import random
import sys
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from fastapi.testclient import TestClient  # noqa: E402

from adjudicator.games.zombego.notation import command_body  # noqa: E402
from api.cli.demo import ZoomScript  # noqa: E402
from api.cli.demo_nnt import NntScript  # noqa: E402
from api.http.app import create_app  # noqa: E402
from api.service.settings import Settings  # noqa: E402
from events.migrate import upgrade  # noqa: E402

OPERATOR = "op_golden"
START = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
GOLDEN = ROOT / "tests" / "golden"


class SteppingClock:
    """Record time: starts at ``START`` and moves one second per reading."""

    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> datetime:
        self.now += timedelta(seconds=1)
        return self.now


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def close_and_export(client: TestClient, match_id: str, host: str) -> str:
    closed = client.post(f"/matches/{match_id}/close", headers=auth(host))
    assert closed.status_code == 201, closed.text
    exported = client.get(f"/matches/{match_id}/export", headers=auth(host))
    assert exported.status_code == 200, exported.text
    return str(exported.text)


def zoom_match(client: TestClient) -> str:
    script = ZoomScript(client, OPERATOR, seed=2026, rounds=11, start=START - timedelta(hours=3))
    made = script.create()
    for number in range(1, 12):
        script.play_round(number)
    return close_and_export(client, made["match_id"], made["tokens"]["host"])


def zombego_match(client: TestClient, seed: int = 6) -> str:
    body = {
        "game": "zombego",
        "seats": ["white", "black"],
        "config": {"ruleset": "Stratego Style with Zombies", "ply_cap": 200},
        "seed": seed,
    }
    made = client.post("/matches", json=body, headers=auth(OPERATOR)).json()
    match_id, host = made["match_id"], made["tokens"]["host"]
    rng = random.Random(seed)
    while True:
        state = client.get(f"/matches/{match_id}/state", headers=auth(host)).json()["state"]
        if state["result"] is not None:
            return close_and_export(client, match_id, host)
        move = rng.choice(state["legal"])["move"]
        seat_token = made["tokens"]["seats"][state["to_move"]]
        command = command_body(state["to_move"], move)
        url = f"/matches/{match_id}/commands"
        answer = client.post(url, json=command, headers=auth(seat_token))
        assert answer.status_code == 201, answer.text


def nnt_match(client: TestClient) -> str:
    script = NntScript(client, OPERATOR, rounds=16, start=START - timedelta(hours=3))
    script.play()
    return close_and_export(client, script.match_id, script.host)


MAKERS = {
    "zoom": ("zoom-11-rounds.match.jsonl", zoom_match),
    "zombego": ("zombego-hidden.match.jsonl", zombego_match),
    "no_not_that": ("nnt-16-rounds.match.jsonl", nnt_match),
}


def main(only: list[str]) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'golden.sqlite3'}"
        upgrade(url)
        settings = Settings(
            database_url=url, operator_token=OPERATOR, upgrade_on_start=False, log_level="warning"
        )
        app = create_app(settings, clock=SteppingClock())
        with TestClient(app) as client:
            records = {
                GOLDEN / game / name: make(client)
                for game, (name, make) in MAKERS.items()
                if not only or game in only
            }
        app.state.service.store.dispose()
    for path, text in records.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)} ({len(text.splitlines()) - 1} events)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
