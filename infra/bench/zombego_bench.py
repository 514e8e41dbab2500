"""Zombego rules core benchmark: random play-outs per second, legal-move generations per second.

Run from the repository root: ``.venv/bin/python infra/bench/zombego_bench.py [--seconds S]``.
A play-out starts from a random hand order and plays uniformly random legal moves until the game
ends (the default ply cap of 2,499 applies). A "generation" is one full legal-move computation
(all three tiers) of a position sampled from those play-outs (every tenth ply).

Rates are per second of this process's CPU time (``time.process_time``), which other work on a
shared machine lowers far less than wall-clock rates (it still does, through shared caches and
cores); the wall-clock rate is printed beside the play-out rate, equal to it on an idle machine. The
ratio compares the play-out rate with Ludii 1.3.14's random play-outs on the same options, as
recorded earlier on this kind of machine (they are not measured here).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from adjudicator.games.zombego.movegen import generate
from adjudicator.games.zombego.play import push, start
from adjudicator.games.zombego.position import Position, Rules


class Config(NamedTuple):
    label: str
    rules: Rules
    ludii: float  # recorded Ludii 1.3.14 random play-outs/s, not measured by this script


CONFIGS = (
    Config("default (6x6, All Zombies, (8) 12 Destinations)", Rules(), 54.0),
    Config(
        "10x10, All Zombies, (11) 12 plus Slides",
        Rules(board=10, piece_set="(11) 12 plus Slides"),
        12.3,
    ),
)
GOAL = 5.0


class Playouts(NamedTuple):
    cpu_rate: float
    wall_rate: float
    mean_plies: float
    sample: list[Position]


def playout(rules: Rules, rng: random.Random, every: int = 10) -> tuple[int, list[Position]]:
    """Play one random game: (its number of plies, every ``every``-th position of it)."""
    orders = tuple(rng.sample(rules.values, len(rules.values)) for _ in range(2))
    pos = start(rules, (orders[0], orders[1]))
    kept = [pos]
    while pos.result is None:
        pos = push(pos, rng.choice(pos.moves))
        if pos.ply % every == 0:
            kept.append(pos)
    return pos.ply, kept


def bench_playouts(rules: Rules, seconds: float) -> Playouts:
    rng = random.Random(1)
    games, plies, sample = 0, 0, []
    wall, cpu = time.perf_counter(), time.process_time()
    while time.process_time() - cpu < seconds:
        length, kept = playout(rules, rng)
        games, plies = games + 1, plies + length
        sample.extend(kept)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    return Playouts(games / cpu, games / wall, plies / games, sample)


def bench_generation(sample: list[Position], seconds: float) -> float:
    live = [p for p in sample if p.result is None]
    calls = 0
    begin = time.process_time()
    while time.process_time() - begin < seconds:
        for p in live:
            generate(p.rules.tables, p.board, p.hands, p.owned, p.zombies, player=p.to_move)
        calls += len(live)
    return calls / (time.process_time() - begin)


def report(config: Config, seconds: float) -> None:
    run = bench_playouts(config.rules, seconds)
    generations = bench_generation(run.sample, seconds)
    moves = statistics.mean(len(p.moves) for p in run.sample if p.result is None)
    ratio = run.cpu_rate / config.ludii
    print(f"{config.label}:")
    print(
        f"  random play-outs/s        {run.cpu_rate:9.1f}   (wall clock {run.wall_rate:.1f};"
        f" mean {run.mean_plies:.1f} plies per game)"
    )
    print(f"  legal-move generations/s  {generations:9.0f}   (mean {moves:.1f} moves per position)")
    print(
        f"  vs Ludii 1.3.14 (recorded {config.ludii:g} play-outs/s): {ratio:.2f}x"
        f"   (goal {GOAL:g}x = {GOAL * config.ludii:g}/s: {'met' if ratio >= GOAL else 'NOT met'})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="CPU time per measurement")
    args = parser.parse_args()
    print(f"python {sys.version.split()[0]}, {args.seconds:g} CPU s per measurement")
    print("Ludii figures are recorded earlier on this kind of machine, not measured here.")
    for config in CONFIGS:
        report(config, args.seconds)


if __name__ == "__main__":
    main()
