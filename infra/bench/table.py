"""Rows of the harness's table: a figure, the service's number, a yardstick, their ratio."""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Row:
    figure: str
    value: float
    unit: str
    peer: float | None = None
    peer_label: str = ""

    def ratio(self) -> str:
        if self.peer is None or self.peer == 0:
            return ""
        return f"{self.value / self.peer:.2f}x"


def fmt(value: float, unit: str) -> str:
    if value >= 100:
        return f"{value:,.0f} {unit}"
    return f"{value:.1f} {unit}" if value >= 10 else f"{value:.2f} {unit}"


def render(rows: Sequence[Row]) -> str:
    """The table as text: ratio = service / yardstick (for a rate, higher is better for the
    service; for a time or a size, lower is)."""
    cells = [("figure", "service", "yardstick", "ratio")]
    for row in rows:
        peer = f"— ({row.peer_label})" if row.peer_label else ""  # no yardstick figure
        if row.peer is not None:
            peer = f"{fmt(row.peer, row.unit)} ({row.peer_label})"
        cells.append((row.figure, fmt(row.value, row.unit), peer, row.ratio()))
    widths = [max(len(cell[i]) for cell in cells) for i in range(4)]
    lines = ["  ".join(c.ljust(w) for c, w in zip(cell, widths, strict=True)) for cell in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def median_of(runs: Sequence[dict[str, float]], key: str) -> float:
    return statistics.median(run[key] for run in runs)


def repeated(reps: int, measure: Callable[[], dict[str, float]]) -> list[dict[str, float]]:
    return [measure() for _ in range(reps)]
