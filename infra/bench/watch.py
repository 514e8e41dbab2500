"""``watch.py BASE MATCH_ID AFTER_SEQ COUNT [TRACKED]``: open COUNT live streams of a match (one
asyncio loop), print ``open`` once every one has answered, read them until they end (the match
closes), then print one JSON line: the number of events received, and when
(``time.monotonic``, which every process of the machine shares) each event reached each of the
first TRACKED streams (default none).

A lean reader on purpose: raw HTTP/1.1 over asyncio streams, counting SSE ``id:`` lines in the
bytes as they come, so the watcher's own CPU (it shares the machine's cores with the server
under measurement) stays a small part of what the figure shows."""

from __future__ import annotations

import asyncio
import json
import re
import sys
import time
from urllib.parse import urlsplit

MESSAGE = b"\nid: "  # every SSE message starts a line (after the chunk size or a blank line)
CLOSED = b"event: match.closed"
_ID = re.compile(rb"(?:^|\n)id: ([0-9]+)\n")


class Counter:
    """Counts ``pattern`` in a byte stream read in pieces, also across their boundaries."""

    def __init__(self, pattern: bytes) -> None:
        self.pattern, self.count, self._tail = pattern, 0, b""

    def feed(self, data: bytes) -> None:
        buffer = self._tail + data
        self.count += buffer.count(self.pattern)
        self._tail = buffer[-(len(self.pattern) - 1) :]  # too short to hold a whole match


async def one(
    host: str, port: int, path: str, answered: asyncio.Semaphore, arrivals: dict[int, float] | None
) -> int:
    """Read one stream to its end; release ``answered`` once its head has come; note in
    ``arrivals`` (unless None) when each seq came."""
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        raise RuntimeError(head.decode(errors="replace"))
    answered.release()
    messages, closed = Counter(MESSAGE), Counter(CLOSED)
    messages.feed(b"\n")  # the body's first message follows the head's blank line
    pending = b"\n"
    while not closed.count:
        data = await reader.read(65536)
        if not data:
            break
        messages.feed(data)
        closed.feed(data)
        if arrivals is not None:
            now = time.monotonic()
            pending += data
            *whole, pending = pending.split(b"\n\n")  # messages end with a blank line
            for message in whole:
                for seq in _ID.findall(message):
                    arrivals.setdefault(int(seq), now)
    writer.close()
    return messages.count


async def watch(
    base: str, match_id: str, after: int, count: int, tracked: int = 0
) -> dict[str, object]:
    url = urlsplit(base)
    host, port = url.hostname or "127.0.0.1", url.port or 80
    path = f"/matches/{match_id}/stream?after_seq={after}"
    answered = asyncio.Semaphore(0)

    async def announce() -> None:
        for _ in range(count):
            await answered.acquire()
        print("open", flush=True)

    announcer = asyncio.create_task(announce())
    arrivals: list[dict[int, float]] = [{} for _ in range(min(tracked, count))]
    readers = [
        one(host, port, path, answered, arrivals[i] if i < len(arrivals) else None)
        for i in range(count)
    ]
    counts = await asyncio.gather(*readers)
    await announcer
    return {"received": sum(counts), "arrivals": arrivals}


if __name__ == "__main__":
    base, match_id, after, count = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    tracked = int(sys.argv[5]) if len(sys.argv) > 5 else 0
    print(json.dumps(asyncio.run(watch(base, match_id, after, count, tracked))), flush=True)
