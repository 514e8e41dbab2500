"""Schemathesis against the app's own OpenAPI schema: no 5xx, every status an operation answers
is one it documents, and every answer conforms to the schema.

The app holds real matches of each game — Zoom with a round started, No, Not That! mid-step
(one seat has acted), Zombego mid-game — and real tokens. For every operation, Hypothesis draws
cases (schema-valid and schema-breaking) whose ``match_id`` is, some of the time, a real match and
whose ``Authorization`` is, some of the time, a real token of that match or the operator's.
Every distinct failure (status, route, the request) is collected and listed at the end, with the
number of requests sent; seeded and bounded so it runs in well under a minute.
"""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    response_schema_conformance,
    status_code_conformance,
)

from tests.api.conftest import OPERATOR, Api
from tests.api.test_zoom_over_http import supplied_match

EXAMPLES_PER_OPERATION = 40
CHECKS = [not_a_server_error, response_schema_conformance, status_code_conformance]
NNT_ROUND = {
    "prompt_text": "a 4-letter word with exactly 1 vowel",
    "category_text": "consonants",
    "category": {"kind": "letters", "letters": "consonants"},
    "prompt": {"kind": "word", "length": 4, "vowels": 1, "free_letters": "AEIOU"},
}


def _ndjson(_: Any, value: Any) -> bytes:
    """A match record body as sent: text lines (whatever was generated, as bytes)."""
    return value if isinstance(value, bytes) else str(value).encode()


schemathesis.serializer("application/x-ndjson")(_ndjson)


def real_matches(api: Api) -> list[dict[str, Any]]:
    """A Zoom match with a round started, No, Not That! mid-step, Zombego mid-game."""
    made = []
    supplied_match(api)
    made.append({"match_id": api.match_id, "tokens": api.tokens})
    api.create(game="no_not_that", seats=["Alpha", "Beta"], config={"rounds": [NNT_ROUND]})
    api.ok("host", {"type": "start_round", "round": 1})
    api.ok("Alpha", {"type": "submit", "seat": "Alpha", "object": "Q"}, key="alpha-1")
    made.append({"match_id": api.match_id, "tokens": api.tokens})
    api.create(game="zombego", seats=["white", "black"], config={"board": 5})
    for seat in ("white", "black"):
        legal = api.state(who=seat)["state"]["legal"]
        move = legal[0]["move"]
        _, value, cell = move.split(":")
        api.ok(seat, {"type": "place", "seat": seat, "cell": cell, "value": int(value)})
    made.append({"match_id": api.match_id, "tokens": api.tokens})
    return made


def tokens_of(match: dict[str, Any]) -> list[str]:
    tokens = match["tokens"]
    return [OPERATOR, tokens["host"], tokens["auditor"], *tokens["seats"].values()]


def cases(operation: Any, matches: list[dict[str, Any]]) -> st.SearchStrategy[Any]:
    """Generated cases, and cases aimed at a real match with one of its real tokens."""
    modes = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    drawn = [operation.as_strategy(generation_mode=mode) for mode in modes]
    for match in matches:
        for token in tokens_of(match):
            path = {"match_id": match["match_id"]} if "{match_id}" in operation.path else None
            headers = {"Authorization": f"Bearer {token}"}
            drawn.append(
                operation.as_strategy(
                    generation_mode=GenerationMode.POSITIVE, path_parameters=path, headers=headers
                )
            )
    return st.one_of(drawn)


def describe(case: Any, response: Any, error: Exception) -> tuple[str, str]:
    key = f"{response.status_code} {case.method} {case.path}: {type(error).__name__}"
    request = (
        f"{case.method} {case.formatted_path} query={case.query} "
        f"headers={dict(case.headers or {})} body={str(case.body)[:300]}"
    )
    return key, f"{request}\n    -> {response.status_code} {response.text[:300]}\n    {error}"


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_no_operation_answers_5xx_or_breaks_its_schema(api: Api) -> None:
    """On both backends: what PostgreSQL refuses and SQLite takes (a NUL in a text) once
    answered 500 on PostgreSQL alone."""
    matches = real_matches(api)
    schema = schemathesis.openapi.from_asgi("/openapi.json", api.client.app)
    failures: dict[str, str] = {}
    sent = 0
    for result in schema.get_all_operations():
        operation: Any = result.ok()  # type: ignore[union-attr]
        if operation.path.endswith("/stream"):
            continue  # an open match's stream never ends; the probe reads it (test_no_leak_http)

        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            derandomize=True,
            database=None,
            phases=(Phase.explicit, Phase.generate),
            suppress_health_check=list(HealthCheck),
        )
        @given(case=cases(operation, matches))
        def run(case: Any) -> None:
            nonlocal sent
            sent += 1
            response = case.call()
            try:
                case.validate_response(response, checks=CHECKS)
            except Exception as error:
                key, text = describe(case, response, error)
                failures.setdefault(key, text)

        run()
    print(f"schemathesis sent {sent} requests; {len(failures)} distinct failures")
    assert not failures, f"{sent} requests, failures:\n" + "\n".join(
        f"- {key}\n  {text}" for key, text in sorted(failures.items())
    )
