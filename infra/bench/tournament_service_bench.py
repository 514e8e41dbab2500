"""The tournament service's standings after a retroactive ruling: 64 players, 9 Swiss rounds.

    .venv/bin/python infra/bench/tournament_service_bench.py [--players 64] [--rounds 9]
        [--repeat 20] [--plays N] [--database-url URL]
    .venv/bin/python infra/bench/tournament_service_bench.py --bundle FILE

Runs a Swiss of ``--players`` players over ``--rounds`` rounds through the service (no HTTP):
each round paired by ``TournamentService.pair`` (its matches created as ordinary Zoom matches),
each match ended by its host's ``declare_result`` ruling (the better seed wins), after ``--plays``
host-entered events of play (default 0: a round started, then buzzes 10 ms apart, all wrong,
as ``zoom_bench.long_match`` writes them; an 11-round Zoom match records about 80 events, so
``--plays 80`` gives the bundle's records a real match's length). Then a host
declares another winner in a round-1 match (a retroactive ruling) and the standings are
recomputed ``--repeat`` times as known now and as known before the ruling: every match's result
read through its own fold at that record time, then the pure standings (the whole
``GET /tournaments/{id}/standings`` answer but its encoding). Wall-clock times: median and
worst (and the median CPU time of this process, which SQLite's reads run in: steadier than the
wall clock on a loaded machine). Then the tournament's verify as the service answers it (one
alone, then eight readers at once sharing one, then each computing its own), and the
tournament's bundle is exported and verified offline
(``adjudicator verify``'s ``verify_bundles``, in a fresh process, its imports done) on one core
and on two, three times each, alternating: the medians; then where its CPU goes in one process
(the records' jobs and the pairings', against the CPU two cores have at the goal of 100,000
events/s: ``cpu_split``). Last, the organizer seals the event
(every match closed, the tournament's leaf): its time. ``--bundle FILE`` verifies a bundle
already exported, alone. Default store: a temporary SQLite file.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
GOAL = 100_000.0  # events/s, a bundle verified offline on two cores (issue 22)
sys.path.insert(0, str(ROOT))

from adjudicator import rulings  # noqa: E402
from adjudicator.games.zoom.game import ZoomGame  # noqa: E402
from adjudicator.kernel.payloads import plain  # noqa: E402
from adjudicator.tournaments.model import Format, Settings, Tiebreak  # noqa: E402
from api.service import host, tournament_reads  # noqa: E402
from api.service.matches import MatchService  # noqa: E402
from api.service.tournaments import Plan, PlayerEntry, TournamentService  # noqa: E402
from events import EventStore, NewEvent, TokenGrant  # noqa: E402
from events.migrate import upgrade  # noqa: E402
from infra.bench.zoom_bench import long_match  # noqa: E402
from projections.views import Known  # noqa: E402


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now


def declare(service: MatchService, match_id: str, winner: str, reason: str) -> None:
    ruling = rulings.DeclareResult(winner=winner, reason=reason)
    host.rule(service, match_id, TokenGrant(match_id, "host", None), ruling)


def play(store: EventStore, clock: Clock, match_id: str, plays: int) -> None:
    """``plays`` events of play entered in the match (a round, then buzzes 10 ms apart)."""
    if plays <= 0:
        return
    _, facts = long_match(plays)
    start = clock.now
    batch = [
        NewEvent(f.type, "host", start + (f.at - facts[0].at), plain(f.payload)) for f in facts
    ]
    clock.now = batch[-1].occurred_at + timedelta(seconds=1)
    store.append(match_id, store.last_seq(match_id), batch)


def run(url: str, players: int, rounds: int, repeat: int, plays: int = 0) -> None:
    upgrade(url)
    clock = Clock()
    store = EventStore.from_url(url, clock=clock)
    matches = MatchService(store, {ZoomGame.name: ZoomGame()}, clock)
    service = TournamentService(matches)
    every = (Tiebreak.BUCHHOLZ, Tiebreak.BUCHHOLZ_CUT1, Tiebreak.SONNEBORN_BERGER)
    settings = Settings(Format.SWISS, rounds, every, points_game=True)
    entries = tuple(PlayerEntry(f"Player {i}") for i in range(1, players + 1))
    tid, _ = service.create(Plan("Bench", "zoom", settings, entries, {"rounds": 1}, {}))
    first_round: list[tuple[str, str]] = []
    started = time.perf_counter()
    for number in range(1, rounds + 1):
        paired, _ = service.pair(tid)
        for board in paired.boards:
            if board.match_id is None or board.pairing.second is None:
                continue
            first, second = board.pairing.first, board.pairing.second
            better = "alpha" if int(first[1:]) < int(second[1:]) else "beta"
            play(store, clock, board.match_id, plays)
            declare(matches, board.match_id, better, "played")
            if number == 1:
                first_round.append((board.match_id, "beta" if better == "alpha" else "alpha"))
        clock.now += timedelta(minutes=30)
    built = time.perf_counter() - started
    count = len(service.tournament(tid).match_ids())
    before = clock.now
    clock.now += timedelta(hours=1)
    match_id, other = first_round[0]
    declare(matches, match_id, other, "retroactive: the result was entered the wrong way round")
    clock.now += timedelta(minutes=1)
    print(f"{count} matches, {players} players, {rounds} rounds (built in {built:.1f} s)")
    for label, known in (("now", Known()), ("known_at before the ruling", Known(before))):
        times, cpus = [], []
        for _ in range(repeat):
            start, cpu = time.perf_counter(), time.process_time()
            view = service.view(tid, None, known)
            answer = tournament_reads.standings_json(service, view)
            times.append((time.perf_counter() - start) * 1000)
            cpus.append((time.process_time() - cpu) * 1000)
        leader = answer["rows"][0]["player"]
        print(
            f"standings as known {label}: median {statistics.median(times):.1f} ms wall,"
            f" {statistics.median(cpus):.1f} ms CPU, worst {max(times):.1f} ms wall"
            f" (leader {leader}, {len(answer['stale_pairings'])}"
            " rounds paired on a changed result)"
        )
    verify_figures_online(service, tid)
    bundle_figures(service, tid)
    seal_figure(service, tid)
    store.dispose()


def seal_figure(service: TournamentService, tid: str) -> None:
    """The organizer's seal of the finished event: every match closed as its host would close
    it (each a transaction with its leaf in the transparency log and a signed checkpoint),
    then the tournament's own seal and leaf. Wall-clock time of the one act."""
    count = len(service.tournament(tid).match_ids())
    start = time.perf_counter()
    service.seal(tid, "final")
    took = time.perf_counter() - start
    print(f"seal: {took * 1000:.0f} ms ({count} matches closed, {took / count * 1000:.1f} ms each)")


def verify_figures_online(service: TournamentService, tid: str, readers: int = 8) -> None:
    """``GET /tournaments/{id}/verify`` as the service answers it (no HTTP): one verify alone
    and again (its pairings' checks then remembered), then ``readers`` at once (a crowd of open
    console pages, each asking for the audit badge) sharing one (``verify_shared``), then the
    same crowd each verifying for itself (as every reader did before the verify was shared,
    though now with the pairings' checks remembered): wall-clock time until the last has its
    answer."""
    from concurrent.futures import ThreadPoolExecutor

    from api.service.tournament_audit import verify_shared, verify_stored

    start = time.perf_counter()
    alone = verify_stored(service, tid)
    one = time.perf_counter() - start
    assert alone["ok"], [c for c in alone["checks"] if not c["ok"]]
    start = time.perf_counter()
    verify_stored(service, tid)
    again = time.perf_counter() - start
    print(
        f"verify online: one alone {one * 1000:.0f} ms, then again {again * 1000:.0f} ms (every"
        " match checked anew, every pairing's check remembered: nothing it read changed)"
    )
    service.reports = type(service.reports)(service.reports.max_age)  # nothing kept yet
    for label, verify in (("sharing one", verify_shared), ("each its own", verify_stored)):
        with ThreadPoolExecutor(readers) as pool:
            start = time.perf_counter()
            answers = list(pool.map(verify, [service] * readers, [tid] * readers))
            crowd = time.perf_counter() - start
        assert all(a["ok"] for a in answers)
        print(
            f"verify online: {readers} readers at once,"
            f" {label}: the last answered after {crowd * 1000:.0f} ms"
            f" ({len({id(a) for a in answers})} report(s) computed)"
        )


def bundle_figures(service: TournamentService, tid: str) -> None:
    """Export the tournament's bundle and verify it offline as ``adjudicator verify`` does, in
    a process of its own (as the command runs: not this one, which holds the whole service)."""
    from api.service.tournament_audit import export_bundle

    text = export_bundle(service, tid)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bundle.json"
        path.write_text(text, encoding="utf-8")
        subprocess.run([sys.executable, __file__, "--bundle", str(path)], check=True)


def verify_figures(file: str, repeat: int = 3) -> None:
    """Verify the bundle ``file`` offline (``verify_bundles``, as ``adjudicator verify`` runs
    it, its imports done) on one core and side by side on two, ``repeat`` times each,
    alternating; the median of each."""
    from api.cli.tournament import verify_bundles

    text = Path(file).read_text(encoding="utf-8")
    events = text.count("prev_hash")
    spent: dict[int, list[float]] = {1: [], 2: []}
    for _ in range(repeat):
        for jobs, times in spent.items():
            start = time.perf_counter()
            with contextlib.redirect_stdout(io.StringIO()):
                status = verify_bundles([file], jobs=jobs)
            times.append(time.perf_counter() - start)
            if status != 0:
                raise SystemExit(f"the bundle does not verify (exit {status})")
    for jobs, times in spent.items():
        median = statistics.median(times)
        print(
            f"bundle ({len(text) // 1024} KiB, {events} events) verified offline on"
            f" {jobs} core(s): median {median * 1000:.0f} ms of {repeat}"
            f" ({', '.join(f'{t * 1000:.0f}' for t in times)}), {events / median:,.0f} events/s"
        )
    cpu_split(text, events, repeat)


def cpu_split(text: str, events: int, repeat: int) -> None:
    """Where the bundle's CPU goes, in this process (its jobs in turn, each timed: the median
    of ``repeat`` verifies): the records' jobs (parse, checks, the folds the pairings read)
    and the pairings' (each Swiss matching recomputed), against the CPU two cores have when
    they verify ``events`` at the goal of 100,000 events/s."""
    from api.cli.audit import all_games
    from api.service.tournament_audit import Job, _reading_job, verify_bundle

    games = all_games()
    parts: dict[str, list[float]] = {"records": [], "pairings": []}
    for _ in range(repeat):
        took = dict.fromkeys(parts, 0.0)

        def timed(jobs: Sequence[Job], took: dict[str, float] = took) -> list[Any]:
            out: list[Any] = []
            for job in jobs:
                began = time.process_time()
                out.append(job.work(*(out[i] for i in job.needs)))
                part = "pairings" if getattr(job.work, "func", None) is _reading_job else "records"
                took[part] += time.process_time() - began
            return out

        with contextlib.redirect_stdout(io.StringIO()):
            assert verify_bundle(text, games, timed)["ok"]
        for part, seconds in took.items():
            parts[part].append(seconds)
    said = ", ".join(f"{part} {statistics.median(t) * 1000:.0f} ms" for part, t in parts.items())
    budget = 2 * events / GOAL * 1000
    print(f"its CPU on one core (median of {repeat}): {said}; at {GOAL:,.0f} events/s two"
          f" cores have {budget:.0f} ms")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=64)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=20)
    parser.add_argument("--plays", type=int, default=0)
    parser.add_argument("--database-url")
    parser.add_argument("--bundle", help="only verify this bundle file offline")
    args = parser.parse_args()
    if args.bundle:
        verify_figures(args.bundle)
        return
    figures = (args.players, args.rounds, args.repeat, args.plays)
    if args.database_url:
        run(args.database_url, *figures)
        return
    with tempfile.TemporaryDirectory() as folder:
        run(f"sqlite:///{folder}/bench.sqlite3", *figures)


if __name__ == "__main__":
    main()
