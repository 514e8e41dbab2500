"""What ``adjudicator.kernel.values`` buys the folds: its copies and ``__init__``s against the
``dataclasses`` ones they stand in for, on the folds' own value classes. Prints numbers.

    .venv/bin/python infra/bench/values_bench.py [--n 200000]

For each class: ``updated(value, **changes)`` against ``dataclasses.replace`` with the same
changes (two fields, as a fold's copies mostly change), and the class's ``fast_init``
``__init__`` against the one ``dataclass(frozen=True, slots=True)`` writes for the same fields
(a twin class made here). CPU time (``time.process_time``), best of three, per call. The
equality of the two ways is a property: ``tests/unit/kernel/test_values.py``. What it changes
in a whole fold: ``infra/bench/nnt_bench.py`` and ``verify_bench.py`` (their re-fold).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from adjudicator.games.no_not_that.state import NoNotThatState, SeatState
from adjudicator.games.zoom.state import Found, ZoomState
from adjudicator.kernel.values import updated


def per_call(n: int, work: Callable[[], Any]) -> float:
    """Microseconds per call of ``work``, the best of three runs of ``n`` calls."""
    best = float("inf")
    for _ in range(3):
        started = time.process_time()
        for _ in range(n):
            work()
        best = min(best, time.process_time() - started)
    return best / n * 1e6


def plain_twin(cls: type) -> type:
    """``cls``'s fields in a class whose ``__init__`` is the one ``dataclasses`` writes."""
    spec = []
    for f in dataclasses.fields(cls):
        kept = dataclasses.field(default=f.default, default_factory=f.default_factory)
        spec.append((f.name, Any, kept))
    twin: type = dataclasses.make_dataclass(cls.__name__, spec, frozen=True, slots=True)
    return twin


def sample(cls: type) -> Any:
    """A value of ``cls`` with every field set (its values need not be the rules' own)."""
    return cls(**{f.name: i for i, f in enumerate(dataclasses.fields(cls))})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200_000)
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}; microseconds per call, CPU time, best of 3")
    head = f"{'copy':>8} {'replace':>8} {'ratio':>6}   {'init':>8} {'dataclass':>9} {'ratio':>6}"
    print(f"{'class':16} {head}")
    for cls in (ZoomState, NoNotThatState, SeatState, Found):
        print(row(cls, args.n))


def row(cls: type, n: int) -> str:
    """One class's figures: its copies and its ``__init__`` against ``dataclasses``'."""
    value = sample(cls)
    changes = {f.name: -1 for f in dataclasses.fields(cls)[:2]}
    kwargs = {f.name: i for i, f in enumerate(dataclasses.fields(cls))}
    twin = plain_twin(cls)

    def copy() -> Any:
        return updated(value, **changes)

    def replace() -> Any:
        return dataclasses.replace(value, **changes)

    def built() -> Any:
        return cls(**kwargs)

    def written() -> Any:
        return twin(**kwargs)

    fast, slow = per_call(n, copy), per_call(n, replace)
    init, plain = per_call(n, built), per_call(n, written)
    return (
        f"{cls.__name__:16} {fast:8.3f} {slow:8.3f} {slow / fast:5.2f}x"
        f"   {init:8.3f} {plain:9.3f} {plain / init:5.2f}x"
    )


if __name__ == "__main__":
    main()
