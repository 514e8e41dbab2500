"""The web console: a shell page and a small set of ES modules and SVG, served by the app.

There is no build step and no template engine: ``/``, ``/console/matches/{id}`` and
``/console/tournaments/{id}`` return the same shell page, whose modules read and write only
through the public REST API and the live stream (``static/api.js`` is the one module that
calls them). Every asset is served from ``static/``, so the console works with the network
off.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC = Path(__file__).parent / "static"
SHELL_HEADERS = {"Cache-Control": "no-cache", "Referrer-Policy": "no-referrer"}


def _shell() -> FileResponse:
    return FileResponse(STATIC / "index.html", media_type="text/html", headers=SHELL_HEADERS)


def mount(app: FastAPI) -> None:
    """Serve the console: the shell at ``/`` and at each match's page, assets under ``/console``."""
    app.mount("/console/static", StaticFiles(directory=STATIC), name="console-static")

    @app.get("/", include_in_schema=False)
    def console_home() -> FileResponse:
        return _shell()

    @app.get("/console/matches/{match_id}", include_in_schema=False)
    def console_match(match_id: str) -> FileResponse:
        return _shell()

    @app.get("/console/tournaments/{tournament_id}", include_in_schema=False)
    def console_tournament(tournament_id: str) -> FileResponse:
        return _shell()
