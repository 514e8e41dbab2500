"""Golden: the round robin pairs exactly the published Berger tables (FIDE C.05 Annex 1), board
by board and seat by seat, for 4, 6, 8 and 10 players; an odd field has the same table with the
highest number's opponent on a bye; the second cycle is the table with the seats swapped."""

from __future__ import annotations

from pathlib import Path

import pytest

from adjudicator.tournaments import Format, Pairing
from tests.unit.tournaments.play import field, higher_seed_wins, play, settings

Table = dict[int, list[list[tuple[int, int]]]]


def published() -> Table:
    tables: Table = {}
    size = 0
    for line in (Path(__file__).parent / "berger_tables.txt").read_text().splitlines():
        if line.startswith("players"):
            size = int(line.split()[1])
            tables[size] = []
        elif line and not line.startswith("#"):
            boards = line.split(":")[1].split()
            tables[size].append([(int(a), int(b)) for a, b in (x.split("-") for x in boards)])
    return tables


def numbered(p: Pairing) -> tuple[int, int | None]:
    return int(p.first[1:]), None if p.second is None else int(p.second[1:])


@pytest.mark.parametrize("n", [4, 6, 8, 10])
def test_the_round_robin_is_the_published_berger_table(n: int) -> None:
    rounds = play(settings(Format.ROUND_ROBIN), field(n), higher_seed_wins)
    assert [[numbered(p) for p in r.pairings] for r in rounds] == published()[n]


@pytest.mark.parametrize("n", [3, 5, 7, 9])
def test_an_odd_field_plays_the_next_table_with_the_dummy_as_the_bye(n: int) -> None:
    rounds = play(settings(Format.ROUND_ROBIN), field(n), higher_seed_wins)
    expected = [
        [(a, None) if b == n + 1 else (b, None) if a == n + 1 else (a, b) for a, b in r]
        for r in published()[n + 1]
    ]
    assert [[numbered(p) for p in r.pairings] for r in rounds] == expected


@pytest.mark.parametrize("n", [4, 6])
def test_the_second_cycle_swaps_the_seats(n: int) -> None:
    rounds = play(settings(Format.DOUBLE_ROUND_ROBIN), field(n), higher_seed_wins)
    table = published()[n]
    second = [[(b, a) for a, b in r] for r in table]
    assert [[numbered(p) for p in r.pairings] for r in rounds] == table + second
