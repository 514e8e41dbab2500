"""Transcript memory benchmark: the resident memory of a real ``serve`` process while it
previews a season's channel uploaded as a file (multipart/form-data).

Run from the repository root: ``.venv/bin/python infra/bench/transcript_memory.py [--posts N]
[--concurrent K]``. Writes a DiscordChatExporter export of a Zoom match (default 200,000 posts,
about 90 MiB) with every field the exporter writes on a message (``id``, ``type``, a
``timestamp`` with 7 fractional digits and an offset, ``timestampEdited``,
``callEndedTimestamp``, ``isPinned``, ``content``, the author with ``discriminator``,
``nickname``, ``color``, ``isBot``, ``roles`` and ``avatarUrl``, ``attachments``, ``embeds``,
``stickers``, ``reactions``, ``mentions``, ``reference`` on replies, ``inlineEmojis``), starts
the server on a temporary SQLite file and prints its resident memory (``/proc/PID/status``
VmRSS, sampled every 10 ms, and VmHWM) before, at the peak of, and after one preview (a page of
1,000 rows), then of K previews at once.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from infra.bench.service import Server, auth, serve
from infra.bench.zoom_bench import OPERATOR

START = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
ROUNDS = 10
MIB = 1024 * 1024
SEP = (",", ":")


def _author(n: int, name: str, bot: bool = False) -> dict[str, Any]:
    return {
        "id": str(800_000_000_000_000_000 + n),
        "name": name,
        "discriminator": "0000",
        "nickname": name.capitalize(),
        "color": "#E67E22",
        "isBot": bot,
        "roles": [{"id": "1100000000000000001", "name": "Host", "color": "#E67E22", "position": 3}]
        if name == "qm"
        else [],
        "avatarUrl": f"https://cdn.discordapp.com/avatars/{800_000_000_000_000_000 + n}/"
        "a1b2c3d4e5f60718293a4b5c6d7e8f90.png",
    }


AUTHORS = [
    _author(1, "qm"),
    _author(2, "alice"),
    _author(3, "bob"),
    _author(4, "carol"),
    _author(5, "timerbot", bot=True),
]
CAST = {"seats": {"alice": "alpha", "bob": "beta"}, "hosts": ["qm"]}
CHATTER = ["A c4", "b: a1", "lol", "so close", "B at f3 🔥", "gg", "which one was it?", "nice"]


def _time(at: datetime) -> str:
    return f"{at:%Y-%m-%dT%H:%M:%S}.{at.microsecond:06d}3+00:00"  # 7 fractional digits


def message(n: int, per_round: int, rng: random.Random) -> dict[str, Any]:
    at = START + timedelta(seconds=n // per_round * 400 + (n % per_round) * 0.0199)
    if n % per_round == 0:
        author, content = AUTHORS[0], f"Round {n // per_round + 1} GO"
    else:
        author, content = AUTHORS[rng.choice([1, 2, 3, 3, 4, 4])], rng.choice(CHATTER)
    reply = n % 7 == 3
    reacted = n % 25 == 0
    return {
        "id": str(1_200_000_000_000_000_000 + n),
        "type": "Reply" if reply else "Default",
        "timestamp": _time(at),
        "timestampEdited": _time(at + timedelta(seconds=3)) if n % 97 == 5 else None,
        "callEndedTimestamp": None,
        "isPinned": False,
        "content": content,
        "author": author,
        "attachments": [],
        "embeds": [],
        "stickers": [],
        "reactions": [
            {
                "emoji": {
                    "id": "",
                    "name": "🔥",
                    "code": "fire",
                    "isAnimated": False,
                    "imageUrl": "https://cdn.jsdelivr.net/gh/twitter/twemoji@latest/assets/svg/1f525.svg",
                },
                "count": 1,
                "users": [
                    {
                        "id": AUTHORS[4]["id"],
                        "name": "carol",
                        "discriminator": "0000",
                        "nickname": "Carol",
                        "isBot": False,
                        "avatarUrl": AUTHORS[3]["avatarUrl"],
                    }
                ],
            }
        ]
        if reacted
        else [],
        "mentions": [],
        "inlineEmojis": [],
        **(
            {
                "reference": {
                    "messageId": str(1_200_000_000_000_000_000 + n - 1),
                    "channelId": "1200000000000000099",
                    "guildId": "1100000000000000000",
                }
            }
            if reply
            else {}
        ),
    }


def write_export(path: Path, posts: int) -> int:
    """The export, one message a line (DiscordChatExporter's fields, without its
    indentation: the issue's 90 MiB for 200,000 posts); its size in bytes."""
    rng = random.Random(7)
    per_round = posts // ROUNDS
    head = {
        "guild": {"id": "1100000000000000000", "name": "Puzzle Night", "iconUrl": ""},
        "channel": {"id": "1200000000000000099", "type": "GuildTextChat", "categoryId": "1",
                    "category": "Games", "name": "zoom-season", "topic": None},
        "dateRange": {"after": None, "before": None},
        "exportedAt": "2026-03-01T00:00:00.0000000+00:00",
    }  # fmt: skip
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps(head, indent=2)[:-2] + ',\n  "messages": [\n')
        for n in range(posts):
            text = json.dumps(message(n, per_round, rng), ensure_ascii=False, separators=SEP)
            out.write(("," if n else "") + text + "\n")
        out.write(f'  ],\n  "messageCount": {posts}\n}}\n')
    return path.stat().st_size


def status_kb(pid: int, key: str) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(key + ":"):
            return int(line.split()[1])
    return 0


def rss_mb(pid: int) -> float:
    return status_kb(pid, "VmRSS") / 1024


def sampled_peak(pid: int, run: Callable[[], Any]) -> tuple[float, float, Any]:
    """Runs ``run`` while sampling the process's VmRSS; (peak MB, seconds, run's answer)."""
    peak = [rss_mb(pid)]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], rss_mb(pid))
            time.sleep(0.01)

    sampler = threading.Thread(target=sample)
    sampler.start()
    began = time.perf_counter()
    try:
        answer = run()
    finally:
        done.set()
        sampler.join()
    return max(peak[0], rss_mb(pid)), time.perf_counter() - began, answer


def preview(server: Server, match_id: str, token: str, export: Path) -> dict[str, Any]:
    with export.open("rb") as file, httpx.Client(timeout=3600) as client:
        answer = client.post(
            f"{server.base}/matches/{match_id}/transcript/preview",
            params={"limit": 1000},
            files={"export": (export.name, file, "application/json")},
            data={"options": json.dumps(CAST)},
            headers=auth(token),
        )
    answer.raise_for_status()
    data: dict[str, Any] = answer.json()
    return data


def settle(pid: int, seconds: float = 3.0) -> float:
    time.sleep(seconds)
    return rss_mb(pid)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--posts", type=int, default=200_000)
    parser.add_argument("--concurrent", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        export = Path(folder) / "zoom-season.json"
        size = write_export(export, args.posts)
        print(
            f"export: {args.posts:,} posts, {size / MIB:.1f} MiB ({size / args.posts:.0f} B/post)"
        )
        with serve(f"sqlite:///{folder}/bench.sqlite3") as server:
            pid = server.proc.pid
            body = {"game": "zoom", "seats": ["alpha", "beta"], "config": {"rounds": ROUNDS}}
            made = httpx.post(f"{server.base}/matches", json=body, headers=auth(OPERATOR))
            made.raise_for_status()
            match_id, token = made.json()["match_id"], made.json()["tokens"]["host"]
            before = settle(pid, 1.0)
            print(f"server RSS before:          {before:8.1f} MB")
            peak, seconds, answer = sampled_peak(
                pid, lambda: preview(server, match_id, token, export)
            )
            after = settle(pid)
            print(f"one preview: {seconds:.1f} s, {answer['total']:,} posts, page of "
                  f"{len(answer['posts'])} rows, counts {answer['counts']}")  # fmt: skip
            print(f"server RSS peak (sampled):  {peak:8.1f} MB  ({peak / (size / MIB):.1f}x file)")
            print(f"server VmHWM:               {status_kb(pid, 'VmHWM') / 1024:8.1f} MB")
            print(f"server RSS after:           {after:8.1f} MB")
            k = args.concurrent

            def many() -> list[dict[str, Any]]:
                with ThreadPoolExecutor(k) as pool:
                    runs = [pool.submit(preview, server, match_id, token, export) for _ in range(k)]
                    return [r.result() for r in runs]

            peak, seconds, _ = sampled_peak(pid, many)
            after = settle(pid)
            print(f"{k} previews at once: {seconds:.1f} s")
            print(f"server RSS peak (sampled):  {peak:8.1f} MB")
            print(f"server VmHWM:               {status_kb(pid, 'VmHWM') / 1024:8.1f} MB")
            print(f"server RSS after:           {after:8.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
