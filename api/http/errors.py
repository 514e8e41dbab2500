"""The one table from errors to HTTP answers. Every error body is ``{code, message}`` (plus
``details`` for validation errors); codes are stable and documented here."""

from __future__ import annotations

from typing import Any

import structlog
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import ValidationError
from sqlalchemy.exc import DBAPIError, InterfaceError, InternalError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeout
from starlette.exceptions import HTTPException as StarletteHTTPException

from adjudicator.kernel.errors import DomainError, InvalidCommand, NotPermitted, RuleViolation
from api.http import error_codes
from api.http.strictjson import BodyRefused
from api.service.errors import RecordInvalid, first_problem, validation_details
from events import (
    DuplicateToken,
    IdempotencyKeyReused,
    InvalidEvent,
    MatchClosed,
    MatchExists,
    StoreError,
    UnknownMatch,
    VersionConflict,
)

log = structlog.get_logger("api")


class ApiError(Exception):
    """An error raised by the HTTP layer itself (authentication, size, parameters)."""

    def __init__(
        self, status: int, code: str, message: str, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message
        self.headers = headers


STATUS: dict[type[Exception], int] = {
    InvalidCommand: 422,
    RuleViolation: 409,
    NotPermitted: 403,
    UnknownMatch: 404,
    VersionConflict: 409,
    MatchClosed: 409,
    MatchExists: 409,
    DuplicateToken: 409,
    IdempotencyKeyReused: 422,
    InvalidEvent: 422,
}


def status_of(error: Exception) -> int:
    """The status of an error: its code's, from the one table (``api.http.error_codes``)."""
    fallback = 500
    for kind in type(error).__mro__:
        if kind in STATUS:
            fallback = STATUS[kind]
            break
    return error_codes.status(getattr(error, "code", ""), fallback)


def body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    data: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        data["details"] = details
    return data


def install(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def _api(_: Request, error: ApiError) -> JSONResponse:
        status = error_codes.status(error.code, error.status)
        return JSONResponse(
            body(error.code, error.message), status_code=status, headers=error.headers
        )

    @app.exception_handler(DomainError)
    async def _domain(_: Request, error: DomainError) -> JSONResponse:
        content = body(error.code, error.message, getattr(error, "details", None))
        return JSONResponse(content, status_code=status_of(error))

    @app.exception_handler(StoreError)
    async def _store(_: Request, error: StoreError) -> JSONResponse:
        return JSONResponse(body(error.code, error.message), status_code=status_of(error))

    @app.exception_handler(RecordInvalid)
    async def _record(_: Request, error: RecordInvalid) -> JSONResponse:
        content = body(error.code, str(error), error.report)
        return JSONResponse(content, status_code=422)

    @app.exception_handler(ValidationError)
    async def _model(_: Request, error: ValidationError) -> JSONResponse:
        return _invalid_request(error)

    @app.exception_handler(RequestValidationError)
    async def _request(request: Request, error: RequestValidationError) -> JSONResponse:
        sent = _not_json(request, validation_details(error))
        if sent is not None:
            message = f"send the body as JSON (Content-Type: application/json), not {sent}"
            return JSONResponse(body("json_required", message), status_code=422)
        return _invalid_request(error)

    @app.exception_handler(BodyRefused)
    async def _refused(_: Request, error: BodyRefused) -> JSONResponse:
        content = body("invalid_request", first_problem(error.details), error.details)
        return JSONResponse(content, status_code=422)

    @app.exception_handler(OperationalError)
    @app.exception_handler(InterfaceError)
    @app.exception_handler(PoolTimeout)
    async def _unreachable(_: Request, error: DBAPIError | PoolTimeout) -> JSONResponse:
        """The database went away or refused the connection, or no connection came from the
        pool in time (all of them waiting on a server that is failing over): 503, worth a
        retry."""
        return _store_unavailable(error)

    @app.exception_handler(InternalError)
    async def _internal_database(request: Request, error: InternalError) -> JSONResponse:
        """A write on a server that has just turned standby (read-only): the primary moved,
        so 503 as above; any other internal database error is the service's fault."""
        if getattr(error.orig, "sqlstate", None) == READ_ONLY_TRANSACTION:
            return _store_unavailable(error)
        return await _internal(request, error)

    @app.exception_handler(Exception)
    async def _internal(_: Request, error: Exception) -> JSONResponse:
        """Anything unforeseen: JSON like every other error, with the request id to quote (the
        request middleware has logged it once, with its traceback)."""
        request_id = structlog.contextvars.get_contextvars().get("request_id")
        content = body("internal_error", "the service failed to answer; quote the request id")
        content["request_id"] = request_id
        headers = {"x-request-id": request_id} if request_id else None
        return JSONResponse(content, status_code=500, headers=headers)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, error: StarletteHTTPException) -> JSONResponse:
        code = {404: "not_found", 405: "method_not_allowed"}.get(error.status_code, "http_error")
        return JSONResponse(body(code, str(error.detail)), status_code=error.status_code)


def _not_json(request: Request, details: list[dict[str, Any]]) -> str | None:
    """The media type of a body that a JSON route refused whole because it was not sent as JSON
    (a form, text): what the answer names instead of "Input should be a valid dictionary"."""
    sent = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    whole_body = any(d["loc"] == ["body"] for d in details)
    is_json = sent == "application/json" or sent.endswith("+json")
    return sent if sent and whole_body and not is_json else None


READ_ONLY_TRANSACTION = "25006"


def _store_unavailable(error: DBAPIError | PoolTimeout) -> JSONResponse:
    orig = error.orig if isinstance(error, DBAPIError) else None
    log.warning("store_unavailable", error=str(orig or error).partition("\n")[0])
    message = "the database did not answer; retry shortly"
    headers = {"Retry-After": "1"}
    return JSONResponse(body("store_unavailable", message), status_code=503, headers=headers)


def _invalid_request(error: ValidationError | RequestValidationError) -> JSONResponse:
    details = validation_details(error)
    return JSONResponse(body("invalid_request", first_problem(details), details), status_code=422)
