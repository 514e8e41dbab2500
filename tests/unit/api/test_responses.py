"""The JSON response writes the same compact UTF-8 JSON as the stdlib, and anything orjson
refuses through pydantic-core."""

from __future__ import annotations

import json

from api.http.responses import encode


def test_the_bytes_are_the_stdlib_s_compact_json() -> None:
    body = {"é": ["ünï", 1, -2.5, None, True, {"nested": []}], "seat": "alpha"}
    expected = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    assert encode(body) == expected


def test_what_orjson_refuses_is_still_written() -> None:
    assert json.loads(encode({"big": 2**70})) == {"big": 2**70}
    assert json.loads(encode({1: "a"})) == {"1": "a"}
