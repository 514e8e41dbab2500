"""Liveness and readiness."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy import text

from api.http import schemas
from api.http.deps import Service
from api.http.schemas import errors
from api.http.strictjson import StrictJsonRoute

router = APIRouter(route_class=StrictJsonRoute, tags=["health"])


@router.get("/health", response_model=schemas.Health, responses=errors())
def health() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/ready", response_model=schemas.Ready, responses=errors(503))
def ready(service: Service) -> dict[str, Any] | JSONResponse:
    try:
        with service.store.engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except Exception as error:
        return JSONResponse({"code": "not_ready", "message": str(error)}, status_code=503)
    if service.warming():
        message = "resuming the live folds of the long open matches after the start"
        return JSONResponse({"code": "warming_up", "message": message}, status_code=503)
    return {"status": "ready"}
