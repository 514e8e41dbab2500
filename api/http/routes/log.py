"""The transparency log of closed matches (RFC 9162 proofs, C2SP signed checkpoints) and the
keys that sign it. Everything here is public: a leaf holds nothing a closed match hides."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import PlainTextResponse
from pydantic import BaseModel, ConfigDict, Field

from api.http.deps import Operator, Service
from api.http.schemas import errors
from api.http.strictjson import StrictJsonRoute
from events.log_store import LogStore

router = APIRouter(route_class=StrictJsonRoute, tags=["transparency log"])

Size = Annotated[int, Query(ge=0, le=2**62)]
MatchIdQuery = Annotated[str, Query(min_length=1, max_length=64)]


class Cosignature(BaseModel):
    """A witness's cosignature: the checkpoint note as served with the witness's
    tlog-cosignature/v1 line added, and the witness's verifier key (type 0x04)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    note: str = Field(max_length=65536)
    vkey: str = Field(max_length=1024)


def _log(service: Any) -> LogStore:
    return LogStore(service.store)


@router.get("/.well-known/adjudicator-keys", responses=errors())
def keys(service: Service) -> dict[str, Any]:
    """Every key that ever signed this log's checkpoints, with its validity period."""
    return {"keys": [key.as_json() for key in _log(service).signing_keys()]}


@router.get(
    "/log/checkpoint",
    response_class=PlainTextResponse,
    responses={**errors(422, 503), 200: {"content": {"text/plain": {}}}},
)
def checkpoint(service: Service, tree_size: Size | None = None) -> PlainTextResponse:
    """The signed checkpoint (C2SP tlog-checkpoint as a signed note) of the log's current size,
    or of ``tree_size``, with every witness's cosignature recorded for it."""
    note = _log(service).checkpoint(tree_size)
    return PlainTextResponse(note, media_type="text/plain; charset=utf-8")


@router.get("/log/proof/inclusion", responses=errors(404, 422))
def inclusion(
    service: Service, match_id: MatchIdQuery, tree_size: Size | None = None
) -> dict[str, Any]:
    """The closed match's leaf and its inclusion proof (base64 hashes, RFC 9162 §2.1.3)."""
    return _log(service).inclusion(match_id, tree_size)


@router.get("/log/proof/consistency", responses=errors(422))
def consistency(service: Service, first: Size, second: Size) -> dict[str, Any]:
    """The consistency proof from tree size ``first`` to ``second`` (RFC 9162 §2.1.4)."""
    return _log(service).consistency(first, second)


@router.get("/log/entries", responses=errors(422))
def entries(service: Service, start: Size = 0, end: Size | None = None) -> dict[str, Any]:
    """Leaves ``start`` to ``end`` (exclusive; at most 1,000 at once)."""
    return _log(service).entries(start, end)


@router.post("/log/cosignatures", dependencies=[Operator], responses=errors(401, 403, 422))
def cosign(service: Service, body: Cosignature) -> dict[str, Any]:
    """Record a witness's cosignature of one of this log's checkpoints (operator token): served
    with the checkpoint from then on, so whoever reads it sees which witnesses saw that tree."""
    return _log(service).cosign(body.note, body.vkey)
