"""How often our Swiss pairings equal another Dutch engine's, round by round.

    python -m venv /tmp/dutch && /tmp/dutch/bin/pip install caissify-pairings==0.5.0
    .venv/bin/python infra/bench/tournament_dutch_compare.py \
        --site /tmp/dutch/lib/python3.11/site-packages

``caissify-pairings`` (PyPI) is a Python FIDE Dutch engine that says it was cross-validated
against bbpPairings, FIDE's endorsed reference; it is not a dependency of the service, only the
yardstick here. Random Swiss events (7 to 32 players, up to ceil(n/2) rounds, random wins and
draws) are paired by ``pair_next``; before each round the other engine is asked too, given the
same scores, seat histories, float histories, byes and meetings. Printed: the share of rounds
with the same pairs, and with the same pairs and the same seats.
"""

from __future__ import annotations

import argparse
import random
import sys
import warnings
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from adjudicator.tournaments import (  # noqa: E402
    Format,
    Pairing,
    Player,
    Result,
    Round,
    Settings,
    pair_next,
)
from adjudicator.tournaments.records import games, points  # noqa: E402


def floats(players: list[Player], rounds: list[Round]) -> dict[str, list[str]]:
    """Each player's float in each round: down, up or none (a bye floats down)."""
    history = games(players, rounds)
    out: dict[str, list[str]] = {p.id: [] for p in players}
    for r in rounds:
        before = {
            p.id: sum(g.score or 0.0 for g in history[p.id] if g.round < r.number) for p in players
        }
        for p in r.pairings:
            if p.second is None:
                out[p.first].append("down")
                continue
            a, b = before[p.first], before[p.second]
            out[p.first].append("none" if a == b else "down" if a > b else "up")
            out[p.second].append("none" if a == b else "up" if a > b else "down")
    return out


def theirs(
    engine: Any, players: list[Player], rounds: list[Round], number: int, total: int
) -> set[tuple[str, str | None]]:
    history = games(players, rounds)
    floated = floats(players, rounds)
    table = [
        {
            "id": p.seed,
            "name": p.name,
            "score": points(history[p.id]),
            "rating": 3000 - p.seed,
            "starting_number": p.seed,
            "color_hist": ["white" if g.first else "black" for g in history[p.id] if g.opponent],
            "float_history": floated[p.id],
            "bye_count": sum(1 for g in history[p.id] if g.opponent is None),
        }
        for p in players
    ]
    met = {(int(p.first[1:]), int(p.second[1:])) for r in rounds for p in r.pairings if p.second}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        answer = engine("dutch", table, met, number, total)
    return {
        (f"p{o['white_id']}", f"p{o['black_id']}" if o.get("black_id") else None) for o in answer
    }


def unordered(seated: set[tuple[str, str | None]]) -> set[frozenset[str | None]]:
    return {frozenset(pair) for pair in seated}


def decide(rng: random.Random, number: int, p: Pairing) -> Result:
    roll = rng.random()
    winner = None if roll < 0.2 else p.first if roll < 0.6 else p.second
    return Result(number, p.board, winner, 0.0, 0.0)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--site", required=True, help="site-packages holding caissify_pairings")
    ap.add_argument("--events", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    sys.path.append(args.site)
    from caissify_pairings import generate_pairings  # type: ignore[import-not-found]

    rng = random.Random(args.seed)
    rounds_compared = same_pairs = same_seats = 0
    for _ in range(args.events):
        n = rng.choice([7, 8, 9, 12, 16, 21, 32])
        total = min(n - 1, rng.choice([3, 5, 7, 9]), (n + 1) // 2)
        players = [Player(f"p{i}", f"P{i}", i) for i in range(1, n + 1)]
        settings = Settings(Format.SWISS, total, (), False)
        rounds: list[Round] = []
        for number in range(1, total + 1):
            ours = pair_next(settings, players, rounds)
            other = theirs(generate_pairings, players, rounds, number, total)
            seated = {(p.first, p.second) for p in ours}
            rounds_compared += 1
            same_pairs += unordered(seated) == unordered(other)
            same_seats += seated == other
            results = {p.board: decide(rng, number, p) for p in ours if p.second is not None}
            rounds.append(Round(number, ours, results))
    print(
        f"{rounds_compared} rounds of {args.events} events: same pairs in {same_pairs} "
        f"({100 * same_pairs / rounds_compared:.0f}%), same pairs and seats in {same_seats} "
        f"({100 * same_seats / rounds_compared:.0f}%)"
    )


if __name__ == "__main__":
    main()
