"""Property: ``adjudicator.tournaments.matching.max_weight_matching`` (a faster copy of networkx's)
returns exactly the matching networkx returns: the same pairs, each in the same orientation, for
random graphs (ties from small weights, weights of hundreds of bits as the Swiss pairing uses,
nodes named and added in any order, with and without ``maxcardinality``); and a Swiss event
paired with either gives the same rounds."""

from __future__ import annotations

import random
from unittest.mock import patch

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adjudicator.tournaments import (
    Format,
    Player,
    Result,
    Round,
    Settings,
    Tiebreak,
    pair_next,
    swiss,
)
from adjudicator.tournaments.matching import max_weight_matching

WEIGHTS = st.one_of(
    st.integers(0, 3),  # many ties
    st.integers(-5, 40),
    st.integers(0, 2**400),  # as wide as the Swiss pairing's tiers
)


@st.composite
def graphs(draw: st.DrawFn) -> nx.Graph:
    n = draw(st.integers(0, 16), label="nodes")
    names = draw(st.permutations([f"p{i}" for i in range(n)]), label="order")
    graph = nx.Graph()
    graph.add_nodes_from(names)
    density = draw(st.sampled_from([0.2, 0.5, 0.9, 1.0]), label="density")
    weights = draw(st.sampled_from(["ties", "mixed", "wide"]), label="weights")
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            if draw(st.floats(0, 1)) < density:
                if weights == "ties":
                    w = draw(st.integers(0, 3))
                elif weights == "wide":
                    w = draw(st.integers(0, 2**400))
                else:
                    w = draw(WEIGHTS)
                graph.add_edge(a, b, weight=w)
    return graph


@settings(max_examples=400, deadline=None)
@given(graphs(), st.booleans())
def test_the_copy_returns_networkx_s_matching(graph: nx.Graph, maxcardinality: bool) -> None:
    want = nx.max_weight_matching(graph, maxcardinality=maxcardinality)
    assert max_weight_matching(graph, maxcardinality=maxcardinality) == want


def test_an_edge_without_a_weight_weighs_one_as_in_networkx() -> None:
    graph = nx.Graph([("a", "b"), ("b", "c"), ("c", "d")])
    graph.add_edge("a", "d", weight=3)
    got = max_weight_matching(graph)
    assert got == nx.max_weight_matching(graph)
    assert {frozenset(pair) for pair in got} == {frozenset("ad"), frozenset("bc")}


def test_a_graph_without_nodes_has_an_empty_matching() -> None:
    assert max_weight_matching(nx.Graph()) == set() == nx.max_weight_matching(nx.Graph())


@pytest.mark.slow
@settings(max_examples=6, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([9, 16, 33]))
def test_a_swiss_paired_with_either_gives_the_same_rounds(seed: int, players: int) -> None:
    field = [Player(f"p{i}", f"Player {i}", i) for i in range(1, players + 1)]
    options = Settings(Format.SWISS, 5, tuple(Tiebreak), True)
    rng = random.Random(seed)
    rounds: list[Round] = []
    for number in range(1, 6):
        mine = pair_next(options, field, rounds)
        with patch.object(swiss, "max_weight_matching", nx.max_weight_matching):
            theirs = pair_next(options, field, rounds)
        assert mine == theirs
        results = {}
        for p in mine:
            if p.second is not None:
                roll = rng.random()
                winner = None if roll < 0.2 else p.first if roll < 0.6 else p.second
                results[p.board] = Result(number, p.board, winner, 1.0, 0.0)
        rounds.append(Round(number, mine, results))
