"""The transparency log of closed matches (RFC 9162 proofs, C2SP signed checkpoints) and the
keys that sign it. Everything here is public: a leaf holds nothing a closed match hides."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Response
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


class Key(BaseModel):
    name: str = Field(description="the key's name: the log's origin")
    key_id: str = Field(description="4 bytes, hex: SHA-256(name, 0x0A, 0x01, public key)[:4]")
    algorithm: str = Field(description="ed25519")
    public_key: str = Field(description="the raw 32-byte Ed25519 public key, base64")
    vkey: str = Field(description="the C2SP signed-note verifier key string")
    valid_from: str
    valid_until: str | None = Field(description="null: the key signs now")


class Keys(BaseModel):
    keys: list[Key]


class Leaf(BaseModel):
    index: int
    kind: str = Field(description="match, tournament (a sealed one), or key_rotation")
    leaf: str = Field(description="the leaf's exact bytes (canonical JSON) as text")
    leaf_hash: str = Field(description="SHA-256(0x00, leaf), base64")


class Inclusion(Leaf):
    tree_size: int
    inclusion: list[str] = Field(description="the RFC 9162 inclusion proof, base64 hashes")


class Consistency(BaseModel):
    first: int
    second: int
    consistency: list[str] = Field(description="the RFC 9162 consistency proof, base64")


class Entries(BaseModel):
    tree_size: int
    entries: list[Leaf]


class Cosigned(BaseModel):
    tree_size: int
    witness: str


def _log(service: Any) -> LogStore:
    return LogStore(service.store)


@router.get("/.well-known/adjudicator-keys", response_model=Keys, responses=errors())
def keys(service: Service) -> dict[str, Any]:
    """Every key that ever signed this log's checkpoints, with its validity period."""
    return {"keys": [key.as_json() for key in _log(service).signing_keys()]}


CHECKPOINT = (
    "A C2SP tlog-checkpoint (origin, tree size, base64 root hash) as a C2SP signed note: signed"
    " by the log's Ed25519 key (type 0x01) and cosigned by it (tlog-cosignature/v1, type 0x04,"
    " which carries the signing time), then any witnesses' cosignatures."
)


@router.get(
    "/log/checkpoint",
    response_class=Response,
    responses={
        200: {
            "content": {"text/plain": {"schema": {"type": "string", "description": CHECKPOINT}}},
            "description": "the signed checkpoint",
        },
        **errors(422, 503),
    },
)
def checkpoint(service: Service, tree_size: Size | None = None) -> Response:
    """The signed checkpoint (C2SP tlog-checkpoint as a signed note) of the log's current size,
    or of ``tree_size``, with every witness's cosignature recorded for it."""
    note = _log(service).checkpoint(tree_size)
    return Response(note, media_type="text/plain; charset=utf-8")


@router.get("/log/proof/inclusion", response_model=Inclusion, responses=errors(404, 422))
def inclusion(
    service: Service, match_id: MatchIdQuery, tree_size: Size | None = None
) -> dict[str, Any]:
    """The closed match's leaf and its inclusion proof (base64 hashes, RFC 9162 §2.1.3)."""
    return _log(service).inclusion(match_id, tree_size)


@router.get("/log/proof/consistency", response_model=Consistency, responses=errors(422))
def consistency(service: Service, first: Size, second: Size) -> dict[str, Any]:
    """The consistency proof from tree size ``first`` to ``second`` (RFC 9162 §2.1.4)."""
    return _log(service).consistency(first, second)


@router.get("/log/entries", response_model=Entries, responses=errors(422))
def entries(service: Service, start: Size = 0, end: Size | None = None) -> dict[str, Any]:
    """Leaves ``start`` to ``end`` (exclusive; at most 1,000 at once)."""
    return _log(service).entries(start, end)


@router.post(
    "/log/cosignatures",
    dependencies=[Operator],
    response_model=Cosigned,
    responses=errors(401, 403, 422),
)
def cosign(service: Service, body: Cosignature) -> dict[str, Any]:
    """Record a witness's cosignature of one of this log's checkpoints (operator token): served
    with the checkpoint from then on, so whoever reads it sees which witnesses saw that tree."""
    return _log(service).cosign(body.note, body.vkey)
