"""The phone page: ``/`` (index.html) and its files under ``/static/``.

The page is public (it holds no data); everything it shows comes from ``/api``.
Its Content-Security-Policy allows only this server, so it can make no outside
request of any kind.

The page's own three files are held in memory (re-read when they change on
disk) and revalidated by ETag, so a phone's reload costs one small round trip;
anything else under ``api/static`` is served by ``StaticFiles``.
"""
from __future__ import annotations

import hashlib
from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles

STATIC_DIR = Path(__file__).resolve().parent / "static"
PAGE_CSP = ("default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; "
            "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
PAGE_FILES = {"index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
              "app.css": "text/css; charset=utf-8"}

router = APIRouter(include_in_schema=False)
_cache: dict[str, tuple[int, bytes, str]] = {}


def _load(name: str) -> tuple[bytes, str]:
    """The file's bytes and ETag, from memory unless the file changed."""
    path = STATIC_DIR / name
    mtime = path.stat().st_mtime_ns
    hit = _cache.get(name)
    if hit is None or hit[0] != mtime:
        body = path.read_bytes()
        hit = (mtime, body, '"' + hashlib.sha256(body).hexdigest()[:20] + '"')
        _cache[name] = hit
    return hit[1], hit[2]


def _serve(request: Request, name: str, extra: dict[str, str] | None = None) -> Response:
    body, etag = _load(name)
    headers = {"ETag": etag, "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff", **(extra or {})}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type=PAGE_FILES[name], headers=headers)


@router.get("/")
async def index(request: Request):
    return _serve(request, "index.html", {"Content-Security-Policy": PAGE_CSP, "Referrer-Policy": "no-referrer"})


@router.get("/static/app.js")
async def app_js(request: Request):
    return _serve(request, "app.js")


@router.get("/static/app.css")
async def app_css(request: Request):
    return _serve(request, "app.css")


def mount(app) -> None:
    """Serve the rest of ``api/static`` at ``/static`` (with ETag revalidation)."""
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
