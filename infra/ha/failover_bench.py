"""Failover figures for docs/scaling.md: a fresh ``infra/ha`` cluster, two ``serve`` replicas,
8 clients with idempotency keys; ``--kills`` times the primary is ``kill -9``-ed (its pg_autoctl
and postmaster) at a random moment, then as many times the standby. After each kill: the time
from the kill to the first acknowledged command sent after it, the commands refused meanwhile
(by status), the longest wait for an answer; the node is brought back and rejoins before the
next kill. At the end everything recorded is checked as the failover test checks it.

    .venv/bin/python -m infra.ha.failover_bench --kills 10
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import psycopg

from infra.ha import drill
from infra.ha.cluster import Cluster, available

Run = tuple[float, Counter[int | None], float]


def _drill(cluster: Cluster, load: drill.Load, role: str) -> Run:
    """Kill the node in ``role`` (``primary`` or ``secondary``) at a random moment; the time to
    the first acknowledgement of a command sent after the kill, the answers to commands sent
    until then, and the longest any command sent until then waited for its answer."""
    time.sleep(random.uniform(1.0, 3.0))
    victim = cluster.primary() if role == "primary" else cluster.secondary()
    assert victim is not None, cluster.states()
    killed = time.monotonic()
    cluster.kill(victim)
    deadline = killed + 120
    while (first := load.record.first_ack_after(killed)) is None:
        if time.monotonic() > deadline:
            since = load.record.statuses(since=killed)
            raise RuntimeError(
                f"no command acknowledged within 120 s of killing {victim}: answers {since},"
                f" states {cluster.states()}"
            )
        time.sleep(0.05)
    answers = [a for a in load.record.answers if killed <= a.sent < first]
    waits = [a.received - a.sent for a in load.record.answers if killed - 5 <= a.sent < first]
    if role == "primary":
        cluster.wait(healthy=False, timeout=60, not_primary=victim)
    cluster.up()  # the killed node rejoins (as a standby)
    return first - killed, Counter(a.status for a in answers), max(waits, default=0.0)


def _diagnose(
    cluster: Cluster, bases: list[str], matches: list[dict[str, Any]], load: drill.Load
) -> None:
    """What each replica and each node say of each match, when the drill got stuck."""
    print("states:", cluster.states())
    for match in matches:
        match_id = match["match_id"]
        print("match", match_id)
        for base in bases:
            try:
                log = drill.log_of(base, match)
                print(f"  {base}: log to seq {log[-1]['seq'] if log else 0}")
            except Exception as error:
                print(f"  {base}: {error!r}")
        for port in (cluster.port + 1, cluster.port + 2):
            try:
                with psycopg.connect(
                    f"postgresql://postgres@127.0.0.1:{port}/adjudicator?connect_timeout=2"
                ) as conn:
                    row = conn.execute(
                        "SELECT last_seq, pg_is_in_recovery() FROM matches WHERE match_id = %s",
                        (match_id,),
                    ).fetchone()
                print(f"  node on {port}: last_seq, in recovery = {row}")
            except psycopg.Error as error:
                print(f"  node on {port}: {error!r}")
        refused = [a for a in load.record.answers if a.match_id == match_id and a.conflict]
        if refused:
            print(f"  {len(refused)} conflicts, the last: {refused[-1].body}")


def _summary(role: str, runs: list[Run]) -> str:
    times = [t for t, _, _ in runs]
    refused: Counter[int | None] = Counter()
    for _, statuses, _ in runs:
        refused.update(statuses)
    longest = max(w for _, _, w in runs)
    return (
        f"{role} killed x{len(runs)}: kill -> first ack median {statistics.median(times):.1f} s,"
        f" max {max(times):.1f} s; answers meanwhile {dict(refused)}"
        f" (None: no answer); longest wait for an answer {longest:.1f} s"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=10, help="kills of each role (default 10)")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--roles", default="primary,secondary", help="whose node to kill")
    args = parser.parse_args()
    if (why := available()) is not None:
        print(why)
        return 1
    directory = Path(tempfile.mkdtemp(prefix="adjudicator-ha-"))
    directory.chmod(0o755)
    cluster = Cluster(directory, drill.free_ports(3))
    try:
        cluster.up()
        with drill.replicas(cluster.url, 2, log_dir=directory) as bases:
            matches = [drill.create_match(bases[n % 2]) for n in range(4)]
            load = drill.Load(bases, matches, clients=args.clients)
            load.start()
            results: dict[str, list[Run]] = {}
            try:
                for role in args.roles.split(","):
                    for n in range(args.kills):
                        run = _drill(cluster, load, role)
                        print(
                            f"{role} kill {n + 1}: first ack after {run[0]:.2f} s, {run[1]},"
                            f" longest wait {run[2]:.1f} s",
                            flush=True,
                        )
                        results.setdefault(role, []).append(run)
            except RuntimeError:
                _diagnose(cluster, bases, load.matches, load)
                raise
            finally:
                load.stop()
            found = drill.problems(bases, load.every_match, load.record)
            statuses = load.record.statuses()
            acknowledged = len(load.record.acknowledged())
        for role, runs in results.items():
            print(_summary(role, runs))
        print(f"all answers: {dict(statuses)}; keys acknowledged: {acknowledged}")
        print("checks:", found or "all passed")
    except BaseException:
        print(f"the cluster is kept for a look: HA_DIR={directory} infra/ha/status")
        cluster.down(purge=False)
        raise
    cluster.down(purge=True)
    return 0 if not found else 1


if __name__ == "__main__":
    raise SystemExit(main())
