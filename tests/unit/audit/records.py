"""Golden match records as test material: read them, edit one field of one line, re-seal."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from adjudicator import registry
from api.service.wordlists import load_dictionaries
from events import StoredEvent
from events.envelope import GENESIS_HASH, hash_of
from events.record import dumps, loads, make_header

GOLDEN = Path(__file__).resolve().parents[2] / "golden"
RECORDS = sorted(GOLDEN.glob("*/*.match.jsonl"))
ZOOM = GOLDEN / "zoom" / "zoom-11-rounds.match.jsonl"
HIDDEN = GOLDEN / "zombego" / "zombego-hidden.match.jsonl"
GAMES = registry.games(load_dictionaries())


def lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def text_of(objects: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(o, sort_keys=True) + "\n" for o in objects)


def edited(path: Path, line: int, field: str, value: Any) -> str:
    """The record with ``field`` of the 1-based ``line`` set to ``value`` (nothing re-hashed)."""
    objects = lines(path)
    objects[line - 1][field] = value
    return text_of(objects)


def without(path: Path, line: int, field: str) -> str:
    objects = lines(path)
    del objects[line - 1][field]
    return text_of(objects)


def rechained(path: Path, events: list[StoredEvent], status: str | None = None) -> str:
    """``events`` renumbered 1..n as an intact chain (every hash recomputed; payloads, salts
    and commitments kept), under the golden header with its count, head and status updated."""
    chained: list[StoredEvent] = []
    for number, event in enumerate(events, start=1):
        prev = chained[-1].hash if chained else GENESIS_HASH
        draft = replace(event, seq=number, prev_hash=prev)
        chained.append(replace(draft, hash=hash_of(draft)))
    header = loads(path.read_text(encoding="utf-8")).header
    made = make_header(
        match_id=header.match_id,
        game=header.game,
        rules_version=header.rules_version,
        status=status or header.status,
        created_at=chained[0].occurred_at,
        exported_at=chained[-1].recorded_at,
        events=chained,
    )
    return dumps(made, chained)


def events_of(path: Path) -> list[StoredEvent]:
    return loads(path.read_text(encoding="utf-8")).events
