"""The audit commands of the CLI: ``export``, ``ludii-export`` and ``import`` work on a store
directly, ``verify`` works offline on a record file alone."""

from __future__ import annotations

import json
import multiprocessing
import os
import sys
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from datetime import UTC, datetime
from functools import cache, partial
from multiprocessing.context import BaseContext
from pathlib import Path
from typing import Any

from adjudicator import registry
from adjudicator.kernel.decider import Game
from adjudicator.kernel.errors import InvalidCommand
from api.cli.log import LogTrust
from api.service import audit
from api.service.errors import RecordInvalid
from api.service.wordlists import load_dictionaries
from events import EventStore, MatchExists, UnknownMatch
from projections.verify import VerifyReport


@cache
def all_games() -> dict[str, Game[Any, Any]]:
    """Every game, No, Not That! with the word list of ``ADJUDICATOR_WORDLIST`` or the default
    (built once per process: ``verify``'s worker processes inherit the parent's)."""
    return registry.games(load_dictionaries())


def export_command(database_url: str, match_id: str, output: str | None) -> int:
    """Write the full record (payloads and salts included: this reads the store itself)."""
    store = EventStore.from_url(database_url)
    try:
        text = audit.export_text(store, match_id, reveal=True, exported_at=datetime.now(UTC))
    except UnknownMatch as error:
        print(f"error: {error.message}", file=sys.stderr)
        return 1
    finally:
        store.dispose()
    return write_out(text, output)


def write_out(text: str, output: str | None) -> int:
    """Write ``text`` to the file ``output``, or to standard output when none is named."""
    if output is None:
        sys.stdout.write(text)
    else:
        Path(output).write_text(text, encoding="utf-8")
        print(f"wrote {output}", file=sys.stderr)
    return 0


def verify_command(
    files: Sequence[str],
    as_json: bool = False,
    jobs: int | None = None,
    trust: LogTrust | None = None,
) -> int:
    """Verify record files offline, each on its own, in ``jobs`` processes at once (default:
    one per core, at most one per file). Prints each file's checks (``as_json``: the report as
    ``GET /matches/{id}/verify`` gives it); several files are printed in the order given, each
    under its name (``as_json``: a list of ``{"file", "report"}``, or ``{"file", "error"}`` for
    a file that cannot be read). Exit status 0 when every file verifies, 2 when one cannot be
    read, else 1 when one does not verify."""
    try:
        results = list(verified_files(files, jobs, trust))
    except BrokenProcessPool as broken:  # a worker was killed (out of memory, a signal)
        print(f"error: a verifying process stopped: {broken}", file=sys.stderr)
        return 2
    if len(files) == 1:
        report = results[0][1]
        if report is not None:
            print(json_text(report.as_json()) if as_json else describe(report))
    elif as_json:
        print(json_text([_file_json(*result) for result in results]))
    else:
        print(describe_all(results))
    unreadable = [(file, why) for file, _, why in results if why is not None]
    for file, why in unreadable:
        print(f"error: cannot read {file}: {why}", file=sys.stderr)
    if unreadable:
        return 2
    return 0 if all(report is not None and report.ok for _, report, _ in results) else 1


Verified = tuple[str, VerifyReport | None, str | None]
"""A record file, its report (None when it cannot be read) and why it cannot be (or None)."""


def verified_files(
    files: Sequence[str], jobs: int | None = None, trust: LogTrust | None = None
) -> Iterator[Verified]:
    """Each file verified (:func:`verify_file`), in the order given; with more than one file
    and job, in worker processes (a record's checks are one core's work: records are verified
    side by side, never one record split)."""
    workers = min(len(files), jobs or cores())
    if workers <= 1:
        yield from (verify_file(file, trust) for file in files)
        return
    all_games()  # built before the workers start, so forked ones inherit it
    with ProcessPoolExecutor(max_workers=workers, mp_context=_forking()) as pool:
        yield from pool.map(partial(verify_file, trust=trust), files)


def _forking() -> BaseContext:
    """Forked workers on Linux: they start in milliseconds with the parent's imports and games
    (a fresh interpreter takes a second and more to import them); the CLI process runs no other
    thread, so forking it is safe. Elsewhere the platform's own way (macOS's system libraries
    are not safe to fork)."""
    return multiprocessing.get_context("fork" if sys.platform == "linux" else None)


def verify_file(file: str, trust: LogTrust | None = None) -> Verified:
    """One record file's report, or why it cannot be read. With ``trust`` (``--key``), the
    transparency log's checks follow the record's own (``projections.log_checks``)."""
    try:
        text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        return file, None, str(error)
    record, report = audit.parse_and_verify(text, all_games())
    if trust is None or record is None:
        return file, report, None
    return file, VerifyReport(report.match_id, (*report.checks, *trust.checks(record))), None


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _file_json(file: str, report: VerifyReport | None, error: str | None) -> dict[str, Any]:
    if report is None:
        return {"file": file, "error": f"cannot read {file}: {error}"}
    return {"file": file, "report": report.as_json()}


def describe_all(results: Sequence[Verified]) -> str:
    """Each file's checks under its name, then how many records verified."""
    parts = []
    for file, report, error in results:
        body = describe(report) if report is not None else f"cannot read: {error}"
        parts.append(f"== {file}\n{body}")
    ok = sum(1 for _, report, _ in results if report is not None and report.ok)
    parts.append(f"{ok} of {len(results)} records verified")
    return "\n".join(parts)


def json_text(data: object) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2)


def describe(report: VerifyReport) -> str:
    lines = [f"match {report.match_id or '?'}"]
    for check in report.checks:
        lines.append(f"  {'ok  ' if check.ok else 'FAIL'} {check.name}: {check.detail}")
    verdict = "verified" if report.ok else f"NOT verified (first bad seq: {report.first_bad_seq})"
    lines.append(verdict)
    return "\n".join(lines)


def import_command(database_url: str, file: str) -> int:
    """Verify and store a record. Prints JSON: the match id, game, status, the new role tokens
    (shown once) and the verify report; exit 1 (and one line on standard error) when refused,
    2 when the file cannot be read."""
    try:
        text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"error: cannot read {file}: {error}", file=sys.stderr)
        return 2
    store = EventStore.from_url(database_url)
    try:
        imported = audit.import_text(store, all_games(), text)
    except RecordInvalid as error:
        print(json_text({"imported": False, "code": error.code, "verify": error.report}))
        print("error: refused, the record does not verify", file=sys.stderr)
        return 1
    except MatchExists as error:
        print(json_text({"imported": False, "code": error.code, "message": error.message}))
        print(f"error: refused: {error.message}", file=sys.stderr)
        return 1
    finally:
        store.dispose()
    print(json_text(imported_json(imported)))
    return 0


def imported_json(imported: audit.Imported) -> dict[str, Any]:
    match = imported.match
    return {
        "imported": True,
        "match_id": match.match_id,
        "game": match.game,
        "status": match.status,
        "tokens": imported.tokens,
        "verify": imported.report.as_json(),
    }


def ludii_export_command(database_url: str, match_id: str, output: str | None) -> int:
    """Write a Zombego match as a Ludii game (JSON); this reads the store itself, so a hidden
    match's values are included as the host would see them."""
    from adjudicator.games.zombego.ludii import game_json
    from api.service.ludii import zombego_state
    from api.service.matches import MatchService

    store = EventStore.from_url(database_url)
    try:
        service = MatchService(store, all_games(), lambda: datetime.now(UTC))
        game = game_json(zombego_state(service, service.match(match_id)))
    except (UnknownMatch, InvalidCommand) as error:
        print(f"error: {error.message}", file=sys.stderr)
        return 1
    finally:
        store.dispose()
    text = json.dumps(game, ensure_ascii=False) + "\n"
    return write_out(text, output)
