"""Audit of a tournament: verify it as stored, export it as one bundle, verify a bundle
offline. One report, check by check:

* ``chain`` — the tournament's own stream: seqs, links, hashes (``events.verify_chain``);
* ``match <id>`` — each match's own report (chain, commitments, header, re-fold; for a closed
  match verified online, and offline with ``verify --key``, its transparency-log proof too),
  folded into one check each;
* ``seal`` — a sealed tournament's log against its transparency-log proof (online, and
  offline with ``verify --key``; a tournament not sealed fails it there): the leaf names the
  log's bytes, its last hash, every match with the hash of its last event, the final
  standings and the champion;
* ``pairing round N`` — each recorded pairing (``tournament.round_paired``/``repaired``)
  recomputed by the pure rules from the tournament as recorded before it and every earlier
  match's result as the pairing read it (the fold of the match's events up to the seq it
  recorded, ``known_seqs``, at its record time; by record time for a pairing recorded before
  them), and compared with the recorded pairings and the recorded basis;
* ``standings (sealed)`` — a sealed tournament's final standings (each player's rank) and
  champion, recomputed as a pairing is, from the match results the seal read; nothing may be
  recorded after the seal.

The bundle is JSON: ``format`` ``adjudicator-tournament/1``, the tournament's log as a record
(the match record's JSON Lines form, ``events.record``) and every match's full record (the
organizer holds every match's host token, so payloads and salts are included)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from functools import partial
from typing import Any, Protocol

import orjson

from adjudicator.kernel.canonical import iso
from adjudicator.kernel.decider import Game
from adjudicator.tournaments import rules
from api.service import audit
from api.service.shared_reports import BoundedMemo
from api.service.tournaments import TournamentService
from events import StoredEvent
from events.log_store import LogStore
from events.record import Record, RecordFormatError, loads, tournament_log_text
from projections import tournaments as tfold
from projections.collector import collector_paused
from projections.log_checks import LeafCheck, PublicKey, leaf_names, log_checks
from projections.tournament_results import MatchResults, RecordStreams, Result
from projections.verify import Check, VerifyReport, chain_check, counting
from projections.views import Known

FORMAT = "adjudicator-tournament/1"
Reader = Callable[[str, datetime, int | None], Mapping[str, Any] | None]
"""(match id, instant, seq) -> the match's result at that game time as known at that record
time, or, given a seq, as its events 1..seq fold (what a pairing recorded it read)."""
UNREAD_WINDOW = timedelta(minutes=10)
"""How long before a pairing's record time an event of a match may have been recorded and not
read by it (``known_seqs``): a host's ruling committed while the pairing was being decided
(reading the results, pairing, creating the matches, and its write waiting, as long as a
database failover takes) carries an earlier record time than the pairing's. An older event
unread is a verify failure."""


def known_seq(event: StoredEvent, match_id: str) -> int | None:
    """The last seq of ``match_id`` the pairing ``event`` read (``known_seqs``); None when it
    recorded none (paired before pairings did): its results are read by record time."""
    seqs = event.payload.get("known_seqs")
    seq = seqs.get(match_id) if isinstance(seqs, dict) else None
    return seq if isinstance(seq, int) and not isinstance(seq, bool) else None


def seq_problem(events: Sequence[StoredEvent], seq: int, instant: datetime) -> str | None:
    """Why a pairing recorded at ``instant`` cannot have read a match's ``events`` up to
    ``seq`` (None: it can): more events than the log holds, an event recorded after the
    pairing, or an unread event recorded more than ``UNREAD_WINDOW`` before it."""
    if not 0 <= seq <= len(events):
        return f"the pairing read seq {seq} of a log of {len(events)} events"
    if seq and events[seq - 1].recorded_at > instant:
        return f"the pairing read seq {seq}, recorded after it"
    unread = next((e for e in events[seq:] if e.recorded_at <= instant - UNREAD_WINDOW), None)
    if unread is not None:
        ago = instant - unread.recorded_at
        return f"the pairing did not read seq {unread.seq}, recorded {ago} before it"
    return None


def reading_checks(events: Sequence[StoredEvent], read: Reader) -> list[Check]:
    """Each recorded pairing, and the seal's standings, recomputed and compared (see the
    module's docstring)."""
    return [reading_check_at(events, index, read) for index in reading_indices(events)]


def remembered_reading_checks(
    events: Sequence[StoredEvent],
    read: Reader,
    logs: Mapping[str, Sequence[StoredEvent]],
    memo: BoundedMemo[Hashable, Check],
    intact: Collection[str] | None,
) -> list[Check]:
    """:func:`reading_checks` of a tournament as stored, each taken from ``memo`` when what it
    reads is what it was: the pairing (or seal) event (its hash: the log up to it, as its
    chain check in the same verify holds) and the whole log of every match it reads (its
    length and last hash, as each match's chain check in the same verify holds). A result
    arriving in the round in play changes no recorded pairing's inputs: a tournament verified
    again after it recomputes none of them; a ruling in an earlier round recomputes the
    pairings that read its match. ``intact``: the matches whose checks passed in this verify
    (None when the log's own chain failed); a pairing that reads any other is recomputed."""
    checks = []
    for index in reading_indices(events):
        read_by = _read_by(events, index)
        check = partial(reading_check_at, events, index, read)
        if intact is None or not all(m in intact for m in read_by):
            checks.append(check())
            continue
        checks.append(memo.get((events[index].hash, _reads_digest(read_by, logs)), check))
    return checks


def _reads_digest(match_ids: Sequence[str], logs: Mapping[str, Sequence[StoredEvent]]) -> str:
    """A digest of each match's id, length and last hash (a key of a few bytes, where the
    pairings of a late round read hundreds of matches)."""
    lines = (f"{m} {len(logs.get(m, ()))} {_last_hash(logs.get(m))}" for m in match_ids)
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def _last_hash(log: Sequence[StoredEvent] | None) -> str:
    return log[-1].hash if log else ""


READING = (tfold.PAIRED, tfold.REPAIRED, tfold.SEALED)
"""The events that read the matches' results: each pairing, and the seal (its standings)."""


def reading_indices(events: Sequence[StoredEvent]) -> list[int]:
    """Where the events that read results are in the log (each one's check is independent)."""
    return [i for i, e in enumerate(events) if e.type in READING]


def reading_check_at(events: Sequence[StoredEvent], index: int, read: Reader) -> Check:
    """The check of a recorded pairing, or of the seal's standings. The collector is paused: a
    bundle's parsed records are a large heap that its full collections would walk (and, in a
    forked worker, copy)."""
    with collector_paused:
        if events[index].type == tfold.SEALED:
            return _standings_check(events, index, read)
        return _pairing_check(events[:index], events[index], read)


def _standings_check(events: Sequence[StoredEvent], index: int, read: Reader) -> Check:
    """The seal's standings (each player's rank) and champion, recomputed by the pure rules
    from the tournament as recorded before it and each match's result as the seal read it
    (its ``known_seqs``, as a pairing's); nothing may be recorded after the seal."""
    event = events[index]
    name = f"standings (sealed, seq {event.seq})"
    if index != len(events) - 1:
        return Check(name, False, "events are recorded after the seal", events[index + 1].seq)
    try:
        t = tfold.fold_tournament(events[:index])
        rounds = tfold.model_rounds(t, lambda m: read(m, event.recorded_at, known_seq(event, m)))
        concluded = t.concluded is not None
        table = rules.standings(t.settings, t.players, rounds, t.withdrawn_ids, concluded)
    except Exception as error:  # a bundle from elsewhere may hold anything: report it
        return Check(name, False, f"cannot recompute: {error!r}", event.seq)
    if tfold.final_table(table) != event.payload.get("standings"):
        return Check(name, False, "the sealed ranks differ from the recomputed", event.seq)
    if table.champion != event.payload.get("champion"):
        detail = f"the sealed champion differs from the recomputed {table.champion}"
        return Check(name, False, detail, event.seq)
    champion = "no champion" if table.champion is None else f"champion {table.champion}"
    players = counting(len(table.rows), "player")
    return Check(name, True, f"{players} ranked, {champion}: recomputed from the results")


def _pairing_check(before: Sequence[StoredEvent], event: StoredEvent, read: Reader) -> Check:
    name = f"pairing round {event.payload.get('round')} (seq {event.seq})"
    try:
        t = tfold.fold_tournament(before)
        number = event.payload["round"]
        earlier = tfold.model_rounds(t, lambda m: read(m, event.recorded_at, known_seq(event, m)))
        earlier = tuple(r for r in earlier if r.number < number)
        expected = rules.pair_next(t.settings, t.players, earlier, t.withdrawn_ids)
        recorded = [tfold.board_of(b).pairing for b in event.payload["pairings"]]
    except Exception as error:  # a bundle from elsewhere may hold anything: report it
        return Check(name, False, f"cannot recompute: {error!r}", event.seq)
    if t.concluded is not None:
        return Check(name, False, "paired after the organizer concluded the tournament", event.seq)
    if t.sealed is not None:
        return Check(name, False, "paired after the organizer sealed the tournament", event.seq)
    if list(expected) != recorded:
        detail = f"recorded pairings differ from the recomputed {_pairs(expected)}"
        return Check(name, False, detail, event.seq)
    if tfold.basis_of(earlier) != event.payload.get("basis"):
        return Check(
            name, False, "the recorded basis differs from the results then known", event.seq
        )
    boards = counting(len(recorded), "board")
    return Check(name, True, f"{boards} recomputed from the results then known")


def _pairs(pairings: Sequence[Any]) -> str:
    return ", ".join(f"{p.board}: {p.first}-{p.second}" for p in pairings)


def match_check(match_id: str, report: Any) -> Check:
    """A match's report folded into one check: its first failing check's, or what verified
    (the transparency log named when its checks ran: a closed match online, ``--key``)."""
    bad = [c for c in report.checks if not c.ok]
    if not bad:
        if any(c.name.startswith("log_") for c in report.checks):
            return Check(f"match {match_id}", True, LOGGED_MATCH_OK)
        return Check(f"match {match_id}", True, "chain, commitments and re-fold verify")
    first = bad[0]
    return Check(f"match {match_id}", False, f"{first.name}: {first.detail}", first.first_bad_seq)


LOGGED_MATCH_OK = "chain, commitments, re-fold and its transparency-log proof verify"


def report_json(tournament_id: str, checks: Sequence[Check]) -> dict[str, Any]:
    return {
        "tournament_id": tournament_id,
        "ok": all(c.ok for c in checks),
        "checks": [c.as_json() for c in checks],
    }


def verify_shared(service: TournamentService, tournament_id: str) -> dict[str, Any]:
    """:func:`verify_stored`'s report, shared by its readers (``service.reports``,
    ``api.service.shared_reports``): while one is computed, the others wait for it; a later
    reader gets it again while the tournament's last seq and each of its matches' last seq
    are what they were and it is recent. ``verified_at`` says when it began."""
    events = service.events(tournament_id)
    match_ids = tfold.fold_tournament(events).match_ids()
    heads = service.store.known_heads(match_ids)
    fingerprint = (len(events), events[-1].hash if events else "", tuple(sorted(heads.items())))
    return service.reports.get(
        tournament_id, fingerprint, lambda: verify_stored(service, tournament_id, events)
    ).report


def verify_stored(
    service: TournamentService, tournament_id: str, events: list[StoredEvent] | None = None
) -> dict[str, Any]:
    """Every check of the tournament as its store holds it now (``events``: its log, when
    the caller has read it): its log's chain, each match (the matches and their logs read in
    two queries), each pairing recomputed (or remembered, when nothing it reads changed:
    :func:`remembered_reading_checks`)."""
    verified_at = service.matches.clock()
    if events is None:
        events = service.events(tournament_id)
    match_ids = tfold.fold_tournament(events).match_ids()
    store, games = service.matches.store, service.matches.games
    with collector_paused:  # every match's log at once
        matches, logs = service.store.match_streams(match_ids)
    chain = chain_check(events)
    checks, intact = [chain], set()
    keys = audit.service_keys(store)  # once, for the seal and every closed match
    if events and events[-1].type == tfold.SEALED:
        heads = {m: logs[m][-1].hash for m in match_ids if logs.get(m)}
        text = log_record_text(service, tournament_id, events)
        checks.append(seal_check(text, heads, partial(against, keys)))
    for m in match_ids:
        if m not in matches:
            checks.append(Check(f"match {m}", False, "the tournament pairs a match not stored"))
            continue
        report = audit.verify_match(store, games, matches[m], logs[m], keys)
        checks.append(match_check(m, report))
        if checks[-1].ok:
            intact.add(m)
    read, memo = log_reader(logs, games), service.pairing_checks
    checks += remembered_reading_checks(events, read, logs, memo, intact if chain.ok else None)
    return report_json(tournament_id, checks) | {"verified_at": iso(verified_at)}


def against(
    keys: Sequence[PublicKey], record: Record, leaf_check: LeafCheck | None = None
) -> list[Check]:
    """:class:`LogChecks` against ``keys`` (this service's, for the online verify)."""
    return log_checks(record, keys, leaf_check=leaf_check)


def export_bundle(service: TournamentService, tournament_id: str) -> str:
    events = service.events(tournament_id)
    now = service.matches.clock()
    log = log_record_text(service, tournament_id, events, now)
    matches = {
        m: audit.export_text(service.matches.store, m, reveal=True, exported_at=now)
        for m in tfold.fold_tournament(events).match_ids()
    }
    bundle = {"format": FORMAT, "tournament_id": tournament_id, "log": log, "matches": matches}
    return json.dumps(bundle, sort_keys=True, ensure_ascii=False)


def log_record_text(
    service: TournamentService,
    tournament_id: str,
    events: Sequence[StoredEvent],
    exported_at: datetime | None = None,
) -> str:
    """The tournament's log as a record (``events.record.tournament_log_text``); a sealed one
    is byte-stable and ends with the line of its transparency-log proof (its leaf, inclusion
    proof and signed checkpoint), as a closed match's export does."""
    record = service.store.get(tournament_id)
    now = exported_at or service.matches.clock()
    text = tournament_log_text(tournament_id, record.game, record.created_at, events, now)
    if events and events[-1].type == tfold.SEALED:
        text += LogStore(service.matches.store).tournament_trailer(tournament_id) or ""
    return text


def seal_leaf_check(heads: Mapping[str, str]) -> LeafCheck:
    """``log_leaf`` of a sealed tournament's log: the leaf's fields are the log's (its id,
    name, game, seal time, last hash, the SHA-256 of its bytes) and the seal's matches, each
    with the hash of its last event, are ``heads``: the match records beside it (a bundle's,
    or the store's)."""

    def check(record: Record) -> Check:
        events = record.events
        sealed = events[-1] if events else None
        if record.header.status != "closed" or sealed is None or sealed.type != tfold.SEALED:
            return Check("log_leaf", False, "a log with a proof is a sealed tournament's")
        named = sealed.payload.get("matches")
        if named != dict(heads):
            return Check(
                "log_leaf", False, "the seal's matches and last hashes are not the match records'"
            )
        expected = {
            "tournament_id": record.header.match_id,
            "name": events[0].payload.get("name"),
            "game": record.header.game,
            "sealed_at": sealed.recorded_iso,
            "chain_head": sealed.hash,
            "record_sha256": record.record_sha256,
            "matches": named,
            "standings": sealed.payload.get("standings"),
            "champion": sealed.payload.get("champion"),
        }
        return leaf_names(record, expected)

    return check


def seal_check(log: str | Record, heads: Mapping[str, str], checks_of: LogChecks) -> Check:
    """The tournament log's transparency-log checks (``checks_of``, against the keys trusted)
    folded into one ``seal`` check: its first failure, or what verified. A log not sealed
    carries no proof and fails it."""
    try:
        record = loads(log) if isinstance(log, str) else log
    except RecordFormatError as error:
        return Check("seal", False, f"the log does not parse: {error}")
    checks = checks_of(record, seal_leaf_check(heads))
    bad = next((c for c in checks if not c.ok), None)
    if bad is not None:
        return Check("seal", False, f"{bad.name}: {bad.detail}")
    return Check("seal", True, SEALED_OK)


SEALED_OK = "sealed: the log's leaf, signature and inclusion proof verify, every match named"


def is_bundle(text: str) -> bool:
    """Whether ``text`` looks like a tournament bundle (not a match record)."""
    return text.lstrip().startswith("{") and f'"format": "{FORMAT}"' in text[:200_000]


@dataclass(frozen=True, slots=True)
class Job:
    """One task of a bundle's verification: ``work`` is called with the outputs of the jobs
    that ``needs`` names (indices of earlier jobs in the same list), in that order."""

    work: Callable[..., Any]
    needs: tuple[int, ...] = ()


Runner = Callable[[Sequence[Job]], list[Any]]
"""Jobs -> their outputs, in order: here one after the other (:func:`in_turn`), or side by
side in the CLI's forked workers (``api.cli.tournament.side_by_side``: each job one core's
work, started once the jobs it needs are done, earlier jobs in the list first; the workers
inherit the jobs, so a job is handed over by its index and the outputs it needs)."""

RECORDS_PER_JOB = 16
"""Match records parsed and verified by one job: a 300-match bundle makes about 19, few enough
that handing them to workers costs nothing, many enough that two cores share them evenly."""

Reads = Mapping[str, Sequence[tuple[datetime, int | None]]]
"""Match id -> the instants a recorded pairing reads its result at, each with the last seq
of the match the pairing recorded it read (None: read by record time)."""
Results = dict[tuple[str, datetime, int | None], "Result | ReadFailed"]


class LogChecks(Protocol):
    """A record's transparency-log checks against the keys the verifier trusts (``verify
    --key``: ``api.cli.log.LogTrust.checks``; online: :func:`against` this service's keys);
    ``leaf_check``: how the leaf must name the record (a closed match's by default)."""

    def __call__(self, record: Record, leaf_check: LeafCheck | None = None, /) -> list[Check]: ...


Checked = tuple[dict[str, Check], Results] | str
"""A batch of records' checks (one a record) and results, or why one of them does not parse."""


class ReadFailed(Exception):
    """A match's result could not be read (a record from elsewhere may hold anything): raised
    again by the pairing check that reads it, which reports it as the original error."""

    def __repr__(self) -> str:
        return str(self.args[0])


def in_turn(jobs: Sequence[Job]) -> list[Any]:
    out: list[Any] = []
    for job in jobs:
        out.append(job.work(*(out[i] for i in job.needs)))
    return out


def verify_bundle(
    text: str,
    games: Mapping[str, Game[Any, Any]],
    run: Runner = in_turn,
    log_checks: LogChecks | None = None,
) -> dict[str, Any]:
    """Verify a bundle offline: the log's chain, every match record, every pairing recomputed
    from the records. Parsed here: the bundle's JSON and the tournament's log; then ``run``
    the jobs (:func:`_jobs`): the records' batches (parsed, verified, and folded to their
    results at the instants the pairings read them) and the pairings (each a Swiss matching,
    given the results of the batches it reads). With ``log_checks`` (``verify --key``), each
    match record's transparency-log checks are part of its check (a match not closed carries
    no proof and fails them), and the tournament's log is checked against its own proof
    (``seal``: a tournament not sealed carries none and fails it)."""
    try:
        with collector_paused:
            bundle = orjson.loads(text)
            if not isinstance(bundle, dict) or bundle.get("format") != FORMAT:
                raise ValueError(f"format is not {FORMAT}")
            log = loads(bundle["log"])
            texts: dict[str, str] = dict(bundle["matches"])
    except (ValueError, KeyError, TypeError, AttributeError, RecordFormatError) as error:
        return _not_a_bundle(error)
    problem = _matches_problem(log.events, texts)
    indices = [] if problem is not None else reading_indices(log.events)
    jobs, pairings = _jobs(log.events, indices, texts, games, log_checks)
    done = run(jobs)
    batches = [done[i] for i in range(len(jobs)) if i not in pairings]
    failed = next((b for b in batches if isinstance(b, str)), None)
    if failed is not None:
        return _not_a_bundle(failed)
    verified = {m: check for found, _ in batches for m, check in found.items()}
    checks = [chain_check(log.events)]
    if log_checks is not None:
        checks.append(seal_check(log, _record_heads(texts), log_checks))
    checks += [verified[m] for m in texts]
    checks.append(problem or Check("matches", True, f"{len(texts)} match records, the paired ones"))
    return report_json(log.header.match_id, checks + [done[i] for i in pairings])


def _record_heads(texts: Mapping[str, str]) -> dict[str, str]:
    """Each match record's last hash, as its header line says (the record's own check holds
    the header to its events): what a seal names."""
    heads = {}
    for match_id, text in texts.items():
        try:
            head = orjson.loads(text[: text.find("\n")]).get("chain_head")
        except (orjson.JSONDecodeError, AttributeError):
            head = None
        heads[match_id] = head if isinstance(head, str) else ""
    return heads


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


def _jobs(
    events: Sequence[StoredEvent],
    indices: Sequence[int],
    texts: Mapping[str, str],
    games: Mapping[str, Game[Any, Any]],
    log_checks: LogChecks | None = None,
) -> tuple[list[Job], list[int]]:
    """The jobs, and where the pairings' are among them: first the pairings that read no
    result (a first round: the whole field in one score group, the longest matching), then
    the records' batches, then the other pairings, each needing the batches it reads (the
    records batched in the order the pairings first read them, so the early rounds' pairings
    may start while later records are still being checked)."""
    reads = {i: [m for m in _read_by(events, i) if m in texts] for i in indices}
    first = [i for i in indices if not reads[i]]
    order = list(dict.fromkeys([*(m for i in indices for m in reads[i]), *texts]))
    batch_of = {m: len(first) + i // RECORDS_PER_JOB for i, m in enumerate(order)}
    instants = _instants(events, reads)
    jobs = [Job(partial(_reading_job, events, i)) for i in first]
    batches = [order[i : i + RECORDS_PER_JOB] for i in range(0, len(order), RECORDS_PER_JOB)]
    jobs += [
        Job(partial(_checked, {m: texts[m] for m in batch}, instants, games, log_checks))
        for batch in batches
    ]
    later = [i for i in indices if reads[i]]
    jobs += [
        Job(partial(_reading_job, events, i), tuple(sorted({batch_of[m] for m in reads[i]})))
        for i in later
    ]
    where = {index: n for n, index in enumerate(first)}
    where |= {index: len(jobs) - len(later) + n for n, index in enumerate(later)}
    return jobs, [where[i] for i in indices]


def _read_by(events: Sequence[StoredEvent], index: int) -> list[str]:
    """The matches whose results the pairing at ``index`` reads: every match of the
    tournament as folded before it (none when that does not fold: its own check says so)."""
    try:
        return tfold.fold_tournament(events[:index]).match_ids()
    except Exception:  # a bundle from elsewhere may hold anything
        return []


def _instants(events: Sequence[StoredEvent], reads: Mapping[int, Sequence[str]]) -> Reads:
    """Each match's instants its result is read at: the record time of each pairing (by its
    index in ``events``) that reads it."""
    instants: dict[str, list[tuple[datetime, int | None]]] = {}
    for index, match_ids in reads.items():
        event = events[index]
        for match_id in match_ids:
            read = (event.recorded_at, known_seq(event, match_id))
            instants.setdefault(match_id, []).append(read)
    return instants


def _checked(
    texts: Mapping[str, str],
    reads: Reads,
    games: Mapping[str, Game[Any, Any]],
    log_checks: LogChecks | None = None,
) -> Checked:
    """A batch of records parsed and verified (with ``log_checks``, their transparency-log
    proofs too), and each one's results at the instants ``reads`` names; or why one does not
    parse (then the bundle is not one)."""
    with collector_paused:
        try:
            records = {m: loads(t) for m, t in texts.items()}
        except (ValueError, TypeError, AttributeError, RecordFormatError) as error:
            return str(error)
        verified = {
            m: match_check(m, _record_report(r, games, log_checks)) for m, r in records.items()
        }
        read = record_reader(records, games)
        results: Results = {}
        for match_id in records:
            for instant, seq in reads.get(match_id, ()):
                try:
                    results[match_id, instant, seq] = read(match_id, instant, seq)
                except Exception as error:  # a record from elsewhere may hold anything
                    results[match_id, instant, seq] = ReadFailed(repr(error))
        return verified, results


def _record_report(
    record: Record, games: Mapping[str, Game[Any, Any]], log_checks: LogChecks | None
) -> VerifyReport:
    """A match record's own checks, then (``verify --key``) its transparency-log checks."""
    report = audit.verify_parsed(record, games)
    if log_checks is None:
        return report
    return VerifyReport(report.match_id, (*report.checks, *log_checks(record)))


def _reading_job(events: Sequence[StoredEvent], index: int, *checked: Checked) -> Check | None:
    """The pairing (or the seal's standings) at ``index`` checked against the results of the
    batches it reads (None when one of them does not parse: the bundle then fails as a
    whole)."""
    if any(isinstance(c, str) for c in checked):
        return None
    results: Results = {k: v for c in checked if not isinstance(c, str) for k, v in c[1].items()}
    return reading_check_at(events, index, partial(_read, results))


def _read(results: Results, match_id: str, instant: datetime, seq: int | None) -> Result:
    found = results.get((match_id, instant, seq))
    if isinstance(found, ReadFailed):
        raise found
    return found


def record_reader(records: Mapping[str, Record], games: Mapping[str, Game[Any, Any]]) -> Reader:
    """:func:`log_reader` of a bundle's parsed records."""
    return log_reader({m: r.events for m, r in records.items()}, games)


def log_reader(
    logs: Mapping[str, Sequence[StoredEvent]], games: Mapping[str, Game[Any, Any]]
) -> Reader:
    """A match's result at an instant, as known then (or as its events up to a pairing's
    ``known_seqs`` fold, checked by :func:`seq_problem`), re-folded from its log by the folds
    the service's standings answer from (``projections.tournament_results``: one ``Running``
    per match and events known, advanced to each instant asked), over logs already read: the
    store's for the verify online, a bundle's records offline."""
    results = MatchResults(RecordStreams(logs), games)

    def read(match_id: str, instant: datetime, seq: int | None) -> Result:
        if match_id not in logs:  # a match a re-pairing replaced: no later pairing reads it
            return None
        if seq is None:
            return results.results([match_id], instant, Known(at=instant)).get(match_id)
        problem = seq_problem(logs[match_id], seq, instant)
        if problem is not None:
            raise ValueError(problem)
        return results.results_at_seqs({match_id: seq}, instant).get(match_id)

    return read
