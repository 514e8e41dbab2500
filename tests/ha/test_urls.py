"""A cluster's multi-host URL (libpq's ``host1:port1,host2:port2``) is accepted wherever a
database URL is, and reaches psycopg in libpq's spelling with ``target_session_attrs`` kept."""

from __future__ import annotations

import psycopg
import pytest
from sqlalchemy import create_engine

from events.engine import hosts_of, libpq_url, normalise_url

CLUSTER = (
    "postgresql+psycopg://svc:p%40ss@10.0.0.1:6101,10.0.0.2:6102/adjudicator"
    "?target_session_attrs=read-write&connect_timeout=2"
)


def test_multi_host_url_is_read_as_sqlalchemy_host_parameters() -> None:
    url = normalise_url(CLUSTER)
    assert hosts_of(url) == ["10.0.0.1:6101", "10.0.0.2:6102"]
    assert url.database == "adjudicator" and url.username == "svc" and url.password == "p@ss"
    assert url.query["target_session_attrs"] == "read-write"
    args = create_engine(url).dialect.create_connect_args(url)[1]
    assert args["host"] == "10.0.0.1,10.0.0.2" and args["port"] == "6101,6102"
    assert args["target_session_attrs"] == "read-write"


def test_libpq_url_of_a_cluster_names_every_host_in_order() -> None:
    conninfo = libpq_url(normalise_url(CLUSTER))
    assert conninfo.startswith("postgresql://svc:p%40ss@10.0.0.1:6101,10.0.0.2:6102/adjudicator?")
    parsed = psycopg.conninfo.conninfo_to_dict(conninfo)
    assert parsed["host"] == "10.0.0.1,10.0.0.2" and parsed["port"] == "6101,6102"
    assert parsed["target_session_attrs"] == "read-write" and parsed["password"] == "p@ss"


@pytest.mark.parametrize(
    "url",
    ["postgresql://u@127.0.0.1:5432/test", "postgresql+psycopg://u@h/db?sslmode=disable"],
)
def test_single_host_urls_are_unchanged(url: str) -> None:
    parsed = normalise_url(url)
    assert hosts_of(parsed) == []
    assert libpq_url(parsed) == url.replace("+psycopg", "")


def test_a_plain_postgresql_scheme_means_psycopg_for_a_cluster_too() -> None:
    url = normalise_url("postgresql://a:1,b:2/db")
    assert url.drivername == "postgresql+psycopg" and hosts_of(url) == ["a:1", "b:2"]
    assert libpq_url(url) == "postgresql://a:1,b:2/db"
