"""The games the service referees, with their config and command schemas."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from api.http import schemas
from api.http.deps import Service
from api.http.schemas import errors
from api.http.strictjson import StrictJsonRoute

router = APIRouter(route_class=StrictJsonRoute, tags=["games"])


@router.get("/games", response_model=list[schemas.Game], responses=errors())
def list_games(service: Service) -> list[dict[str, Any]]:
    return [
        {
            "name": name,
            "rules_version": game.rules_version,
            "config_schema": game.config_model.model_json_schema(),
            "commands": {k: m.model_json_schema() for k, m in game.command_models.items()},
        }
        for name, game in sorted(service.games.items())
    ]
