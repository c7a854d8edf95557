"""Error responses in the engine's error JSON shape: ``{"error": {code, message, field}}``.

Every error the server sends (401, 404, 413, 422, 429, ...) uses this shape, so
the page has one way to show a problem.
"""
from __future__ import annotations

import json

from fastapi.responses import JSONResponse


def error_json(code: str, message: str, field: str | None = None) -> dict:
    return {"error": {"code": code, "message": message, "field": field}}


def error_response(status: int, code: str, message: str, field: str | None = None,
                   headers: dict[str, str] | None = None) -> JSONResponse:
    return JSONResponse(error_json(code, message, field), status_code=status, headers=headers)


async def send_error(send, status: int, code: str, message: str, field: str | None = None,
                     headers: dict[str, str] | None = None) -> None:
    """Send an error response straight through a raw ASGI ``send``."""
    body = json.dumps(error_json(code, message, field)).encode()
    raw = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    raw += [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in (headers or {}).items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})
