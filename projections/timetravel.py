"""Time travel for auditors: what a ruling changed (a diff between two record times) and how a
match unfolded over game time (a timeline a client can plot)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from adjudicator import rulings
from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import Fact, Game, Viewer, post_of
from events import StoredEvent
from projections.checkpoints import KnownLog


def diff(before: Any, after: Any, path: str = "") -> list[dict[str, Any]]:
    """Every leaf that differs, as ``{path, before, after}``. Lists of records that carry a
    ``seq`` are matched by seq (``buzzes[seq=12].pairs[0].outcome``), other lists by index."""
    if before == after:  # most of a long match's state is unchanged: skip it at C speed
        return []
    if isinstance(before, dict) and isinstance(after, dict):
        return [
            change
            for key in sorted(set(before) | set(after), key=str)
            for change in diff(before.get(key), after.get(key), f"{path}.{key}" if path else key)
        ]
    if isinstance(before, list) and isinstance(after, list):
        return _diff_lists(before, after, path)
    return [] if before == after else [{"path": path, "before": before, "after": after}]


def _diff_lists(before: list[Any], after: list[Any], path: str) -> list[dict[str, Any]]:
    if _by_seq(before) and _by_seq(after):
        old = {item["seq"]: item for item in before}
        new = {item["seq"]: item for item in after}
        return [
            change
            for seq in sorted(set(old) | set(new))
            for change in diff(old.get(seq), new.get(seq), f"{path}[seq={seq}]")
        ]
    width = max(len(before), len(after))
    return [
        change
        for i in range(width)
        for change in diff(_at(before, i), _at(after, i), f"{path}[{i}]")
    ]


def _by_seq(items: list[Any]) -> bool:
    return all(isinstance(item, dict) and "seq" in item for item in items)


def _at(items: list[Any], index: int) -> Any:
    return items[index] if index < len(items) else None


def rulings_recorded(events: Sequence[StoredEvent]) -> list[dict[str, Any]]:
    """The rulings among ``events`` (those recorded between two record times): what explains
    a diff."""
    return [
        {
            "seq": e.seq,
            "type": e.type,
            "occurred_at": e.occurred_iso,
            "recorded_at": e.recorded_iso,
            "payload": e.payload,
        }
        for e in events
        if rulings.is_ruling(e.type)
    ]


def known_timeline(
    game: Game[Any, Any], log: KnownLog, viewer: Viewer
) -> tuple[list[dict[str, Any]], bool]:
    """One point per fact that acted on the game, in game-time order: when, what, its outcome
    and the summary (scores, phase, result) right after it. The outcome of a private event is
    shown only to a viewer who may see that event. The points come from the checkpoints' cache:
    computed once per knowledge cutoff, resumed from what an earlier cutoff shares with it.
    Also whether the list is the cache's own (no outcome is withheld from this viewer): the same
    list for every such ask of this cutoff, never changed, so what is made of it (its encoded
    JSON) may be kept by its identity. Read the list and its dicts; never change them."""
    hidden = {
        e.seq
        for e in log.folds.private
        if e.seq <= log.last_seq and not viewer.may_see_private(e.private_to or ())
    }
    points = log.folds.points(log.n, timeline_point)
    if not hidden or all(p["outcome"] is None for p in points if p["seq"] in hidden):
        return points, True  # nothing to withhold: the cached points as they are
    return [{**p, "outcome": None} if p["seq"] in hidden else p for p in points], False


def timeline_point(game: Game[Any, Any], state: Any, fact: Fact) -> dict[str, Any]:
    """The point of ``fact`` on the timeline, ``state`` the fold right after it (with the
    chat post it was entered from, when it was)."""
    post = post_of(fact.source)
    return {
        "seq": fact.seq,
        "at": iso(fact.at),
        "type": fact.type,
        "actor": fact.actor,
        "outcome": game.outcome(state, fact.seq),
        "summary": game.summary(state),
    } | ({"post": post} if post is not None else {})
