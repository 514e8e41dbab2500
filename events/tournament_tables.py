"""The tournaments' tables (SQLAlchemy Core), beside the matches' (``events.tables``, same
metadata). Revision 0006 creates them. A tournament is its own stream: its own seqs and hash
chain in ``tournament_events``, sealed by the match store's ``seal`` (the envelope's
``match_id`` field holds the tournament id), so ``verify_chain`` checks it as it checks a match.
Its events take no global position: the operator's feed and every match listing stay matches
only (see docs/tournaments.md, "Service")."""

from __future__ import annotations

from sqlalchemy import (
    CheckConstraint,
    Column,
    ForeignKey,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
)

from events.sqltypes import UTCDateTime, json_column
from events.tables import metadata

tournaments = Table(
    "tournaments",
    metadata,
    Column("tournament_id", String(36), primary_key=True),
    Column("name", String(200), nullable=False),
    Column("game", String(64), nullable=False),
    Column("created_at", UTCDateTime(), nullable=False),
    Column("organizer_hash", String(64), nullable=False, unique=True),
    Column("last_seq", Integer, nullable=False),
    CheckConstraint("last_seq >= 0", name="ck_tournaments_last_seq"),
)

tournament_events = Table(
    "tournament_events",
    metadata,
    Column(
        "tournament_id",
        String(36),
        ForeignKey("tournaments.tournament_id"),
        nullable=False,
    ),
    Column("seq", Integer, nullable=False),
    Column("type", String(128), nullable=False),
    Column("actor", String(128), nullable=False),
    Column("occurred_at", UTCDateTime(), nullable=False),
    Column("recorded_at", UTCDateTime(), nullable=False),
    Column("payload", json_column(), nullable=False),
    Column("prev_hash", String(64), nullable=False),
    Column("hash", String(64), nullable=False),
    PrimaryKeyConstraint("tournament_id", "seq", name="pk_tournament_events"),
    CheckConstraint("seq >= 1", name="ck_tournament_events_seq"),
)
