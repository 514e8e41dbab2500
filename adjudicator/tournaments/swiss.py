"""Swiss pairing after the FIDE Dutch system (C.04.3), as one maximum-weight matching.

The absolute criteria are hard: no two players meet twice (a forfeit counts as a meeting) and
nobody gets a second bye (nor a bye after a forfeit win). Among the pairings that pair everyone
(a maximum-cardinality matching: networkx's Edmonds blossom algorithm, run by a faster copy of
it, ``matching``, which returns the same matching), the weights choose, in strict priority (each
tier outweighs every possible sum of the tiers below it):

1. the bye to the lowest-ranked player who may have one;
2. no pair of players with the same absolute seat preference;
3. the fewest floaters, bracket by bracket from the top (``_crossing_costs``);
4. the least score difference between opponents (sum of squared differences in half points);
5. the fewest pairs whose seat preferences clash, then the fewest clashing strong ones;
6. no repeated float: last round's downfloater, then its upfloater, then two rounds back;
7. within a score group, the top half against the bottom half (1 v g/2+1, 2 v g/2+2, ...),
   transpositions of S2 in FIDE's order before any exchange; a downfloater is its group's
   lowest-ranked player and meets the next group's highest.

Ranking for pairing is points, then seed (FIDE A.2). Simplified against FIDE (``docs/
tournaments.md`` says why): the score differences of repeated floaters (C.18 to C.21) are not
weighed, exchanges are ordered by the weights rather than enumerated one by one, topscorers get
no exception in the last round, and there is no look-ahead: a late round of a small field may
have no rematch-free pairing (``no_valid_pairing``); up to ceil(n/2) rounds always pair
(Dirac's theorem on the graph of the meetings still allowed).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import networkx as nx

from adjudicator.tournaments import seats
from adjudicator.tournaments.matching import max_weight_matching
from adjudicator.tournaments.model import Pairing, Player, TournamentError
from adjudicator.tournaments.records import Game, points

BYE = "\x00bye"
UP, DOWN = 1, -1


class _Graph(nx.Graph):  # type: ignore[misc]  # networkx ships no type hints
    """A networkx graph whose ``graph[v]`` is the plain dict of ``v``'s neighbours, not a
    read-only view of it: the blossom algorithm looks an edge's weight up at every slack it
    computes, and the two view layers were a third of a pairing's time (64 players: 91 -> 65
    ms, ``infra/bench/tournament_bench.py``). Nothing here changes the dicts it hands out."""

    def __getitem__(self, n: str) -> dict[str, dict[str, Any]]:
        adjacency: dict[str, dict[str, Any]] = self._adj[n]
        return adjacency


def pair(
    players: Sequence[Player],
    history: Mapping[str, Sequence[Game]],
    round_number: int,
    withdrawn: frozenset[str],
) -> tuple[Pairing, ...]:
    """The next round's pairings of the players still in."""
    score = {p.id: points(history[p.id]) for p in players}
    active = sorted(
        (p for p in players if p.id not in withdrawn), key=lambda p: (-score[p.id], p.seed)
    )
    ranked = [p.id for p in active]
    prefs = {pid: seats.preference(history[pid]) for pid in ranked}
    floats = {
        pid: (
            _float(history[pid], history, round_number - 1),
            _float(history[pid], history, round_number - 2),
        )
        for pid in ranked
    }
    graph = _graph(ranked, score, history, prefs, floats)
    matching = max_weight_matching(graph, maxcardinality=True)
    if 2 * len(matching) != graph.number_of_nodes():
        raise TournamentError(
            "no_valid_pairing",
            f"round {round_number}: no pairing without a rematch or a second bye; the"
            " organizer may conclude the tournament as it stands",
        )
    final = _remainders(ranked, score, graph, prefs, matching)
    return _boards(ranked, score, prefs, final, round_number, {p.id: p.seed for p in players})


def _remainders(
    ranked: list[str],
    score: Mapping[str, float],
    graph: nx.Graph,
    prefs: Mapping[str, seats.Preference],
    matching: set[tuple[str, str]],
) -> set[tuple[str, str]]:
    """The matching with each score group's players that meet each other paired again, on their
    own: once the floaters are out (and the floaters in are paired), FIDE splits what remains of
    a group (its remainder) into S1 and S2 afresh."""
    kept = {(a, b) for a, b in matching if BYE in (a, b) or score[a] != score[b]}
    n = len(ranked)
    for level in sorted(set(score.values()), reverse=True):
        paired = {x for a, b in matching - kept for x in (a, b) if score[a] == level}
        rest = [pid for pid in ranked if pid in paired]
        whole = sum(1 for pid in ranked if score[pid] == level)
        if len(rest) < 4 or len(rest) == whole:  # nothing to re-split
            kept |= {(a, b) for a, b in matching if a in paired}
            continue
        place = {pid: (i, len(rest)) for i, pid in enumerate(rest)}
        strong = (n + 1) ** (n // 2 + 5)
        costs = {seats.NONE: 0, seats.MILD: strong * (n + 1), seats.STRONG: strong * (n + 2)}
        costs[seats.ABSOLUTE] = strong * (n + 1) * (n + 2)
        sub = _Graph()
        sub.add_nodes_from(rest)
        for a, b in graph.subgraph(rest).edges():
            clash = costs[seats.conflict(prefs[a], prefs[b])]
            cost = clash + _position(place[a], place[b], True, n)
            sub.add_edge(a, b, weight=strong * (n + 2) ** 3 - cost)
        kept |= max_weight_matching(sub, maxcardinality=True)
    return kept


def _graph(
    ranked: list[str],
    score: Mapping[str, float],
    history: Mapping[str, Sequence[Game]],
    prefs: Mapping[str, seats.Preference],
    floats: Mapping[str, tuple[int, int]],
) -> nx.Graph:
    n = len(ranked)
    floated = (n + 1) ** (n // 2 + 5)  # more than all the pairs' position costs together
    strong = floated * (n + 1) ** 4
    clash_unit = strong * (n + 1)
    diff_unit = clash_unit * (n + 1)
    levels = sorted(set(score.values()), reverse=True)
    group = {pid: levels.index(score[pid]) for pid in ranked}
    crossing = _crossing_costs(len(levels), diff_unit * (n + 1) * (4 * n * n + 1), n // 2 + 2)
    absolute = crossing[-1] * (n // 2 + 2)
    bye_unit = absolute * (n + 1)
    top = bye_unit * (n + 2)
    costs = {seats.NONE: 0, seats.MILD: clash_unit, seats.STRONG: clash_unit + strong}
    costs[seats.ABSOLUTE] = absolute + clash_unit + strong
    place = _places(ranked, score)
    graph = _Graph()
    graph.add_nodes_from(ranked)
    for i, a in enumerate(ranked):
        met = {g.opponent for g in history[a]}
        for b in ranked[i + 1 :]:
            if b in met:
                continue
            gap = round(2 * abs(score[a] - score[b]))
            clash = seats.conflict(prefs[a], prefs[b])
            tier = costs[clash]
            cost = (
                crossing[group[b]]
                - crossing[group[a]]
                + gap * gap * diff_unit
                + tier
                + _position(place[a], place[b], score[a] == score[b], n)
            )
            if score[a] != score[b]:
                (down1, down2), (up1, up2) = floats[a], floats[b]
                repeats = (down1 == DOWN, up1 == UP, down2 == DOWN, up2 == UP)
                cost += floated * sum(r * (n + 1) ** (3 - i) for i, r in enumerate(repeats))
            graph.add_edge(a, b, weight=top - cost)
    if n % 2:
        graph.add_node(BYE)
        eligible = [
            p
            for p in ranked
            if not any(g.opponent is None or (g.forfeit and g.score == 1.0) for g in history[p])
        ]
        for k, p in enumerate(reversed(eligible)):
            graph.add_edge(p, BYE, weight=top - k * bye_unit)
    return graph


def _float(mine: Sequence[Game], history: Mapping[str, Sequence[Game]], previous: int) -> int:
    """How the player floated in round ``previous``: DOWN after meeting a lower score (or a bye,
    or a forfeit win: points without play), UP after meeting a higher one, else 0."""
    game = next((g for g in mine if g.round == previous), None)
    if game is None:
        return 0
    if game.opponent is None or (game.forfeit and game.score == 1.0):
        return DOWN
    own = sum(g.score or 0.0 for g in mine if g.round < previous)
    other = sum(g.score or 0.0 for g in history[game.opponent] if g.round < previous)
    return 0 if own == other else DOWN if own > other else UP


def _crossing_costs(groups: int, unit: int, base: int) -> list[int]:
    """Cumulative cost of floating from the top score group down to each group: crossing the
    boundary below group i costs ``unit * base**(groups - 2 - i)``, so one floater fewer out of a
    higher group outweighs any number out of the lower ones (FIDE pairs bracket by bracket, from
    the top, each with as many pairs as it can)."""
    out = [0]
    for i in range(groups - 1):
        out.append(out[-1] + unit * base ** (groups - 2 - i))
    return out


def _places(ranked: list[str], score: Mapping[str, float]) -> dict[str, tuple[int, int]]:
    """Each player's (index in its score group, size of the group)."""
    groups: dict[float, list[str]] = {}
    for pid in ranked:
        groups.setdefault(score[pid], []).append(pid)
    return {pid: (i, len(g)) for g in groups.values() for i, pid in enumerate(g)}


def _power(base: int, exponent: int) -> int:
    """``base ** exponent`` for a non-negative exponent, typed as an int."""
    out: int = base**exponent
    return out


def _position(a: tuple[int, int], b: tuple[int, int], same_group: bool, n: int) -> int:
    """How far a pair is from the Dutch order (0 = exactly as the order pairs). In a score group
    of g, S1 is its first g // 2 players: S1's i-th player meeting S2's j-th costs
    j * (|S2| + 1) ** (|S1| - 1 - i), so the sum compares the transpositions of S2
    lexicographically, as FIDE enumerates them; two S1 or two S2 players (an exchange) cost
    more than every transposition. A downfloater costs by how far it is from its group's
    bottom, then by how far its opponent is from the next group's top: more than any
    transposition."""
    (ia, size_a), (ib, _) = a, b
    if not same_group:
        return ((size_a - 1 - ia) * (n + 1) + ib) * _power(n + 1, n // 2 + 1)
    lo, hi = min(ia, ib), max(ia, ib)
    half = size_a // 2
    base = size_a - half + 1
    if lo < half <= hi:
        return (hi - half) * _power(base, half - 1 - lo)
    return _power(base, half) * (1 + hi - lo)


def _boards(
    ranked: list[str],
    score: Mapping[str, float],
    prefs: Mapping[str, seats.Preference],
    matching: set[tuple[str, str]],
    round_number: int,
    seed: Mapping[str, int],
) -> tuple[Pairing, ...]:
    rank = {pid: i for i, pid in enumerate(ranked)}
    pairs = []
    bye = None
    for a, b in matching:
        if BYE in (a, b):
            bye = a if b == BYE else b
            continue
        hi, lo = (a, b) if rank[a] < rank[b] else (b, a)
        pairs.append((hi, lo))
    pairs.sort(
        key=lambda p: (-max(score[p[0]], score[p[1]]), -score[p[0]] - score[p[1]], rank[p[0]])
    )
    out = []
    for board, (hi, lo) in enumerate(pairs, start=1):
        first_hi = seats.first_is_higher(prefs[hi], prefs[lo], seed[hi])
        first, second = (hi, lo) if first_hi else (lo, hi)
        out.append(Pairing(round_number, board, first, second))
    if bye is not None:
        out.append(Pairing(round_number, len(pairs) + 1, bye, None))
    return tuple(out)
