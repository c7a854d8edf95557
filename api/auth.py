"""Pairing token: where it comes from, how a request proves it, and the
rate limit on wrong guesses.

The server is reachable by anyone on the Wi-Fi, so every ``/api`` request must
carry the token, either as ``Authorization: Bearer <token>`` or as the
HttpOnly cookie that the pairing link ``/pair?token=...`` sets. The page
itself, ``/pair`` and the OpenAPI document are public.
"""
from __future__ import annotations

import hmac
import os
import secrets
import time
from collections import deque
from http.cookies import SimpleCookie
from pathlib import Path

COOKIE_NAME = "tilelens_token"
COOKIE_MAX_AGE = 30 * 24 * 3600
TOKEN_FILE = "token"
ENV_TOKEN = "TILELENS_TOKEN"
MIN_TOKEN_LENGTH = 8


class TokenError(ValueError):
    """A configured token that cannot be used."""


def load_token(data_dir: Path, explicit: str | None = None) -> str:
    """The pairing token: ``explicit``, else ``$TILELENS_TOKEN``, else the one
    kept in ``<data_dir>/token`` (generated and written there on first use)."""
    token = explicit if explicit is not None else os.environ.get(ENV_TOKEN) or None
    if token is None:
        path = Path(data_dir) / TOKEN_FILE
        if path.exists():
            token = path.read_text(encoding="utf-8").strip()
        if not token:
            token = secrets.token_urlsafe(18)
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(token + "\n")
    token = token.strip()
    if len(token) < MIN_TOKEN_LENGTH or not token.isascii() or not token.isprintable() or " " in token:
        raise TokenError(
            f"the pairing token must be at least {MIN_TOKEN_LENGTH} printable ASCII characters without spaces"
        )
    return token


def token_matches(candidate: str | None, token: str) -> bool:
    if not candidate:
        return False
    return hmac.compare_digest(candidate.encode("utf-8", "replace"), token.encode("utf-8"))


def presented_token(headers: dict[bytes, bytes] | list[tuple[bytes, bytes]]) -> str | None:
    """The token a request carries (bearer header first, then cookie), or None."""
    items = headers.items() if isinstance(headers, dict) else headers
    cookie_header = None
    for name, value in items:
        if name == b"authorization":
            text = value.decode("latin-1").strip()
            scheme, _, credential = text.partition(" ")
            if scheme.lower() == "bearer" and credential.strip():
                return credential.strip()
        elif name == b"cookie":
            cookie_header = value.decode("latin-1")
    if cookie_header:
        jar = SimpleCookie()
        try:
            jar.load(cookie_header)
        except Exception:  # a malformed cookie header is simply no token
            return None
        if COOKIE_NAME in jar:
            return jar[COOKIE_NAME].value or None
    return None


class BadTokenLimiter:
    """Locks out a client address after ``limit`` wrong tokens within ``window`` seconds.

    While locked out, every ``/api`` request and pairing link from that address is refused
    with 429 without checking the token, so guessing cannot continue at full speed (the
    page's own files hold no data and still load).
    """

    def __init__(self, limit: int = 10, window: float = 60.0, lockout: float = 60.0, clock=time.monotonic):
        self.limit = limit
        self.window = window
        self.lockout = lockout
        self.clock = clock
        self._failures: dict[str, deque[float]] = {}
        self._locked_until: dict[str, float] = {}

    def retry_after(self, client: str) -> float:
        """Seconds left in this client's lockout (0 when not locked out)."""
        until = self._locked_until.get(client)
        if until is None:
            return 0.0
        left = until - self.clock()
        if left <= 0:
            del self._locked_until[client]
            return 0.0
        return left

    def record_failure(self, client: str) -> None:
        now = self.clock()
        q = self._failures.setdefault(client, deque())
        q.append(now)
        while q and q[0] < now - self.window:
            q.popleft()
        if len(q) >= self.limit:
            self._locked_until[client] = now + self.lockout
            q.clear()
        if len(self._failures) > 10_000:  # bound memory against address spraying
            self._failures = {k: v for k, v in self._failures.items() if v}

    def record_success(self, client: str) -> None:
        self._failures.pop(client, None)


def cookie_header_value(token: str) -> str:
    return f"{COOKIE_NAME}={token}; Max-Age={COOKIE_MAX_AGE}; Path=/; HttpOnly; SameSite=Lax"
