"""Request and response bodies of the HTTP API (separate from the store's records)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from adjudicator.kernel.times import Instant

SeatName = Annotated[
    str, StringConstraints(strip_whitespace=True, pattern=r"^[A-Za-z0-9_-]{1,32}$")
]


class CreateMatch(BaseModel):
    model_config = ConfigDict(extra="forbid")

    game: str
    seats: tuple[SeatName, SeatName]
    advantage: SeatName | None = None
    config: dict[str, Any] = Field(default_factory=dict)
    seed: int | None = Field(
        None, ge=0, lt=2**63, description="drawn at random (and committed) when omitted"
    )


class MatchCreated(BaseModel):
    match_id: str
    game: str
    rules_version: str
    seats: list[str]
    tokens: dict[str, Any]


class CommandBody(BaseModel):
    """A game command: ``type`` names it (see GET /games); the host may add ``occurred_at``."""

    model_config = ConfigDict(extra="allow")

    type: str
    occurred_at: Instant | None = Field(
        None, description="host only: the game time of an entered action (never backwards)"
    )


class Acted(BaseModel):
    events: list[dict[str, Any]]
    outcome: dict[str, Any] | None
    replayed: bool
