"""The phone page: ``/`` (index.html) and its files under ``/static/``.

The page is public (it holds no data); everything it shows comes from ``/api``.
Its Content-Security-Policy allows only this server, so it can make no outside
request of any kind.
"""
from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC_DIR = Path(__file__).resolve().parent / "static"
PAGE_CSP = ("default-src 'self'; img-src 'self' blob: data:; style-src 'self'; script-src 'self'; "
            "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")

router = APIRouter(include_in_schema=False)


@router.get("/")
async def index():
    return FileResponse(STATIC_DIR / "index.html", media_type="text/html", headers={
        "Content-Security-Policy": PAGE_CSP,
        "Cache-Control": "no-cache",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "no-referrer",
    })


def mount(app) -> None:
    """Serve ``api/static`` at ``/static`` (with ETag revalidation)."""
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
