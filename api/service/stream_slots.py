"""What open live streams may cost a process: at most ``total`` at once, and at most
``per_client`` from one client address. A stream past either bound is refused before it
starts (the route answers 429 ``too_many_streams`` or 503 ``streams_full``, with
``Retry-After``), so a crowd of slow or idle readers cannot take the process's memory, its
threads or its database from the commands. Counted per process (each ``--workers`` process and
each replica has its own); the event loop is the only user, so no lock is needed."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

Refusal = Literal["per_client", "total"]


@dataclass
class StreamSlots:
    total: int
    per_client: int
    open: Counter[str] = field(default_factory=Counter)
    count: int = 0

    def take(self, client: str) -> Refusal | None:
        """Take a slot for a stream of ``client`` (an address); why not, when it may not."""
        if self.open[client] >= self.per_client:
            return "per_client"
        if self.count >= self.total:
            return "total"
        self.open[client] += 1
        self.count += 1
        return None

    def give_back(self, client: str) -> None:
        self.count -= 1
        self.open[client] -= 1
        if self.open[client] <= 0:
            del self.open[client]
