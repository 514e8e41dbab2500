"""The background job that takes and stores a live match's checkpoints as it passes 1,000 events.

    .venv/bin/python infra/bench/checkpoint_job_bench.py [--events 1005] [--repeat 7]
        [--database-url URL]

A Zoom match is started in a ``MatchService`` (its live fold made, as the first command makes
it), the background thread is held, ``--events`` events are appended through the store (each
append's callback runs, as a command's does: ``Checkpoints.appended``), then the thread is let
go and the CPU time of its jobs (taking the checkpoints at every 1,000th fact and the head, and
storing them) is measured until they are done: the work that shares the serving process with
the commands of every match each time one passes a multiple of 1,000 events. Median and each
run, in ms. Default store: a temporary SQLite file.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from adjudicator.games.zoom.game import ZoomGame  # noqa: E402
from api.service.matches import MatchService  # noqa: E402
from events import EventStore  # noqa: E402
from events.migrate import upgrade  # noqa: E402
from infra.bench.tournament_service_bench import Clock, play  # noqa: E402


def job_ms(service: MatchService, store: EventStore, clock: Clock, events: int) -> float:
    """CPU ms of the background jobs that one match's ``events`` appends leave."""
    stored = service.checkpoints.stored
    assert stored is not None
    game = service.game("zoom")
    drafted = service.new_match("zoom", ("alpha", "beta"), None, {"rounds": 1})
    match_id = service.create(drafted).match.match_id
    service.live.current(game, service.match(match_id))  # the live fold, as a first command
    stored.flush()
    gate = threading.Event()
    stored.submit(gate.wait)  # the thread held until the appends are in
    play(store, clock, match_id, events)
    service.live.current(game, service.match(match_id))
    gate.set()
    began = time.process_time()  # this thread waits: the process's CPU is the job's
    stored.flush()
    return (time.process_time() - began) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--events", type=int, default=1005)
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--database-url")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        url = args.database_url or f"sqlite:///{Path(folder) / 'jobs.sqlite3'}"
        upgrade(url)
        clock = Clock()
        store = EventStore.from_url(url, clock=clock)
        service = MatchService(store, {ZoomGame.name: ZoomGame()}, clock)
        stored = service.checkpoints.stored
        assert stored is not None
        stored.idle = lambda: True  # no request in flight: the jobs need not wait
        runs = [job_ms(service, store, clock, args.events) for _ in range(args.repeat)]
        service.close()
        store.dispose()
    print(
        f"checkpoint jobs after {args.events} events appended live: median"
        f" {statistics.median(runs):.1f} ms CPU ({', '.join(f'{r:.1f}' for r in runs)})"
    )


if __name__ == "__main__":
    main()
