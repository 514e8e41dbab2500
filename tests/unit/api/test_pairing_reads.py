"""Which of a match's events a recorded pairing may have read (``known_seqs``): pure checks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from api.service.tournament_audit import UNREAD_WINDOW, known_seq, seq_problem
from events import StoredEvent

PAIRED = datetime(2026, 1, 1, 12, tzinfo=UTC)


def event(seq: int, recorded: datetime, payload: dict[str, object] | None = None) -> StoredEvent:
    return StoredEvent(
        "m", seq, seq, "note", "host", recorded, recorded, payload or {}, None, None, None,
        None, "0" * 64, "0" * 64,
    )  # fmt: skip


LOG = [event(1, PAIRED - timedelta(hours=1)), event(2, PAIRED - timedelta(seconds=2))]


def test_a_pairing_may_not_have_read_an_event_recorded_just_before_it() -> None:
    """The ruling that committed while the round was being paired: seq 2, 2 s before."""
    assert seq_problem(LOG, 2, PAIRED) is None
    assert seq_problem(LOG, 1, PAIRED) is None
    assert seq_problem([*LOG, event(3, PAIRED + timedelta(seconds=1))], 2, PAIRED) is None


def test_it_read_no_event_from_after_it_none_long_before_it_unread_and_no_seq_beyond_the_log() -> (
    None
):
    assert seq_problem(LOG, 2, PAIRED - timedelta(seconds=3)) == (
        "the pairing read seq 2, recorded after it"
    )
    old = PAIRED - UNREAD_WINDOW - timedelta(microseconds=1)
    problem = seq_problem([event(1, old)], 0, PAIRED)
    assert problem is not None and problem.startswith("the pairing did not read seq 1")
    assert seq_problem([event(1, PAIRED - UNREAD_WINDOW)], 0, PAIRED) is not None
    assert seq_problem(LOG, 3, PAIRED) == "the pairing read seq 3 of a log of 2 events"
    assert seq_problem(LOG, -1, PAIRED) is not None


def test_a_pairing_names_the_seqs_it_read_as_integers_or_none_at_all() -> None:
    paired = event(5, PAIRED, {"known_seqs": {"m": 2, "x": True, "y": "3"}})
    assert known_seq(paired, "m") == 2
    assert (known_seq(paired, "x"), known_seq(paired, "y"), known_seq(paired, "z")) == (None,) * 3
    assert known_seq(event(5, PAIRED, {"known_seqs": [1]}), "m") is None
    assert known_seq(event(5, PAIRED), "m") is None
