"""``GET /pair?token=...``: the pairing link. A right token sets the HttpOnly
cookie and sends the phone to the page; a wrong one counts towards the
rate limit."""
from __future__ import annotations

import math

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse

from .auth import cookie_header_value, token_matches
from .guard import client_address

router = APIRouter(tags=["pairing"])

FAILED_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tilelens: pairing failed</title><link rel="stylesheet" href="/static/app.css"></head>
<body><main class="notice"><h1>Pairing failed</h1><p>{message}</p>
<p><a class="button" href="/">Back to the page</a></p></main></body></html>"""


@router.get("/pair", summary="Pair this device (sets the token cookie)", response_class=HTMLResponse,
            responses={303: {"description": "paired: the cookie is set, go to the page"},
                       401: {"description": "wrong token"}, 429: {"description": "too many wrong tokens"}})
async def pair(request: Request, token: str = ""):
    limiter = request.app.state.limiter
    client = client_address(request.scope)
    wait = limiter.retry_after(client)
    if wait > 0:
        return HTMLResponse(FAILED_PAGE.format(
            message=f"Too many wrong pairing tokens from this device. Try again in {math.ceil(wait)} seconds."),
            status_code=429, headers={"Retry-After": str(math.ceil(wait))})
    if not token_matches(token, request.app.state.token):
        if token:
            limiter.record_failure(client)
        return HTMLResponse(FAILED_PAGE.format(
            message="This pairing link is not valid. Scan the QR code that the server printed again, "
                    "or type the link it shows."), status_code=401)
    limiter.record_success(client)
    response = RedirectResponse("/", status_code=303)
    response.headers["set-cookie"] = cookie_header_value(request.app.state.token)
    response.headers["cache-control"] = "no-store"
    response.headers["referrer-policy"] = "no-referrer"
    return response
