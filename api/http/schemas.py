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
    """What a command, ruling or close recorded (as the asking token may see it), the derived
    outcome of its first event, and whether this answer replays an earlier request."""

    events: list[dict[str, Any]]
    outcome: dict[str, Any] | None
    replayed: bool


class ErrorBody(BaseModel):
    """Every error answer: a stable ``code`` (see the README's table), a human message."""

    code: str = Field(description="stable, snake_case; one status per code everywhere")
    message: str
    details: Any = Field(None, description="validation errors, a verify report, a ply…")
    request_id: str | None = Field(None, description="internal_error only: quote it")


ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": meaning}
    for status, meaning in (
        (401, "no usable token"),
        (403, "the token may not do this"),
        (404, "no such match"),
        (409, "the match's state forbids it now, or another writer got in first"),
        (413, "the body is too large"),
        (422, "the request is malformed or names what does not exist"),
        (500, "the service failed (JSON with the request id)"),
    )
}
