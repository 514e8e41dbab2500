"""``adjudicator tournament create|pair|forfeit|withdraw|conclude|seal|standings|verify|export``: a
tournament run against the service's HTTP API (``--url`` or ``ADJUDICATOR_URL``, default
http://127.0.0.1:8000), with the operator's token to create and the organizer's for the rest
(``--token`` or ``ADJUDICATOR_TOKEN``). Answers are printed as JSON (standings as a table
unless ``--json``). A bundle written by ``export`` is verified offline by ``adjudicator verify
BUNDLE`` (:func:`verify_bundles`: its records and pairings side by side on every core).

Exit status: 0 done, 1 the service refused (its ``code`` and message are printed) or a report
does not verify, 2 the service cannot be reached or a file cannot be read."""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx

if TYPE_CHECKING:
    from api.cli.log import LogTrust
    from api.service.tournament_audit import Job

DEFAULT_URL = "http://127.0.0.1:8000"
TIMEOUT = 60.0


class Refused(Exception):
    """The service answered with an error (4xx/5xx)."""


def add_parser(sub: Any) -> None:
    top = sub.add_parser("tournament", help="run a tournament through the HTTP API")
    actions = top.add_subparsers(dest="tournament_command", required=True, metavar="ACTION")
    create = _action(actions, "create", "create a tournament (operator token)")
    create.add_argument("--name", required=True)
    create.add_argument("--game", required=True)
    create.add_argument("--format", required=True, help="round_robin, swiss, …")
    create.add_argument("--rounds", type=int, help="Swiss: how many rounds")
    create.add_argument("--tiebreak", action="append", default=[], help="in order, repeatable")
    create.add_argument("--player", action="append", default=[], required=True, metavar="NAME")
    create.add_argument(
        "--chat-author",
        action="append",
        default=[],
        metavar="NAME=AUTHOR",
        help="a chat author id (or name) of player NAME, for the chat import (repeatable)",
    )
    create.add_argument("--config", default="{}", help="every match's config (JSON)")
    create.add_argument(
        "--round-config", action="append", default=[], metavar="N=JSON", help="round N's config"
    )
    pair = _action(actions, "pair", "pair the next round (organizer token)")
    pair.add_argument("tournament_id")
    forfeit = _action(actions, "forfeit", "decide a board without play (organizer token)")
    forfeit.add_argument("tournament_id")
    forfeit.add_argument("--round", type=int, required=True)
    forfeit.add_argument("--board", type=int, required=True)
    forfeit.add_argument("--winner", help="the winner's player id (none: both lose)")
    forfeit.add_argument("--reason", required=True)
    withdraw = _action(actions, "withdraw", "withdraw a player (organizer token)")
    withdraw.add_argument("tournament_id")
    withdraw.add_argument("player", help="the player id (p1, p2… in seed order)")
    withdraw.add_argument("--reason", required=True)
    conclude = _action(actions, "conclude", "end the event early, as it stands (organizer token)")
    conclude.add_argument("tournament_id")
    conclude.add_argument("--reason", required=True)
    seal = _action(actions, "seal", "close its matches, sign its log: final (organizer token)")
    seal.add_argument("tournament_id")
    seal.add_argument("--reason", required=True)
    table = _action(actions, "standings", "the standings (a table, or --json)")
    table.add_argument("tournament_id")
    table.add_argument("--at", help="game time (RFC 3339; default now)")
    table.add_argument("--known-at", help="record time (RFC 3339; default now)")
    table.add_argument("--json", action="store_true", help="print the answer as JSON")
    check = _action(actions, "verify", "the service's verify report (exit 1 unless ok)")
    check.add_argument("tournament_id")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    out = _action(actions, "export", "write the tournament's bundle (adjudicator verify reads it)")
    out.add_argument("tournament_id")
    out.add_argument("-o", "--output", help="file to write (default: standard output)")


def _action(actions: Any, name: str, what: str) -> argparse.ArgumentParser:
    one: argparse.ArgumentParser = actions.add_parser(name, help=what)
    one.add_argument("--url", help=f"the service (default ADJUDICATOR_URL or {DEFAULT_URL})")
    one.add_argument("--token", help="bearer token (default ADJUDICATOR_TOKEN)")
    one.set_defaults(func=tournament_command)
    return one


def tournament_command(args: argparse.Namespace, client: httpx.Client | None = None) -> int:
    """Run the action against ``client`` (default: one for ``--url``)."""
    url = args.url or os.environ.get("ADJUDICATOR_URL") or DEFAULT_URL
    token = args.token or os.environ.get("ADJUDICATOR_TOKEN")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    own = client is None
    http = client or httpx.Client(base_url=url, timeout=TIMEOUT)
    try:
        return ACTIONS[args.tournament_command](http, headers, args)
    except Refused as refused:
        print(f"error: {refused}", file=sys.stderr)
        return 1
    except httpx.HTTPError as error:
        print(f"error: the service at {url} did not answer: {error}", file=sys.stderr)
        return 2
    finally:
        if own:
            http.close()


def _answer(response: httpx.Response) -> Any:
    if response.status_code >= 400:
        try:
            body = response.json()
            raise Refused(f"{response.status_code} {body['code']}: {body['message']}")
        except (ValueError, KeyError, TypeError):
            raise Refused(f"{response.status_code}: {response.text[:200]}") from None
    return response.json()


def _print(data: Any) -> None:
    print(json.dumps(data, indent=1, ensure_ascii=False))


def _create(http: httpx.Client, headers: dict[str, str], args: argparse.Namespace) -> int:
    try:
        config = json.loads(args.config)
        rounds = {
            int(k): json.loads(v) for k, _, v in (r.partition("=") for r in args.round_config)
        }
    except ValueError as error:
        raise Refused(f"--config/--round-config: not JSON ({error})") from None
    body = {
        "name": args.name,
        "game": args.game,
        "format": args.format,
        "rounds": args.rounds,
        "tiebreaks": args.tiebreak,
        "players": _players(args.player, args.chat_author),
        "config": config,
        "round_configs": rounds,
    }
    _print(_answer(http.post("/tournaments", json=body, headers=headers)))
    return 0


def _players(names: list[str], chat_authors: list[str]) -> list[dict[str, Any]]:
    """Each ``--player`` with the ``--chat-author NAME=AUTHOR`` ids given for it."""
    authors: dict[str, list[str]] = {name: [] for name in names}
    for given in chat_authors:
        name, sep, author = given.partition("=")
        if not sep or not author or name not in authors:
            raise Refused(f"--chat-author takes NAME=AUTHOR, NAME a --player, not {given!r}")
        authors[name].append(author)
    return [{"name": name, "chat_authors": authors[name]} for name in names]


def _pair(http: httpx.Client, headers: dict[str, str], args: argparse.Namespace) -> int:
    url = f"/tournaments/{args.tournament_id}/rounds"
    _print(_answer(http.post(url, headers=headers)))
    return 0


def _forfeit(http: httpx.Client, headers: dict[str, str], args: argparse.Namespace) -> int:
    body = {"round": args.round, "board": args.board, "winner": args.winner, "reason": args.reason}
    url = f"/tournaments/{args.tournament_id}/forfeits"
    _print(_answer(http.post(url, json=body, headers=headers)))
    return 0


def _withdraw(http: httpx.Client, headers: dict[str, str], args: argparse.Namespace) -> int:
    body = {"player": args.player, "reason": args.reason}
    url = f"/tournaments/{args.tournament_id}/withdrawals"
    _print(_answer(http.post(url, json=body, headers=headers)))
    return 0


def _conclude(http: httpx.Client, headers: dict[str, str], args: argparse.Namespace) -> int:
    url = f"/tournaments/{args.tournament_id}/conclusion"
    _print(_answer(http.post(url, json={"reason": args.reason}, headers=headers)))
    return 0


def _seal(http: httpx.Client, headers: dict[str, str], args: argparse.Namespace) -> int:
    url = f"/tournaments/{args.tournament_id}/seal"
    _print(_answer(http.post(url, json={"reason": args.reason}, headers=headers)))
    return 0


def _standings(http: httpx.Client, headers: dict[str, str], args: argparse.Namespace) -> int:
    params = {k: v for k, v in (("at", args.at), ("known_at", args.known_at)) if v}
    url = f"/tournaments/{args.tournament_id}/standings"
    answer = _answer(http.get(url, params=params, headers=headers))
    if args.json:
        _print(answer)
    else:
        print(standings_table(answer))
    return 0


def standings_table(answer: dict[str, Any]) -> str:
    """The standings as a plain-text table, the tie-breaks as columns in order."""
    rows = answer["rows"]
    breaks = list(rows[0]["tiebreaks"]) if rows else []
    header = ["rank", "player", "name", "points", "wins", "played", *breaks]
    lines = [header]
    for r in rows:
        name = r["name"] + (" (withdrawn)" if r["withdrawn"] else "")
        values = [r["rank"], r["player"], name, r["points"], r["wins"], r["played"]]
        lines.append([str(v) for v in values] + [f"{r['tiebreaks'][b]:g}" for b in breaks])
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    text = ["  ".join(c.ljust(w) for c, w in zip(line, widths, strict=True)) for line in lines]
    status = "finished, champion " + str(answer["champion"]) if answer["finished"] else "running"
    if answer.get("concluded"):
        status += f" (ended early: {answer['concluded']})"
    if answer.get("sealed"):
        status += f" (sealed: {answer['sealed']})"
    known = f", as known at {answer['known_at']}" if answer["known_at"] else ""
    stale = "".join(
        f"\nround {s['round']} was paired on a result since changed: "
        + ", ".join(_board_name(c["board"]) for c in s["changed"])
        for s in answer["stale_pairings"]
    )
    return "\n".join(text) + f"\n({status}; at {answer['at']}{known}){stale}"


def _board_name(key: str) -> str:
    """``2.4`` (the answer's key of a board) as ``round 2 board 4``."""
    number, _, board = key.partition(".")
    return f"round {number} board {board}"


def _verify(http: httpx.Client, headers: dict[str, str], args: argparse.Namespace) -> int:
    url = f"/tournaments/{args.tournament_id}/verify"
    report = _answer(http.get(url, headers=headers))
    print(json.dumps(report, indent=1) if args.json else describe(report))
    return 0 if report["ok"] else 1


def describe(report: dict[str, Any]) -> str:
    lines = [
        f"{'ok  ' if c['ok'] else 'FAIL'} {c['name']}: {c['detail']}" for c in report["checks"]
    ]
    if "verified_at" in report:  # the service's report (shared by its readers), not a bundle's
        lines.append(f"the service's verify began at {report['verified_at']}")
    verdict = "verified" if report["ok"] else "DOES NOT VERIFY"
    return "\n".join([*lines, f"tournament {report['tournament_id']}: {verdict}"])


def _export(http: httpx.Client, headers: dict[str, str], args: argparse.Namespace) -> int:
    response = http.get(f"/tournaments/{args.tournament_id}/export", headers=headers)
    if response.status_code >= 400:
        _answer(response)
    if args.output:
        Path(args.output).write_text(response.text, encoding="utf-8")
    else:
        sys.stdout.write(response.text + "\n")
    return 0


ACTIONS = {
    "create": _create,
    "pair": _pair,
    "forfeit": _forfeit,
    "withdraw": _withdraw,
    "conclude": _conclude,
    "seal": _seal,
    "standings": _standings,
    "verify": _verify,
    "export": _export,
}


# offline: adjudicator verify BUNDLE


def is_bundle_file(file: str) -> bool:
    """Whether ``file`` holds a tournament bundle (read only its start)."""
    from api.service.tournament_audit import FORMAT

    try:
        with open(file, encoding="utf-8") as handle:
            start = handle.read(4096)
    except (OSError, UnicodeDecodeError):
        return False
    return start.lstrip().startswith("{") and FORMAT in start


_JOBS: Sequence[Job] | None = None
"""The jobs the forked workers run, by index (inherited when they fork, with what the jobs
hold: the records' texts, the parsed log)."""


def _job_in_worker(index: int, needed: Sequence[Any]) -> Any:
    assert _JOBS is not None
    return _JOBS[index].work(*needed)


def side_by_side(workers: int) -> Callable[[Sequence[Job]], list[Any]]:
    """A bundle's jobs (``api.service.tournament_audit.Job``) run in ``workers`` forked
    processes, one at a time each: a job starts once the jobs it needs are done (their outputs
    are sent to its worker), the earliest in the list of those that may first."""
    from api.cli.audit import _forking

    def run(jobs: Sequence[Job]) -> list[Any]:
        global _JOBS  # noqa: PLW0603 (handed to the forked workers)
        _JOBS = jobs
        gc.freeze()  # what the workers inherit, out of their collector's sight: a collection in
        # a worker would walk it (and write to it, copying it page by page) before its next job
        try:
            with ProcessPoolExecutor(max_workers=workers, mp_context=_forking()) as pool:
                return _scheduled(pool, jobs, workers)
        finally:
            gc.unfreeze()
            _JOBS = None

    return run


QUEUED = 2
"""Jobs sent to each worker at a time by :func:`_scheduled`: the one it runs, the next."""


def _scheduled(pool: Executor, jobs: Sequence[Job], workers: int) -> list[Any]:
    """Each job's output, run in ``pool``: at most ``QUEUED`` jobs a worker sent at once (one
    running, one waiting, so a worker that finishes starts the next without waiting for this
    process to hear of it and send one; a 288-match bundle's 27 jobs of 8-45 ms: 324 ms
    instead of 334, medians of 8 alternated runs), and no more, so that a job that becomes
    ready late is still chosen when a worker frees up, not queued behind all the others."""
    out: dict[int, Any] = {}
    running: dict[Future[Any], int] = {}
    waiting = list(range(len(jobs)))
    while waiting or running:
        ready = [i for i in waiting if all(n in out for n in jobs[i].needs)]
        for i in ready[: QUEUED * workers - len(running)]:
            waiting.remove(i)
            needed = [out[n] for n in jobs[i].needs]
            running[pool.submit(_job_in_worker, i, needed)] = i
        if not running:
            raise ValueError("the jobs left need each other: none can start")
        done, _ = wait(running, return_when=FIRST_COMPLETED)
        for future in done:
            out[running.pop(future)] = future.result()
    return [out[i] for i in range(len(jobs))]


def verify_bundles(
    files: Sequence[str],
    as_json: bool = False,
    jobs: int | None = None,
    trust: LogTrust | None = None,
) -> int:
    """Verify tournament bundles offline, each bundle's records and pairings side by side in
    ``jobs`` processes (default one per core); with ``trust`` (``--key``), each match record's
    transparency-log proof too. Exit 0 when all verify, 1 when one does not, 2 when a file
    cannot be read or a verifying process stops (killed: out of memory, a signal)."""
    from api.cli.audit import all_games, cores
    from api.service.tournament_audit import verify_bundle

    games = all_games()  # built before the workers fork, so they inherit it
    workers = jobs or cores()
    texts = []
    for file in files:
        try:
            texts.append(Path(file).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as error:
            print(f"error: cannot read {file}: {error}", file=sys.stderr)
            return 2
    checks = None if trust is None else trust.checks
    if workers <= 1 or sys.platform != "linux":  # forked workers inherit the jobs
        reports = [verify_bundle(text, games, log_checks=checks) for text in texts]
    else:
        try:
            run = side_by_side(workers)
            reports = [verify_bundle(text, games, run, checks) for text in texts]
        except BrokenProcessPool as broken:  # a worker was killed (out of memory, a signal)
            print(f"error: a verifying process stopped: {broken}", file=sys.stderr)
            return 2
    if as_json:
        print(json.dumps(reports[0] if len(reports) == 1 else reports, indent=1))
    else:
        print("\n".join(describe(r) for r in reports))
    return 0 if all(r["ok"] for r in reports) else 1
