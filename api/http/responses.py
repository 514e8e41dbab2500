"""The service's JSON response: encoded by pydantic-core (Rust) instead of the stdlib ``json``.

A big match's state or events page is a large tree of dicts and lists; ``json.dumps`` spends
about four times as long on it as ``pydantic_core.to_json``. The bytes are the same compact,
UTF-8 JSON (no ASCII escaping, like Starlette's ``JSONResponse``). A float JSON cannot hold
(NaN, infinity) would be written as ``null``, never as a non-standard token; strict request
parsing (``api.strictjson``) keeps them out of every record in the first place.
"""

from __future__ import annotations

from typing import Any

import pydantic_core
from fastapi.responses import JSONResponse


class FastJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return pydantic_core.to_json(content)
