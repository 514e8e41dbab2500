"""Refereeing from a chat export: preview what the posts become, then enter them."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Body, Query
from pydantic import BaseModel, ConfigDict, Field

from adjudicator.transcripts.triage import Cast
from api.http import schemas
from api.http.deps import Grant, Service
from api.http.schemas import errors
from api.http.strictjson import StrictJsonRoute
from api.service import transcripts
from api.service.transcript_posts import Correction

Offset = Annotated[int, Query(ge=0, le=10_000_000, description="rows to skip (flagged first)")]
Limit = Annotated[
    int, Query(ge=1, le=transcripts.MAX_PAGE, description="rows to list (default 1000)")
]

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


class CorrectionIn(BaseModel):
    """The host's reading of one post: the command it means, judged at the post's time."""

    model_config = ConfigDict(extra="forbid")

    message_id: str = Field(min_length=1, max_length=200)
    channel_id: str | None = Field(
        None, max_length=200, description="needed only when two exports share a message id"
    )
    command: dict[str, Any] = Field(
        description="a POST /commands body; on a seat's post it acts for that seat"
    )
    reason: str = Field(min_length=1, max_length=500, description="why: recorded with it")

    def correction(self) -> Correction:
        return Correction(self.message_id, self.command, self.reason, self.channel_id)


class TranscriptIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    exports: list[ExportIn] = Field(min_length=1, max_length=20)
    seats: dict[str, str] = Field(description="author id or name -> seat")
    hosts: list[str] = Field(default_factory=list, description="author ids or names of hosts")
    exclude: list[str] = Field(default_factory=list, description="message ids to leave out")
    corrections: list[CorrectionIn] = Field(
        default_factory=list,
        max_length=10_000,
        description="the host's readings of posts: the command each means, and why",
    )

    def handed(self) -> transcripts.Handed:
        sources = [
            transcripts.read_export(
                e.format, e.export if e.format == "discord" else e.text, e.channel, e.dm
            )
            for e in self.exports
        ]
        corrections = [c.correction() for c in self.corrections]
        cast = Cast(self.seats, self.hosts)
        return transcripts.Handed(sources, cast, set(self.exclude), corrections)


@router.post(
    "/matches/{match_id}/transcript/preview",
    response_model=schemas.TranscriptPreview,
    responses=RESPONSES,
)
def preview_transcript(
    service: Service,
    match_id: str,
    grant: Grant,
    body: Annotated[TranscriptIn, Body()],
    offset: Offset = 0,
    limit: Limit = transcripts.DEFAULT_PAGE,
) -> dict[str, Any]:
    """Host: every post with what it would become (command; flagged when edited or when it
    looks like a command but does not read whole; refused with the rule's code; ignored and
    why; excluded; already entered with its seqs and outcome), flagged posts first, one page
    at a time; nothing is recorded."""
    page = transcripts.Page(offset, limit)
    return transcripts.preview(service, match_id, grant, body.handed(), page)


@router.post(
    "/matches/{match_id}/transcript/enter",
    status_code=201,
    response_model=schemas.TranscriptEntered,
    responses=RESPONSES,
)
def enter_transcript(
    service: Service,
    match_id: str,
    grant: Grant,
    body: Annotated[TranscriptIn, Body()],
    offset: Offset = 0,
    limit: Limit = transcripts.DEFAULT_PAGE,
) -> dict[str, Any]:
    """Host: record the accepted posts in one atomic batch, each at its post's time and
    carrying its post as ``source``; posts entered before are skipped. The answer lists every
    post (paged as the preview) with its command, its events' seqs and its outcome, and the
    match's result as the state shows it now."""
    page = transcripts.Page(offset, limit)
    return transcripts.enter(service, match_id, grant, body.handed(), page)
