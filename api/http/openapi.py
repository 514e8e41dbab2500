"""The OpenAPI document, made to tell the truth where FastAPI's defaults would not.

- Every route lists its own error answers (``schemas.errors``), all of them ``ErrorBody``; the
  ``422 HTTPValidationError`` FastAPI adds to a route with parameters is not the shape this
  service answers with (``{code, message, details}``), so it is dropped, and with it the
  component schemas only it used.
- A match record (``GET /matches/{id}/export``, ``POST /matches/import``) is JSON Lines: its
  lines' schemas, a header then envelopes, are the components ``RecordHeader`` and
  ``RecordEnvelope`` (the models the import reads them with), named by :data:`RECORD`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi import FastAPI
from pydantic.json_schema import models_json_schema

from events.record import Envelope, Header

NDJSON = "application/x-ndjson"
COMPONENTS = "#/components/schemas/"
FRAMEWORK_422 = {"$ref": COMPONENTS + "HTTPValidationError"}


class RecordHeader(Header):
    """The first line of a match record."""


class RecordEnvelope(Envelope):
    """Every other line of a match record: one event, private payloads and salts included
    (or both withheld)."""


def record_content(description: str) -> dict[str, Any]:
    """The ``content`` of a JSON Lines match record, for a request or a response."""
    return {
        NDJSON: {
            "schema": {"type": "string", "contentMediaType": NDJSON, "description": description},
            "itemSchema": {
                "anyOf": [
                    {"$ref": COMPONENTS + "RecordHeader"},
                    {"$ref": COMPONENTS + "RecordEnvelope"},
                ],
                "description": "line 1: RecordHeader; each line after it: RecordEnvelope",
            },
        }
    }


RECORD = (
    "A match record as JSON Lines (UTF-8, one JSON object a line): a header "
    "(format adjudicator-match/1, match id, game, rules version, status, event_count, "
    "chain_head), then every envelope in seq order."
)


def install(app: FastAPI) -> None:
    """Build the document once, on first request, then correct it (see the module's doc)."""
    build: Callable[[], dict[str, Any]] = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = corrected(build())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def corrected(spec: dict[str, Any]) -> dict[str, Any]:
    for operations in spec["paths"].values():
        for operation in operations.values():
            answers = operation.get("responses", {})
            framework = answers.get("422", {}).get("content", {}).get("application/json", {})
            if framework.get("schema") == FRAMEWORK_422:
                del answers["422"]
    schemas = spec.setdefault("components", {}).setdefault("schemas", {})
    if FRAMEWORK_422["$ref"] not in str(spec["paths"]):
        schemas.pop("HTTPValidationError", None)
        schemas.pop("ValidationError", None)
    schemas.update(_record_schemas())
    return spec


def _record_schemas() -> dict[str, Any]:
    _, found = models_json_schema(
        [(RecordHeader, "validation"), (RecordEnvelope, "validation")],
        ref_template=COMPONENTS + "{model}",
    )
    defs: dict[str, Any] = found["$defs"]
    for schema in defs.values():
        for name, field in schema.get("properties", {}).items():
            if name.endswith("_at") and not {"type", "anyOf", "$ref"} & set(field):
                field.update(type="string", format="date-time")  # a checked RFC 3339 time
    return defs
