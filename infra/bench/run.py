"""One benchmark harness: the service's figures and the peers' yardsticks in one run, as a table.

    .venv/bin/python infra/bench/run.py [--quick] [--only FIGURE ...] [--big] [--reps N]
                                        [--workers 1,2,4]

With ``DATABASE_URL`` set (a PostgreSQL server; e.g.
``postgresql+psycopg://postgres@127.0.0.1:5432/test``) the PostgreSQL figures run in a scratch
database created there and dropped afterwards; the peers of ``../shared/bench/peers/`` run in
their own virtual environment (``peers-venv`` under the system temp dir) against the ``bench``
role and database, both created on first use (see ``infra/bench/peers.py``). Without
``DATABASE_URL`` the figures run on SQLite and the PostgreSQL peers are left out.

Figures (``--only``): http_pg, http_sqlite, state, growth, verify, streams, memory, workers,
zombego, restart (the first read and the first command after a restart of the server), floor
(a bare FastAPI app under the commands' load, with and without one INSERT: ``floor_bench.py``).
``--quick`` shrinks every size (a smoke test, not a measurement). The ratio column is
service / yardstick; the machine is shared and noisy, so read the ratios more than the numbers.
A figure that fails is reported and the others still run; the run then ends with the list of
failed figures and exit status 1.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from infra.bench import figures_http, figures_store, floor_bench, peers, restart_bench  # noqa: E402
from infra.bench.figures_http import Bench  # noqa: E402
from infra.bench.table import Row, render  # noqa: E402
from infra.bench.zoom_bench import scratch_postgres  # noqa: E402

FIGURES: dict[str, Callable[[Bench], list[Row]]] = {
    "http_pg": figures_http.http_pg,
    "http_sqlite": figures_http.http_sqlite,
    "state": figures_store.state,
    "growth": figures_store.growth,
    "verify": figures_store.verify,
    "streams": figures_http.streams,
    "memory": figures_http.memory,
    "workers": figures_http.workers,
    "zombego": figures_store.zombego,
    "restart": restart_bench.figure,
    "floor": floor_bench.figure,
}


def arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke test")
    parser.add_argument(
        "--only",
        action="append",
        choices=sorted(FIGURES),
        metavar="FIGURE",
        help=f"run only these figures (repeatable): {', '.join(FIGURES)}",
    )
    parser.add_argument("--big", action="store_true", help="add 50,000 events to the growth")
    parser.add_argument("--reps", type=int, help="repetitions of the HTTP loads (default 3)")
    parser.add_argument("--workers", default="1,2,4", help="worker counts for 'workers'")
    parser.add_argument("--peer-reps", type=int, help="repetitions of each peer (default 3)")
    return parser.parse_args(argv)  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    args = arguments(argv)
    chosen = args.only or list(FIGURES)
    server = os.environ.get("DATABASE_URL")
    if args.peer_reps:
        os.environ["BENCH_REPS"] = str(args.peer_reps)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, figures: {', '.join(chosen)}")
    with ExitStack() as stack:
        tmp = stack.enter_context(tempfile.TemporaryDirectory())
        pg_url = stack.enter_context(scratch_postgres(server)) if server else None
        if server and peers.available():
            peers.ensure_bench_database(server)
        bench = Bench(
            quick=args.quick,
            reps=args.reps or (1 if args.quick else 3),
            big=args.big,
            workers=[int(n) for n in args.workers.split(",")],
            pg_url=pg_url,
            sqlite_url=f"sqlite:///{Path(tmp) / 'bench.sqlite3'}",
        )
        rows: list[Row] = []
        failed: list[str] = []
        for name in chosen:
            began = time.monotonic()
            print(f"[{name}] ...", file=sys.stderr, flush=True)
            try:
                got = FIGURES[name](bench)
            except Exception as error:  # one broken figure never loses the others
                print(f"[{name}] failed: {error!r}", file=sys.stderr, flush=True)
                failed.append(f"{name}: {error!r}")
                continue
            rows += got
            took = time.monotonic() - began
            print(f"[{name}] {took:.0f} s\n{render(got)}", file=sys.stderr, flush=True)
    print(render(rows))
    if failed:  # said again under the table, and in the exit status
        print("\n".join(["figures that failed (their rows are missing):", *failed]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
