"""Ludii notation: a Zombego match out as a Ludii game, a Ludii game's moves into a match."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body
from pydantic import BaseModel, ConfigDict, Field

from adjudicator.kernel.numbers import Int
from adjudicator.kernel.times import Instant
from api.http import schemas
from api.http.deps import Grant, MaybeGrant, Service
from api.http.schemas import errors
from api.http.strictjson import StrictJsonRoute
from api.service import ludii

router = APIRouter(route_class=StrictJsonRoute, tags=["ludii"])


class LudiiGame(BaseModel):
    """A Ludii game in the JSON shape of ``zombego-golden.jsonl`` (other keys are ignored)."""

    model_config = ConfigDict(extra="ignore")

    board: Int
    ruleset: str
    piece_set: str
    values: list[Int] | None = None
    moves: list[str] | None = Field(None, max_length=5000, description="Ludii move strings")
    plies: list[dict[str, Any]] | None = Field(
        None, max_length=5000, description="or the golden file's plies (their `played`)"
    )
    start: Instant | None = Field(
        None, description="game time of the first move (default: now minus one second a move)"
    )


@router.get(
    "/matches/{match_id}/ludii",
    response_model=schemas.LudiiGameOut,
    responses=errors(401, 403, 404, 422),
)
def export_ludii(service: Service, match_id: str, grant: MaybeGrant) -> dict[str, Any]:
    """A Zombego match as a Ludii game: options, move strings (voided moves left out), result.
    Anyone; in the hidden ruleset the host only until the match is closed (403 ``ludii_hidden``)."""
    return ludii.export(service, match_id, grant)


@router.post(
    "/matches/{match_id}/ludii",
    status_code=201,
    response_model=schemas.Entered,
    responses=errors(401, 403, 404, 409, 422),
)
def enter_ludii(
    service: Service, match_id: str, grant: Grant, game: Annotated[LudiiGame, Body()]
) -> dict[str, Any]:
    """Host: enter a Ludii game's moves into this fresh Zombego match as host-entered commands,
    one second apart. All or nothing: 422 ``options_mismatch``, 422 ``illegal_ply`` (details
    name the first illegal ply), 409 ``match_not_at_start``."""
    data = game.model_dump(mode="json", exclude_none=True, exclude={"start"})
    return ludii.enter(service, match_id, grant, data, game.start)
