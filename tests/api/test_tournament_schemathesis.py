"""Schemathesis against the tournament routes: no 5xx, every status documented, every answer
conforms to its schema. Cases are drawn (schema-valid and schema-breaking), and aimed some of
the time at a real tournament (a round paired and played, the next paired) with its organizer's
token or the operator's."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode

from tests.api.conftest import OPERATOR, Api
from tests.api.test_schemathesis import CHECKS, describe
from tests.api.tournament_client import Organizer, play_round

EXAMPLES_PER_OPERATION = 30
pytestmark = pytest.mark.slow


def cases(operation: Any, tournament: str, tokens: list[str]) -> st.SearchStrategy[Any]:
    modes = (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    drawn = [operation.as_strategy(generation_mode=mode) for mode in modes]
    path = {"tournament_id": tournament} if "{tournament_id}" in operation.path else None
    for token in tokens:
        headers = {"Authorization": f"Bearer {token}"}
        drawn.append(
            operation.as_strategy(
                generation_mode=GenerationMode.POSITIVE, path_parameters=path, headers=headers
            )
        )
    return st.one_of(drawn)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
def test_no_tournament_operation_answers_5xx_or_breaks_its_schema(api: Api) -> None:
    org = Organizer(api)
    org.create(["Ada", "Bo", "Cy", "Di", "Ed"], format="swiss", rounds=3, tiebreaks=["buchholz"])
    play_round(api, org.pair(), lambda first, second: first)
    org.pair()
    schema = schemathesis.openapi.from_asgi("/openapi.json", api.client.app)
    failures: dict[str, str] = {}
    sent = 0
    for result in schema.get_all_operations():
        operation: Any = result.ok()  # type: ignore[union-attr]
        if not operation.path.startswith("/tournaments"):
            continue

        @settings(
            max_examples=EXAMPLES_PER_OPERATION,
            deadline=None,
            derandomize=True,
            database=None,
            phases=(Phase.explicit, Phase.generate),
            suppress_health_check=list(HealthCheck),
        )
        @given(case=cases(operation, org.id, [OPERATOR, org.token]))
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
    assert sent > 0
    assert not failures, f"{sent} requests, failures:\n" + "\n".join(
        f"- {key}\n  {text}" for key, text in sorted(failures.items())
    )
