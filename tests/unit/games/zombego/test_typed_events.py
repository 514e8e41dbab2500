"""Zombego's events are typed (as Zoom's, ``tests/unit/games/zoom/test_typed_events.py``): a
recorded payload decodes to the struct that records it again, and one that is not its type's is
voided as ``malformed`` by the fold, never raised."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from adjudicator.games.zombego import ZombegoGame, events
from adjudicator.kernel.decider import Setup
from adjudicator.kernel.payloads import Unreadable, plain
from adjudicator.registry import decode
from tests.kit import Table
from tests.support.typed_payloads import PROPERTY, ints, json_values, records_again

SEATS = ("white", "black")
texts = st.text(max_size=8)
seats = st.sampled_from(SEATS) | texts
cells = st.sampled_from(["a1", "b2", "c3", "f3"]) | texts
placed = st.fixed_dictionaries(
    {"seat": seats, "slot": ints, "cell": cells}, optional={"value": ints}
)
moved = st.fixed_dictionaries({"seat": seats, "from": cells, "to": cells})
dealt = st.fixed_dictionaries({"seat": seats, "slot": ints, "value": ints})
revealed = st.fixed_dictionaries(
    {"seat": seats, "cell": cells, "value": ints, "dealt_seq": st.none() | ints}
)
recorded = (
    st.tuples(st.sampled_from([events.PLACED, events.ZOMBIE_PLACED]), placed)
    | st.tuples(st.just(events.MOVED), moved)
    | st.tuples(st.just(events.PIECE_DEALT), dealt)
    | st.tuples(st.just(events.ZOMBIE_REVEALED), revealed)
)


def new_table(**config: Any) -> Table:
    return Table(ZombegoGame(), Setup(match_id="m", seats=SEATS, config=config, seed=7))


@PROPERTY
@given(recorded)
def test_a_recorded_payload_decodes_to_the_struct_that_records_it_again(
    event: tuple[str, dict[str, Any]],
) -> None:
    records_again(event)


def test_a_move_is_recorded_under_from_and_to_as_it_always_was() -> None:
    moved = events.Moved("white", "a1", "b2")
    assert plain(moved) == {"seat": "white", "from": "a1", "to": "b2"}
    assert decode(events.MOVED, plain(moved)) == moved


def test_a_placement_whose_value_is_recorded_as_null_is_malformed() -> None:
    """``value`` is left out when hidden, never null: a null one was malformed before the
    payloads were typed too (``int(None)``)."""
    table = new_table()
    bad = table.record(
        events.PLACED, {"seat": "white", "slot": 0, "cell": "a1", "value": None}, t=1
    )
    assert isinstance(bad.payload, Unreadable)
    assert dict(table.state(5).voided) == {bad.seq: "malformed"}


@PROPERTY
@given(
    st.tuples(
        st.sampled_from(sorted(events.PLAYS)),
        st.dictionaries(texts, json_values(texts), max_size=4),
    )
    | recorded,
    st.booleans(),
)
def test_any_payload_recorded_under_a_zombego_type_folds_without_raising(
    event: tuple[str, dict[str, Any]], hidden: bool
) -> None:
    kind, payload = event
    table = new_table(ruleset="Stratego Style with Zombies") if hidden else new_table()
    fact = table.record(kind, payload, t=1, actor=f"seat:{SEATS[0]}")
    state = table.state(5)
    if isinstance(fact.payload, Unreadable) and kind != events.ZOMBIE_REVEALED:
        assert dict(state.voided)[fact.seq] == "malformed"
