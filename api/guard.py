"""ASGI middleware in front of the app: the pairing-token check on ``/api`` and
the request body caps (25 MB for photos and session uploads, 1 MB for everything else).

Both are raw ASGI rather than ``BaseHTTPMiddleware`` so they add next to no
latency and can refuse an oversized upload before reading it.
"""
from __future__ import annotations

import asyncio
import math

from .auth import BadTokenLimiter, presented_token, token_matches
from .errors import send_error

MB = 1024 * 1024
PHOTO_LIMIT = 25 * MB
# A body that stalls this long between chunks, or is not all there after
# BODY_DEADLINE seconds, gets 408: a trickling client cannot hold a slot forever.
BODY_IDLE_TIMEOUT = 15.0
BODY_DEADLINE = 60.0
OTHER_LIMIT = 1 * MB
PHOTO_PATHS = ("/api/scan",)
# Other routes that may carry a photo or a large document (a recorded hand's
# photo, a session export being imported) get the photo cap too.
LARGE_PREFIXES = ("/api/sessions",)


def is_api_path(path: str) -> bool:
    return path == "/api" or path.startswith("/api/")


def client_address(scope) -> str:
    client = scope.get("client")
    return client[0] if client else "unknown"


class TokenGuard:
    """401 for ``/api`` requests without the right token, 429 while an address is locked out."""

    def __init__(self, app, token: str, limiter: BadTokenLimiter):
        self.app = app
        self.token = token
        self.limiter = limiter

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not is_api_path(scope["path"]):
            return await self.app(scope, receive, send)
        client = client_address(scope)
        wait = self.limiter.retry_after(client)
        if wait > 0:
            return await send_error(send, 429, "too_many_attempts",
                                    f"Too many wrong pairing tokens from this device; try again in {math.ceil(wait)} s.",
                                    headers={"Retry-After": str(math.ceil(wait))})
        candidate = presented_token(scope["headers"])
        if candidate is None:
            return await send_error(send, 401, "not_paired",
                                    "This device is not paired: open the pairing link or scan the QR code "
                                    "that the server printed.", headers={"WWW-Authenticate": "Bearer"})
        if not token_matches(candidate, self.token):
            self.limiter.record_failure(client)
            return await send_error(send, 401, "bad_token",
                                    "The pairing token is wrong: open the pairing link the server printed again.",
                                    headers={"WWW-Authenticate": 'Bearer error="invalid_token"'})
        return await self.app(scope, receive, send)


class _TooLarge(Exception):
    pass


class _TooSlow(Exception):
    pass


def _limit_message(limit: int) -> str:
    if limit >= MB:
        return f"{limit // MB} MB"
    return f"{limit} bytes"


class BodyLimit:
    """413 for request bodies over the cap, whether or not they declare their length."""

    def __init__(self, app, photo_limit: int = PHOTO_LIMIT, other_limit: int = OTHER_LIMIT):
        self.app = app
        self.photo_limit = photo_limit
        self.other_limit = other_limit

    def limit_for(self, path: str) -> int:
        if path in PHOTO_PATHS or any(path == p or path.startswith(p + "/") for p in LARGE_PREFIXES):
            return self.photo_limit
        return self.other_limit

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not is_api_path(scope["path"]):
            return await self.app(scope, receive, send)
        limit = self.limit_for(scope["path"])
        what = "photo" if scope["path"] in PHOTO_PATHS else "request"
        field = "photo" if what == "photo" else None
        message = f"The {what} is too large: the limit is {_limit_message(limit)}."
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    return await send_error(send, 400, "bad_request", "Content-Length is not a number.")
                if declared > limit:
                    return await send_error(send, 413, "too_large", message, field, headers={"Connection": "close"})
        seen = 0
        exceeded = False
        replaced = False
        refusal = (413, "too_large", message, field)
        body_done = False
        loop = asyncio.get_running_loop()
        deadline = loop.time() + BODY_DEADLINE

        async def counting_receive():
            nonlocal seen, exceeded, body_done, refusal
            if body_done:  # after the body: the app only listens for a disconnect
                return await receive()
            try:
                msg = await asyncio.wait_for(receive(), max(0.0, min(BODY_IDLE_TIMEOUT, deadline - loop.time())))
            except asyncio.TimeoutError:
                exceeded = True
                refusal = (408, "too_slow", "The upload was too slow: the request body did not arrive in time.", None)
                raise _TooSlow() from None
            if msg["type"] == "http.request":
                body_done = not msg.get("more_body", False)
                seen += len(msg.get("body", b""))
                if seen > limit:
                    exceeded = True
                    raise _TooLarge()
            return msg

        async def replacing_send(msg):
            # Whatever the app answers after the cap was passed (its body parser
            # may turn the exception into a 400), the client gets the 413.
            nonlocal replaced
            if not exceeded:
                return await send(msg)
            if not replaced:
                replaced = True
                await send_error(send, *refusal, headers={"Connection": "close"})

        try:
            await self.app(scope, counting_receive, replacing_send)
        except Exception:
            if not exceeded:
                raise
            if not replaced:
                replaced = True
                await send_error(send, *refusal, headers={"Connection": "close"})
