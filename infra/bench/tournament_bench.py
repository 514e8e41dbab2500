"""The tournament's pure rules: standings and pairings of a 64-player, 9-round Swiss.

    .venv/bin/python infra/bench/tournament_bench.py [--players 64] [--rounds 9]
        [--repeat 50] [--seed 1]

Plays a Swiss of ``--players`` players over ``--rounds`` rounds (288 matches at the defaults)
with seeded random results (wins, draws, a few forfeits), pairing each round with
``pair_next``, then recomputes the standings of the finished event ``--repeat`` times with the
tie-breaks Buchholz, Buchholz Cut-1, Sonneborn-Berger, direct encounter, wins and game points
difference: what the service pays after a retroactive ruling changes a result (the goal is
under 50 ms). Also the standings with one result flipped (the retroactive case) and the time of
each round's pairing. Times are this process's CPU time (``time.process_time``): median, 99th
percentile, worst.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from adjudicator.tournaments import (  # noqa: E402
    Format,
    Pairing,
    Player,
    Result,
    Round,
    Settings,
    Tiebreak,
    pair_next,
    standings,
)


def outcome(rng: random.Random, number: int, p: Pairing) -> Result:
    assert p.second is not None
    roll = rng.random()
    a, b = float(rng.randint(0, 9)), float(rng.randint(0, 9))
    winner = None if roll < 0.2 else p.first if roll < 0.6 else p.second
    return Result(number, p.board, winner, a, b, forfeit=roll > 0.98)


def ms(samples: list[float]) -> str:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    median, worst = statistics.median(ordered) * 1e3, ordered[-1] * 1e3
    return f"median {median:7.2f} ms  p99 {p99 * 1e3:7.2f} ms  worst {worst:7.2f} ms"


def timed(call: Callable[[], object], repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.process_time()
        call()
        out.append(time.process_time() - start)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=64)
    ap.add_argument("--rounds", type=int, default=9)
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    players = [Player(f"p{i}", f"Player {i}", i) for i in range(1, args.players + 1)]
    settings = Settings(Format.SWISS, args.rounds, tuple(Tiebreak), True)
    rounds: list[Round] = []
    pairing_times = []
    for number in range(1, args.rounds + 1):
        start = time.process_time()
        pairings = pair_next(settings, players, rounds)
        pairing_times.append(time.process_time() - start)
        games = {p.board: outcome(rng, number, p) for p in pairings if p.second is not None}
        rounds.append(Round(number, pairings, games))
    matches = sum(len(r.results) for r in rounds)
    print(f"Swiss: {args.players} players, {args.rounds} rounds, {matches} matches")
    print(f"pairing a round ({args.rounds} rounds):     {ms(pairing_times)}")
    again = timed(lambda: standings(settings, players, rounds), args.repeat)
    print(f"standings, recomputed ({args.repeat}x):     {ms(again)}")
    second = rounds[1]
    board, old = next(iter(second.results.items()))
    flipped = Result(old.round, board, None, old.second_points, old.first_points)
    changed = [
        *rounds[:1],
        Round(2, second.pairings, {**second.results, board: flipped}),
        *rounds[2:],
    ]
    after = timed(lambda: standings(settings, players, changed), args.repeat)
    print(f"standings, round 2 result changed:  {ms(after)}")
    top = standings(settings, players, rounds).rows[0]
    values = [round(v, 2) for v in top.tiebreaks.values()]
    print(f"leader: {top.player} {top.points} points, tie-breaks {values}")


if __name__ == "__main__":
    main()
