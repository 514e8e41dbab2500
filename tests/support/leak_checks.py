"""What a restricted viewer's answers must never hold, checked on the raw answers of ``Probe``.

``byte_leaks``: sealed strings (objects, solution tokens, salts, the seed) anywhere in the bytes.
``event_leaks``: a private event's payload or salt shown to a viewer outside its ``private_to``.
``zombego_leaks``: in the hidden variant, a value of another seat's living piece (board cells and
hand slots anywhere, the pieces a diff adds or changes, placements, history, deal facts) shown to
a seat, a spectator or an auditor before the close; the legal moves of the seat to move shown to
anyone else. ``head_start_leaks``: a sealed Head Start shown through a seat's items.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from tests.support.http_probe import Answer, stream_events

READ_ONLY_403 = ("export", "ludii")


def byte_leaks(answers: Iterable[Answer], secrets: Iterable[str]) -> list[str]:
    wanted = [s.encode() for s in secrets if s]
    return [
        f"{a.label()}: {s.decode()!r} in {excerpt(a.body, s)!r}"
        for a in answers
        for s in wanted
        if s in a.body
    ]


def excerpt(body: bytes, secret: bytes, width: int = 120) -> bytes:
    at = body.find(secret)
    return body[max(0, at - width) : at + len(secret) + width]


def server_errors(answers: Iterable[Answer]) -> list[str]:
    return [f"{a.label()}: {a.body[:300]!r}" for a in answers if a.status >= 500]


def listed_events(answer: Answer) -> list[dict[str, Any]]:
    """The event envelopes in an answer of /events, /feed or /stream (others: none)."""
    if answer.status != 200:
        return []
    if answer.route.endswith("/stream"):
        return stream_events(answer.body)
    if answer.route.endswith("/events") or answer.route == "/feed":
        return list(answer.json())
    return []


def event_leaks(answers: Iterable[Answer], seat: str | None) -> list[str]:
    found = []
    for answer in answers:
        for event in listed_events(answer):
            if event["private_to"] is None:
                continue
            if seat in event["private_to"] and answer.route != "/feed":
                continue
            if event["payload"] is not None or "salt" in event:
                found.append(f"{answer.label()}: seq {event['seq']} {json.dumps(event)[:300]}")
    return found


def forbidden_reads(answers: Iterable[Answer]) -> list[str]:
    """Export and (hidden ruleset) Ludii must be refused to non-hosts of an open match."""
    return [
        f"{a.label()}: {a.body[:200]!r}"
        for a in answers
        if a.route.rsplit("/", 1)[-1] in READ_ONLY_403 and a.status == 200
    ]


def _walk(data: Any) -> Iterator[dict[str, Any]]:
    if isinstance(data, dict):
        yield data
        for value in data.values():
            yield from _walk(value)
    elif isinstance(data, list):
        for value in data:
            yield from _walk(value)


def zombego_leaks(answers: Iterable[Answer], seat: str | None) -> list[str]:
    found = []
    for answer in answers:
        if answer.status != 200 or answer.route.endswith("/stream"):
            data = {"events": listed_events(answer)} if answer.status == 200 else None
        else:
            data = answer.json()
        for node in _walk(data):
            found += [f"{answer.label()}: {why}" for why in _zombego_node(node, seat)]
    return found


def _zombego_node(node: dict[str, Any], seat: str | None) -> list[str]:
    piece = {"owner", "zombie", "value"} <= set(node)
    if piece and node["owner"] != seat and not node["zombie"] and node["value"] is not None:
        return [f"another seat's living piece shows its value: {node}"]
    if "legal" in node and "to_move" in node and node["to_move"] != seat and node["legal"]:
        return [f"the legal moves of {node['to_move']} (naming its values) are shown"]
    kind = node.get("type")
    payload = node.get("payload")
    if kind in ("zombego.placed",) and isinstance(payload, dict) and "value" in payload:
        return [f"a hidden placement names its value: {node}"]
    if kind == "zombego.piece_dealt" and payload is not None and payload.get("seat") != seat:
        return [f"another seat's deal fact is shown: {node}"]
    move = node.get("move")
    own = node.get("seat") == seat
    placement = isinstance(move, str) and move.startswith("place:") and "ply" in node
    if placement and not own and not str(move).startswith("place:?:") and "seq" in node:
        return [f"another seat's placement names its value: {node}"]
    return []


def head_start_leaks(answers: Iterable[Answer], seat: str) -> list[str]:
    """``seat`` sealed a Head Start this step: its items must not tell."""
    found = []
    for answer in answers:
        if answer.status != 200 or not answer.route.endswith("/state"):
            continue
        shown = answer.json()["state"]["seats"][seat]
        if "head_start" in shown["items_used"] or "head_start" not in shown["items"]:
            items = {k: shown[k] for k in ("items", "items_used")}
            found.append(f"{answer.label()}: {seat}'s sealed Head Start shows in {items}")
    return found
