"""What a live command costs the store: one statement on PostgreSQL (the append's CTE, committed
by the server), one transaction on SQLite, whatever the length of the match.

Counts statements (not time), so it cannot flake on a busy machine."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event

from tests.api.conftest import Api
from tests.api.test_zoom_over_http import supplied_match


def _kind(statement: str) -> str:
    return statement.split(maxsplit=1)[0]


def _statements(app: Any) -> list[str]:
    seen: list[str] = []
    engine = app.state.service.store.engine
    event.listen(engine, "before_cursor_execute", lambda *a: seen.append(_kind(a[2])))
    event.listen(engine, "commit", lambda *_: seen.append("COMMIT"))
    return seen


def test_a_live_command_is_one_statement_or_one_transaction(api: Api, app: Any) -> None:
    postgres = app.state.service.store.engine.dialect.name == "postgresql"
    expected = ["WITH"] if postgres else ["BEGIN", "UPDATE", "UPDATE", "INSERT", "COMMIT"]
    supplied_match(api)
    api.ok("alpha", {"type": "buzz", "pairs": [{"target": "A", "at": "a1"}]})
    seen = _statements(app)
    for _ in range(20):
        seen.clear()
        api.clock.advance(1)
        api.ok("alpha", {"type": "buzz", "pairs": [{"target": "B", "at": "a1"}]})
        assert seen == expected
