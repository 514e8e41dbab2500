"""StreamSlots, as a pure counter: per client address and in total, and given back."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from api.service.stream_slots import StreamSlots


def test_a_client_past_its_share_is_refused_before_the_total() -> None:
    slots = StreamSlots(total=3, per_client=2)
    assert slots.take("a") is None and slots.take("a") is None
    assert slots.take("a") == "per_client"
    assert slots.take("b") is None
    assert slots.take("c") == "total"
    slots.give_back("a")
    assert slots.take("c") is None
    assert slots.count == 3


@given(st.lists(st.tuples(st.booleans(), st.sampled_from("abc"))))
def test_the_counts_never_pass_the_bounds_and_come_back_to_zero(
    steps: list[tuple[bool, str]],
) -> None:
    slots, held = StreamSlots(total=4, per_client=2), []
    for take, client in steps:
        if take:
            if slots.take(client) is None:
                held.append(client)
        elif client in held:
            held.remove(client)
            slots.give_back(client)
        assert slots.count == len(held) <= 4
        assert all(n <= 2 for n in slots.open.values())
    for client in held:
        slots.give_back(client)
    assert slots.count == 0 and not slots.open
