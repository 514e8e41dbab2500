"""The service's JSON response: encoded by orjson (C), falling back to pydantic-core (Rust),
instead of the stdlib ``json``.

A big match's state, timeline or events page is a large tree of dicts and lists: for a 3 MB
timeline ``json.dumps`` takes ~35 ms, ``pydantic_core.to_json`` ~9 ms and ``orjson.dumps``
~3 ms, all writing the same compact UTF-8 JSON (no ASCII escaping, like Starlette's
``JSONResponse``). orjson refuses what it cannot write exactly (an integer beyond 64 bits, a
non-string key); those bodies go to pydantic-core, which writes them. A float JSON cannot hold
(NaN, infinity) would be written as ``null``, never as a non-standard token; strict request
parsing (``api.http.strictjson``) keeps them out of every record in the first place.
"""

from __future__ import annotations

from typing import Any

import orjson
import pydantic_core
from fastapi.responses import JSONResponse


def encode(content: Any) -> bytes:
    try:
        return orjson.dumps(content)
    except TypeError:  # orjson.JSONEncodeError: a value orjson does not write
        return pydantic_core.to_json(content)


class FastJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return encode(content)
