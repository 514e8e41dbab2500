"""Match and token queries, as functions of an open connection."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, Row, func, insert, select

from events.errors import InvalidEvent
from events.records import MatchRecord, MatchStatus, TokenGrant, TokenRecord
from events.tables import match_tokens, matches, operator_tokens


def check_tokens(tokens: Sequence[TokenRecord]) -> None:
    for token in tokens:
        if token.role not in ("host", "seat", "auditor"):
            raise InvalidEvent(f"unknown token role {token.role!r}")
        if (token.role == "seat") != (token.seat is not None):
            raise InvalidEvent("a seat token names its seat, and only a seat token does")


def insert_match(
    conn: Connection,
    record: MatchRecord,
    tokens: Sequence[TokenRecord],
) -> None:
    conn.execute(insert(matches).values(**record.__dict__))
    if tokens:
        rows = [{"match_id": record.match_id, **token.__dict__} for token in tokens]
        conn.execute(insert(match_tokens), rows)


def to_match(row: Row[Any]) -> MatchRecord:
    return MatchRecord(**row._asdict())


def get_match(conn: Connection, match_id: str) -> MatchRecord | None:
    row = conn.execute(select(matches).where(matches.c.match_id == match_id)).first()
    return None if row is None else to_match(row)


def list_matches(
    conn: Connection, game: str | None, status: MatchStatus | None, limit: int, offset: int
) -> list[MatchRecord]:
    query = select(matches)
    if game is not None:
        query = query.where(matches.c.game == game)
    if status is not None:
        query = query.where(matches.c.status == status)
    query = query.order_by(matches.c.created_at.desc(), matches.c.match_id)
    return [to_match(row) for row in conn.execute(query.limit(limit).offset(offset))]


def match_for_token(conn: Connection, token_hash: str) -> TokenGrant | None:
    columns = (match_tokens.c.match_id, match_tokens.c.role, match_tokens.c.seat)
    query = select(*columns).where(match_tokens.c.token_hash == token_hash)
    row = conn.execute(query).first()
    return None if row is None else TokenGrant(row.match_id, row.role, row.seat)


def has_operator_token(conn: Connection, token_hash: str) -> bool:
    query = select(operator_tokens.c.token_hash).where(operator_tokens.c.token_hash == token_hash)
    return conn.execute(query).first() is not None


def operator_token_count(conn: Connection) -> int:
    count: int = conn.execute(select(func.count()).select_from(operator_tokens)).scalar_one()
    return count
