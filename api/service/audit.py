"""Audit: export a match as a portable record, verify a match, import a record from elsewhere.

Functions of a store and the games (no HTTP here), shared by the routes and the CLI.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from adjudicator.kernel.decider import Game
from api.service import access
from api.service.errors import RecordInvalid
from api.service.tokens import issue_match_tokens
from events import EventStore, MatchRecord, StoredEvent, TokenGrant, UnknownMatch
from events.log_store import LogStore
from events.record import (
    Record,
    RecordFormatError,
    Signed,
    loads,
    make_header,
    record_text,
    split_log_proof,
)
from projections.collector import collector_paused
from projections.facts import setup_of
from projections.log_checks import PublicKey, log_checks
from projections.record import match_row
from projections.verify import Check, VerifyReport, verify_record


@dataclass(frozen=True, slots=True)
class Imported:
    match: MatchRecord
    tokens: dict[str, object]
    report: VerifyReport


def export_for(
    store: EventStore, match_id: str, grant: TokenGrant | None, exported_at: datetime
) -> str:
    """The full record (private payloads and salts included) for whoever may export it: the
    host, or the auditor once the match is closed (403 otherwise, see ``access``)."""
    match = existing(store, match_id)
    access.require_exporter(match, grant)
    return export_record(store, match, reveal=True, exported_at=exported_at)


def export_text(store: EventStore, match_id: str, *, reveal: bool, exported_at: datetime) -> str:
    """The match's record as JSON Lines; ``reveal``: include private payloads and salts."""
    return export_record(store, existing(store, match_id), reveal=reveal, exported_at=exported_at)


def export_record(
    store: EventStore, match: MatchRecord, *, reveal: bool, exported_at: datetime
) -> str:
    """:func:`export_text` of a match record already read. A closed match's full record is
    byte-stable (``events.record.record_text``) and ends with one more line: its leaf in the
    transparency log, the inclusion proof and the signed checkpoint it was proved against
    (``events.log_store``); ``record_sha256`` covers every byte before that line."""
    events = store.read(match.match_id)
    text = record_text(match, events, reveal=reveal, exported_at=exported_at)
    if reveal and match.status == "closed":
        text += LogStore(store).trailer(match.match_id) or ""
    return text


def verify_stored(
    store: EventStore, games: Mapping[str, Game[Any, Any]], match_id: str
) -> VerifyReport:
    """Verify a match as this store holds it (every payload and salt known). The collector is
    paused for the read too: it builds the events (a few objects each) that the checks keep."""
    match = existing(store, match_id)
    with collector_paused:
        events = store.read(match_id)
    return verify_match(store, games, match, events)


def verify_match(
    store: EventStore,
    games: Mapping[str, Game[Any, Any]],
    match: MatchRecord,
    events: list[StoredEvent],
    keys: Sequence[PublicKey] | None = None,
) -> VerifyReport:
    """:func:`verify_stored` of a match and its log, both already read (``keys``: this
    service's, when the caller has read them: a tournament's verify reads them once)."""
    with collector_paused:
        report = verify_record(None, events, games)
    if match.status != "closed":
        return report
    logged = log_checks_of(store, match, events, keys)
    return VerifyReport(report.match_id, (*report.checks, *logged))


def log_checks_of(
    store: EventStore,
    match: MatchRecord,
    events: list[StoredEvent] | None = None,
    keys: Sequence[PublicKey] | None = None,
) -> list[Check]:
    """The transparency log's checks of a closed match's export, against this service's keys
    (``keys``, else :func:`service_keys`: as ``adjudicator verify --key`` makes them offline).
    The export's bytes are built from ``events`` (the match's, read once by the caller) and
    hashed, its proof line is the log's (as ``split_log_proof`` reads the export: the digest
    covers every byte before that line); the events need not be parsed back from the text,
    which is theirs."""
    if events is None:
        events = store.read(match.match_id)
    text = record_text(match, events, reveal=True)
    _, proof, _ = split_log_proof(LogStore(store).trailer(match.match_id) or "")  # its line alone
    header = make_header(
        match_id=match.match_id,
        game=match.game,
        rules_version=match.rules_version,
        status=match.status,
        created_at=match.created_at,
        exported_at=match.closed_at or match.created_at,
        events=events,
    )
    record = Record(
        header, events, frozenset(), proof, None if proof is None else Signed(text, len(text))
    )
    return log_checks(record, service_keys(store) if keys is None else keys)


def service_keys(store: EventStore) -> list[PublicKey]:
    """This service's log keys with their validity (what ``/.well-known/adjudicator-keys``
    publishes), as the online verify checks against them."""
    return [
        PublicKey(key.verifier, key.valid_from, key.valid_until)
        for key in LogStore(store).signing_keys()
    ]


def verify_text(text: str, games: Mapping[str, Game[Any, Any]]) -> VerifyReport:
    """Verify a record file's text offline; an unreadable file fails a ``format`` check."""
    return parse_and_verify(text, games)[1]


def parse_and_verify(
    text: str, games: Mapping[str, Game[Any, Any]]
) -> tuple[Record | None, VerifyReport]:
    """The parsed record (None when malformed) and its report: parsed once, checked once."""
    with collector_paused:
        try:
            record = loads(text)
        except RecordFormatError as error:
            return None, VerifyReport("", (format_failure(error),))
        return record, verify_parsed(record, games)


def format_failure(error: RecordFormatError) -> Check:
    """The one failing check of a malformed record; its seq is the line's (header: line 1)."""
    return Check("format", False, str(error), max(error.line - 1, 1))


def verify_parsed(record: Record, games: Mapping[str, Game[Any, Any]]) -> VerifyReport:
    return verify_record(record.header, record.events, games, record.withheld)


def import_text(store: EventStore, games: Mapping[str, Game[Any, Any]], text: str) -> Imported:
    """Verify a record, then store it as the same match with fresh tokens.

    Raises RecordInvalid (with the report) when anything fails or the record holds a NUL
    character (PostgreSQL stores none), MatchExists when the match id is taken here. Nothing is
    recorded unless everything succeeds.
    """
    record, report = parse_and_verify(text, games)
    if record is None or not report.ok:
        raise RecordInvalid(report.as_json())
    nul = _first_nul(record) if "\\u0000" in text else None
    if nul is not None:
        detail = f"seq {nul}: a NUL character (\\u0000) cannot be stored"
        raise RecordInvalid(
            VerifyReport(report.match_id, (Check("format", False, detail, nul),)).as_json()
        )
    match = match_row(record.events)
    tokens, token_records = issue_match_tokens(setup_of(match).seats)
    store.import_match(match, token_records, record.events)
    return Imported(match, tokens, report)


def _first_nul(record: Record) -> int | None:
    """The seq of the first event whose payload holds a NUL character, if any (the envelope's
    other strings are patterns that admit none)."""
    return next((e.seq for e in record.events if _holds_nul(e.payload)), None)


def _holds_nul(value: object) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, dict):
        return any(_holds_nul(k) or _holds_nul(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_holds_nul(v) for v in value)
    return False


def existing(store: EventStore, match_id: str) -> MatchRecord:
    match = store.get_match(match_id)
    if match is None:
        raise UnknownMatch(match_id)
    return match
