"""Refereeing from a chat export: preview what the posts become, then enter them.

Both routes take the exports in one of two bodies, chosen by ``Content-Type``:

- ``application/json``: :class:`TranscriptIn` (the exports inline, as loaded JSON or text);
  its body limit is ``ADJUDICATOR_MAX_TRANSCRIPT_BYTES``.
- ``multipart/form-data``: the export files as they are, spooled to temporary files while
  they arrive (limit ``ADJUDICATOR_MAX_UPLOAD_BYTES``, counted as they arrive): ``export``
  parts (one or more: the channel), ``dm_export`` parts (a seat's direct messages with the
  host) and one ``options`` field holding :class:`TranscriptOptions` as JSON. A file is
  DiscordChatExporter JSON when its first byte that is not whitespace is ``{``, else a
  plain-text transcript whose channel is the file name's stem. Each file is decoded straight
  from its temporary file (mapped into memory, never copied into a Python ``bytes``), with
  typed structs that keep only the fields the referee uses.
"""

from __future__ import annotations

import json
import mmap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import PurePosixPath
from typing import IO, Annotated, Any, Literal

from fastapi import APIRouter, Query, Request
from fastapi.exceptions import RequestValidationError
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData, UploadFile
from starlette.exceptions import HTTPException

from adjudicator.transcripts.discord import read_file
from adjudicator.transcripts.triage import Cast, Source
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
RESPONSES = errors(401, 403, 404, 409, 413, 422)
MULTIPART = "multipart/form-data"
MAX_FILES = 20  # as many exports as the JSON body takes
MAX_OPTIONS_BYTES = 16 * 1024 * 1024  # the options field (10,000 corrections fit)
PARTS = {"export": False, "dm_export": True}  # part name -> dm


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


class TranscriptOptions(BaseModel):
    """Everything but the exports: the author map, the posts left out, the corrections."""

    model_config = ConfigDict(extra="forbid")

    seats: dict[str, str] = Field(
        default_factory=dict,
        description="author id or name -> seat (in a tournament's match, the chat authors"
        " registered for its players are mapped to their seats unless named here)",
    )
    hosts: list[str] = Field(default_factory=list, description="author ids or names of hosts")
    exclude: list[str] = Field(default_factory=list, description="message ids to leave out")
    corrections: list[CorrectionIn] = Field(
        default_factory=list,
        max_length=10_000,
        description="the host's readings of posts: the command each means, and why",
    )

    def handed(self, sources: list[Source]) -> transcripts.Handed:
        corrections = [c.correction() for c in self.corrections]
        cast = Cast(self.seats, self.hosts)
        return transcripts.Handed(sources, cast, set(self.exclude), corrections)


class TranscriptIn(TranscriptOptions):
    """The JSON body: the exports inline, and the options."""

    exports: list[ExportIn] = Field(min_length=1, max_length=20)

    def read(self) -> transcripts.Handed:
        sources = [
            transcripts.read_export(
                e.format, e.export if e.format == "discord" else e.text, e.channel, e.dm
            )
            for e in self.exports
        ]
        return self.handed(sources)


def _inline(schema: dict[str, Any]) -> dict[str, Any]:
    """A model's JSON schema with its ``$defs`` written in place (the OpenAPI document has
    no component for a body it does not parse itself)."""
    defs = schema.pop("$defs", {})

    def place(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/"):
                return place(defs[ref.rsplit("/", 1)[1]])
            return {k: place(v) for k, v in node.items()}
        if isinstance(node, list):
            return [place(v) for v in node]
        return node

    found: dict[str, Any] = place(schema)
    return found


def _file(description: str) -> dict[str, Any]:
    return {
        "type": "array",
        "items": {"type": "string", "format": "binary"},
        "description": description,
    }


BODY = {
    "requestBody": {
        "required": True,
        "description": "The exports inline as JSON, or the export files as a multipart upload"
        " (limits: ADJUDICATOR_MAX_TRANSCRIPT_BYTES for JSON, ADJUDICATOR_MAX_UPLOAD_BYTES for"
        " an upload).",
        "content": {
            "application/json": {"schema": _inline(TranscriptIn.model_json_schema())},
            MULTIPART: {
                "schema": {
                    "type": "object",
                    "required": ["export", "options"],
                    "properties": {
                        "export": _file(
                            "the channel's export file(s): DiscordChatExporter JSON (first"
                            " byte not whitespace is '{'), else a '[time] name: text'"
                            " transcript whose channel is the file name's stem"
                        ),
                        "dm_export": _file(
                            "a seat's direct messages with the host, one file each (read as"
                            " export files are)"
                        ),
                        "options": {
                            "type": "string",
                            "contentMediaType": "application/json",
                            "description": "JSON: {seats, hosts, exclude, corrections}, as in"
                            " the JSON body",
                        },
                    },
                },
            },
        },
    }
}


def _invalid(problems: list[dict[str, Any]]) -> RequestValidationError:
    return RequestValidationError(problems)


def _within(where: tuple[str, ...], error: ValidationError) -> RequestValidationError:
    """A model's validation error as FastAPI words a body's (its places under ``where``)."""
    problems = error.errors(include_url=False)
    return _invalid([{**p, "loc": (*where, *p["loc"])} for p in problems])


def _not_json(where: tuple[str, ...], error: json.JSONDecodeError) -> RequestValidationError:
    return _invalid(
        [
            {
                "type": "json_invalid",
                "loc": (*where, error.pos),
                "msg": "JSON decode error",
                "input": {},
                "ctx": {"error": error.msg},
            }
        ]
    )


async def _json_body(request: Request) -> TranscriptIn:
    """The JSON body, read and validated as FastAPI reads a declared body."""
    raw = await request.body()
    data: Any = None
    if raw:
        media = request.headers.get("content-type", "application/json").split(";")[0].strip()
        if media == "application/json" or media.endswith("+json") or not media:
            try:
                data = await request.json()
            except json.JSONDecodeError as error:
                raise _not_json(("body",), error) from None
        else:
            data = raw
    if data is None:
        raise _invalid([{"type": "missing", "loc": ("body",), "msg": "Field required"}])
    try:
        return TranscriptIn.model_validate(data)
    except ValidationError as error:
        raise _within(("body",), error) from None


async def _form(request: Request) -> FormData:
    try:
        return await request.form(
            max_files=2 * MAX_FILES, max_fields=2 * MAX_FILES, max_part_size=MAX_OPTIONS_BYTES
        )
    except HTTPException as error:  # not a multipart body Starlette can parse
        problem = {"type": "multipart_invalid", "loc": ("body",), "msg": str(error.detail)}
        raise _invalid([problem]) from None


def _options(form: FormData) -> TranscriptOptions:
    where = ("body", "options")
    given = form.getlist("options")
    if len(given) != 1:
        msg = "one 'options' field is required" if not given else "one 'options' field only"
        raise _invalid([{"type": "missing", "loc": where, "msg": msg}])
    text = given[0]
    try:
        if isinstance(text, UploadFile):
            text = text.file.read().decode("utf-8")
        data = json.loads(text)
    except UnicodeDecodeError:
        raise _invalid([{"type": "json_invalid", "loc": where, "msg": "not UTF-8"}]) from None
    except json.JSONDecodeError as error:
        raise _not_json(where, error) from None
    try:
        return TranscriptOptions.model_validate(data)
    except ValidationError as error:
        raise _within(where, error) from None


def _uploads(form: FormData) -> list[tuple[UploadFile | str, bool]]:
    """The export parts in the order sent: each with whether it is a DM export."""
    unknown = [k for k in form if k not in PARTS and k != "options"]
    if unknown:
        problem = {"type": "extra_forbidden", "loc": ("body", unknown[0])}
        raise _invalid([{**problem, "msg": "parts are export, dm_export and options only"}])
    parts = [(value, PARTS[name]) for name, value in form.multi_items() if name in PARTS]
    if not any(not dm for _, dm in parts):
        problem = {"type": "missing", "loc": ("body", "export")}
        raise _invalid([{**problem, "msg": "at least one 'export' file (the channel) is needed"}])
    if len(parts) > MAX_FILES:
        problem = {"type": "too_long", "loc": ("body", "export")}
        raise _invalid([{**problem, "msg": f"at most {MAX_FILES} export files"}])
    return parts


@contextmanager
def mapped(file: IO[bytes]) -> Iterator[Any]:
    """A file's bytes without copying them: the file mapped into memory (an empty one as
    ``b""``). A spooled upload still in memory is written to its temporary file first."""
    file.seek(0, 2)
    if file.tell() == 0:
        yield b""
        return
    with mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as view:
        yield view


def _channel(filename: str | None) -> str:
    stem = PurePosixPath((filename or "").replace("\\", "/")).stem
    return stem or "text"


def _source(part: UploadFile | str, dm: bool) -> Source:
    if isinstance(part, str):  # a plain field: its text, as a file's
        return Source(read_file(part.encode(), "text"), dm)
    with mapped(part.file) as data:
        return Source(read_file(data, _channel(part.filename)), dm)


def _read_upload(
    parts: list[tuple[UploadFile | str, bool]], options: TranscriptOptions
) -> transcripts.Handed:
    return options.handed([_source(part, dm) for part, dm in parts])


async def _handed(request: Request) -> transcripts.Handed:
    """The handed exports, read off the event loop (decoding an export takes a while)."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != MULTIPART:
        body = await _json_body(request)
        return await run_in_threadpool(body.read)
    form = await _form(request)
    try:
        options = _options(form)
        parts = _uploads(form)
        return await run_in_threadpool(_read_upload, parts, options)
    finally:
        await form.close()


@router.post(
    "/matches/{match_id}/transcript/preview",
    response_model=schemas.TranscriptPreview,
    responses=RESPONSES,
    openapi_extra=BODY,
)
async def preview_transcript(
    service: Service,
    match_id: str,
    grant: Grant,
    request: Request,
    offset: Offset = 0,
    limit: Limit = transcripts.DEFAULT_PAGE,
) -> dict[str, Any]:
    """Host: every post with what it would become (command; flagged when edited or when it
    looks like a command but does not read whole; refused with the rule's code; ignored and
    why; excluded; already entered with its seqs and outcome), flagged posts first, one page
    at a time; nothing is recorded. The exports come as JSON or as uploaded files (see the
    request body)."""
    handed = await _handed(request)
    page = transcripts.Page(offset, limit)
    answer: dict[str, Any] = await run_in_threadpool(
        transcripts.preview, service, match_id, grant, handed, page
    )
    return answer


@router.post(
    "/matches/{match_id}/transcript/enter",
    status_code=201,
    response_model=schemas.TranscriptEntered,
    responses=RESPONSES,
    openapi_extra=BODY,
)
async def enter_transcript(
    service: Service,
    match_id: str,
    grant: Grant,
    request: Request,
    offset: Offset = 0,
    limit: Limit = transcripts.DEFAULT_PAGE,
) -> dict[str, Any]:
    """Host: record the accepted posts in one atomic batch, each at its post's time and
    carrying its post as ``source``; posts entered before are skipped. The answer lists every
    post (paged as the preview) with its command, its events' seqs and its outcome, and the
    match's result as the state shows it now. The exports come as JSON or as uploaded files
    (see the request body)."""
    handed = await _handed(request)
    page = transcripts.Page(offset, limit)
    answer: dict[str, Any] = await run_in_threadpool(
        transcripts.enter, service, match_id, grant, handed, page
    )
    return answer
