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

import threading
import zlib
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import orjson
import pydantic_core
from fastapi.responses import JSONResponse
from starlette.requests import Request
from starlette.responses import Response

# zlib level 1 (nginx's default too) writes a 1.3 MB state in ~2 ms, a 3 MB timeline in ~6 ms;
# level 9 (Starlette's default) takes ~25 ms for the state, for a body 10% smaller
GZIP_LEVEL = 1
GZIP_MINIMUM = 1024
"""Bodies shorter than this (bytes) go uncompressed."""


def encode(content: Any) -> bytes:
    try:
        return orjson.dumps(content)
    except TypeError:  # orjson.JSONEncodeError: a value orjson does not write
        return pydantic_core.to_json(content)


class FastJSONResponse(JSONResponse):
    def render(self, content: Any) -> bytes:
        return encode(content)


def gzipped(body: bytes) -> bytes:
    """``body`` compressed as ``GZipMiddleware`` compresses it (gzip, ``GZIP_LEVEL``)."""
    compressor = zlib.compressobj(GZIP_LEVEL, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    return compressor.compress(body) + compressor.flush()


def accepts_gzip(request: Request) -> bool:
    """Whether the client takes gzip, decided as ``GZipMiddleware`` decides it."""
    return "gzip" in request.headers.get("accept-encoding", "")


@dataclass
class _Kept:
    shared: Any  # held, so that no other object takes its id while it is kept
    rest: tuple[Any, ...]  # the body's other items
    body: bytes
    compressed: bytes | None = None


class SharedBodies:
    """The encoded JSON, and its gzip, of bodies built around a value that a cache shares and
    never changes (a timeline's points, ``projections.timetravel.known_timeline``), kept by
    that value's identity: asking again for a long match's timeline, unchanged, costs neither
    its encoding nor its compression again. The last ``size`` such bodies are kept, each with
    the value it was made from and the body's other items, which must be equal too."""

    def __init__(self, size: int = 4) -> None:
        self.size = size
        self._kept: OrderedDict[int, _Kept] = OrderedDict()
        self._lock = threading.Lock()

    def response(self, request: Request, content: dict[str, Any], shared: Any) -> Response:
        """``content`` (a dict, one of whose items is ``shared``) as JSON, gzipped when the
        client takes it and it is long enough: the answer ``FastJSONResponse`` would give
        behind ``GZipMiddleware`` (which passes a body already compressed through as it is)."""
        kept = self._kept_for(content, shared)
        if len(kept.body) < GZIP_MINIMUM:
            return _json(kept.body)
        vary = {"Vary": "Accept-Encoding"}
        if not accepts_gzip(request):
            return _json(kept.body, vary)
        if kept.compressed is None:  # two threads may both compress it: to the same bytes
            kept.compressed = gzipped(kept.body)
        return _json(kept.compressed, {**vary, "Content-Encoding": "gzip"})

    def _kept_for(self, content: dict[str, Any], shared: Any) -> _Kept:
        rest = tuple((k, v) for k, v in content.items() if v is not shared)
        with self._lock:
            kept = self._kept.get(id(shared))
            if kept is not None and kept.shared is shared and kept.rest == rest:
                self._kept.move_to_end(id(shared))
                return kept
        kept = _Kept(shared, rest, encode(content))
        with self._lock:
            self._kept[id(shared)] = kept
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return kept


def _json(body: bytes, headers: dict[str, str] | None = None) -> Response:
    return Response(body, media_type="application/json", headers=headers)
