"""Command line: ``serve``, ``db upgrade``, ``demo``, ``export``, ``ludii-export``, ``verify``,
``import``.

``serve`` runs on the embedded SQLite file by default (``./data/adjudicator.sqlite3``);
set ``DATABASE_URL`` (e.g. ``postgresql+psycopg://user@host/db``) for PostgreSQL.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy.engine import make_url

from api.settings import Settings


def ensure_sqlite_directory(url: str) -> None:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(str(parsed.database)).parent.mkdir(parents=True, exist_ok=True)


def serve(args: argparse.Namespace) -> int:
    import uvicorn

    from api.app import create_app

    overrides = {"database_url": args.database_url} if args.database_url else {}
    settings = Settings(**overrides)
    ensure_sqlite_directory(settings.database_url)
    app = create_app(settings)
    host, port = args.host or settings.host, args.port or settings.port
    print(f"Serving on http://{host}:{port} (OpenAPI at /docs), store: {_safe(settings)}")
    print(f"Web console: http://{host}:{port}/", flush=True)
    uvicorn.run(app, host=host, port=port, log_level="warning", access_log=False)
    return 0


def _safe(settings: Settings) -> str:
    return make_url(settings.database_url).render_as_string(hide_password=True)


def db_upgrade(args: argparse.Namespace) -> int:
    from events.migrate import upgrade

    settings = Settings(**({"database_url": args.database_url} if args.database_url else {}))
    ensure_sqlite_directory(settings.database_url)
    upgrade(settings.database_url)
    print(f"Database at {_safe(settings)} is up to date.")
    return 0


def demo(args: argparse.Namespace) -> int:
    if args.game == "no_not_that":
        from api.demo_nnt import run_nnt_demo

        return run_nnt_demo(rounds=args.rounds or 16, database_url=args.database_url)
    from api.demo import run_demo

    return run_demo(rounds=args.rounds or 11, seed=args.seed, database_url=args.database_url)


def _store_url(args: argparse.Namespace) -> str:
    """The store the command works on, its schema brought up to date (a first use included)."""
    from events.migrate import upgrade

    settings = Settings(**({"database_url": args.database_url} if args.database_url else {}))
    ensure_sqlite_directory(settings.database_url)
    upgrade(settings.database_url)
    return settings.database_url


def export(args: argparse.Namespace) -> int:
    from api.audit_cli import export_command

    return export_command(_store_url(args), args.match_id, args.output)


def ludii_export(args: argparse.Namespace) -> int:
    from api.audit_cli import ludii_export_command

    return ludii_export_command(_store_url(args), args.match_id, args.output)


def verify(args: argparse.Namespace) -> int:
    from api.audit_cli import verify_command

    return verify_command(args.file)


def import_(args: argparse.Namespace) -> int:
    from api.audit_cli import import_command

    return import_command(_store_url(args), args.file)


def _audit_parsers(sub: Any) -> None:
    out = sub.add_parser("export", help="write a match's full record as JSON Lines")
    out.add_argument("match_id")
    out.add_argument("--database-url", help="overrides DATABASE_URL")
    out.add_argument("-o", "--output", help="file to write (default: standard output)")
    out.set_defaults(func=export)
    game = sub.add_parser("ludii-export", help="write a Zombego match as a Ludii game (JSON)")
    game.add_argument("match_id")
    game.add_argument("--database-url", help="overrides DATABASE_URL")
    game.add_argument("-o", "--output", help="file to write (default: standard output)")
    game.set_defaults(func=ludii_export)
    check = sub.add_parser("verify", help="verify an exported record offline (exit 1 on failure)")
    check.add_argument("file")
    check.set_defaults(func=verify)
    load = sub.add_parser("import", help="verify a record and store it as the same match")
    load.add_argument("file")
    load.add_argument("--database-url", help="overrides DATABASE_URL")
    load.set_defaults(func=import_)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="adjudicator", description=__doc__)
    sub = top.add_subparsers(dest="command", required=True)
    run = sub.add_parser("serve", help="run the HTTP service")
    run.add_argument("--host")
    run.add_argument("--port", type=int)
    run.add_argument("--database-url", help="overrides DATABASE_URL")
    run.set_defaults(func=serve)
    db = sub.add_parser("db", help="database tasks")
    db_sub = db.add_subparsers(dest="db_command", required=True)
    up = db_sub.add_parser("upgrade", help="apply the schema migrations")
    up.add_argument("--database-url", help="overrides DATABASE_URL")
    up.set_defaults(func=db_upgrade)
    show = sub.add_parser("demo", help="play a whole match through the real HTTP API")
    show.add_argument("--game", choices=["zoom", "no_not_that"], default="zoom")
    show.add_argument("--rounds", type=int, help="default: 11 (Zoom), 16 (No, Not That!)")
    show.add_argument("--seed", type=int, default=2026)
    show.add_argument("--database-url", help="default: a temporary SQLite file")
    show.set_defaults(func=demo)
    _audit_parsers(sub)
    return top


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    code: int = args.func(args)
    return code


if __name__ == "__main__":
    sys.exit(main())
