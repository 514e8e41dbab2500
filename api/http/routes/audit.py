"""Audit routes: export a match as JSON Lines, verify it, import a record from elsewhere."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Request, Response

from api.http import schemas
from api.http.deps import MaybeGrant, Operator, Service, answered_by
from api.http.openapi import NDJSON, RECORD, record_content
from api.http.schemas import errors
from api.http.strictjson import StrictJsonRoute
from api.service import audit
from events.standby import Cut

router = APIRouter(route_class=StrictJsonRoute, tags=["audit"])


@router.get(
    "/matches/{match_id}/export",
    response_class=Response,
    responses={
        200: {"content": record_content(RECORD), "description": "header line, then envelopes"},
        **errors(401, 403, 404),
    },
)
def export_match(request: Request, service: Service, match_id: str, grant: MaybeGrant) -> Response:
    """Host, or auditor once closed: the match's portable record (payloads and salts included).
    A closed match's record may come from a standby (``Adjudicator-Read-From``)."""
    text, served = answered_by(
        request,
        service,
        match_id,
        lambda s: audit.export_for(s.store, match_id, grant, s.clock()),
        Cut(),
    )
    disposition = f'attachment; filename="match-{match_id}.jsonl"'
    headers = {"Content-Disposition": disposition, **served}
    return Response(text, media_type=NDJSON, headers=headers)


@router.get(
    "/matches/{match_id}/verify", response_model=schemas.VerifyReport, responses=errors(404)
)
def verify_match(
    request: Request, response: Response, service: Service, match_id: str
) -> dict[str, Any]:
    """Anyone: hash chain, commitments and the re-fold of the result, over the stored events.
    A closed match may be verified on a standby (``Adjudicator-Read-From``)."""
    report, served = answered_by(
        request,
        service,
        match_id,
        lambda s: audit.verify_stored(s.store, s.games, match_id).as_json(),
        Cut(),
    )
    response.headers.update(served)
    return report


@router.post(
    "/matches/import",
    status_code=201,
    dependencies=[Operator],
    response_model=schemas.Imported,
    responses=errors(401, 403, 409, 422),
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": RECORD + " Sent as application/x-ndjson (an export as it is).",
            "content": record_content(RECORD),
        }
    },
)
def import_match(
    service: Service, record: Annotated[bytes, Body(media_type=NDJSON)]
) -> dict[str, Any]:
    """Operator: verify a record (422 ``record_invalid`` with the report), then store it as the
    same match (409 ``match_exists``); returns fresh role tokens, shown once."""
    text = record.decode("utf-8", errors="replace")
    imported = audit.import_text(service.store, service.games, text)
    match = imported.match
    return {
        "match_id": match.match_id,
        "game": match.game,
        "rules_version": match.rules_version,
        "status": match.status,
        "tokens": imported.tokens,
        "verify": imported.report.as_json(),
    }
