"""The list of tournaments (anyone: a tournament's results are public), newest first: what
the console's start page links to."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import Field

from adjudicator.kernel.canonical import iso
from api.http.params import MAX_SEQ
from api.http.routes.tournaments import Tournaments
from api.http.schemas import Answer, Time, errors
from api.http.strictjson import StrictJsonRoute

router = APIRouter(route_class=StrictJsonRoute, tags=["tournaments"])


class TournamentListed(Answer):
    tournament_id: str
    name: str
    game: str
    created_at: Time
    last_seq: int = Field(description="the tournament's own stream: how many events so far")
    sealed_leaf: int | None = Field(
        description="once the organizer sealed it: the index of its leaf in the transparency log"
    )


@router.get("/tournaments", response_model=list[TournamentListed], responses=errors(422))
def list_tournaments(
    service: Tournaments,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    offset: Annotated[int, Query(ge=0, le=MAX_SEQ)] = 0,
) -> list[dict[str, Any]]:
    """Tournaments, newest first (``limit`` and ``offset`` page them)."""
    return [
        {
            "tournament_id": r.tournament_id,
            "name": r.name,
            "game": r.game,
            "created_at": iso(r.created_at),
            "last_seq": r.last_seq,
            "sealed_leaf": sealed_leaf,
        }
        for r, sealed_leaf in service.store.listed(limit, offset)
    ]
