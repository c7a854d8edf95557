"""The FastAPI application factory.

``create_app(data_dir)`` builds the whole server: the phone page at ``/``, the
pairing link at ``/pair``, the token-protected ``/api`` routes and the OpenAPI
document at ``/docs`` (served from local files: no CDN). Routers live in
``api/routes_*.py``; further routers can be included on the returned app.
"""
from __future__ import annotations

import logging
import os
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Callable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException

from . import routes_docs, routes_page, routes_pair, routes_scan, routes_score, routes_tiles
from .auth import BadTokenLimiter, load_token
from .errors import error_response
from .guard import OTHER_LIMIT, PHOTO_LIMIT, BodyLimit, TokenGuard

log = logging.getLogger("api")

DESCRIPTION = """Tilelens table server: scan a photo of a mahjong hand, correct it, score it.

Every `/api` call needs the pairing token, as `Authorization: Bearer <token>` or as the
HttpOnly cookie that the pairing link `/pair?token=<token>` sets. Errors always have the
shape `{"error": {"code", "message", "field"}}`.
"""


def _mount_sessions(app: FastAPI, data_dir: Path, database_url: str | None) -> None:
    try:
        from .sessions.router import init_sessions
    except ModuleNotFoundError as exc:  # the sessions store is optional
        if exc.name and exc.name.startswith("api.sessions"):
            log.info("api.sessions is not installed: no /api/sessions")
            return
        raise
    init_sessions(app, data_dir, database_url)


def create_app(
    data_dir: Path,
    token: str | None = None,
    *,
    scanner: Callable[[bytes], dict] | None = None,
    scan_executor: Executor | None = None,
    scan_workers: int | None = None,
    photo_limit: int = PHOTO_LIMIT,
    other_limit: int = OTHER_LIMIT,
    limiter: BadTokenLimiter | None = None,
    sessions: bool = True,
    database_url: str | None = None,
) -> FastAPI:
    """Build the server.

    ``token``: the pairing token (default: ``$TILELENS_TOKEN`` or the one kept in
    ``data_dir/token``). ``scanner``: the function a photo goes through
    (default ``vision.scan``). Scans run on ``scan_executor`` (default: a thread
    pool of ``scan_workers`` threads, made on first use, so heavy OpenCV and
    ONNX work never blocks the event loop). ``sessions``: mount the recorded
    sessions store (``api.sessions``, database ``database_url`` or its default
    in ``data_dir``) when that package is present.
    """
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    token = load_token(data_dir, token)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        yield
        routes_scan.shutdown_pool(app)

    app = FastAPI(
        title="Tilelens",
        version="1.0",
        description=DESCRIPTION,
        docs_url=None,
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.data_dir = data_dir
    app.state.token = token
    app.state.limiter = limiter or BadTokenLimiter()
    app.state.scanner = scanner
    app.state.scan_executor = scan_executor
    app.state.scan_workers = scan_workers or min(2, os.cpu_count() or 1)
    app.state.owns_executor = False

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError):
        errors = exc.errors()
        first = errors[0] if errors else {}
        if first.get("type") == "json_invalid":  # FastAPI's own body parsing; its loc holds a character offset
            pos = next((p for p in first.get("loc", ()) if isinstance(p, int)), None)
            where = f" (at character {pos})" if pos is not None else ""
            reason = (first.get("ctx") or {}).get("error") or "JSON decode error"
            return error_response(422, "bad_json", f"The request body is not JSON: {reason}{where}.")
        loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path")]
        field = ".".join(loc) or None
        message = first.get("msg", "invalid request")
        if field:
            message = f"{field}: {message}"
        return error_response(422, "bad_request", message, field)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException):
        if isinstance(exc.__cause__, RecursionError):  # FastAPI's own body parsing: JSON nested too deeply
            return error_response(422, "bad_json", "The request body is nested too deeply to read as JSON.")
        code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
        detail = exc.detail if isinstance(exc.detail, str) else "request failed"
        return error_response(exc.status_code, code, detail, headers=getattr(exc, "headers", None))

    @app.exception_handler(Exception)
    async def _internal_error(request: Request, exc: Exception):
        log.exception("unhandled error on %s %s", request.method, request.url.path)
        return error_response(500, "internal_error", f"The server failed: {type(exc).__name__}. See its log.")

    for module in (routes_page, routes_pair, routes_docs, routes_score, routes_scan, routes_tiles):
        app.include_router(module.router)
    routes_page.mount(app)
    routes_docs.mount(app)
    if sessions:
        _mount_sessions(app, data_dir, database_url)

    # The last added runs first: the token check, then the body cap (so a
    # stranger gets 401 before anything of their upload is read).
    app.add_middleware(BodyLimit, photo_limit=photo_limit, other_limit=other_limit)
    app.add_middleware(TokenGuard, token=token, limiter=app.state.limiter)
    return app
