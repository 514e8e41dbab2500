"""Zombego rules core benchmark: random play-outs per second, legal-move generations per second.

Run from the repository root: ``.venv/bin/python infra/bench/zombego_bench.py [--seconds S]``.
A play-out starts from a random hand order and plays uniformly random legal moves until the game
ends (the default ply cap of 2,499 applies). A "generation" is one full legal-move computation
(all three tiers) of a position sampled from those play-outs.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from adjudicator.games.zombego.model import Position, Rules
from adjudicator.games.zombego.movegen import generate
from adjudicator.games.zombego.play import push, start

CONFIGS = {
    "default (6x6, All Zombies, (8) 12 Destinations)": Rules(),
    "10x10, All Zombies, (11) 12 plus Slides": Rules(board=10, piece_set="(11) 12 plus Slides"),
}


def playout(rules: Rules, rng: random.Random) -> list[Position]:
    orders = tuple(rng.sample(rules.values, len(rules.values)) for _ in range(2))
    pos = start(rules, (orders[0], orders[1]))
    seen = [pos]
    while pos.result is None:
        pos = push(pos, rng.choice(pos.moves))
        seen.append(pos)
    return seen


def bench_playouts(rules: Rules, seconds: float) -> tuple[float, float, list[Position]]:
    rng = random.Random(1)
    games, plies, sample = 0, 0, []
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds:
        seen = playout(rules, rng)
        games, plies = games + 1, plies + len(seen) - 1
        sample.extend(seen[:: max(1, len(seen) // 20)])
    elapsed = time.perf_counter() - begin
    return games / elapsed, plies / games, sample


def bench_generation(sample: list[Position], seconds: float) -> float:
    live = [p for p in sample if p.result is None]
    calls = 0
    begin = time.perf_counter()
    while time.perf_counter() - begin < seconds:
        for p in live:
            generate(p.rules.tables, p.board, p.hands, p.owned, p.zombies, player=p.to_move)
        calls += len(live)
    return calls / (time.perf_counter() - begin)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {args.seconds:g} s per measurement")
    for label, rules in CONFIGS.items():
        rate, mean_plies, sample = bench_playouts(rules, args.seconds)
        generations = bench_generation(sample, args.seconds)
        moves = statistics.mean(len(p.moves) for p in sample if p.result is None)
        print(f"{label}:")
        print(f"  random play-outs/s      {rate:10.1f}   (mean {mean_plies:.1f} plies per game)")
        print(
            f"  legal-move generations/s {generations:9.0f}   (mean {moves:.1f} moves per position)"
        )


if __name__ == "__main__":
    main()
