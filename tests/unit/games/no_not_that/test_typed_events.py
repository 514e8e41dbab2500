"""No, Not That!'s events are typed (as Zoom's, ``tests/unit/games/zoom/test_typed_events.py``):
a recorded payload decodes to the struct that records it again, and one that is not its type's
is voided by the fold (``malformed payload: ...``), never raised."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from adjudicator.games.no_not_that import events
from adjudicator.kernel.payloads import Unreadable
from adjudicator.registry import decode
from tests.support.nnt_harness import SEATS, started
from tests.support.typed_payloads import PROPERTY, ints, json_values, records_again

texts = st.text(max_size=8)
seats = st.sampled_from(SEATS) | texts
objects = st.sampled_from(["QUIZ", "B", "TABLE"]) | texts
actions = st.sampled_from(["submit", "pass", "claim_invalid", "claim_prompt"]) | texts
seat_only = st.fixed_dictionaries({"seat": seats})
recorded = st.one_of(
    st.tuples(st.just(events.ROUND_STARTED), st.fixed_dictionaries({"round": ints})),
    st.tuples(
        st.just(events.ACTED),
        st.fixed_dictionaries(
            {"seat": seats, "round": ints, "step": ints, "action": actions},
            optional={"object": objects},
        ),
    ),
    st.tuples(
        st.just(events.REVEALED),
        st.fixed_dictionaries(
            {
                "round": ints,
                "step": ints,
                "actions": st.dictionaries(
                    seats,
                    st.fixed_dictionaries(
                        {"action": actions}, optional={"object": st.none() | objects}
                    ),
                    max_size=2,
                ),
            }
        ),
    ),
    st.tuples(
        st.just(events.SOLVED),
        st.fixed_dictionaries({"seat": seats, "tokens": st.lists(objects, max_size=4)}),
    ),
    st.tuples(
        st.just(events.SOLUTION_REVEALED),
        st.fixed_dictionaries(
            {"solutions": st.dictionaries(seats, st.lists(objects, max_size=3), max_size=2)}
        ),
    ),
    st.tuples(st.sampled_from([events.CHALLENGED, events.ACCEPTED]), seat_only),
    st.tuples(
        st.just(events.ITEM_USED),
        st.fixed_dictionaries({"seat": seats, "item": st.sampled_from(["extra_safe"]) | texts}),
    ),
    st.tuples(st.just(events.EXCHANGED), st.fixed_dictionaries({"seat": seats, "times": ints})),
    st.tuples(
        st.just(events.CATEGORY_JUDGED),
        st.fixed_dictionaries(
            {"object": objects, "fits": st.booleans()}, optional={"target_seq": ints}
        ),
    ),
    st.tuples(
        st.just(events.PROMPT_JUDGED),
        st.fixed_dictionaries(
            {"seat": seats, "meets": st.booleans()}, optional={"target_seq": ints}
        ),
    ),
)
anything = st.tuples(
    st.sampled_from(sorted(events.PLAYS)), st.dictionaries(texts, json_values(texts), max_size=4)
)


@PROPERTY
@given(recorded)
def test_a_recorded_payload_decodes_to_the_struct_that_records_it_again(
    event: tuple[str, dict[str, Any]],
) -> None:
    records_again(event)


def test_a_challenge_and_an_acceptance_are_each_their_own_struct() -> None:
    challenged = decode(events.CHALLENGED, {"seat": "Alpha"})
    accepted = decode(events.ACCEPTED, {"seat": "Alpha"})
    assert isinstance(challenged, events.Challenged) and isinstance(accepted, events.Accepted)


def test_a_verdict_recorded_as_a_number_is_malformed_not_a_verdict() -> None:
    """``fits`` is a boolean: a recorded 1 was read as True before the payloads were typed."""
    match = started()
    seq = match.record(1, events.CATEGORY_JUDGED, {"object": "B", "fits": 1})
    reason = dict(match.state(2).voided)[seq]
    assert reason.startswith("malformed payload: ") and "fits" in reason


@PROPERTY
@given(recorded | anything)
def test_any_payload_recorded_under_a_no_not_that_type_folds_without_raising(
    event: tuple[str, dict[str, Any]],
) -> None:
    kind, payload = event
    match = started()
    seq = match.record(1, kind, payload, actor=f"seat:{SEATS[0]}")
    fact = match.table.facts[seq - 1]
    state = match.state(2)
    if isinstance(fact.payload, Unreadable):
        assert state.voided[seq].startswith("malformed payload: ")
