"""Generated rounds: shapes the generator cannot make are refused up front, and its work is bounded.

The figures quoted in ``ZoomConfig._generable``'s docstring come from these shapes.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from pydantic import ValidationError

from adjudicator.games.zoom import grid
from adjudicator.games.zoom.commands import ZoomConfig, expected_strays
from adjudicator.games.zoom.grid import Shape, generate
from adjudicator.kernel.errors import InvalidCommand

BINARY = ["R", "G"]
TERNARY = ["R", "G", "B"]
# The slowest shape ZoomConfig accepts among those measured: the largest grid, 26 targets, and
# 3^11 distinct targets, 12.8 expected strays (a narrow target also makes each scan dearest).
WORST = {
    "grid_height": 300,
    "grid_width": 300,
    "target_height": 11,
    "target_width": 1,
    "targets_per_round": 26,
    "alphabet": TERNARY,
}


def shape_of(config: ZoomConfig) -> Shape:
    return Shape(
        config.grid_height,
        config.grid_width,
        config.target_height,
        config.target_width,
        config.targets_per_round,
        tuple(config.alphabet),
    )


def refusal(**config: Any) -> str:
    with pytest.raises(ValidationError) as caught:
        ZoomConfig(**config)
    return str(caught.value)


def count_scans(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    scans = [0]
    scan = grid._duplicate_cells

    def counted(*args: Any) -> list[tuple[int, int]]:
        scans[0] += 1
        return scan(*args)

    monkeypatch.setattr(grid, "_duplicate_cells", counted)
    return scans


def test_expected_strays_is_targets_times_other_positions_over_distinct_targets() -> None:
    assert expected_strays((20, 20), (3, 3), 5, 2) == 5 * (18 * 18 - 1) / 2**9
    assert expected_strays((3, 3), (3, 3), 1, 2) == 0


def test_a_big_two_symbol_grid_with_26_small_targets_is_refused_at_validation() -> None:
    message = refusal(grid_height=300, grid_width=300, targets_per_round=26, alphabet=BINARY)
    assert "cannot be generated" in message and "2^9 distinct targets" in message


def test_single_cell_targets_over_two_symbols_are_refused_at_validation() -> None:
    assert "cannot be generated" in refusal(target_height=1, target_width=1, alphabet=BINARY)


def test_more_targets_than_distinct_spots_are_refused_at_validation() -> None:
    message = refusal(grid_height=3, grid_width=4, target_height=3, target_width=3)
    assert "5 targets of 3x3 need as many distinct spots; the grid has 2" in message


def test_the_threshold_sits_between_the_worst_accepted_shape_and_a_narrower_target() -> None:
    assert ZoomConfig(**WORST).target_height == 11
    assert "cannot be generated" in refusal(**{**WORST, "target_height": 10})


def test_an_infeasible_shape_is_accepted_when_every_round_is_supplied() -> None:
    supplied = {"grid": ["RG"], "targets": {"A": ["G"]}}
    config = ZoomConfig(rounds=1, alphabet=BINARY, target_height=1, supplied_rounds={1: supplied})
    assert config.target_height == 1


def test_the_worst_accepted_shape_generates_well_inside_the_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scans = count_scans(monkeypatch)
    rows, targets = generate(3, 1, shape_of(ZoomConfig(**WORST)))
    assert scans[0] <= grid._MAX_SCANS // 4
    windows = Counter(
        tuple(row[col : col + 1] for row in rows[top : top + 11])
        for top in range(300 - 11 + 1)
        for col in range(300)
    )
    assert all(windows[target] == 1 for target in targets.values())


def test_a_shape_past_validation_fails_after_one_scan_on_the_redrawn_cells_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scans = count_scans(monkeypatch)
    with pytest.raises(InvalidCommand) as caught:
        generate(1, 1, Shape(300, 300, 3, 3, 26, tuple(BINARY)))
    assert caught.value.code == "cannot_generate"
    assert scans[0] == 1


def test_an_unlucky_two_symbol_round_fails_on_the_scan_bound(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Seed 13 loops forever: either symbol of the re-drawn cell completes a stray."""
    scans = count_scans(monkeypatch)
    with pytest.raises(InvalidCommand) as caught:
        generate(13, 1, Shape(20, 20, 3, 3, 5, tuple(BINARY)))
    assert caught.value.code == "cannot_generate"
    assert scans[0] == grid._MAX_SCANS
