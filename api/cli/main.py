"""Command line of the match adjudicator: ./dev COMMAND (./dev help lists the commands).

Commands work on the embedded SQLite file by default (./data/adjudicator.sqlite3); set
DATABASE_URL (e.g. postgresql+psycopg://user@host/db) or --database-url for PostgreSQL.
Output that tools read is JSON; a failure is one "error: ..." line and exit status 2.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from api.service.settings import Settings
from events.engine import normalise_url as make_url  # a multi-host URL too


def ensure_sqlite_directory(url: str) -> None:
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(str(parsed.database)).parent.mkdir(parents=True, exist_ok=True)


# open live streams never end by themselves: a stop waits this long for them, then closes them
UVICORN: dict[str, Any] = {
    "log_level": "warning",
    "access_log": False,
    "timeout_graceful_shutdown": 5,
}


def serve(args: argparse.Namespace) -> int:
    """Run the service: in this process, or as ``--workers N`` uvicorn worker processes (each
    a replica building its app from the environment, where the CLI's overrides are passed)."""
    import uvicorn

    overrides = {"database_url": args.database_url} if args.database_url else {}
    settings = Settings(**overrides)
    ensure_sqlite_directory(settings.database_url)
    host, port = args.host or settings.host, args.port or settings.port
    store = _safe_url(settings.database_url)
    proxies = settings.forwarded_allow_ips
    print(f"Serving on http://{host}:{port} (OpenAPI at /docs), store: {store}")
    print(f"Web console: http://{host}:{port}/", flush=True)
    if args.workers <= 1:
        from api.http.app import create_app, served

        app = served(create_app(settings))
        uvicorn.run(app, host=host, port=port, **UVICORN, forwarded_allow_ips=proxies)
        return 0
    prepare_store(settings)
    os.environ.update(worker_environment(settings))
    uvicorn.run(
        "api.http.app:create_app_from_env",
        factory=True,
        workers=args.workers,
        host=host,
        port=port,
        forwarded_allow_ips=proxies,
        **UVICORN,
    )
    return 0


def prepare_store(settings: Settings) -> None:
    """Once, before the workers start: upgrade the schema (as its owner) and register (or
    create and print) the operator token, so the workers neither race on migrations nor each
    create a token."""
    from api.service.signing_keys import ensure_signing_key
    from api.service.tokens import ensure_operator_token
    from events import EventStore
    from events.migrate import upgrade

    if settings.upgrade_on_start:
        upgrade(settings.migration_url, service_role=settings.service_role)
    store = EventStore.from_url(settings.database_url)
    try:
        ensure_operator_token(store, settings.operator_token)
        ensure_signing_key(store, settings.signing_key)
    finally:
        store.dispose()


def worker_environment(settings: Settings) -> dict[str, str]:
    """The environment the workers read their ``Settings()`` from: the CLI's database URL and
    no second upgrade (done once by :func:`prepare_store`)."""
    return {"DATABASE_URL": settings.database_url, "ADJUDICATOR_UPGRADE_ON_START": "false"}


def db_upgrade(args: argparse.Namespace) -> int:
    settings = _migrated(args)
    print(f"Database at {_safe_url(settings.migration_url)} is up to date.")
    return 0


def db_backup(args: argparse.Namespace) -> int:
    """``db backup FILE``: a consistent copy of the store, taken while the service runs."""
    from events.backup import BackupError, backup

    settings = _settings_of(args)
    try:
        point = backup(settings.database_url, Path(args.file))
    except BackupError as error:
        raise CliError(f"backup of {_safe_url(settings.database_url)}: {error}") from error
    print(f"Backed up {point.matches} match(es), every event up to position {point.position},"
          f" into {args.file}.")  # fmt: skip
    return 0


def db_restore(args: argparse.Namespace) -> int:
    """``db restore FILE``: the backup into an empty database, then ``db upgrade`` (a backup of
    an older schema is brought up to date; the service role is granted again)."""
    from events.backup import BackupError, restore

    settings = _settings_of(args)
    try:
        point = restore(Path(args.file), settings.migration_url)
    except BackupError as error:
        raise CliError(f"restore into {_safe_url(settings.migration_url)}: {error}") from error
    _migrated(args)
    print(f"Restored {point.matches} match(es), every event up to position {point.position}.")
    return 0


def _settings_of(args: argparse.Namespace) -> Settings:
    url = args.database_url
    return Settings(**({"database_url": url, "migration_database_url": url} if url else {}))


def _migrated(args: argparse.Namespace) -> Settings:
    """Settings (``--database-url`` overriding both URLs), after bringing the schema up to date
    as its owner (the migration URL) and granting the service role when one is set;
    ``CliError`` naming the database when it cannot be reached or is not a database URL."""
    from sqlalchemy.exc import SQLAlchemyError

    from events.migrate import upgrade

    settings = _settings_of(args)
    try:
        ensure_sqlite_directory(settings.migration_url)
        upgrade(settings.migration_url, service_role=settings.service_role)
    except (SQLAlchemyError, OSError) as error:
        where = _safe_url(settings.migration_url)
        raise CliError(f"database {where}: {one_line(error)}") from error
    return settings


def demo(args: argparse.Namespace) -> int:
    from api.cli.demo_run import DemoOptions, run_demo

    if args.database_url:
        _store_url(args)  # an unreachable database is named here, before any server starts
    options = DemoOptions(
        args.game,
        args.rounds,
        args.seed,
        args.database_url,
        keep=args.keep,
        port=args.port,
        tournament=args.tournament,
    )
    return run_demo(options)


def check_demo(args: argparse.Namespace) -> str | None:
    """What is wrong with the demo's options that argparse alone cannot see (None: nothing)."""
    from api.cli.demo_run import rounds_problem

    if args.tournament and (args.game != "zoom" or args.rounds is not None):
        return "--tournament plays the README's Zoom round robin: leave out --game and --rounds"
    return rounds_problem(args.game, args.rounds)


def _store_url(args: argparse.Namespace) -> str:
    """The store the command works on, its schema brought up to date (a first use included)."""
    return _migrated(args).database_url


def _safe_url(url: str) -> str:
    """``url`` without its password (and as given when it is not a URL at all)."""
    from sqlalchemy.exc import ArgumentError

    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return repr(url)


def export(args: argparse.Namespace) -> int:
    from api.cli.audit import export_command

    return export_command(_store_url(args), args.match_id, args.output)


def ludii_export(args: argparse.Namespace) -> int:
    from api.cli.audit import ludii_export_command

    return ludii_export_command(_store_url(args), args.match_id, args.output)


def verify(args: argparse.Namespace) -> int:
    from api.cli.audit import verify_command
    from api.cli.log import trust_from_args
    from api.cli.tournament import is_bundle_file, verify_bundles

    try:
        trust = trust_from_args(args.key, args.checkpoint, args.log)
    except (OSError, ValueError) as error:
        raise CliError(str(error)) from None
    bundles = [is_bundle_file(file) for file in args.files]
    if all(bundles):
        return verify_bundles(args.files, as_json=args.json, jobs=args.jobs, trust=trust)
    if any(bundles):
        raise CliError("give match records or tournament bundles, not both at once")
    return verify_command(args.files, as_json=args.json, jobs=args.jobs, trust=trust)


def import_(args: argparse.Namespace) -> int:
    from api.cli.audit import import_command

    return import_command(_store_url(args), args.file)


def transcript(args: argparse.Namespace) -> int:
    from api.cli.transcript import transcript_command

    return transcript_command(_store_url(args), args)


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
    check = sub.add_parser("verify", help="verify exported records offline (exit 1 on failure)")
    check.add_argument(
        "files", nargs="+", metavar="FILE", help="record files (JSON Lines) or tournament bundles"
    )
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.add_argument(
        "--jobs", type=at_least(1), help="records verified at once (default: one per core)"
    )
    check.add_argument(
        "--key",
        help="the transparency log's public key(s): a vkey, or a file of vkeys or of"
        " /.well-known/adjudicator-keys JSON; adds the log's checks (leaf, signature, key"
        " validity, inclusion); of a tournament bundle, each match record's (a match not"
        " closed carries no proof and fails them)",
    )
    check.add_argument("--checkpoint", help="a signed checkpoint file the verifier trusts")
    check.add_argument("--log", help="the service's URL, to fetch a consistency proof")
    check.set_defaults(func=verify)
    load = sub.add_parser("import", help="verify a record and store it as the same match")
    load.add_argument("file")
    load.add_argument("--database-url", help="overrides DATABASE_URL")
    load.set_defaults(func=import_)


def at_least(least: int, most: int | None = None) -> Callable[[str], int]:
    """An argparse type: an integer from ``least`` to ``most`` (inclusive)."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from None
        if value < least or (most is not None and value > most):
            bound = f"at least {least}" if most is None else f"from {least} to {most}"
            raise argparse.ArgumentTypeError(f"must be {bound}, not {value}")
        return value

    return parse


def _serve_parser(sub: Any) -> None:
    run = sub.add_parser("serve", help="run the HTTP service")
    run.add_argument("--host")
    run.add_argument("--port", type=at_least(1, 65535))
    run.add_argument("--database-url", help="overrides DATABASE_URL")
    run.add_argument(
        "--workers",
        type=at_least(1),
        default=1,
        help="uvicorn worker processes, each a replica (default 1: in this process)",
    )
    run.set_defaults(func=serve)


def _db_parsers(sub: Any) -> None:
    db = sub.add_parser("db", help="database tasks: db upgrade, backup, restore")
    db_sub = db.add_subparsers(dest="db_command", required=True, metavar="TASK")
    up = db_sub.add_parser("upgrade", help="apply the schema migrations")
    up.add_argument("--database-url", help="overrides DATABASE_URL")
    up.set_defaults(func=db_upgrade)
    back = db_sub.add_parser(
        "backup", help="a consistent copy of the store into FILE, taken while the service runs"
    )
    back.add_argument("file", metavar="FILE", help="a new file")
    back.add_argument("--database-url", help="the store to back up (overrides DATABASE_URL)")
    back.set_defaults(func=db_backup)
    rest = db_sub.add_parser("restore", help="restore a backup FILE into an empty database")
    rest.add_argument("file", metavar="FILE", help="a file db backup wrote")
    rest.add_argument("--database-url", help="the empty database (overrides DATABASE_URL)")
    rest.set_defaults(func=db_restore)


def _demo_parser(sub: Any) -> None:
    from api.cli.demo_run import DEFAULT_ROUNDS, GAMES, max_rounds

    show = sub.add_parser(
        "demo", help="play a whole match (or, --tournament, a tournament) through the real HTTP API"
    )
    show.add_argument("--game", choices=GAMES, default="zoom")
    limits = ", ".join(f"{g} 1-{max_rounds(g)} (default {n})" for g, n in DEFAULT_ROUNDS.items())
    show.add_argument("--rounds", type=at_least(1), help=f"{limits}; zombego has no rounds")
    show.add_argument("--seed", type=at_least(0, 2**63 - 1), default=2026, help="default 2026")
    show.add_argument("--database-url", help="default: a temporary SQLite file")
    show.add_argument(
        "--keep",
        action="store_true",
        help="keep the database and serve on until Ctrl-C, printing the match, tokens and URLs",
    )
    show.add_argument("--port", type=at_least(1, 65535), help="default: a free port")
    show.add_argument(
        "--tournament",
        action="store_true",
        help="the README's tournament walkthrough instead: an 8-player Zoom round robin and a"
        " retroactive void that changes its champion",
    )
    show.set_defaults(func=demo, check=check_demo, parser=show)


def operator_token(args: argparse.Namespace) -> int:
    """``operator-token rotate``: a new operator token (printed once, as JSON), every earlier
    one revoked; ``revoke``: none left (the next ``serve`` creates and prints a new one)."""
    from api.service.tokens import new_token, token_hash
    from events import EventStore

    store = EventStore.from_url(_store_url(args))
    try:
        token = new_token("op") if args.action == "rotate" else None
        revoked = store.replace_operator_tokens(None if token is None else token_hash(token))
    finally:
        store.dispose()
    print(json.dumps({"operator_token": token, "revoked": revoked}))
    return 0


def _operator_parser(sub: Any) -> None:
    tokens = sub.add_parser("operator-token", help="rotate or revoke the operator token")
    tokens.add_argument("action", choices=["rotate", "revoke"])
    tokens.add_argument("--database-url", help="overrides DATABASE_URL")
    tokens.set_defaults(func=operator_token)


def keys(args: argparse.Namespace) -> int:
    from api.cli.log import keys_rotate, keys_show
    from api.service.settings import Settings

    if args.action == "show":
        return keys_show(_store_url(args), args.json)
    return keys_rotate(_store_url(args), Settings().signing_key, args.output)


def log_command(args: argparse.Namespace) -> int:
    from api.cli.log import cosign, watch

    if args.action == "watch":
        if args.state is None:
            raise CliError("log watch needs --state FILE")
        return watch(args.url, args.state, args.key)
    if args.witness_key is None:
        raise CliError("log cosign needs --witness-key FILE")
    return cosign(args.url, args.witness_key, args.operator_token)


def _log_parsers(sub: Any) -> None:
    shown = sub.add_parser("keys", help="show or rotate the transparency log's signing keys")
    shown.add_argument("action", choices=["show", "rotate"])
    shown.add_argument("--database-url", help="overrides DATABASE_URL")
    shown.add_argument("--json", action="store_true", help="show: as /.well-known JSON")
    shown.add_argument("-o", "--output", help="rotate: where the new signer key is written")
    shown.set_defaults(func=keys)
    log = sub.add_parser("log", help="watch or cosign a service's transparency log")
    log.add_argument("action", choices=["watch", "cosign"])
    log.add_argument("url", help="the service's base URL")
    log.add_argument("--state", help="watch: the file keeping the last checkpoint seen")
    log.add_argument("--key", help="watch: the log's key(s) (default: as first published)")
    log.add_argument("--witness-key", help="cosign: the witness's signer key file")
    log.add_argument("--operator-token", help="cosign: also record it at the service")
    log.set_defaults(func=log_command)


def _help_parser(sub: Any) -> None:
    listing = sub.add_parser("help", help="list every command, one line each")
    listing.add_argument(
        "--also",
        nargs=2,
        action="append",
        default=[],
        metavar=("NAME", "TEXT"),
        help="a row listed first, in the same columns (./dev's own tasks)",
    )
    listing.set_defaults(func=list_commands)


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(
        prog="adjudicator", description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    _serve_parser(sub)
    _db_parsers(sub)
    _demo_parser(sub)
    _audit_parsers(sub)
    _operator_parser(sub)
    _log_parsers(sub)
    _help_parser(sub)
    from api.cli.transcript import add_parser

    add_parser(sub, transcript)
    from api.cli.tournament import add_parser as add_tournament_parser

    add_tournament_parser(sub)
    return top


def _subcommands(command: argparse.ArgumentParser) -> list[tuple[str, str, Any]]:
    """A parser's subcommands: name, one-line help and parser (argparse keeps them privately)."""
    found = []
    for action in command._actions:
        if isinstance(action, argparse._SubParsersAction):
            for choice in action._choices_actions:
                found.append((choice.dest, choice.help or "", action.choices[choice.dest]))
    return found


def commands(top: argparse.ArgumentParser) -> list[tuple[str, str]]:
    """Every command (``db upgrade`` spelled out) and its one-line help, in parser order."""
    listed: list[tuple[str, str]] = []
    for name, text, command in _subcommands(top):
        tasks = _subcommands(command)
        listed += [(f"{name} {task}", line) for task, line, _ in tasks] or [(name, text)]
    return listed


def list_commands(args: argparse.Namespace) -> int:
    """``help``: one line per command, then where each command's options are described."""
    rows = [(name, text) for name, text in args.also] + commands(parser())
    width = max(len(name) for name, _ in rows)
    for name, text in rows:
        print(f"  {name:<{width}}  {text}")
    print("Options of a command: ./dev COMMAND --help")
    return 0


SIGPIPE_STATUS = 141
"""The exit status of a command whose reader stopped early (``verify --json | head``), as a shell
tool stopped by SIGPIPE has."""


def _reader_gone() -> int:
    """Standard output's reader went away: stop quietly (nothing is left to say to it, and
    Python's own flush at exit must not complain either)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return SIGPIPE_STATUS


class CliError(Exception):
    """A command could not run; ``main`` prints its message as one ``error:`` line (exit 2)."""


def one_line(error: BaseException) -> str:
    """The first line of what went wrong (a database driver's own message when there is one)."""
    cause = getattr(error, "orig", None) or error
    text = str(cause).strip().splitlines()
    return text[0] if text else type(error).__name__


def main(argv: Sequence[str] | None = None) -> int:
    """Run a command. Exit 0 on success, 1 when a command's answer is no (a record that does
    not verify, an unknown match, a refused import), 2 on usage errors and on failures, which
    print one ``error:`` line on standard error (no traceback)."""
    top = parser()
    args = top.parse_args(argv)
    problem = args.check(args) if "check" in args else None
    if problem:
        args.parser.error(problem)
    try:
        code: int = args.func(args)
        sys.stdout.flush()  # here, where a reader that stopped early can be told from a failure
    except BrokenPipeError:
        return _reader_gone()
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 2
    except Exception as error:  # a CLI answers every failure with one line, never a traceback
        print(f"error: {one_line(error)}", file=sys.stderr)
        return 2
    return code


if __name__ == "__main__":
    sys.exit(main())
