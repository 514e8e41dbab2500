"""Refereeing from a chat export: preview what the posts become, then enter them."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body
from pydantic import BaseModel, ConfigDict, Field

from adjudicator.transcripts.triage import Cast
from api.http import schemas
from api.http.deps import Grant, Service
from api.http.schemas import errors
from api.http.strictjson import StrictJsonRoute
from api.service import transcripts

router = APIRouter(route_class=StrictJsonRoute, tags=["transcripts"])
RESPONSES = errors(401, 403, 404, 409, 422)


class ExportIn(BaseModel):
    """One export: DiscordChatExporter JSON in ``export``, or a plain-text ``text``."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["discord", "text"] = "discord"
    export: Any = Field(None, description="the DiscordChatExporter JSON, as exported")
    text: str | None = Field(None, description="a '[time] name: text' transcript")
    channel: str | None = Field(None, description="text only: the channel's name (default text)")
    dm: bool = Field(False, description="a seat's direct messages with the host")


class TranscriptIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    exports: list[ExportIn] = Field(min_length=1, max_length=20)
    seats: dict[str, str] = Field(description="author id or name -> seat")
    hosts: list[str] = Field(default_factory=list, description="author ids or names of hosts")
    exclude: list[str] = Field(default_factory=list, description="message ids to leave out")

    def handed(self) -> transcripts.Handed:
        sources = [
            transcripts.read_export(
                e.format, e.export if e.format == "discord" else e.text, e.channel, e.dm
            )
            for e in self.exports
        ]
        return transcripts.Handed(sources, Cast(self.seats, self.hosts), set(self.exclude))


@router.post(
    "/matches/{match_id}/transcript/preview",
    response_model=schemas.TranscriptPreview,
    responses=RESPONSES,
)
def preview_transcript(
    service: Service, match_id: str, grant: Grant, body: Annotated[TranscriptIn, Body()]
) -> dict[str, Any]:
    """Host: every post with what it would become (command, ignored and why, refused with the
    rule's code, flagged when edited); nothing is recorded."""
    return transcripts.preview(service, match_id, grant, body.handed())


@router.post(
    "/matches/{match_id}/transcript/enter",
    status_code=201,
    response_model=schemas.TranscriptEntered,
    responses=RESPONSES,
)
def enter_transcript(
    service: Service, match_id: str, grant: Grant, body: Annotated[TranscriptIn, Body()]
) -> dict[str, Any]:
    """Host: record the accepted posts in one atomic batch, each at its post's time and
    carrying its post as ``source``; posts entered before are skipped."""
    return transcripts.enter(service, match_id, grant, body.handed())
