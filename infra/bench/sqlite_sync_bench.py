"""What SQLite's ``synchronous`` level costs per append: one writer appending one event at a
time to a match, ``full`` (the default) against ``normal`` (``ADJUDICATOR_SQLITE_SYNCHRONOUS``),
interleaved, on a database in ``--dir`` (default: this checkout, a real disk; a tmpfs would hide
the flush). Prints milliseconds per append.

    .venv/bin/python infra/bench/sqlite_sync_bench.py [--appends 1500] [--reps 2] [--dir DIR]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from events import EventStore  # noqa: E402
from events.migrate import upgrade  # noqa: E402
from infra.bench.position_lock_bench import event, new_match  # noqa: E402


def per_append(directory: Path, synchronous: str, appends: int) -> float:
    folder = Path(tempfile.mkdtemp(dir=directory))
    try:
        url = f"sqlite:///{folder / 'sync.sqlite3'}"
        upgrade(url)
        store = EventStore.from_url(url, sqlite_synchronous=synchronous)
        match_id = new_match(store)
        began = time.perf_counter()
        for seq in range(appends):
            store.append(match_id, seq, [event(seq + 1)])
        took = time.perf_counter() - began
        store.dispose()
        return took / appends * 1000
    finally:
        shutil.rmtree(folder)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--appends", type=int, default=1500)
    parser.add_argument("--reps", type=int, default=2)
    parser.add_argument("--dir", type=Path, default=ROOT)
    args = parser.parse_args()
    for _ in range(args.reps):
        for level in ("full", "normal"):
            print(
                f"synchronous={level:6} {per_append(args.dir, level, args.appends):.3f} ms/append"
            )


if __name__ == "__main__":
    main()
