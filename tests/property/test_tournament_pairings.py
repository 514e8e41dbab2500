"""Tournament properties over random results: the Swiss never pairs a rematch and gives each
player at most one bye (to one who had none); every round robin pair meets once (twice in a
double, seats swapped) with first seats balanced; elimination brackets are consistent (one loss
out in single, two in double, one champion) and, with withdrawals, pair to their end without a
withdrawn player; pairings are deterministic and do not depend on
the order the players are listed in; the standings' points add up to the rounds' results."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator.tournaments import (
    Format,
    Pairing,
    Player,
    Result,
    Round,
    Settings,
    Tiebreak,
    TournamentError,
    is_finished,
    pair_next,
    standings,
)
from adjudicator.tournaments.records import games
from tests.unit.tournaments.play import field

SWISS_TIEBREAKS = (Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN_BERGER, Tiebreak.DIRECT_ENCOUNTER)


def outcome(rng: random.Random, number: int, p: Pairing, elimination: bool) -> Result:
    """A random result: mostly wins, some draws and forfeits (no draw in elimination)."""
    assert p.second is not None
    roll = rng.random()
    a, b = float(rng.randint(0, 9)), float(rng.randint(0, 9))
    if not elimination and roll < 0.2:
        return Result(number, p.board, None, a, a)
    winner = p.first if rng.random() < 0.5 else p.second
    return Result(number, p.board, winner, a, b, forfeit=roll > 0.95)


def decide(rng: random.Random, number: int, pairings: tuple[Pairing, ...], elim: bool) -> Round:
    games = {p.board: outcome(rng, number, p, elim) for p in pairings if p.second is not None}
    return Round(number, pairings, games)


def no_rematch_free_pairing_exists(players: list[Player], rounds: list[Round]) -> bool:
    """Whether the players truly cannot all be paired without a rematch or a second bye."""
    graph = nx.Graph()
    graph.add_nodes_from(p.id for p in players)
    met = {frozenset((p.first, p.second or "")) for r in rounds for p in r.pairings}
    graph.add_edges_from(e for e in combinations(graph.nodes, 2) if frozenset(e) not in met)
    if len(players) % 2:
        had = {p.first for r in rounds for p in r.pairings if p.second is None}
        had |= {x.winner for r in rounds for x in r.results.values() if x.forfeit and x.winner}
        graph.add_edges_from(("bye", p.id) for p in players if p.id not in had)
    matched: set[tuple[str, str]] = nx.max_weight_matching(graph, maxcardinality=True)
    nodes: int = graph.number_of_nodes()
    return 2 * len(matched) < nodes


def lowest_possible_bye(
    bye: str, players: list[Player], active: list[Player], rounds: list[Round]
) -> bool:
    """Every lower-ranked player who may have the bye could not: the others would not pair."""
    history = games(players, rounds)
    score = {p.id: sum(g.score or 0.0 for g in history[p.id]) for p in active}
    ranked = sorted(active, key=lambda p: (-score[p.id], p.seed))
    below = ranked[[p.id for p in ranked].index(bye) + 1 :]
    had = {p.first for r in rounds for p in r.pairings if p.second is None}
    had |= {x.winner for r in rounds for x in r.results.values() if x.forfeit and x.winner}
    for other in below:
        if other.id not in had:
            rest = [p for p in active if p.id != other.id]
            if not no_rematch_free_pairing_exists(rest, rounds):
                return False
    return True


def check_swiss(n: int, n_rounds: int, seed: int, withdrawals: bool = False) -> None:
    rng = random.Random(seed)
    players = field(n)
    s = Settings(Format.SWISS, n_rounds, SWISS_TIEBREAKS, True)
    rounds: list[Round] = []
    met: set[frozenset[str]] = set()
    byes: Counter[str] = Counter()
    gone: frozenset[str] = frozenset()
    for number in range(1, n_rounds + 1):
        active = [p for p in players if p.id not in gone]
        if withdrawals and len(active) > 3 and rng.random() < 0.3:
            gone |= {rng.choice(active).id}
            active = [p for p in players if p.id not in gone]
        try:
            pairings = pair_next(s, players, rounds, gone)
        except TournamentError as e:
            assert e.code == "no_valid_pairing"
            assert withdrawals or number > (n + 1) // 2  # Dirac: ceil(n/2) rounds always pair
            assert no_rematch_free_pairing_exists(active, rounds)
            return
        seated = [x for p in pairings for x in (p.first, p.second) if x is not None]
        assert sorted(seated) == sorted(p.id for p in active)
        for p in pairings:
            if p.second is None:
                assert byes[p.first] == 0
                assert lowest_possible_bye(p.first, players, active, rounds)
                byes[p.first] += 1
            else:
                assert frozenset((p.first, p.second)) not in met
                met.add(frozenset((p.first, p.second)))
        rounds.append(decide(rng, number, pairings, False))
        check_points(s, players, rounds)
    assert is_finished(s, players, rounds, gone)


def check_points(s: Settings, players: list[Player], rounds: list[Round]) -> None:
    """Each finished board hands out 1 point (0 for a double forfeit), a bye 1."""
    total = sum(r.points for r in standings(s, players, rounds).rows)
    expected = sum(
        1.0
        for r in rounds
        for p in r.pairings
        if p.second is None
        or not (r.results[p.board].forfeit and r.results[p.board].winner is None)
    )
    assert total == expected


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(4, 20), data=st.data(), seed=st.integers(0, 2**32))
def test_swiss_never_rematches_and_gives_each_player_at_most_one_bye(
    n: int, data: st.DataObject, seed: int
) -> None:
    check_swiss(n, data.draw(st.integers(1, min(9, n - 1))), seed)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(4, 16), data=st.data(), seed=st.integers(0, 2**32))
def test_swiss_with_withdrawals_never_pairs_a_withdrawn_player_nor_a_rematch(
    n: int, data: st.DataObject, seed: int
) -> None:
    check_swiss(n, data.draw(st.integers(1, min(9, n - 1))), seed, withdrawals=True)


@pytest.mark.slow
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=st.integers(21, 64), data=st.data(), seed=st.integers(0, 2**32))
def test_large_swiss_never_rematches(n: int, data: st.DataObject, seed: int) -> None:
    check_swiss(n, data.draw(st.integers(1, min(9, n - 1))), seed)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(2, 14), double=st.booleans(), seed=st.integers(0, 2**32))
def test_every_round_robin_pair_meets_once_per_cycle_with_balanced_first_seats(
    n: int, double: bool, seed: int
) -> None:
    rng = random.Random(seed)
    players = field(n)
    s = Settings(Format.DOUBLE_ROUND_ROBIN if double else Format.ROUND_ROBIN, None, (), False)
    rounds: list[Round] = []
    while not is_finished(s, players, rounds):
        rounds.append(decide(rng, len(rounds) + 1, pair_next(s, players, rounds), False))
        check_points(s, players, rounds)
    games = [(p.first, p.second) for r in rounds for p in r.pairings if p.second is not None]
    seated = Counter(games)
    for a, b in combinations([p.id for p in players], 2):
        assert seated[(a, b)] + seated[(b, a)] == (2 if double else 1)
        if double:
            assert seated[(a, b)] == seated[(b, a)] == 1
    firsts = Counter(a for a, _ in games)
    seconds = Counter(b for _, b in games)
    for p in players:
        assert abs(firsts[p.id] - seconds[p.id]) <= (2 if double else 1)
    bye_counts = Counter(p.first for r in rounds for p in r.pairings if p.second is None)
    assert all(c == (2 if double else 1) for c in bye_counts.values())
    assert len(bye_counts) == (n if n % 2 else 0)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 40), double=st.booleans(), seed=st.integers(0, 2**32))
def test_elimination_brackets_are_consistent(n: int, double: bool, seed: int) -> None:
    rng = random.Random(seed)
    players = field(n)
    fmt = Format.DOUBLE_ELIMINATION if double else Format.SINGLE_ELIMINATION
    s = Settings(fmt, None, (Tiebreak.WINS,), True)
    rounds: list[Round] = []
    while not is_finished(s, players, rounds):
        rounds.append(decide(rng, len(rounds) + 1, pair_next(s, players, rounds), True))
        check_points(s, players, rounds)
    lives = 2 if double else 1
    k = max(1, (n - 1).bit_length())
    assert len(rounds) <= (2 * k + 1 if double else k)
    losses: Counter[str] = Counter()
    for r in rounds:
        for p in r.pairings:
            if p.second is not None:
                assert all(losses[x] < lives for x in (p.first, p.second))  # nobody out plays
                w = r.results[p.board].winner
                losses[p.second if w == p.first else p.first] += 1
    table = standings(s, players, rounds)
    champion = table.champion
    assert table.finished and champion is not None
    assert losses[champion] < lives
    assert all(losses[p.id] == lives for p in players if p.id != champion)
    assert table.rows[0].player == champion
    with pytest.raises(TournamentError) as e:
        pair_next(s, players, rounds)
    assert e.value.code == "tournament_finished"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 16),
    fmt=st.sampled_from(list(Format)),
    seed=st.integers(0, 2**32),
    order=st.randoms(use_true_random=False),
)
def test_pairings_are_deterministic_and_ignore_the_listing_order(
    n: int, fmt: Format, seed: int, order: random.Random
) -> None:
    rng = random.Random(seed)
    players = field(n)
    shuffled = list(players)
    order.shuffle(shuffled)
    s = Settings(fmt, min(n - 1, 5) if fmt is Format.SWISS else None, (), False)
    elim = fmt in (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION)
    rounds: list[Round] = []
    while not is_finished(s, players, rounds) and len(rounds) < 6:
        try:
            pairings = pair_next(s, players, rounds)
        except TournamentError as e:
            assert e.code == "no_valid_pairing"
            return
        assert pair_next(s, players, rounds) == pairings
        assert pair_next(s, shuffled, rounds) == pairings
        rounds.append(decide(rng, len(rounds) + 1, pairings, elim))
    assert standings(s, players, rounds) == standings(s, shuffled, rounds)


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 24), double=st.booleans(), seed=st.integers(0, 2**32))
def test_an_elimination_with_withdrawals_pairs_to_its_end_without_a_withdrawn_player(
    n: int, double: bool, seed: int
) -> None:
    """Players withdraw at random between rounds (one already paired forfeits that board):
    every round pairs, nobody withdrawn is paired again, the bracket ends within its rounds
    and the standings read. (Two players due to meet who had both withdrawn left the bracket
    unable to replay the round paired without them.)"""
    rng = random.Random(seed)
    players = field(n)
    fmt = Format.DOUBLE_ELIMINATION if double else Format.SINGLE_ELIMINATION
    s = Settings(fmt, None, (), True)
    k = max(1, (n - 1).bit_length())
    rounds: list[Round] = []
    gone: set[str] = set()
    while not is_finished(s, players, rounds, frozenset(gone)):
        assert len(rounds) < (2 * k + 1 if double else k)
        if rng.random() < 0.4:
            gone.add(rng.choice([p.id for p in players]))
        number = len(rounds) + 1
        paired = pair_next(s, players, rounds, frozenset(gone))
        assert not {x for p in paired for x in (p.first, p.second)} & gone
        if rng.random() < 0.3:  # withdrawn after the pairing: the board is forfeited
            gone.add(rng.choice([p.id for p in players]))
        games = {}
        for p in paired:
            if p.second is None:
                continue
            winner = p.first if rng.random() < 0.5 else p.second
            if p.first in gone or p.second in gone:
                winner = p.second if p.first in gone else p.first
            forfeit = p.first in gone or p.second in gone
            games[p.board] = Result(number, p.board, winner, 0.0, 0.0, forfeit=forfeit)
        rounds.append(Round(number, paired, games))
    table = standings(s, players, rounds, frozenset(gone))
    assert table.finished and len(table.rows) == n


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 24), double=st.booleans(), seed=st.integers(0, 2**32))
def test_an_elimination_result_changed_after_later_rounds_were_paired_keeps_them_as_played(
    n: int, double: bool, seed: int
) -> None:
    """Each round is paired on the results then known (recorded as its ``paired_on``); between
    pairings, at random, a board of any earlier round is given to the other player (a
    retroactive ruling). The bracket goes on as played: every round pairs as the plain bracket
    of the results each round was paired on (the last round's as they are now), and the event
    finishes within its rounds with a champion. (Before, the replay re-derived the bracket
    from the results now and refused the recorded rounds: ``bad_round`` for every pairing and
    standings from then on.)"""
    rng = random.Random(seed)
    players = field(n)
    fmt = Format.DOUBLE_ELIMINATION if double else Format.SINGLE_ELIMINATION
    s = Settings(fmt, None, (Tiebreak.WINS,), True)
    k = max(1, (n - 1).bit_length())
    rounds: list[Round] = []
    while not is_finished(s, players, rounds):
        assert len(rounds) < (2 * k + 1 if double else k)
        paired = pair_next(s, players, rounds)
        assert paired == pair_next(s, players, _as_played(rounds))
        basis = {(r.number, p.board): r.results.get(p.board) for r in rounds for p in r.pairings}
        played = decide(rng, len(rounds) + 1, paired, True)
        rounds.append(Round(played.number, paired, played.results, basis))
        if rng.random() < 0.5:
            r = rng.choice(rounds)
            boards = [p for p in r.pairings if p.second is not None]
            if boards:
                p = rng.choice(boards)
                old = r.results[p.board]
                other = p.second if old.winner == p.first else p.first
                flip = Result(r.number, p.board, other, 0.0, 0.0, old.forfeit)  # same seats
                turned = {**r.results, p.board: flip}
                rounds[r.number - 1] = Round(r.number, r.pairings, turned, r.paired_on)
    table = standings(s, players, rounds)
    assert table.finished and table.champion is not None and len(table.rows) == n
    assert (
        table == standings(s, players, rounds)
        and table.champion == standings(s, players, _as_played(rounds)).champion
    )


def _as_played(rounds: list[Round]) -> list[Round]:
    """Each round with the results the round after it was paired on (the last one's as now),
    and no ``paired_on``: the bracket the plain replay derives from them."""
    out = []
    for i, r in enumerate(rounds):
        later = rounds[i + 1].paired_on if i + 1 < len(rounds) else None
        results = r.results
        if later is not None:
            results = {b: x for (n, b), x in later.items() if n == r.number and x is not None}
        out.append(Round(r.number, r.pairings, results))
    return out
