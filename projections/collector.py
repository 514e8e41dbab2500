"""A context in which Python's cyclic garbage collector does not run, for work that allocates
many objects which form no cycles: verifying a record, and reading and folding a match's whole
log at once (its first read, a re-fold after a ruling, a tournament's matches). Not for the
reads and commands of every moment: while any pause lasts the collector does not run at all,
so pauses must stay rare and short."""

from __future__ import annotations

import gc
import threading


class _PausedCollector:
    """A context in which Python's cyclic garbage collector does not run: verification's.

    Verifying allocates a few objects per event (the parsed events, the facts, the re-fold's
    outcomes) that stay alive until it returns, then reference counting frees them all: they
    form no cycles. The collector, which runs whenever live allocations pile up, would meanwhile
    walk the whole heap several times and find nothing to free (a third of the CPU time of
    verifying a 10,000-event record). Pauses that overlap (one per thread) nest: the collector
    runs again once the last one ends, if it ran before the first began."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._depth = 0
        self._resume = False

    def __enter__(self) -> None:
        with self._lock:
            if self._depth == 0:
                self._resume = gc.isenabled()
                gc.disable()
            self._depth += 1

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._depth -= 1
            if self._depth == 0 and self._resume:
                gc.enable()


collector_paused = _PausedCollector()


def freeze_heap() -> None:
    """Collect, then move every object left out of the collector's sight for good
    (``gc.freeze``): for what a serving process builds once and keeps (its app at the start, the
    long matches' folds it resumes), which every later full collection would otherwise walk
    again (about 0.3-0.6 s for a million objects), pausing every request in flight. Reference
    counting still frees a frozen object dropped later (a fold replaced, a cache entry evicted);
    only a cycle among frozen objects would never be freed: freeze what forms none. Not in a
    test process, which builds many apps: what it froze would stay."""
    gc.collect()
    gc.freeze()
