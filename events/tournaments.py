"""The tournaments' store: a tournament row and its own stream of sealed, chained events.

Appends take the same path as a match's, as functions of one write transaction (the store's
own writer): a conditional UPDATE of ``last_seq`` (the optimistic claim: a racing writer finds
it moved and gets a ``VersionConflict``), then the events sealed by
``events.appending.seal_batch`` (the envelope's ``match_id`` field holds the tournament id) and
inserted. The matches a round pairs are created in the same transaction as the round's event
(``append(…, matches=…)``), so a refused round leaves no match paired to nothing. Record time
never goes backwards within a stream. No global position: tournament events are not match
events and stay out of the operator's feed.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, Row, Select, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from adjudicator.kernel.canonical import iso
from adjudicator.kernel.errors import quoted
from events import matches as match_queries
from events import rows, tlog
from events.appending import record_time, seal_batch
from events.envelope import GENESIS_HASH, NewEvent, StoredEvent
from events.errors import InvalidEvent, StoreError, VersionConflict
from events.record import TOURNAMENT_SEALED
from events.records import MatchRecord, NewMatch
from events.signing import current_signer
from events.store import EventStore, check_batch, storable
from events.tables import events, matches, tlog_leaves
from events.tournament_tables import tournament_events, tournaments


class UnknownTournament(StoreError):
    code = "unknown_tournament"

    def __init__(self, tournament_id: str, created_at: datetime | None = None) -> None:
        if created_at is None:
            super().__init__(f"no tournament with id {quoted(tournament_id)}")
        else:  # it exists, but not yet at the time asked about
            super().__init__(
                f"tournament {quoted(tournament_id)} was created at {iso(created_at)}, after the"
                " game time (at) or record time (known_at) asked about"
            )


@dataclass(frozen=True)
class TournamentRecord:
    tournament_id: str
    name: str
    game: str
    created_at: datetime
    organizer_hash: str
    last_seq: int


class TournamentStore:
    """Tournament rows and streams in the same database as the matches (``store.engine``),
    stamped by the same clock."""

    def __init__(self, store: EventStore) -> None:
        self.store = store
        self.engine = store.engine

    @contextmanager
    def _reader(self) -> Iterator[Connection]:
        with self.engine.connect() as conn, conn.begin():
            yield conn

    def create(self, record: TournamentRecord, first: Sequence[NewEvent]) -> list[StoredEvent]:
        """Store the tournament and its first events in one transaction."""
        check_batch(first)
        with self.store._writer() as conn:
            row = {**record.__dict__, "last_seq": 0}
            conn.execute(insert(tournaments).values(row))
            return _append(conn, record.tournament_id, 0, first, self.store._now())

    def get(self, tournament_id: str) -> TournamentRecord:
        """The tournament as stored now; raises UnknownTournament."""
        if storable(tournament_id):
            with self._reader() as conn:
                query = select(tournaments).where(tournaments.c.tournament_id == tournament_id)
                row = conn.execute(query).first()
            if row is not None:
                return _record(row)
        raise UnknownTournament(tournament_id)

    def listed(
        self, limit: int = 100, offset: int = 0
    ) -> list[tuple[TournamentRecord, int | None]]:
        """Tournaments, newest first, each with the index of its leaf in the transparency log
        (None: not sealed)."""
        leaf = tlog_leaves.c.tournament_id == tournaments.c.tournament_id
        query = (
            select(tournaments, tlog_leaves.c.idx.label("sealed_leaf"))
            .outerjoin(tlog_leaves, leaf)
            .order_by(tournaments.c.created_at.desc(), tournaments.c.tournament_id)
        )
        with self._reader() as conn:
            found = conn.execute(query.limit(limit).offset(offset)).all()
        return [(_record(row), row.sealed_leaf) for row in found]

    def count(self) -> int:
        with self._reader() as conn:
            found: int = conn.execute(select(func.count()).select_from(tournaments)).scalar_one()
        return found

    def append(
        self,
        tournament_id: str,
        expected_seq: int,
        batch: Sequence[NewEvent],
        matches: Sequence[NewMatch] = (),
    ) -> list[StoredEvent]:
        """Append ``batch`` after seq ``expected_seq``, and create ``matches`` (a round's) in
        the same transaction; raises VersionConflict when another writer got in first (then
        nothing is stored), UnknownTournament when there is no such tournament. A batch that
        ends with the seal (``tournament.sealed``) appends the tournament's leaf to the
        transparency log in the same transaction (``tlog.append_tournament``, with the
        checkpoint of the size it reaches), so a sealed tournament without its leaf cannot
        exist."""
        check_batch(batch)
        record = self.get(tournament_id)
        try:
            with self.store._writer() as conn:
                stored = _append(conn, tournament_id, expected_seq, batch, self.store._now())
                for new in matches:
                    self.store.insert_match(conn, new)
                if stored[-1].type == TOURNAMENT_SEALED:
                    every = [_event(row) for row in conn.execute(_stream(tournament_id))]
                    signer = current_signer(conn, self.store.signer)
                    tlog.append_tournament(
                        conn, tournament_id, record.game, record.created_at, every, signer
                    )
                return stored
        except IntegrityError as error:  # a racing insert of the same seqs
            raise VersionConflict(expected_seq, self.get(tournament_id).last_seq) from error

    def match_streams(
        self, match_ids: Sequence[str], recorded_by: datetime | None = None
    ) -> tuple[dict[str, MatchRecord], dict[str, list[StoredEvent]]]:
        """The matches (as stored now) and their events recorded by ``recorded_by`` (None:
        all), read in two queries however many matches: a tournament's standings fold them
        all."""
        wanted = [m for m in match_ids if storable(m)]
        if not wanted:
            return {}, {}
        with self._reader() as conn:
            found = conn.execute(select(matches).where(matches.c.match_id.in_(wanted)))
            records = {row.match_id: match_queries.to_match(row) for row in found}
            streams: dict[str, list[StoredEvent]] = {m: [] for m in records}
            for event in rows.read_streams(conn, wanted, recorded_by):
                streams[event.match_id].append(event)
        return records, streams

    def known_heads(
        self, match_ids: Sequence[str], recorded_by: datetime | None = None
    ) -> dict[str, int]:
        """Each match's last seq recorded by ``recorded_by`` (None: now); a match with nothing
        recorded by then is left out. Now, it is the match row's ``last_seq`` (claimed in
        every append's transaction). By a record time: the same for each match whose last
        event was recorded by then (record time never goes backwards within a match's
        stream, so all its events were); only the others' events are searched for the
        greatest seq recorded by then. Each is a key lookup a match, where a search among
        the events of all of them cost most of a tournament's standings (288 matches of 80
        events on SQLite: 2 ms now and 8 ms by a record time, where it was 10 ms both)."""
        wanted = [m for m in match_ids if storable(m)]
        if not wanted:
            return {}
        heads = select(matches.c.match_id, matches.c.last_seq).where(
            matches.c.match_id.in_(wanted), matches.c.last_seq > 0
        )
        with self._reader() as conn:
            if recorded_by is None:
                return {match_id: int(seq) for match_id, seq in conn.execute(heads).all()}
            last = events.c.recorded_at.label("last_recorded_at")
            tails = heads.add_columns(last).join(
                events,
                (events.c.match_id == matches.c.match_id) & (events.c.seq == matches.c.last_seq),
            )
            found, later = {}, []
            for match_id, seq, recorded_at in conn.execute(tails).all():
                if recorded_at <= recorded_by:
                    found[match_id] = int(seq)
                else:
                    later.append(match_id)
            if later:
                search = (
                    select(events.c.match_id, func.max(events.c.seq))
                    .where(events.c.match_id.in_(later), events.c.recorded_at <= recorded_by)
                    .group_by(events.c.match_id)
                )
                found |= {match_id: int(seq) for match_id, seq in conn.execute(search).all()}
        return found

    def match_heads(self, match_ids: Sequence[str]) -> dict[str, tuple[str, str]]:
        """Each stored match's status and the hash of its last event, in one query."""
        wanted = [m for m in match_ids if storable(m)]
        if not wanted:
            return {}
        query = (
            select(matches.c.match_id, matches.c.status, events.c.hash)
            .join(
                events,
                (events.c.match_id == matches.c.match_id) & (events.c.seq == matches.c.last_seq),
            )
            .where(matches.c.match_id.in_(wanted))
        )
        with self._reader() as conn:
            return {m: (status, head) for m, status, head in conn.execute(query).all()}

    def read(self, tournament_id: str, recorded_by: datetime | None = None) -> list[StoredEvent]:
        """The stream in seq order, recorded at or before ``recorded_by`` (None: all)."""
        if not storable(tournament_id):
            return []
        query = _stream(tournament_id)
        if recorded_by is not None:
            query = query.where(tournament_events.c.recorded_at <= recorded_by)
        with self._reader() as conn:
            rows = conn.execute(query).all()
        return [_event(row) for row in rows]


def _stream(tournament_id: str) -> Select[Any]:
    """The tournament's events in seq order."""
    query = select(tournament_events).where(tournament_events.c.tournament_id == tournament_id)
    return query.order_by(tournament_events.c.seq)


def _append(
    conn: Connection,
    tournament_id: str,
    expected: int,
    batch: Sequence[NewEvent],
    now: datetime,
) -> list[StoredEvent]:
    claim = (
        update(tournaments)
        .where(tournaments.c.tournament_id == tournament_id, tournaments.c.last_seq == expected)
        .values(last_seq=expected + len(batch))
    )
    if conn.execute(claim).rowcount != 1:
        actual = conn.execute(
            select(tournaments.c.last_seq).where(tournaments.c.tournament_id == tournament_id)
        ).scalar_one_or_none()
        if actual is None:
            raise UnknownTournament(tournament_id)
        raise VersionConflict(expected, actual)
    prev_hash, prev_recorded = _tail(conn, tournament_id, expected)
    sealed = seal_batch(
        batch, tournament_id, expected, record_time(now, prev_recorded), None, prev_hash
    )
    for event in sealed:
        if event.private_to is not None or event.source is not None:
            raise InvalidEvent("a tournament event is public and has no source")
    conn.execute(insert(tournament_events), [_row(event) for event in sealed])
    return sealed


def _tail(conn: Connection, tournament_id: str, seq: int) -> tuple[str, datetime | None]:
    if seq == 0:
        return GENESIS_HASH, None
    query = select(tournament_events.c.hash, tournament_events.c.recorded_at).where(
        tournament_events.c.tournament_id == tournament_id, tournament_events.c.seq == seq
    )
    row = conn.execute(query).one()
    return row.hash, row.recorded_at


def _row(event: StoredEvent) -> dict[str, Any]:
    return {
        "tournament_id": event.match_id,
        "seq": event.seq,
        "type": event.type,
        "actor": event.actor,
        "occurred_at": event.occurred_at,
        "recorded_at": event.recorded_at,
        "payload": event.payload,
        "prev_hash": event.prev_hash,
        "hash": event.hash,
    }


def _event(row: Row[Any]) -> StoredEvent:
    return StoredEvent(
        match_id=row.tournament_id,
        seq=row.seq,
        position=0,
        type=row.type,
        actor=row.actor,
        occurred_at=row.occurred_at.astimezone(UTC),
        recorded_at=row.recorded_at.astimezone(UTC),
        payload=row.payload,
        private_to=None,
        salt=None,
        commitment=None,
        idempotency_key=None,
        prev_hash=row.prev_hash,
        hash=row.hash,
    )


def _record(row: Row[Any]) -> TournamentRecord:
    return TournamentRecord(
        row.tournament_id,
        row.name,
        row.game,
        row.created_at,
        row.organizer_hash,
        row.last_seq,
    )
