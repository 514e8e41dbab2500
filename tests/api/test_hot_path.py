"""What a live command costs the store: one transaction, whatever the length of the match.

Counts statements (not time), so it cannot flake on a busy machine."""

from __future__ import annotations

from typing import Any

from sqlalchemy import event

from tests.api.conftest import Api
from tests.api.test_zoom_over_http import supplied_match


def _kind(statement: str) -> str:
    return "NOTIFY" if "pg_notify" in statement else statement.split(maxsplit=1)[0]


def _statements(app: Any) -> list[str]:
    seen: list[str] = []
    engine = app.state.service.store.engine
    event.listen(engine, "before_cursor_execute", lambda *a: seen.append(_kind(a[2])))
    event.listen(engine, "commit", lambda *_: seen.append("COMMIT"))
    return seen


def test_a_live_command_is_one_transaction_of_appends(api: Api, app: Any) -> None:
    supplied_match(api)
    api.ok("alpha", {"type": "buzz", "pairs": [{"target": "A", "at": "a1"}]})
    seen = _statements(app)
    for _ in range(20):
        seen.clear()
        api.clock.advance(1)
        api.ok("alpha", {"type": "buzz", "pairs": [{"target": "B", "at": "a1"}]})
        statements = [s for s in seen if s not in ("BEGIN", "NOTIFY")]
        assert statements == ["UPDATE", "UPDATE", "INSERT", "COMMIT"], seen
