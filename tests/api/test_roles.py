"""Every attempt outside one's role is refused with a stable code, and records nothing."""

from __future__ import annotations

import pytest

from tests.api.conftest import Api
from tests.api.test_zoom_over_http import buzz, supplied_match

NOTE = {"type": "note", "reason": "hello"}


@pytest.mark.parametrize(
    ("who", "method", "path", "body", "status", "code"),
    [
        ("alpha", "post", "rulings", NOTE, 403, "host_only"),
        ("auditor", "post", "rulings", NOTE, 403, "host_only"),
        ("", "post", "rulings", NOTE, 401, "missing_token"),
        ("alpha", "post", "close", None, 403, "host_only"),
        ("auditor", "post", "close", None, 403, "host_only"),
        ("auditor", "post", "commands", buzz("alpha", "A", "d3"), 403, "read_only_token"),
        ("beta", "post", "commands", buzz("alpha", "A", "d3"), 403, "wrong_seat"),
        ("alpha", "get", "export", None, 403, "export_forbidden"),
        ("auditor", "get", "export", None, 403, "export_before_close"),
    ],
)
def test_out_of_role_attempts_are_refused(
    api: Api, who: str, method: str, path: str, body: object, status: int, code: str
) -> None:
    supplied_match(api)
    before = api.last_seq()
    url = f"/matches/{api.match_id}/{path}"
    headers = api.auth(api.token(who)) if who else {}
    response = api.client.request(method.upper(), url, json=body, headers=headers)
    assert (response.status_code, response.json()["code"]) == (status, code)
    assert api.last_seq() == before


def test_the_host_exports_any_time_and_the_auditor_after_close(api: Api) -> None:
    supplied_match(api)
    url = f"/matches/{api.match_id}/export"
    assert api.client.get(url, headers=api.auth(api.token("host"))).status_code == 200
    api.client.post(f"/matches/{api.match_id}/close", headers=api.auth(api.token("host")))
    assert api.client.get(url, headers=api.auth(api.token("auditor"))).status_code == 200
