"""Fuzzing verify and import with golden records: one field of one line changed at random (its
type, a truncation, a deletion, random characters) or a random splice of a line's text.
``verify_text`` never raises and never reports ok when a hashed, committed or checked value
differs; the import route never answers 5xx."""

from __future__ import annotations

import copy
import json
from typing import Any

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.service.audit import verify_text
from tests.api.conftest import OPERATOR, make_app
from tests.store.support import ManualClock
from tests.unit.audit.records import GAMES, RECORDS

SOURCES = {path: path.read_text(encoding="utf-8") for path in RECORDS}
PARSED = {path: [json.loads(line) for line in text.splitlines()] for path, text in SOURCES.items()}
# The header's times: created_at is compared as an instant (any RFC 3339 spelling of it
# passes), exported_at is the exporter's word alone. Every other field is checked.
UNCHECKED_HEADER = {"created_at", "exported_at"}

chars = st.characters(exclude_categories=())  # surrogates and control characters included
values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(),
    st.text(chars, max_size=40),
    st.lists(st.integers(), max_size=3),
    st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
)


class Mutation:
    """A mutated record, whether it differs in a field verification must catch, and what was
    done (its repr: the record itself is too long to print)."""

    def __init__(self, text: str, checked: bool, what: str) -> None:
        self.text, self.checked, self.what = text, checked, what

    def __repr__(self) -> str:
        return f"Mutation({self.what}, checked={self.checked})"


def same(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@st.composite
def changed(draw: st.DrawFn, value: Any) -> Any:
    """``value`` truncated, of another type, or with random characters / parts."""
    kind = draw(st.sampled_from(["type", "truncate", "random"]))
    if kind == "type" or value is None or isinstance(value, bool):
        return draw(values)
    if isinstance(value, str | list):
        cut = draw(st.integers(0, max(len(value) - 1, 0)))
        if kind == "truncate":
            return value[:cut]
        part: Any = draw(st.text(chars, min_size=1, max_size=3)) if isinstance(value, str) else []
        return value[:cut] + part + value[cut + 1 :] if isinstance(value, str) else value[:-1]
    if isinstance(value, dict):
        key = draw(st.sampled_from(sorted(value))) if value else "x"
        edited = dict(value)
        if kind == "truncate":
            edited.pop(key, None)
        else:
            edited[key] = draw(changed(value.get(key)))
        return edited
    if isinstance(value, int):
        return value // 10 if kind == "truncate" else value + draw(st.integers().filter(bool))
    return draw(values)


@st.composite
def field_mutation(draw: st.DrawFn) -> Mutation:
    """One field of one line deleted or changed."""
    path = draw(st.sampled_from(RECORDS))
    objects = copy.deepcopy(PARSED[path])
    index = draw(st.integers(0, len(objects) - 1))
    name = draw(st.sampled_from(sorted(objects[index])))
    old = objects[index][name]
    if draw(st.integers(0, 4)) == 0:
        del objects[index][name]
        differs, what = True, f"{path.name} line {index + 1}: {name} deleted"
    else:
        objects[index][name] = new = draw(changed(old))
        differs, what = not same(old, new), f"{path.name} line {index + 1}: {name} = {new!r:.200}"
    checked = differs and not (index == 0 and name in UNCHECKED_HEADER)
    ascii_only = draw(st.booleans())
    text = "".join(json.dumps(o, sort_keys=True, ensure_ascii=ascii_only) + "\n" for o in objects)
    return Mutation(text, checked, what)


@st.composite
def splice_mutation(draw: st.DrawFn) -> Mutation:
    """A random span of one line's text replaced by random characters."""
    path = draw(st.sampled_from(RECORDS))
    lines = SOURCES[path].splitlines(keepends=True)
    index = draw(st.integers(0, len(lines) - 1))
    line = lines[index]
    start = draw(st.integers(0, len(line) - 1))
    end = draw(st.integers(start, min(start + 8, len(line))))
    spliced = draw(st.text(chars, max_size=8))
    lines[index] = line[:start] + spliced + line[end:]
    what = f"{path.name} line {index + 1}: {line[start:end]!r} -> {spliced!r} at {start}"
    return Mutation("".join(lines), _line_differs(PARSED[path][index], lines[index], index), what)


def _line_differs(old: dict[str, Any], text: str, index: int) -> bool:
    if not text.strip():
        return True  # a line lost: the count and chain no longer agree
    try:
        new = json.loads(text)
    except ValueError:
        return True
    if not isinstance(new, dict):
        return True
    keys = set(old) | set(new)
    changed_keys = {k for k in keys if k not in old or k not in new or not same(old[k], new[k])}
    ignored = UNCHECKED_HEADER if index == 0 else set()
    return bool(changed_keys - ignored)


mutations = st.one_of(field_mutation(), splice_mutation())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutations)
def test_verify_never_raises_and_never_passes_a_changed_record(mutation: Mutation) -> None:
    report = verify_text(mutation.text, GAMES)

    if mutation.checked:
        assert not report.ok, report.as_json()
    json.dumps(report.as_json())  # the report is always JSON


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(mutation=mutations)
def test_the_import_route_never_answers_5xx(
    database_url: str, clock: ManualClock, mutation: Mutation
) -> None:
    app = make_app(database_url, clock)
    headers = {"content-type": "application/x-ndjson", "Authorization": f"Bearer {OPERATOR}"}
    try:
        with TestClient(app, raise_server_exceptions=False) as client:
            answer = client.post("/matches/import", content=mutation.text.encode(), headers=headers)
    finally:
        app.state.service.store.dispose()
    assert answer.status_code < 500, answer.text
    assert answer.status_code in ((422,) if mutation.checked else (201, 409, 422)), answer.text
