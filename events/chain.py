"""Offline verification of a match's hash chain: pure, usable on an exported log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from adjudicator.kernel.canonical import verify_commitment
from events.envelope import GENESIS_HASH, StoredEvent, hash_of


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    first_bad_seq: int | None = None
    problem: str = ""


def verify_chain(events: Sequence[StoredEvent], *, commitments: bool = True) -> ChainReport:
    """Check seq 1..n, the prev_hash links, every hash, that every private event carries a
    commitment, and (unless ``commitments`` is False) every commitment whose salt is known.
    Stops at the first fault, which :func:`_problem` words: the loop below asks it only about
    an event that may have one (one whose hash or links fail, or that is private or salted)."""
    prev_hash = GENESIS_HASH
    previous: StoredEvent | None = None
    for index, event in enumerate(events, start=1):
        if not (
            event.seq == index
            and event.prev_hash == prev_hash
            and (
                previous is None
                or (
                    event.match_id == previous.match_id
                    and event.recorded_at >= previous.recorded_at
                )
            )
            and hash_of(event) == event.hash
        ):
            problem = _problem(event, index, prev_hash, previous, commitments)
        elif event.private_to is not None or (commitments and event.salt is not None):
            problem = _commitment_problem(event, commitments)
        else:
            problem = ""
        if problem:
            return ChainReport(ok=False, first_bad_seq=event.seq, problem=problem)
        prev_hash, previous = event.hash, event
    return ChainReport(ok=True)


def _problem(
    event: StoredEvent, index: int, prev_hash: str, previous: StoredEvent | None, commitments: bool
) -> str:
    if event.seq != index:
        return f"expected seq {index}, found seq {event.seq}"
    if previous is not None and event.match_id != previous.match_id:
        return "the events belong to more than one match"
    if previous is not None and event.recorded_at < previous.recorded_at:
        return "recorded_at goes backwards"
    if event.prev_hash != prev_hash:
        return "prev_hash does not link to the previous event's hash"
    if hash_of(event) != event.hash:
        return "hash does not match the envelope"
    return _commitment_problem(event, commitments)


def _commitment_problem(event: StoredEvent, check_salt: bool) -> str:
    if event.private_to is not None and event.commitment is None:
        return "a private event carries no commitment"
    if event.salt is None or not check_salt:
        return ""
    if event.commitment is None or not verify_commitment(
        event.commitment, event.salt, event.payload
    ):
        return "commitment does not match payload and salt"
    return ""
