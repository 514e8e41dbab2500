"""``adjudicator transcript preview|enter``: a chat export into a match, straight from a store.

Each FILE is read here (the readers themselves are pure): JSON is a DiscordChatExporter export,
anything else a plain-text transcript. Progress goes to standard error, the preview table (or
``--json``) to standard output. Exit status: 0 done, 1 refused (the message names the post), 2
a file that cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from adjudicator.kernel.errors import DomainError
from adjudicator.transcripts.triage import Cast, Source
from api.cli.audit import all_games
from api.service import transcripts
from api.service.matches import MatchService
from events import EventStore, StoreError, TokenGrant

COLUMNS = 48
ALL = 2**62  # the terminal lists every post


def add_parser(sub: Any, run: Any) -> None:
    """The ``transcript`` subcommand with ``preview`` and ``enter``; ``run`` is called with
    the parsed arguments and the store URL resolver."""
    top = sub.add_parser("transcript", help="referee a match from a chat export")
    actions = top.add_subparsers(dest="transcript_command", required=True)
    for name, what in (
        ("preview", "show what each post of a chat export becomes (records nothing)"),
        ("enter", "record a chat export's accepted posts as the match's commands"),
    ):
        one = actions.add_parser(name, help=what)
        one.add_argument("files", nargs="+", metavar="FILE", help="channel export(s)")
        one.add_argument("--match", required=True, help="the match id")
        one.add_argument("--seat", action="append", default=[], metavar="AUTHOR=SEAT")
        one.add_argument("--host", action="append", default=[], metavar="AUTHOR")
        one.add_argument(
            "--dm",
            action="append",
            default=[],
            metavar="FILE",
            help="a seat's direct messages with the host (sealed actions)",
        )
        one.add_argument("--exclude", action="append", default=[], metavar="MESSAGE_ID")
        one.add_argument("--channel", help="plain text: the channel's name (default: text)")
        one.add_argument("--json", action="store_true", help="print the answer as JSON")
        one.add_argument("--database-url", help="overrides DATABASE_URL")
        one.set_defaults(func=run, action=name)


def transcript_command(database_url: str, args: argparse.Namespace) -> int:
    try:
        handed = _handed(args)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except DomainError as error:
        return _refused(error)
    store = EventStore.from_url(database_url)
    service = MatchService(store, all_games(), lambda: datetime.now(UTC))
    grant = TokenGrant(args.match, "host", None)
    act = transcripts.enter if args.action == "enter" else transcripts.preview
    try:
        answer = act(service, args.match, grant, handed, transcripts.Page(0, ALL), _progress)
    except (DomainError, StoreError) as error:
        return _refused(error)
    finally:
        store.dispose()
    print(json.dumps(answer, indent=2, ensure_ascii=False) if args.json else _table(answer))
    return 0


def _handed(args: argparse.Namespace) -> transcripts.Handed:
    seats = dict(_pair(text) for text in args.seat)
    files = [(f, False) for f in args.files] + [(f, True) for f in args.dm]
    sources = [_source(Path(f), dm, args.channel) for f, dm in files]
    return transcripts.Handed(sources, Cast(seats, list(args.host)), set(args.exclude))


def _pair(text: str) -> tuple[str, str]:
    author, sep, seat = text.partition("=")
    if not sep or not author or not seat:
        raise ValueError(f"--seat takes AUTHOR=SEAT, not {text!r}")
    return author, seat


def _source(path: Path, dm: bool, channel: str | None) -> Source:
    text = path.read_text(encoding="utf-8")
    if text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as error:
            raise ValueError(f"{path} is not valid JSON: {error}") from None
        return transcripts.read_export("discord", data, dm=dm)
    return transcripts.read_export("text", text, channel or path.stem, dm)


def _refused(error: DomainError | StoreError) -> int:
    where = getattr(error, "details", None)
    suffix = f" ({json.dumps(where)})" if where else ""
    print(f"error: {error.code}: {error.message}{suffix}", file=sys.stderr)
    return 1


def _progress(done: int, total: int) -> None:
    print(f"\r{done}/{total} posts", end="\n" if done == total else "", file=sys.stderr)


def _table(answer: dict[str, Any]) -> str:
    lines = [f"{'time':24} {'author':14} {'status':15} post -> what it became"]
    for row in answer.get("posts", []):
        lines.append(_line(row))
    counts = ", ".join(f"{k}: {v}" for k, v in sorted(answer["counts"].items()))
    lines.append(f"posts: {counts}")
    for author in answer["ignored_authors"]:
        lines.append(
            f"ignored author: {author['author']} ({author['author_id']}) as {author['as']}"
        )
    if "entered" in answer:
        lines.append(
            f"entered: {answer['entered']} (seqs {answer['first_seq']}..{answer['last_seq']})"
        )
    return "\n".join(lines)


def _line(row: dict[str, Any]) -> str:
    content = " ".join(row["content"].split())[:COLUMNS]
    what = row["reason"] or ""
    if row["refusal"]:
        what = f"{row['refusal']['code']}: {row['refusal']['message']}"
    elif row["command"]:
        what = json.dumps(row["command"], ensure_ascii=False)
    if row["flag"] == "edited":
        what += f" [edited {row['edited_at']}]"
    elif row["flag"] == "near_miss":
        what = f"looks like a command: {what}"
    return f"{row['game_time']:24} {row['author'][:14]:14} {row['status']:15} {content} -> {what}"
