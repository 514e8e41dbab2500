"""The pg_auto_failover cluster of ``infra/ha`` driven from Python (the failover test and
``infra/ha/failover_bench.py``): start and stop it with the scripts, read the nodes' states from
the monitor, kill a node the hard way (``kill -9``) and bring it back."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path

import psycopg

HERE = Path(__file__).resolve().parent
WRITABLE = ("primary", "wait_primary", "single")


def available() -> str | None:
    """Why the cluster cannot run here (None: it can)."""
    if shutil.which("pg_autoctl") is None:
        packages = "postgresql-15-auto-failover pg-auto-failover-cli"
        return f"pg_autoctl is missing (apt-get install {packages})"
    if os.geteuid() == 0 and shutil.which("runuser") is None:
        return "running as root without runuser to run PostgreSQL as another user"
    return None


@dataclass
class Cluster:
    """The cluster in ``directory``, its monitor on ``port`` and its nodes on the next two."""

    directory: Path
    port: int = 6100

    @property
    def env(self) -> dict[str, str]:
        return {**os.environ, "HA_DIR": str(self.directory), "HA_PORT": str(self.port)}

    @property
    def url(self) -> str:
        """The service's ``DATABASE_URL``: both nodes, the writable one chosen at each connect."""
        first, second = self.port + 1, self.port + 2
        return (
            f"postgresql+psycopg://postgres@127.0.0.1:{first},127.0.0.1:{second}/adjudicator"
            "?target_session_attrs=read-write&connect_timeout=2"
        )

    @property
    def standby_url(self) -> str:
        """The service's ``ADJUDICATOR_STANDBY_URL``: both nodes, a standby chosen at each
        connect (none while neither is one)."""
        return self.url.replace("target_session_attrs=read-write", "target_session_attrs=standby")

    def up(self) -> None:
        """Start the cluster (create it first if need be); restart a node killed before, which
        rejoins as a standby. Returns once a primary and a secondary are in sync."""
        done = subprocess.run(
            [HERE / "up"], check=False, env=self.env, stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )  # fmt: skip
        if done.returncode != 0:
            logs = "".join(
                _tail(self.directory / f"{n}.log") for n in ("monitor", "node1", "node2")
            )
            raise RuntimeError(f"infra/ha/up failed: {done.stderr.decode()}{logs}")

    def down(self, purge: bool = True) -> None:
        subprocess.run([HERE / "down", *(["--purge"] if purge else [])], env=self.env, check=True)

    def states(self) -> dict[str, tuple[str, str]]:
        """Each node's (reported, assigned) state, as the monitor has them."""
        monitor = f"postgresql://postgres@127.0.0.1:{self.port}/pg_auto_failover?connect_timeout=2"
        with psycopg.connect(monitor, autocommit=True) as conn:
            rows = conn.execute(
                "SELECT nodename, reportedstate::text, goalstate::text FROM pgautofailover.node"
            ).fetchall()
        return {name: (reported, goal) for name, reported, goal in rows}

    def primary(self) -> str | None:
        """The node that takes writes now, as the monitor sees it (None mid-failover)."""
        for name, (reported, goal) in self.states().items():
            if reported == goal and reported in WRITABLE:
                return name
        return None

    def secondary(self) -> str | None:
        for name, (reported, goal) in self.states().items():
            if reported == goal == "secondary":
                return name
        return None

    def kill(self, name: str) -> None:
        """``kill -9`` the node's pg_autoctl (its whole process group, so that nothing restarts
        its PostgreSQL) and its postmaster: the machine lost, as far as the others can tell."""
        keeper = _pid(self.directory / f"{name}.pid")
        postmaster = _pid(self.directory / name / "postmaster.pid")
        if keeper is not None:
            with suppress(ProcessLookupError):
                os.killpg(keeper, signal.SIGKILL)
        if postmaster is not None:
            with suppress(ProcessLookupError):
                os.kill(postmaster, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while any(_running(pid) for pid in (keeper, postmaster)) and time.monotonic() < deadline:
            time.sleep(0.05)

    def wait(
        self, healthy: bool = True, timeout: float = 120, not_primary: str | None = None
    ) -> None:
        """Wait until a primary and an in-sync secondary are up (``healthy``), or only until some
        node takes writes again; that node not ``not_primary`` (the one just killed)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                primary = self.primary()
                if (
                    primary is not None
                    and primary != not_primary
                    and (not healthy or self.secondary() is not None)
                ):
                    return
            except psycopg.Error:
                pass
            time.sleep(0.2)
        raise TimeoutError(f"the cluster did not recover within {timeout} s: {self.states()}")


def _running(pid: int | None) -> bool:
    """Whether the process runs (a zombie, killed but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return pid is not None and stat.rpartition(")")[2].split()[0] != "Z"


def _pid(path: Path) -> int | None:
    try:
        return int(path.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _tail(path: Path, lines: int = 15) -> str:
    try:
        return f"\n--- {path.name}\n" + "\n".join(path.read_text().splitlines()[-lines:])
    except OSError:
        return ""
