"""Transcript benchmark: preview and enter a 10,000-post DiscordChatExporter export of a Zoom
match (spectator chatter, seat chatter and buzzes), on a temporary SQLite store.

Run from the repository root: ``.venv/bin/python infra/bench/transcript_bench.py [--posts N]``.
Prints the time of reading + preview, of enter (one atomic batch), and of a second enter (every
post already entered), with the milliseconds per thousand posts.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from adjudicator import registry
from adjudicator.transcripts.triage import Cast
from api.service import transcripts
from api.service.matches import MatchService
from events import EventStore, TokenGrant
from events.migrate import upgrade

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
AUTHORS = [
    {"id": "1", "name": "qm", "isBot": False},
    {"id": "2", "name": "alice", "isBot": False},
    {"id": "3", "name": "bob", "isBot": False},
    {"id": "4", "name": "carol", "isBot": False},
    {"id": "5", "name": "TimerBot", "isBot": True},
]


def export(posts: int, rounds: int, rng: random.Random) -> dict[str, Any]:
    per_round = posts // rounds
    messages = []
    for n in range(posts):
        at = START + timedelta(seconds=n // per_round * 200 + (n % per_round) * 0.1)
        if n % per_round == 0:
            author, content = AUTHORS[0], f"Round {n // per_round + 1} GO"
        else:
            author = AUTHORS[rng.choice([1, 2, 3, 3, 4])]
            content = rng.choice(["A c4", "b: a1", "lol", "so close", "B at f3 🔥", "gg"])
        messages.append(
            {
                "id": str(10**18 + n),
                "type": "Default",
                "timestamp": at.isoformat(),
                "timestampEdited": None,
                "content": content,
                "author": author,
            }
        )
    return {"channel": {"id": "99", "name": "bench"}, "messages": messages}


def timed(label: str, posts: int, run: Any) -> Any:
    began = time.perf_counter()
    answer = run()
    seconds = time.perf_counter() - began
    print(f"{label:34} {seconds:7.3f} s  {seconds * 1000 / (posts / 1000):8.1f} ms per 1,000 posts")
    return answer


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--posts", type=int, default=10_000)
    args = parser.parse_args()
    data = export(args.posts, 10, random.Random(7))
    with tempfile.TemporaryDirectory() as folder:
        url = f"sqlite:///{folder}/bench.sqlite3"
        upgrade(url)
        store = EventStore.from_url(url)
        service = MatchService(store, registry.games(frozenset()), lambda: datetime.now(UTC))
        drafted = service.new_match("zoom", ("alpha", "beta"), None, {"rounds": 10}, seed=3)
        match = service.create(drafted)
        grant = TokenGrant(match.match.match_id, "host", None)
        cast = Cast({"alice": "alpha", "bob": "beta"}, ["qm"])

        def handed() -> transcripts.Handed:
            return transcripts.Handed([transcripts.read_export("discord", data)], cast)

        match_id = match.match.match_id
        seen = timed(
            "read + preview",
            args.posts,
            lambda: transcripts.preview(service, match_id, grant, handed()),
        )
        entered = timed(
            "read + enter",
            args.posts,
            lambda: transcripts.enter(service, match_id, grant, handed()),
        )
        again = timed(
            "read + enter again (no-op)",
            args.posts,
            lambda: transcripts.enter(service, match_id, grant, handed()),
        )
        store.dispose()
    print(f"posts: {seen['counts']}")
    print(f"entered: {entered['entered']} commands, then {again['entered']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
