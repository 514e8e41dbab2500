"""``watch.py BASE MATCH_ID AFTER_SEQ COUNT``: open COUNT live streams of a match (one asyncio
loop), print ``open`` once every one has answered, read them until they end (the match closes),
then print the number of events received."""

from __future__ import annotations

import asyncio
import sys

import httpx


async def watch(base: str, match_id: str, after: int, count: int) -> int:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    timeout = httpx.Timeout(600, connect=60)
    received = answered = 0

    async def one(client: httpx.AsyncClient) -> None:
        nonlocal received, answered
        params = {"after_seq": after}
        async with client.stream("GET", f"/matches/{match_id}/stream", params=params) as reply:
            answered += 1
            if answered == count:
                print("open", flush=True)
            async for line in reply.aiter_lines():
                received += line.startswith("id: ")

    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=timeout) as client:
        await asyncio.gather(*(one(client) for _ in range(count)))
    return received


if __name__ == "__main__":
    base, match_id, after, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    print(asyncio.run(watch(base, match_id, after, count)), flush=True)
