"""The pg_auto_failover cluster the slow HA tests share (``infra/ha``), started once."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from infra.ha import drill
from infra.ha.cluster import Cluster


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    """A fresh cluster in a directory of its own (not under pytest's, which only its owner may
    enter: as root, PostgreSQL runs as another user), deleted at the end."""
    directory = Path(tempfile.mkdtemp(prefix="adjudicator-ha-"))
    directory.chmod(0o755)
    cluster = Cluster(directory, drill.free_ports(3))
    try:
        cluster.up()
        yield cluster
    finally:
        cluster.down(purge=True)
