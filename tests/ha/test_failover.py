"""The primary killed under load (``kill -9`` of its pg_autoctl and its postmaster, at a random
moment): a three-node pg_auto_failover cluster (``infra/ha``), two real ``serve`` replicas on its
multi-host URL, 8 clients sending commands with idempotency keys. After the standby is promoted
and the old primary has rejoined as a standby: every acknowledged command is in the log exactly
once, every retried key answered its first answer, nothing but 2xx and 503 was answered (and
409 ``version_conflict``, which this load meets without any failover), seqs and global
positions are gap-free, every chain verifies, and a live stream opened before the
kill received every event (its listener followed the primary)."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

from infra.ha import drill
from infra.ha.cluster import Cluster, available

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(available() is not None, reason=str(available())),
]


def test_the_primary_killed_under_load_loses_no_acknowledged_command(
    cluster: Cluster, tmp_path: Path
) -> None:
    cluster.wait(healthy=True, timeout=180)  # whichever HA test ran before on this cluster
    began = time.monotonic()
    with drill.replicas(cluster.url, 2, log_dir=tmp_path) as bases:
        before = drill.feed_end(bases[0])  # the cluster's store is shared with those tests
        matches = [drill.create_match(bases[n % 2]) for n in range(4)]
        stream = drill.Stream(bases[1], matches[0])
        stream.start()
        load = drill.Load(bases, matches, clients=8)
        load.start()
        try:
            time.sleep(random.uniform(1.0, 3.0))  # a random moment under load
            victim = cluster.primary()
            assert victim is not None
            killed = time.monotonic()
            cluster.kill(victim)
            cluster.wait(healthy=False, timeout=60, not_primary=victim)
            deadline = time.monotonic() + 60
            while load.record.first_ack_after(killed) is None:
                assert time.monotonic() < deadline, "no command acknowledged after the failover"
                time.sleep(0.1)
            acknowledged = time.monotonic()
            cluster.up()  # the old primary comes back: it rejoins as a standby
            rejoined = time.monotonic()
            assert cluster.states()[victim] == ("secondary", "secondary")
            time.sleep(1.0)  # load on the whole cluster again
        finally:
            load.stop()
            stream.stop()
        print(
            f"ready {killed - began:.1f} s, kill to first ack {acknowledged - killed:.1f} s,"
            f" rejoin {rejoined - acknowledged:.1f} s, checks from {time.monotonic() - began:.1f} s"
        )
        refused = load.record.statuses(since=killed)
        assert refused[500] == 0
        assert refused[503] > 0  # the failover was felt: commands were refused meanwhile
        assert load.record.acknowledged(), "nothing was acknowledged"
        assert drill.problems(bases, load.every_match, load.record, before) == []
        log = drill.log_of(bases[0], matches[0])
        assert stream.seqs == [e["seq"] for e in log]  # no event missed, none twice
