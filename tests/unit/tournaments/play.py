"""Run a tournament to its end with results chosen by a function (tests only)."""

from __future__ import annotations

from collections.abc import Callable

from adjudicator.tournaments import (
    Format,
    Pairing,
    Player,
    Result,
    Round,
    Settings,
    Tiebreak,
    is_finished,
    pair_next,
)

Decide = Callable[[int, Pairing], Result]


def field(n: int) -> list[Player]:
    """Players p1..pn, seeded in that order."""
    return [Player(f"p{i}", f"Player {i}", i) for i in range(1, n + 1)]


def settings(
    fmt: Format, rounds: int | None = None, *tiebreaks: Tiebreak, points_game: bool = True
) -> Settings:
    return Settings(fmt, rounds, tuple(tiebreaks), points_game)


def higher_seed_wins(number: int, p: Pairing) -> Result:
    assert p.second is not None
    winner = min(p.first, p.second, key=lambda x: int(x[1:]))
    return Result(number, p.board, winner, 1.0 if winner == p.first else 0.0, 0.0)


def results(number: int, pairings: tuple[Pairing, ...], decide: Decide) -> Round:
    games = {p.board: decide(number, p) for p in pairings if p.second is not None}
    return Round(number, pairings, games)


def play(
    s: Settings,
    players: list[Player],
    decide: Decide,
    withdrawn: Callable[[int], frozenset[str]] = lambda _: frozenset(),
    limit: int = 100,
) -> list[Round]:
    """Pair and decide every round until the tournament is finished."""
    rounds: list[Round] = []
    while not is_finished(s, players, rounds, withdrawn(len(rounds) + 1)) and len(rounds) < limit:
        number = len(rounds) + 1
        rounds.append(results(number, pair_next(s, players, rounds, withdrawn(number)), decide))
    return rounds
