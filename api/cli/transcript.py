"""``adjudicator transcript preview|enter``: a chat export into a match, straight from a store.

Each FILE is read here, its bytes once, by the same reader as an upload to the HTTP routes
(``adjudicator.transcripts.discord.read_file``): DiscordChatExporter JSON when its first byte
that is not whitespace is ``{`` (decoded by typed structs, never loaded whole as Python
objects), anything else a plain-text transcript. ``--correct MESSAGE_ID=JSON_COMMAND`` gives
the host's reading of a post (the command it means, a ``POST /commands`` body); ``--reason``
says why: one ``--reason`` for every correction, or one per ``--correct`` in the same order.
Progress goes to standard error, the preview table (or ``--json``) to standard output. Exit
status: 0 done, 1 refused (the message names the post), 2 a file or an option that cannot be
read.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from adjudicator.kernel.errors import DomainError
from adjudicator.transcripts.discord import read_file
from adjudicator.transcripts.posts import TranscriptError
from adjudicator.transcripts.triage import Cast, Source
from api.cli.audit import all_games
from api.service import transcripts
from api.service.matches import MatchService
from api.service.transcript_posts import Correction
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
        one.add_argument(
            "--correct",
            action="append",
            default=[],
            metavar="MESSAGE_ID=JSON_COMMAND",
            help="the command a post means (a POST /commands body), e.g."
            """ 123='{"type": "start_round", "round": 1}'""",
        )
        one.add_argument(
            "--reason",
            action="append",
            default=[],
            metavar="TEXT",
            help="why (recorded with the command): once for every --correct, or once for each",
        )
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
    progress = Progress()
    try:
        answer = act(service, args.match, grant, handed, transcripts.Page(0, ALL), progress)
    except (DomainError, StoreError) as error:
        progress.end()
        return _refused(error)
    finally:
        progress.end()
        service.close()  # its background writes (checkpoints, heads) before the store goes
        store.dispose()
    print(json.dumps(answer, indent=2, ensure_ascii=False) if args.json else _table(answer))
    return 0


def _handed(args: argparse.Namespace) -> transcripts.Handed:
    seats = dict(_pair(text) for text in args.seat)
    files = [(f, False) for f in args.files] + [(f, True) for f in args.dm]
    corrections = _corrections(args.correct, args.reason)
    sources = [_source(Path(f), dm, args.channel) for f, dm in files]
    cast = Cast(seats, list(args.host))
    return transcripts.Handed(sources, cast, set(args.exclude), corrections)


def _corrections(given: list[str], reasons: list[str]) -> list[Correction]:
    """Each ``MESSAGE_ID=JSON_COMMAND`` with its reason (one for all, or one each)."""
    if not given and not reasons:
        return []
    if not given or len(reasons) not in (1, len(given)) or not all(r.strip() for r in reasons):
        raise ValueError(
            f"give one --reason for every --correct, or one each ({len(given)} --correct,"
            f" {len(reasons)} --reason)"
        )
    found = []
    for n, text in enumerate(given):
        message_id, sep, command = text.partition("=")
        if not sep or not message_id.strip():
            raise ValueError(f"--correct takes MESSAGE_ID=JSON_COMMAND, not {text!r}")
        try:
            body = json.loads(command)
        except json.JSONDecodeError as error:
            raise ValueError(f"--correct {message_id}: the command is not JSON: {error}") from None
        if not isinstance(body, dict) or not isinstance(body.get("type"), str):
            raise ValueError(f"--correct {message_id}: the command is a JSON object with a type")
        reason = reasons[0] if len(reasons) == 1 else reasons[n]
        found.append(Correction(message_id.strip(), body, reason.strip()))
    return found


def _pair(text: str) -> tuple[str, str]:
    author, sep, seat = text.partition("=")
    if not sep or not author or not seat:
        raise ValueError(f"--seat takes AUTHOR=SEAT, not {text!r}")
    return author, seat


def _source(path: Path, dm: bool, channel: str | None) -> Source:
    data = path.read_bytes()
    try:
        return Source(read_file(data, channel or path.stem), dm)
    except TranscriptError as error:
        if error.code in ("not_an_export", "not_a_transcript"):  # the file, not a post
            raise ValueError(f"{path}: {error.message}") from None
        raise


def _refused(error: DomainError | StoreError) -> int:
    where = getattr(error, "details", None)
    suffix = f" ({json.dumps(where)})" if where else ""
    print(f"error: {error.code}: {error.message}{suffix}", file=sys.stderr)
    return 1


class Progress:
    """How many posts are decided, on standard error: one line rewritten in place on a
    terminal, the final count alone elsewhere; :meth:`end` finishes a line left open (a run
    stopped half way), so what follows starts on a line of its own."""

    def __init__(self) -> None:
        self.open = False

    def __call__(self, done: int, total: int) -> None:
        last = done == total
        if not (last or sys.stderr.isatty()):
            return
        text = f"{done}/{total} {'post' if total == 1 else 'posts'}"
        print(f"\r{text}" if self.open else text, end="\n" if last else "", file=sys.stderr)
        self.open = not last

    def end(self) -> None:
        if self.open:
            print(file=sys.stderr)
            self.open = False


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
