"""Who may do what, decided in one module (api.service.access): the host acts and sees
everything, a seat acts for itself, the auditor and the operator read, another match's token
neither acts nor reads as its role; no other module reads a token's role."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import pytest

from adjudicator.kernel.decider import Role, Viewer
from adjudicator.kernel.errors import NotPermitted
from api.service import access
from events import MatchRecord, TokenGrant
from events.records import MatchStatus

NOW = datetime(2030, 1, 1, tzinfo=UTC)
HOST = TokenGrant("m", "host", None)
ALPHA = TokenGrant("m", "seat", "alpha")
AUDITOR = TokenGrant("m", "auditor", None)
STRANGER = TokenGrant("other", "host", None)
API = Path(__file__).resolve().parents[3] / "api"


def match(status: MatchStatus = "open") -> MatchRecord:
    return MatchRecord("m", "zoom", "1", status, NOW, {"seats": ["alpha", "beta"]}, 0, None)


@contextmanager
def _code(code: str) -> Iterator[None]:
    with pytest.raises(NotPermitted) as refusal:
        yield
    assert refusal.value.code == code


def test_only_this_match_s_host_and_seats_act_in_it() -> None:
    assert access.acting_in(HOST, "m") is HOST
    with _code("token_not_for_match"):
        access.acting_in(STRANGER, "m")
    with _code("read_only_token"):
        access.acting_in(access.OPERATOR, "m")


def test_the_host_acts_as_host_a_seat_as_itself_the_auditor_never() -> None:
    assert access.acting(HOST, NOW).actor == "host"
    ctx = access.acting(ALPHA, NOW)
    assert (ctx.actor, ctx.seat, ctx.now) == ("seat:alpha", "alpha", NOW)
    with _code("read_only_token"):
        access.acting(AUDITOR, NOW)
    assert access.own_seat(ALPHA) == "alpha" and access.own_seat(HOST) is None


def test_host_only_actions_name_what_was_refused() -> None:
    access.require_host(HOST, "closes a match")
    with pytest.raises(NotPermitted) as refusal:
        access.require_host(ALPHA, "closes a match")
    assert (refusal.value.code, refusal.value.message) == (
        "host_only",
        "only the host closes a match",
    )
    with _code("game_time_host_only"):
        access.require_time_enterer(ALPHA)


def test_a_viewer_is_the_token_s_role_in_its_own_match_else_a_spectator() -> None:
    assert access.viewer_of(match(), ALPHA) == Viewer(Role.SEAT, seat="alpha")
    assert access.viewer_of(match(), STRANGER) == Viewer(Role.SPECTATOR)
    assert access.viewer_of(match(), None) == Viewer(Role.SPECTATOR)
    assert access.viewer_of(match("closed"), access.OPERATOR) == Viewer(Role.AUDITOR, closed=True)


@pytest.mark.parametrize(
    ("grant", "status", "code"),
    [
        (HOST, "open", None),
        (AUDITOR, "open", "export_before_close"),
        (AUDITOR, "closed", None),
        (access.OPERATOR, "open", "export_before_close"),
        (access.OPERATOR, "closed", None),
        (ALPHA, "closed", "export_forbidden"),
        (STRANGER, "closed", "export_forbidden"),
        (None, "closed", "export_forbidden"),
    ],
)
def test_who_exports(grant: TokenGrant | None, status: MatchStatus, code: str | None) -> None:
    if code is None:
        access.require_exporter(match(status), grant)
        return
    with _code(code):
        access.require_exporter(match(status), grant)


def test_hidden_values_are_the_host_s_until_the_close() -> None:
    access.require_hidden_reader(match(), HOST)
    access.require_hidden_reader(match("closed"), None)
    with _code("ludii_hidden"):
        access.require_hidden_reader(match(), AUDITOR)


def test_no_other_module_reads_a_token_s_role() -> None:
    readers = [
        f"{path.relative_to(API.parent)}:{node.lineno}"
        for path in API.rglob("*.py")
        if path.name != "access.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Attribute)
        and node.attr == "role"
        and isinstance(node.value, ast.Name)
        and "grant" in node.value.id
    ]
    assert not readers, f"role checks outside api/service/access.py: {readers}"
