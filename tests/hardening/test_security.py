"""Security review items as tests: constant-time token compare, the bad-token
rate limit, cookie flags, no listing or traversal, the token rule at start-up,
and error bodies that never leak a traceback or a path."""
from __future__ import annotations

import ast
import inspect
import json
import os
import stat

import pytest
from fastapi.testclient import TestClient

import api.__main__ as cli
import api.auth as auth
from api.app import create_app
from api.auth import BadTokenLimiter
from conftest import TOKEN

AUTH = {"Authorization": f"Bearer {TOKEN}"}


class FakeClock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def leaks(text: str) -> bool:
    return any(s in text for s in ("Traceback", 'File "', "/work/", "/tmp/", ".py", "site-packages"))


def test_the_token_is_compared_in_constant_time(monkeypatch, tmp_path):
    tree = ast.parse(inspect.getsource(auth.token_matches))
    calls = {ast.unparse(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
    assert "hmac.compare_digest" in calls or "secrets.compare_digest" in calls
    assert not any(isinstance(n, ast.Compare) and any(isinstance(o, (ast.Eq, ast.NotEq)) for o in n.ops)
                   for n in ast.walk(tree)), "token_matches must not compare with =="
    seen = []
    real = auth.hmac.compare_digest
    monkeypatch.setattr(auth.hmac, "compare_digest", lambda a, b: seen.append((a, b)) or real(a, b))
    with TestClient(create_app(tmp_path, TOKEN)) as c:
        assert c.get("/api/variants", headers={"Authorization": "Bearer wrong-token-xyz"}).status_code == 401
        assert c.get("/api/variants", headers=AUTH).status_code == 200
    assert (b"wrong-token-xyz", TOKEN.encode()) in seen and (TOKEN.encode(), TOKEN.encode()) in seen


def test_wrong_tokens_are_rate_limited_per_address(tmp_path):
    clock = FakeClock()
    app = create_app(tmp_path, TOKEN, limiter=BadTokenLimiter(limit=10, window=60, lockout=60, clock=clock))
    with TestClient(app) as c:
        for i in range(10):
            r = c.get("/api/variants", headers={"Authorization": f"Bearer guess-{i:04d}"})
            assert r.status_code == 401 and r.json()["error"]["code"] == "bad_token"
        r = c.get("/api/variants", headers=AUTH)  # locked out: even the right token waits
        assert r.status_code == 429 and r.json()["error"]["code"] == "too_many_attempts"
        assert 0 < int(r.headers["retry-after"]) <= 60
        assert c.get("/pair", params={"token": TOKEN}, follow_redirects=False).status_code == 429
        with TestClient(app, client=("10.0.0.9", 5000)) as other:  # another phone is not locked out
            assert other.get("/api/variants", headers=AUTH).status_code == 200
        clock.now += 61
        assert c.get("/api/variants", headers=AUTH).status_code == 200
        # wrong pairing links count too
        for i in range(10):
            assert c.get("/pair", params={"token": f"guess-{i:04d}"}).status_code == 401
        assert c.get("/api/variants", headers=AUTH).status_code == 429


def test_the_pairing_cookie_is_httponly_and_samesite(tmp_path):
    with TestClient(create_app(tmp_path, TOKEN)) as c:
        r = c.get("/pair", params={"token": TOKEN}, follow_redirects=False)
        assert r.status_code == 303
        cookie = r.headers["set-cookie"]
        attrs = {a.strip().split("=")[0].lower(): a.strip() for a in cookie.split(";")}
        assert "httponly" in attrs and attrs["samesite"].lower() in ("samesite=lax", "samesite=strict")
        assert attrs["path"] == "Path=/" and r.headers["cache-control"] == "no-store"
        assert c.get("/api/variants").status_code == 200  # the cookie alone is enough
        c.cookies.clear()
        assert c.get("/api/variants").status_code == 401


def test_no_directory_listing_and_no_traversal(tmp_path):
    data = tmp_path / "data"
    with TestClient(create_app(data, TOKEN), headers=AUTH) as c:
        s = c.post("/api/sessions", json={"variant": "riichi", "players": ["A", "B", "C", "D"]}).json()
        exported = c.get(f"/api/sessions/{s['id']}/export.json").json()
        exported["entries"] = [{"seq": 1, "position": 1, "kind": "event", "name": "x", "status": "active",
                                "request": {}, "context": {}, "outcome": {}, "result": {}, "payments": {},
                                "note": "", "photo": "../../token", "created_at": exported["session"]["created_at"]}]
        c.post("/api/sessions/import", content=json.dumps(exported))  # whatever it answers, no photo name gets in
        for path in ["/static/", "/static", "/docs-assets/", "/static/../../api/auth.py", "/static/%2e%2e/auth.py",
                     "/static/..%2F..%2Fdata%2Ftoken", "/api/sessions/..%2F..%2Ftoken",
                     f"/api/sessions/{s['id']}/entries/1/photo", "/session-photos/", "/data/token", "/token"]:
            r = c.get(path)
            assert r.status_code in (404, 405, 422), (path, r.status_code, r.text[:200])
            assert TOKEN not in r.text and "<title>Index of" not in r.text and "def token_matches" not in r.text
        for sid in [x["id"] for x in c.get("/api/sessions").json()]:
            for e in c.get(f"/api/sessions/{sid}").json()["history"]:
                assert e.get("photo") is None


def test_the_server_never_runs_without_a_token(tmp_path, monkeypatch, capsys):
    """``python -m api`` listens on 0.0.0.0 by default; it always has a token: the
    given one ($TILELENS_TOKEN) if usable, else the one kept in the data dir, else a
    new random one written there (mode 0600). A token that is too short refuses to start."""
    started = []
    monkeypatch.setattr("uvicorn.run", lambda app, **kw: started.append((app, kw)))
    monkeypatch.delenv("TILELENS_TOKEN", raising=False)
    assert cli.main(["--host", "0.0.0.0", "--data-dir", str(tmp_path / "a"), "--no-qr"]) == 0
    app, kw = started.pop()
    assert kw["host"] == "0.0.0.0" and len(app.state.token) >= 20
    token_file = tmp_path / "a" / "token"
    assert token_file.read_text().strip() == app.state.token
    assert stat.S_IMODE(os.stat(token_file).st_mode) == 0o600
    with TestClient(app) as c:
        assert c.get("/api/variants").status_code == 401
        assert c.get("/api/variants", headers={"Authorization": f"Bearer {app.state.token}"}).status_code == 200
    for bad in ("short", "has space in it", "tökën-with-non-ascii"):
        monkeypatch.setenv("TILELENS_TOKEN", bad)
        assert cli.main(["--host", "0.0.0.0", "--data-dir", str(tmp_path / "b"), "--no-qr"]) == 2
        assert "pairing token" in capsys.readouterr().err
    assert started == []
    with pytest.raises(auth.TokenError):
        create_app(tmp_path / "c", "short")


def _boom(_data: bytes) -> dict:
    raise RuntimeError(f"exploded in {__file__} while reading /etc/shadow")


def test_an_internal_error_is_a_plain_500_without_traceback_or_path(tmp_path):
    app = create_app(tmp_path, TOKEN, scanner=_boom)
    with TestClient(app, headers=AUTH, raise_server_exceptions=False) as c:
        answers = [c.post("/api/scan", files={"photo": ("h.jpg", b"\xff\xd8 any bytes", "image/jpeg")})]
        app.state.sessions.list_sessions = lambda: _boom(b"")  # the generic handler, outside the scan route
        answers.append(c.get("/api/sessions"))
    for r in answers:
        assert r.status_code == 500
        err = r.json()["error"]
        assert err["code"] in ("internal_error", "scan_failed") and err["message"]
        assert not leaks(r.text) and "shadow" not in r.text, r.text


def test_bad_requests_do_not_leak_either(tmp_path):
    with TestClient(create_app(tmp_path, TOKEN), headers=AUTH) as c:
        answers = [
            c.post("/api/score", content=b"{not json"),
            c.post("/api/score", json={"variant": "riichi", "concealed": "x" * 5000}),
            c.post("/api/sessions/import", content=b"\xff\xfe"),
            c.post("/api/sessions", json={"variant": "../../etc/passwd", "players": []}),
            c.get("/api/sessions/%00"),
            c.post("/api/scan", files={"photo": ("h.jpg", b"", "image/jpeg")}),
        ]
    for r in answers:
        assert 400 <= r.status_code < 500, (r.request.url, r.status_code, r.text[:300])
        assert "error" in r.json() and not leaks(r.text), r.text[:300]
