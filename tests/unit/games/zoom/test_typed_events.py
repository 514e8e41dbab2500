"""Zoom's events are typed: each payload is decoded once into its struct where the store's
events become facts, and the rules read the struct. What was recorded is what the struct says
(nothing lost or added on the way), and a recorded payload that is not its type's is voided by
the fold, never raised (an imported record may hold anything)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from adjudicator.games.zoom import events
from adjudicator.games.zoom.commands import Buzz, Pair
from adjudicator.kernel.payloads import Unreadable, plain
from tests.kit import Table
from tests.support.typed_payloads import PROPERTY, ints, json_values, records_again
from tests.unit.games.zoom.conftest import new_table, start

texts = st.text(max_size=12)
labels = st.sampled_from("ABCD") | texts  # the round's targets (conftest), or anything
pairs = st.lists(st.fixed_dictionaries({"target": labels, "at": texts}), max_size=4)
buzzes = st.fixed_dictionaries({"seat": texts, "pairs": pairs})
rows = st.lists(st.lists(texts, min_size=1, max_size=3), min_size=1, max_size=3)
starts = st.fixed_dictionaries(
    {
        "round": ints,
        "grid": rows,
        "targets": st.dictionaries(texts, rows, max_size=3),
    }
)


@PROPERTY
@given(st.tuples(st.just(events.BUZZED), buzzes) | st.tuples(st.just(events.ROUND_STARTED), starts))
def test_a_recorded_payload_decodes_to_the_struct_that_records_it_again(
    recorded: tuple[str, dict[str, Any]],
) -> None:
    assert isinstance(records_again(recorded), events.RoundStarted | events.Buzzed)


def test_a_drafted_buzz_is_recorded_as_the_json_it_always_was() -> None:
    table = new_table()
    start(table)
    (fact,) = table.act(Buzz(seat="alpha", pairs=[Pair(target="a", at="C3")]), seat="alpha", t=1)
    assert isinstance(fact.payload, events.Buzzed)
    assert plain(fact.payload) == {"seat": "alpha", "pairs": [{"target": "A", "at": "c3"}]}


def voided(table: Table) -> dict[int, str]:
    return dict(table.state(60).voided)


def test_a_buzz_recorded_without_its_pairs_is_voided_not_raised() -> None:
    """Before the payloads were typed, this fold raised KeyError('pairs')."""
    table = new_table()
    start(table)
    bad = table.record(events.BUZZED, {"seat": "alpha"}, t=1, actor="seat:alpha")
    assert isinstance(bad.payload, Unreadable)
    reason = voided(table)[bad.seq]
    assert reason.startswith("malformed payload: ") and "pairs" in reason
    table.act(Buzz(seat="beta", pairs=[Pair(target="A", at="d3")]), seat="beta", t=2)
    assert dict(table.state(60).scores) == {"beta": 1}


anything = st.dictionaries(texts, json_values(texts), max_size=4)


@PROPERTY
@given(
    st.tuples(st.sampled_from(sorted(events.PLAYS)), anything | buzzes | starts),
    st.booleans(),
)
def test_any_payload_recorded_under_a_zoom_type_folds_without_raising(
    recorded: tuple[str, dict[str, Any]], between_rounds: bool
) -> None:
    kind, payload = recorded
    table = new_table()
    if not between_rounds:
        start(table)
    fact = table.record(kind, payload, t=1, actor="seat:alpha")
    state = table.state(60)
    if isinstance(fact.payload, Unreadable):
        assert dict(state.voided)[fact.seq].startswith("malformed payload: ")
