"""The audit commands of the CLI: ``export``, ``ludii-export`` and ``import`` work on a store
directly, ``verify`` works offline on a record file alone."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from adjudicator import registry
from adjudicator.kernel.decider import Game
from adjudicator.kernel.errors import InvalidCommand
from api.service import audit
from api.service.errors import RecordInvalid
from api.service.wordlists import load_words
from events import EventStore, MatchExists, UnknownMatch
from projections.verify import VerifyReport


def all_games() -> dict[str, Game[Any, Any]]:
    """Every game, No, Not That! with the word list of ``ADJUDICATOR_WORDLIST`` or the default."""
    return registry.games(load_words())


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


def verify_command(file: str, as_json: bool = False) -> int:
    """Print each check (``as_json``: the report as ``GET /matches/{id}/verify`` gives it);
    exit status 0 when everything verifies, 1 otherwise, 2 when the file cannot be read."""
    try:
        text = Path(file).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"error: cannot read {file}: {error}", file=sys.stderr)
        return 2
    report = audit.verify_text(text, all_games())
    print(json_text(report.as_json()) if as_json else describe(report))
    return 0 if report.ok else 1


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
