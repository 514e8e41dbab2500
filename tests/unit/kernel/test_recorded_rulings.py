"""A ruling's recorded payload is typed as the games' events are: decoded once into its struct
(``adjudicator.rulings``), which records it again unchanged; keys it does not name are ignored
(a record made elsewhere or earlier may carry more); one that does not read has no effect."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from adjudicator import rulings
from adjudicator.kernel.decider import HOST, Fact
from adjudicator.kernel.payloads import Unreadable
from adjudicator.registry import decode
from tests.support.typed_payloads import PROPERTY, records_again

T0 = datetime(2026, 1, 1, 12, tzinfo=UTC)
seqs = st.integers(1, 2**31)
reasons = st.text(max_size=20)
outcomes = st.dictionaries(st.text(max_size=3), st.sampled_from(["correct", "incorrect"]))
recorded = st.one_of(
    st.tuples(
        st.just("ruling.void"), st.fixed_dictionaries({"reason": reasons, "target_seq": seqs})
    ),
    st.tuples(st.just("ruling.undo"), st.fixed_dictionaries({"reason": reasons, "to_seq": seqs})),
    st.tuples(
        st.just("ruling.amend"),
        st.fixed_dictionaries({"reason": reasons, "target_seq": seqs, "outcome": outcomes}),
    ),
    st.tuples(
        st.just("ruling.adjust_score"),
        st.fixed_dictionaries(
            {"reason": reasons, "seat": st.text(max_size=8), "delta": st.integers(-1000, 1000)},
            optional={"at": st.none() | st.text(max_size=30)},
        ),
    ),
    st.tuples(st.just("ruling.end_round"), st.fixed_dictionaries({"reason": reasons})),
    st.tuples(
        st.just("ruling.declare_result"),
        st.fixed_dictionaries({"reason": reasons, "winner": st.none() | st.text(max_size=8)}),
    ),
    st.tuples(st.just("ruling.note"), st.fixed_dictionaries({"reason": reasons})),
)


@PROPERTY
@given(recorded)
def test_a_recorded_ruling_decodes_to_the_struct_that_records_it_again(
    event: tuple[str, dict[str, Any]],
) -> None:
    assert isinstance(records_again(event), rulings.Recorded)


def facts(*payloads: tuple[str, dict[str, Any]]) -> list[Fact]:
    played = [Fact(1, "zoom.buzzed", "seat:alpha", T0, None)]
    for seq, (kind, payload) in enumerate(payloads, start=2):
        played.append(Fact(seq, kind, HOST, T0 + timedelta(seconds=seq), decode(kind, payload)))
    return played


def test_a_void_without_its_target_has_no_effect_and_raises_nothing() -> None:
    """Before the rulings' payloads were typed, resolving it raised KeyError('target_seq')."""
    log = facts(("ruling.void", {"reason": "typo"}), ("ruling.void", {"target_seq": 1}))
    assert isinstance(log[1].payload, Unreadable)
    assert rulings.resolve(log).voided == {1: "voided by ruling 3: "}


def test_keys_a_ruling_does_not_name_are_ignored() -> None:
    log = facts(("ruling.void", {"reason": "typo", "target_seq": 1, "by": "an older exporter"}))
    assert rulings.resolve(log).voided == {1: "voided by ruling 2: typo"}


def test_an_older_record_s_payload_at_places_a_timed_ruling_and_a_bad_one_is_ignored() -> None:
    earlier = (T0 - timedelta(minutes=5)).isoformat()
    log = facts(
        ("ruling.end_round", {"reason": "r", "at": earlier}),
        ("ruling.end_round", {"reason": "r", "at": "not a time"}),
    )
    first, second = rulings.resolve(log).timed
    assert first.at == T0 - timedelta(minutes=5)
    assert second.at == log[2].at  # the envelope's game time
