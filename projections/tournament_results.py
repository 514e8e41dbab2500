"""The results of a tournament's matches at (``at``, ``known_at``), kept folded between asks.

A standings read folds every match of the tournament (288 in a 64-player, 9-round Swiss) at
the same game time and record time. Each match's fold of the events known by a record time is
a ``Running`` (``adjudicator.kernel.fold``: the fold the live match state answers from, equal
to ``fold(game, setup, facts, at)`` for any ``at`` at or after its horizon), kept here by
(match, last known seq): one query finds every match's last seq known by the record time, and
only the matches whose log has grown since (a retroactive ruling in one of them, say) are read
and folded again. An ``at`` before a fold's horizon is folded afresh from the events.

The same folds answer from either source of match logs (:class:`MatchStreams`): the store
(``events.tournaments.TournamentStore``), for the service's standings, and a bundle's verified
records (:class:`RecordStreams`), for the offline verify's recomputed pairings."""

from __future__ import annotations

import threading
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

from adjudicator.kernel.decider import Game
from adjudicator.kernel.fold import Running
from events import MatchRecord, StoredEvent
from projections.collector import collector_paused
from projections.facts import setup_of, to_facts
from projections.record import match_row
from projections.views import Known, snapshot

Result = Mapping[str, Any] | None


class MatchStreams(Protocol):
    """Where match logs come from, as known at a record time (None: now)."""

    def known_heads(
        self, match_ids: Sequence[str], recorded_by: datetime | None = None
    ) -> dict[str, int]:
        """Each match's last seq recorded by ``recorded_by``; a match with none left out."""
        ...

    def match_streams(
        self, match_ids: Sequence[str], recorded_by: datetime | None = None
    ) -> tuple[dict[str, MatchRecord], dict[str, list[StoredEvent]]]:
        """The matches known and each one's events recorded by ``recorded_by``."""
        ...


class RecordStreams:
    """Match logs from a bundle's records: the events known at an instant are a prefix of the
    record, as its record times never go back (the record's own check, run beside the
    pairings', fails it when they do, so the bundle does not verify whatever is read here). A
    record whose setup does not read raises ``SetupMissing`` when its stream is asked for."""

    def __init__(self, records: Mapping[str, Sequence[StoredEvent]]) -> None:
        self.records = records
        self._rows: dict[str, MatchRecord] = {}

    def known_heads(
        self, match_ids: Sequence[str], recorded_by: datetime | None = None
    ) -> dict[str, int]:
        counts = {m: self._known(m, recorded_by) for m in match_ids if m in self.records}
        return {m: n for m, n in counts.items() if n}

    def match_streams(
        self, match_ids: Sequence[str], recorded_by: datetime | None = None
    ) -> tuple[dict[str, MatchRecord], dict[str, list[StoredEvent]]]:
        rows = {m: self._row(m) for m in match_ids if m in self.records}
        known = {m: list(self.records[m][: self._known(m, recorded_by)]) for m in rows}
        return rows, known

    def _row(self, match_id: str) -> MatchRecord:
        row = self._rows.get(match_id)
        if row is None:
            row = self._rows[match_id] = match_row(self.records[match_id])
        return row

    def _known(self, match_id: str, recorded_by: datetime | None) -> int:
        events = self.records[match_id]
        if recorded_by is None:
            return len(events)
        return bisect_right(events, recorded_by, key=_recorded)


def _recorded(event: StoredEvent) -> datetime:
    return event.recorded_at


class MatchResults:
    """Folds of matches by (match id, last known seq), the oldest dropped past ``capacity``."""

    def __init__(
        self,
        store: MatchStreams,
        games: Mapping[str, Game[Any, Any]],
        capacity: int = 50_000,
    ) -> None:
        self.store, self.games, self.capacity = store, games, capacity
        self._folds: OrderedDict[tuple[str, int], Running[Any]] = OrderedDict()
        self._records: dict[str, MatchRecord] = {}
        self._lock = threading.Lock()

    def results(self, match_ids: Sequence[str], at: datetime, known: Known) -> dict[str, Result]:
        """Each match's result at ``at`` as known at ``known.at`` (a match unknown to the
        store is left out)."""
        return self.results_and_seqs(match_ids, at, known)[0]

    def results_and_seqs(
        self, match_ids: Sequence[str], at: datetime, known: Known
    ) -> tuple[dict[str, Result], dict[str, int]]:
        """:meth:`results`, and the last seq of each match that its result folds: what the
        reader knew of each log, exactly (a pairing records it: ``known_seqs``)."""
        heads = self.store.known_heads(match_ids, known.at)
        missing = [m for m in match_ids if (m, heads.get(m, 0)) not in self._folds]
        streams: dict[str, list[StoredEvent]] = {}
        if missing:
            streams = self._read(missing, known.at, None)
        found: dict[str, Result] = {}
        seqs: dict[str, int] = {}
        for match_id in match_ids:
            record = self._records.get(match_id)
            if record is None:
                continue
            events = streams.get(match_id)
            head = heads.get(match_id, 0) if events is None else len(events)  # read since?
            seqs[match_id] = head
            found[match_id] = self._result(record, head, at, events, known)
        return found, seqs

    def results_at_seqs(self, seqs: Mapping[str, int], at: datetime) -> dict[str, Result]:
        """Each match's result at ``at`` as known when its log ended at ``seqs[match]`` (its
        events 1..seq: a prefix, whatever their record times say)."""
        missing = [m for m, seq in seqs.items() if (m, seq) not in self._folds]
        streams = self._read(missing, None, seqs) if missing else {}
        return {
            match_id: self._result(record, seq, at, streams.get(match_id), Known(), seq)
            for match_id, seq in seqs.items()
            if (record := self._records.get(match_id)) is not None
        }

    def _read(
        self,
        match_ids: Sequence[str],
        recorded_by: datetime | None,
        seqs: Mapping[str, int] | None,
    ) -> dict[str, list[StoredEvent]]:
        """The matches' logs known by ``recorded_by`` (or each cut at ``seqs``), folded and
        kept."""
        with collector_paused:  # whole logs read and folded at once
            records, streams = self.store.match_streams(match_ids, recorded_by)
            if seqs is not None:
                streams = {m: events[: seqs[m]] for m, events in streams.items()}
            for match_id, events in streams.items():
                self._keep((match_id, len(events)), self._start(records[match_id], events))
        self._records.update(records)
        return streams

    def _result(
        self,
        match: MatchRecord,
        head: int,
        at: datetime,
        events: list[StoredEvent] | None,
        known: Known,
        seq: int | None = None,
    ) -> Result:
        """The result folded from the match's events known at ``head`` (``events`` when just
        read; else read again if ``at`` is before the kept fold's horizon: by ``known``'s
        record time, or cut at ``seq``)."""
        game = self.games[match.game]
        running = self._folds.get((match.match_id, head))
        state = None if running is None else running.at(game, at)
        if state is None:  # ``at`` before the fold's horizon: fold afresh
            if events is None:
                _, read = self.store.match_streams([match.match_id], known.at)
                events = read.get(match.match_id, [])[:seq]
            state = snapshot(game, match, events, at, known).folded.state
        found: Result = game.result(state)
        return found

    def _start(self, match: MatchRecord, events: list[StoredEvent]) -> Running[Any]:
        return Running.start(self.games[match.game], setup_of(match), to_facts(events))

    def _keep(self, key: tuple[str, int], running: Running[Any]) -> None:
        with self._lock:
            self._folds[key] = running
            while len(self._folds) > self.capacity:
                self._folds.popitem(last=False)
