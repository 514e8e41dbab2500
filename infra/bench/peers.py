"""The peers of ``../shared/bench/peers/`` (beside this repository), run from this harness.

Set-up, idempotent, done on first use: a virtual environment ``peers-venv`` under the system
temp dir with ``../shared/bench/requirements.txt`` installed, and on the PostgreSQL server of
``DATABASE_URL`` a ``bench`` login role (password ``bench``) owning a ``bench`` database, as
that directory's README asks. Each peer script prints one JSON line (medians over
``BENCH_REPS``); the harness keeps the ``median`` mapping.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

ROOT = Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "bench"
VENV = Path(tempfile.gettempdir()) / "peers-venv"
QUICK = {
    "BENCH_REPS": "1",
    "BENCH_N_SINGLE": "300",
    "BENCH_N_NOCACHE": "100",
    "BENCH_N_CONC_EACH": "150",
}  # small sizes; the environment's own values win


def available() -> bool:
    return (SHARED / "peers").is_dir()


def ensure_venv() -> Path:
    python = VENV / "bin" / "python"
    stamp = VENV / ".installed"
    if not stamp.exists():
        if not python.exists():
            subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
        requirements = str(SHARED / "requirements.txt")
        pip = [str(python), "-m", "pip", "install", "--quiet", "-r", requirements]
        subprocess.run(pip, check=True)
        stamp.touch()
    return python


def ensure_bench_database(server_url: str) -> None:
    """The ``bench`` role and database on the server of ``server_url`` (an admin URL)."""
    admin = create_engine(server_url, isolation_level="AUTOCOMMIT", poolclass=NullPool)
    try:
        with admin.connect() as conn:
            role = conn.execute(text("SELECT 1 FROM pg_roles WHERE rolname = 'bench'")).first()
            if role is None:
                conn.exec_driver_sql("CREATE ROLE bench LOGIN SUPERUSER PASSWORD 'bench'")
            found = conn.execute(text("SELECT 1 FROM pg_database WHERE datname = 'bench'"))
            if found.first() is None:
                conn.exec_driver_sql("CREATE DATABASE bench OWNER bench")
    finally:
        admin.dispose()


def run_peer(script: str, quick: bool) -> dict[str, float]:
    """Run ``peers/<script>.py`` and return its medians (progress goes to our stderr)."""
    python = ensure_venv()
    env = {**(QUICK if quick else {}), **os.environ}
    path = SHARED / "peers" / f"{script}.py"
    done = subprocess.run(
        [str(python), str(path)], env=env, stdout=subprocess.PIPE, check=True, text=True
    )
    line = done.stdout.strip().splitlines()[-1]
    result: dict[str, Any] = json.loads(line)
    medians: dict[str, float] = result["median"]
    return medians
