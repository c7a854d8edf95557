"""Pairing token: 401 without it, bearer and cookie with it, rate limit on wrong ones."""
from __future__ import annotations

import os
import stat

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.auth import COOKIE_NAME, BadTokenLimiter, TokenError, load_token

TOKEN = "test-token-0123456789"  # the conftest's token

API_CALLS = [
    ("GET", "/api/variants", None),
    ("POST", "/api/score", {"json": {"variant": "riichi", "concealed": "123m"}}),
    ("POST", "/api/scan", {"files": {"photo": ("a.jpg", b"\xff\xd8\xff", "image/jpeg")}}),
    ("GET", "/api/tiles/5p.png", None),
]


@pytest.mark.parametrize("method,path,kwargs", API_CALLS)
def test_every_api_call_needs_the_token(client, method, path, kwargs):
    r = client.request(method, path, **(kwargs or {}))
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "not_paired"
    assert r.headers["www-authenticate"].startswith("Bearer")


@pytest.mark.parametrize("method,path,kwargs", API_CALLS)
def test_a_wrong_token_is_refused(client, method, path, kwargs):
    r = client.request(method, path, headers={"Authorization": "Bearer nope-nope-nope"}, **(kwargs or {}))
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "bad_token"


def test_bearer_token_is_accepted(authed):
    assert authed.get("/api/variants").status_code == 200


def test_the_pairing_link_sets_an_httponly_cookie_that_opens_the_api(client):
    r = client.get(f"/pair?token={TOKEN}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == "/"
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{COOKIE_NAME}={TOKEN}")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    client.cookies.set(COOKIE_NAME, TOKEN)
    assert client.get("/api/variants").status_code == 200


def test_a_wrong_pairing_link_sets_no_cookie(client):
    r = client.get("/pair?token=wrong-token-xyz", follow_redirects=False)
    assert r.status_code == 401
    assert "set-cookie" not in r.headers
    assert "not valid" in r.text


def test_a_wrong_cookie_is_refused(client):
    client.cookies.set(COOKIE_NAME, "wrong-token-xyz")
    assert client.get("/api/variants").status_code == 401


def test_page_and_docs_are_public(client):
    assert client.get("/").status_code == 200
    assert client.get("/docs").status_code == 200
    assert client.get("/openapi.json").status_code == 200


def test_repeated_wrong_tokens_lock_the_address_out(client):
    bad = {"Authorization": "Bearer wrong-token-xyz"}
    for _ in range(10):
        assert client.get("/api/variants", headers=bad).status_code == 401
    r = client.get("/api/variants", headers=bad)
    assert r.status_code == 429
    assert int(r.headers["retry-after"]) > 0
    assert r.json()["error"]["code"] == "too_many_attempts"
    # While locked out even the right token is refused: guessing cannot go on.
    assert client.get("/api/variants", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 429
    assert client.get(f"/pair?token={TOKEN}", follow_redirects=False).status_code == 429


def test_wrong_pairing_links_count_towards_the_lockout(client):
    for _ in range(10):
        client.get("/pair?token=wrong-token-xyz", follow_redirects=False)
    assert client.get("/api/variants", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 429


def test_missing_tokens_do_not_lock_out(client):
    for _ in range(30):
        assert client.get("/api/variants").status_code == 401
    assert client.get("/api/variants", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


def test_limiter_window_and_lockout_expire():
    now = [0.0]
    lim = BadTokenLimiter(limit=3, window=10, lockout=30, clock=lambda: now[0])
    lim.record_failure("a"); lim.record_failure("a")
    now[0] = 11  # the first two fall out of the window
    lim.record_failure("a")
    assert lim.retry_after("a") == 0
    lim.record_failure("a"); lim.record_failure("a")
    assert lim.retry_after("a") == pytest.approx(30)
    assert lim.retry_after("b") == 0
    now[0] = 42
    assert lim.retry_after("a") == 0


def test_token_is_generated_once_and_kept_private(tmp_path, monkeypatch):
    monkeypatch.delenv("TILELENS_TOKEN", raising=False)
    first = load_token(tmp_path)
    assert len(first) >= 20
    assert load_token(tmp_path) == first
    mode = stat.S_IMODE(os.stat(tmp_path / "token").st_mode)
    assert mode & 0o077 == 0


def test_token_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("TILELENS_TOKEN", "from-the-env-123")
    assert load_token(tmp_path) == "from-the-env-123"
    assert not (tmp_path / "token").exists()
    app = create_app(tmp_path)
    with TestClient(app) as c:
        assert c.get("/api/variants", headers={"Authorization": "Bearer from-the-env-123"}).status_code == 200


@pytest.mark.parametrize("bad", ["short", "has space in it", "ünïcödé-token"])
def test_unusable_tokens_are_refused(tmp_path, bad):
    with pytest.raises(TokenError):
        load_token(tmp_path, bad)
