"""Audit of a tournament: verify it as stored, export it as one bundle, verify a bundle
offline. One report, check by check:

* ``chain`` — the tournament's own stream: seqs, links, hashes (``events.verify_chain``);
* ``match <id>`` — each match's own report (chain, commitments, header, re-fold), folded into
  one check each;
* ``pairing round N`` — each recorded pairing (``tournament.round_paired``/``repaired``)
  recomputed by the pure rules from the tournament as recorded before it and every earlier
  match's result as known when it was made (the match's fold at that record time), and
  compared with the recorded pairings and the recorded basis.

The bundle is JSON: ``format`` ``adjudicator-tournament/1``, the tournament's log as a record
(the match record's JSON Lines form, ``events.record``) and every match's full record (the
organizer holds every match's host token, so payloads and salts are included)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from functools import partial
from typing import Any

from adjudicator.kernel.decider import Game
from adjudicator.tournaments import rules
from api.service import audit
from api.service.tournaments import TournamentService
from events import StoredEvent
from events.record import Record, RecordFormatError, dumps, loads, make_header
from projections import tournaments as tfold
from projections.collector import collector_paused
from projections.tournament_results import MatchResults, RecordStreams, Result
from projections.verify import Check, VerifyReport, chain_check
from projections.views import Known

FORMAT = "adjudicator-tournament/1"
LOG_RULES = "tournament/1"
Reader = Callable[[str, datetime], Mapping[str, Any] | None]
"""(match id, instant) -> the match's result at that game time as known at that record time."""


def pairing_checks(events: Sequence[StoredEvent], read: Reader) -> list[Check]:
    """Each recorded pairing recomputed and compared (see the module's docstring)."""
    return [pairing_check_at(events, index, read) for index in pairing_indices(events)]


def pairing_indices(events: Sequence[StoredEvent]) -> list[int]:
    """Where the pairing events are in the log (each one's check is independent)."""
    return [i for i, e in enumerate(events) if e.type in (tfold.PAIRED, tfold.REPAIRED)]


def pairing_check_at(events: Sequence[StoredEvent], index: int, read: Reader) -> Check:
    """One recorded pairing's check. The collector is paused: a bundle's parsed records are a
    large heap that its full collections would walk (and, in a forked worker, copy)."""
    with collector_paused:
        return _pairing_check(events[:index], events[index], read)


def _pairing_check(before: Sequence[StoredEvent], event: StoredEvent, read: Reader) -> Check:
    name = f"pairing round {event.payload.get('round')} (seq {event.seq})"
    try:
        t = tfold.fold_tournament(before)
        number = event.payload["round"]
        earlier = tfold.model_rounds(t, lambda m: read(m, event.recorded_at))
        earlier = tuple(r for r in earlier if r.number < number)
        expected = rules.pair_next(t.settings, t.players, earlier, t.withdrawn_ids)
        recorded = [tfold.board_of(b).pairing for b in event.payload["pairings"]]
    except Exception as error:  # a bundle from elsewhere may hold anything: report it
        return Check(name, False, f"cannot recompute: {error!r}", event.seq)
    if list(expected) != recorded:
        detail = f"recorded pairings differ from the recomputed {_pairs(expected)}"
        return Check(name, False, detail, event.seq)
    if tfold.basis_of(earlier) != event.payload.get("basis"):
        return Check(
            name, False, "the recorded basis differs from the results then known", event.seq
        )
    return Check(name, True, f"{len(recorded)} boards recomputed from the results then known")


def _pairs(pairings: Sequence[Any]) -> str:
    return ", ".join(f"{p.board}: {p.first}-{p.second}" for p in pairings)


def match_check(match_id: str, report: Any) -> Check:
    bad = [c for c in report.checks if not c.ok]
    if not bad:
        return Check(f"match {match_id}", True, "chain, commitments and re-fold verify")
    first = bad[0]
    return Check(f"match {match_id}", False, f"{first.name}: {first.detail}", first.first_bad_seq)


def report_json(tournament_id: str, checks: Sequence[Check]) -> dict[str, Any]:
    return {
        "tournament_id": tournament_id,
        "ok": all(c.ok for c in checks),
        "checks": [c.as_json() for c in checks],
    }


def verify_stored(service: TournamentService, tournament_id: str) -> dict[str, Any]:
    events = service.events(tournament_id)
    t = tfold.fold_tournament(events)
    store, games = service.matches.store, service.matches.games
    checks = [chain_check(events)]
    checks += [match_check(m, audit.verify_stored(store, games, m)) for m in t.match_ids()]

    def read(match_id: str, instant: datetime) -> Mapping[str, Any] | None:
        return service.result(match_id, instant, Known(instant))

    checks += pairing_checks(events, read)
    return report_json(tournament_id, checks)


def export_bundle(service: TournamentService, tournament_id: str) -> str:
    record = service.store.get(tournament_id)
    events = service.events(tournament_id)
    now = service.matches.clock()
    header = make_header(
        match_id=tournament_id,
        game=record.game,
        rules_version=LOG_RULES,
        status="open",
        created_at=record.created_at,
        exported_at=now,
        events=events,
    )
    log = dumps(header, events)
    matches = {
        m: audit.export_text(service.matches.store, m, reveal=True, exported_at=now)
        for m in tfold.fold_tournament(events).match_ids()
    }
    bundle = {"format": FORMAT, "tournament_id": tournament_id, "log": log, "matches": matches}
    return json.dumps(bundle, sort_keys=True, ensure_ascii=False)


def is_bundle(text: str) -> bool:
    """Whether ``text`` looks like a tournament bundle (not a match record)."""
    return text.lstrip().startswith("{") and f'"format": "{FORMAT}"' in text[:200_000]


Task = Callable[[], Any]
Runner = Callable[[Sequence[Task]], list[Any]]
"""Tasks -> their results, in order: here one after the other (:func:`in_turn`), or side by
side in the CLI's forked workers (each task one core's work; the workers inherit what the
tasks hold, so a task is handed over by its index only)."""

RECORDS_PER_TASK = 16
"""Match records parsed and verified by one task: a 300-match bundle makes about 19 tasks, few
enough that handing them to workers costs nothing, many enough that two cores share them
evenly."""

Reads = Mapping[str, Sequence[datetime]]
"""Match id -> the instants a recorded pairing reads its result at."""
Results = dict[tuple[str, datetime], "Result | ReadFailed"]


class ReadFailed(Exception):
    """A match's result could not be read (a record from elsewhere may hold anything): raised
    again by the pairing check that reads it, which reports it as the original error."""

    def __repr__(self) -> str:
        return str(self.args[0])


def in_turn(tasks: Sequence[Task]) -> list[Any]:
    return [task() for task in tasks]


def verify_bundle(
    text: str, games: Mapping[str, Game[Any, Any]], run: Runner = in_turn
) -> dict[str, Any]:
    """Verify a bundle offline: the log's chain, every match record, every pairing recomputed
    from the records. Two rounds of tasks, each ``run`` at once: the records' (each batch of
    records parsed, verified, and folded to its results at the instants the pairings read
    them), then the pairings' (each a Swiss matching, given those results)."""
    try:
        with collector_paused:
            bundle = json.loads(text)
            if not isinstance(bundle, dict) or bundle.get("format") != FORMAT:
                raise ValueError(f"format is not {FORMAT}")
            log = loads(bundle["log"])
            texts: dict[str, str] = dict(bundle["matches"])
    except (ValueError, KeyError, TypeError, AttributeError, RecordFormatError) as error:
        return _not_a_bundle(error)
    problem = _matches_problem(log.events, texts)
    indices = [] if problem is not None else pairing_indices(log.events)
    checked = run(_batches(texts, _reads(log.events, indices), games))
    failed = next((c for c in checked if isinstance(c, str)), None)
    if failed is not None:
        return _not_a_bundle(failed)
    reports = [report for batch, _ in checked for report in batch]
    results: Results = {key: found for _, batch in checked for key, found in batch.items()}
    read = partial(_read, results)
    pairings = run([partial(pairing_check_at, log.events, i, read) for i in indices])
    checks = [chain_check(log.events)]
    checks += [match_check(m, r) for m, r in zip(texts, reports, strict=True)]
    checks.append(problem or Check("matches", True, f"{len(texts)} match records, the paired ones"))
    return report_json(log.header.match_id, checks + pairings)


def _not_a_bundle(error: object) -> dict[str, Any]:
    return report_json("", [Check("format", False, f"not a tournament bundle: {error}")])


def _matches_problem(events: Sequence[StoredEvent], records: Mapping[str, Any]) -> Check | None:
    """The failing ``matches`` check when the matches the log pairs are not the bundle's
    records (None when they are)."""
    try:
        listed = set(tfold.fold_tournament(events).match_ids())
    except Exception as error:  # a bundle from elsewhere may hold anything: report it
        return Check("matches", False, f"the log does not fold: {error!r}")
    if listed != set(records):
        return Check("matches", False, "the bundle's matches are not the paired ones")
    return None


def _reads(events: Sequence[StoredEvent], indices: Sequence[int]) -> dict[str, list[datetime]]:
    """Each match's instants its result is read at by the pairings at ``indices``: every match
    of the tournament as folded before a pairing, at that pairing's record time."""
    reads: dict[str, list[datetime]] = {}
    for index in indices:
        try:
            before = tfold.fold_tournament(events[:index])
        except Exception:  # that pairing's own check reports it
            continue
        for match_id in before.match_ids():
            reads.setdefault(match_id, []).append(events[index].recorded_at)
    return reads


def _batches(
    texts: Mapping[str, str], reads: Reads, games: Mapping[str, Game[Any, Any]]
) -> list[Task]:
    """The records' tasks, :data:`RECORDS_PER_TASK` records a task."""
    ids = list(texts)
    return [
        partial(_checked, {m: texts[m] for m in ids[i : i + RECORDS_PER_TASK]}, reads, games)
        for i in range(0, len(ids), RECORDS_PER_TASK)
    ]


def _checked(
    texts: Mapping[str, str], reads: Reads, games: Mapping[str, Game[Any, Any]]
) -> tuple[list[VerifyReport], Results] | str:
    """A batch of records parsed and verified, and each one's results at the instants
    ``reads`` names; or why one does not parse (then the bundle is not one)."""
    with collector_paused:
        try:
            records = {m: loads(t) for m, t in texts.items()}
        except (ValueError, TypeError, AttributeError, RecordFormatError) as error:
            return str(error)
        reports = [audit.verify_parsed(record, games) for record in records.values()]
        read = record_reader(records, games)
        results: Results = {}
        for match_id in records:
            for instant in reads.get(match_id, ()):
                try:
                    results[match_id, instant] = read(match_id, instant)
                except Exception as error:  # a record from elsewhere may hold anything
                    results[match_id, instant] = ReadFailed(repr(error))
        return reports, results


def _read(results: Results, match_id: str, instant: datetime) -> Result:
    found = results.get((match_id, instant))
    if isinstance(found, ReadFailed):
        raise found
    return found


def record_reader(records: Mapping[str, Record], games: Mapping[str, Game[Any, Any]]) -> Reader:
    """A match's result at an instant, as known then, re-folded from its record's events by
    the folds the service's standings answer from (``projections.tournament_results``: one
    ``Running`` per match and events known, advanced to each instant asked), over the
    records instead of the store."""
    results = MatchResults(RecordStreams({m: r.events for m, r in records.items()}), games)

    def read(match_id: str, instant: datetime) -> Result:
        return results.results([match_id], instant, Known(at=instant)).get(match_id)

    return read
