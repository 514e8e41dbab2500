"""``adjudicator demo``: start a local server, play one game's demo match (or, with
``tournament``, the README's tournament walkthrough: ``api.cli.demo_tournament``) through its
HTTP API, print what happened; with ``keep``, leave the server and its database for inspection.

The database is a SQLite file in a temporary directory unless a URL is given; ``keep`` keeps
that directory (its path is printed) and serves on until interrupted (Ctrl-C).
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import httpx
from pydantic import BaseModel

from api.cli.demo import running_server
from api.service.tokens import new_token

GAMES = ("zoom", "no_not_that", "zombego")
DEFAULT_ROUNDS = {"zoom": 11, "no_not_that": 16}


@dataclass(frozen=True, slots=True)
class DemoOptions:
    game: str = "zoom"
    rounds: int | None = None
    seed: int = 2026
    database_url: str | None = None
    keep: bool = False
    port: int | None = None
    tournament: bool = False


@dataclass(frozen=True, slots=True)
class Played:
    """A demo match once played: its id, its role tokens and the text that tells it."""

    match_id: str
    tokens: dict[str, Any]
    text: str


def config_model(game: str) -> type[BaseModel]:
    from adjudicator.games.no_not_that import NoNotThatConfig
    from adjudicator.games.zombego.commands import ZombegoConfig
    from adjudicator.games.zoom.commands import ZoomConfig

    models: dict[str, type[BaseModel]] = {
        "zoom": ZoomConfig,
        "no_not_that": NoNotThatConfig,
        "zombego": ZombegoConfig,
    }
    return models[game]


def max_rounds(game: str) -> int | None:
    """The most rounds the game's config allows, None for a game without rounds."""
    field = config_model(game).model_json_schema()["properties"].get("rounds")
    if field is None:
        return None
    return int(field.get("maximum", field.get("maxItems", 0)))


def rounds_problem(game: str, rounds: int | None) -> str | None:
    """Why ``rounds`` cannot be played in ``game`` (None when it can, or is not given)."""
    if rounds is None:
        return None
    most = max_rounds(game)
    if most is None:
        return f"{game} has no rounds: leave out --rounds"
    if not 1 <= rounds <= most:
        return f"{game} plays 1 to {most} rounds, not {rounds}"
    return None


def _zoom(client: httpx.Client, operator: str, o: DemoOptions) -> Played:
    from api.cli.demo import ZoomScript, result_table

    rounds = o.rounds or DEFAULT_ROUNDS["zoom"]
    script = ZoomScript(client, operator, o.seed, rounds)
    table = result_table(script.play())
    return Played(
        script.match_id, script.tokens, f"Zoom demo: {rounds} round(s), seed {o.seed}\n{table}"
    )


def _nnt(client: httpx.Client, operator: str, o: DemoOptions) -> Played:
    from api.cli.demo_nnt import NntScript, result_table

    rounds = o.rounds or DEFAULT_ROUNDS["no_not_that"]
    script = NntScript(client, operator, rounds, seed=o.seed)
    table = result_table(script.play())
    text = f"No, Not That! demo: {rounds} round(s), seed {o.seed}\n{table}"
    return Played(script.match_id, script.tokens, text)


def _zombego(client: httpx.Client, operator: str, o: DemoOptions) -> Played:
    from api.cli.demo_zombego import ZombegoScript, moves_text, result_line

    script = ZombegoScript(client, operator, o.seed)
    state = script.play()
    header = f"Zombego demo: 6x6, All Zombies, seed {o.seed} (a seeded random player)"
    text = f"{header}\n{moves_text(script.played)}\n{result_line(state)}"
    return Played(script.match_id, script.tokens, text)


PLAYERS: dict[str, Callable[[httpx.Client, str, DemoOptions], Played]] = {
    "zoom": _zoom,
    "no_not_that": _nnt,
    "zombego": _zombego,
}


def inspection(base: str, url: str, operator: str, played: Played) -> str:
    """What to read the kept match with: its id, every token, the web console's page of the
    match for each role, the API's URLs and the database."""
    match = f"{base}/matches/{played.match_id}"
    tokens = played.tokens
    lines = [
        f"match:    {played.match_id}",
        f"operator: {operator}",
        f"host:     {tokens['host']}",
        f"auditor:  {tokens['auditor']}",
        *(f"seat {name}: {token}" for name, token in tokens["seats"].items()),
        *console_links(base, played),
        f"state:    {match}/state   (with -H 'Authorization: Bearer <host token>' to see all)",
        f"events:   {match}/events",
        f"timeline: {match}/timeline",
        f"verify:   {match}/verify",
        f"OpenAPI:  {base}/docs",
        f"database: {url}",
        "Serving until Ctrl-C.",
    ]
    return "\n".join(lines)


def console_links(base: str, played: Played) -> list[str]:
    """The web console's page of the match for each role, as the console's own role links
    are: the role and its token in the URL fragment, which browsers never send."""
    page = f"{base}/console/matches/{played.match_id}#"
    tokens = played.tokens
    roles = [
        ("host", {"role": "host", "token": tokens["host"]}),
        *((f"seat {name}", {"role": f"seat:{name}", "token": token})
          for name, token in tokens["seats"].items()),
        ("auditor", {"role": "auditor", "token": tokens["auditor"]}),
        ("spectator", {"role": "spectator"}),
    ]  # fmt: skip
    return [f"console, {name}: {page}{urlencode(fragment)}" for name, fragment in roles]


def serve_forever() -> None:
    """Block until Ctrl-C."""
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        print("stopped")


def _tournament(base: str, url: str, operator: str) -> tuple[str, str]:
    """The tournament walkthrough's text, and what to inspect it with."""
    from api.cli import demo_tournament

    with httpx.Client(base_url=base, timeout=30) as client:
        walked = demo_tournament.TournamentScript(client, operator).walk()
    text = f"tournament {walked.tournament_id} at {base}\n{walked.text}"
    return text, demo_tournament.inspection(base, url, operator, walked)


def run_demo(options: DemoOptions, wait: Callable[[], None] = serve_forever) -> int:
    """Play the demo of ``options.game``; with ``keep``, print how to inspect it and ``wait``."""
    logging.getLogger("uvicorn").setLevel(logging.WARNING)
    tmp = Path(tempfile.mkdtemp(prefix="adjudicator-demo-"))
    url = options.database_url or f"sqlite:///{tmp / 'demo.sqlite3'}"
    operator = new_token("op")
    try:
        with running_server(url, operator, options.port) as base:
            if options.tournament:
                text, inspect = _tournament(base, url, operator)
            else:
                with httpx.Client(base_url=base, timeout=30) as client:
                    played = PLAYERS[options.game](client, operator, options)
                text = f"match {played.match_id} at {base}\n{played.text}"
                inspect = inspection(base, url, operator, played)
            print(text)
            if options.keep:
                print(inspect, flush=True)
                wait()
    finally:
        if not options.keep or options.database_url:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0
