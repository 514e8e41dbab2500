"""Instants as text and their bounds: pure, no database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adjudicator.kernel.canonical import iso, iso_all, parse_iso
from adjudicator.kernel.errors import InvalidCommand
from adjudicator.kernel.times import EARLIEST, FIRST, LAST, LATEST, checked

aware = st.datetimes(timezones=st.just(UTC))


def test_years_below_1000_are_zero_padded_to_the_one_fixed_width_form() -> None:
    assert iso(datetime(999, 1, 2, 3, 4, 5, 6, tzinfo=UTC)) == "0999-01-02T03:04:05.000006Z"
    assert iso(FIRST) == "0001-01-01T00:00:00.000000Z"
    assert iso(LAST) == "9999-12-31T23:59:59.999999Z"


def test_the_text_of_later_years_is_unchanged() -> None:
    # Hash chains hash this text: it must stay byte-identical to the old strftime form.
    moment = datetime(2024, 5, 1, 12, 0, 0, 123456, tzinfo=timezone(timedelta(hours=2)))
    assert iso(moment) == "2024-05-01T10:00:00.123456Z"


@given(aware)
def test_every_instant_has_27_characters_and_reads_back(moment: datetime) -> None:
    text = iso(moment)
    assert len(text) == 27
    assert parse_iso(text) == moment


@given(aware, aware)
def test_the_text_sorts_like_the_instants(first: datetime, second: datetime) -> None:
    assert (iso(first) < iso(second)) == (first < second)


def test_parse_iso_refuses_a_naive_text() -> None:
    with pytest.raises(ValueError, match="time zone"):
        parse_iso("2024-05-01T10:00:00")


@pytest.mark.parametrize(
    "moment",
    [
        datetime(1, 1, 1, tzinfo=timezone(timedelta(hours=1))),
        datetime(9999, 12, 31, 23, tzinfo=timezone(timedelta(hours=-2))),
    ],
)
def test_an_instant_without_a_utc_form_is_out_of_range(moment: datetime) -> None:
    with pytest.raises(InvalidCommand) as error:
        checked(moment)
    assert error.value.code == "time_out_of_range"
    assert "0001-01-02" in error.value.message


def test_the_bounds_themselves_and_offsets_inside_them_are_accepted() -> None:
    assert checked(EARLIEST) == EARLIEST
    assert checked(LATEST) == LATEST
    near_start = datetime(1, 1, 2, tzinfo=timezone(timedelta(hours=-1)))
    assert checked(near_start) == datetime(1, 1, 2, 1, tzinfo=UTC)
    assert checked(near_start).tzinfo is UTC


def test_a_day_of_margin_keeps_every_deadline_representable() -> None:
    with pytest.raises(InvalidCommand):
        checked(LAST)
    assert LATEST + timedelta(hours=23) < LAST


def test_a_naive_instant_is_refused() -> None:
    with pytest.raises(InvalidCommand) as error:
        checked(datetime(2024, 5, 1))  # noqa: DTZ001 - naive on purpose
    assert error.value.code == "naive_time"


def _iso_or_error(moment: datetime) -> str | type[Exception]:
    try:
        return iso(moment)
    except (OverflowError, ValueError) as error:
        return type(error)


zones = st.one_of(
    st.just(UTC),
    st.timezones(),  # zoneinfo's, whose offset at the instant may be zero or not
    st.integers(min_value=-86_399, max_value=86_399).map(
        lambda s: timezone(timedelta(seconds=s))  # odd offsets too, down to the second
    ),
)
instants = st.one_of(
    st.datetimes(timezones=zones),
    st.datetimes(timezones=zones).map(lambda m: m.replace(microsecond=0)),  # whole seconds
    st.datetimes(),  # naive: refused
)


@given(st.lists(instants, max_size=12))
def test_iso_all_writes_what_iso_writes_for_each_instant(moments: list[datetime]) -> None:
    expected = [_iso_or_error(m) for m in moments]
    if any(isinstance(e, type) for e in expected):  # iso refuses one: so does iso_all
        first_error = next(e for e in expected if isinstance(e, type))
        with pytest.raises(first_error):
            iso_all(moments)
    else:
        assert iso_all(moments) == expected


def test_iso_all_of_the_edges() -> None:
    moments = [FIRST, LAST, datetime(999, 1, 2, 3, 4, 5, 6, tzinfo=UTC)]
    assert iso_all(moments) == [iso(m) for m in moments]
    assert iso_all([]) == []
