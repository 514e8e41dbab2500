"""Closing a match: its result is recorded, nothing more is recorded, auditors see everything."""

from __future__ import annotations

from typing import Any

from tests.api.conftest import Api
from tests.api.test_zoom_over_http import buzz, supplied_match


def seeded(api: Api, who: str) -> dict[str, Any]:
    headers = api.auth(api.token(who)) if who else {}
    listed = api.client.get(f"/matches/{api.match_id}/events", headers=headers).json()
    return dict(next(e for e in listed if e["type"] == "match.seeded"))


def test_closing_records_the_result_and_opens_private_facts_to_auditors(api: Api) -> None:
    supplied_match(api, seed=99)
    api.ok("alpha", buzz("alpha", "A", "d3"))
    assert seeded(api, "auditor")["payload"] is None
    assert "salt" not in seeded(api, "auditor")

    refused = api.client.post(
        f"/matches/{api.match_id}/close", headers=api.auth(api.token("alpha"))
    )
    assert (refused.status_code, refused.json()["code"]) == (403, "host_only")
    closed = api.client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
    assert closed.status_code == 201, closed.text
    assert closed.json()["events"][0]["type"] == "match.closed"

    audited = seeded(api, "auditor")
    assert audited["payload"] == {"seed": 99}
    assert len(audited["salt"]) == 32
    assert seeded(api, "")["payload"] is None
    assert seeded(api, "alpha")["payload"] is None
    assert api.state(who="auditor")["status"] == "closed"

    late = api.command("beta", buzz("beta", "B", "a4"))
    assert (late.status_code, late.json()["code"]) == (409, "match_closed")
    again = api.client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
    assert (again.status_code, again.json()["code"]) == (409, "match_closed")
