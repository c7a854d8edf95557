"""Hostile uploads to ``/api/scan`` (and a session photo): each gets a clear 4xx
quickly, the server keeps answering, and nothing is written where a filename says.

Peak memory during these is measured by bench/upload_memory_bench.py.
"""
from __future__ import annotations

import asyncio
import socket
import threading
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

import api.guard as guard
from api.app import create_app
from api.routes_scan import MAX_WAITING
from conftest import TOKEN
from hostile_images import jpeg_claiming, png, send_endless_upload, small_jpeg
from inproc_server import ThreadServer

AUTH = {"Authorization": f"Bearer {TOKEN}"}
MB = 1024 * 1024


def empty_scan(data: bytes) -> dict:
    """The real decoder (vision.decode) in front of an empty result: no classifier needed."""
    from vision.decode import decode

    decode(data)
    return {"tiles": [], "hand": {"concealed": ""}}


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(tmp_path / "data", TOKEN, scanner=empty_scan), headers=AUTH) as c:
        yield c


def upload(client, data: bytes, name: str = "hand.jpg", kind: str = "image/jpeg"):
    return client.post("/api/scan", files={"photo": (name, data, kind)})


def assert_refused(r, status: int, code: str):
    assert r.status_code == status, r.text
    err = r.json()["error"]
    assert err["code"] == code and err["message"], err
    assert "Traceback" not in r.text and "/work" not in r.text and ".py" not in r.text


@pytest.mark.parametrize("data, code", [
    (png(50_000, 50_000), "image_too_large"),            # 128 bytes that declare 2.5 gigapixels
    (png(7_000, 7_000, full_data=True), "image_too_large"),  # 48 KB that really inflate to 49 megapixels
    (jpeg_claiming(50_000, 50_000), "image_too_large"),
], ids=["png-2.5-gigapixel-header", "png-49-megapixel-zlib-bomb", "jpeg-2.5-gigapixel-header"])
def test_decompression_bombs_get_422(client, data, code):
    assert len(data) < 64 * 1024
    assert_refused(upload(client, data, kind="image/png" if data[:4] == b"\x89PNG" else "image/jpeg"), 422, code)


@pytest.mark.parametrize("data, code", [
    (jpeg_claiming(4000, 3000), "bad_image"),        # 675 bytes of 64x48 data under a 12 MP header
    (png(3000, 2000), "bad_image"),                  # one row of data under a 6 MP header
    (small_jpeg()[:300], "bad_image"),               # cut inside its header
    (small_jpeg()[:-40], "truncated"),               # cut inside its data
    (b"GIF89a" + b"\x00" * 200, "not_an_image"),       # a GIF header with nothing behind it
    (b"<?php echo 'not a photo'; ?>" * 20, "not_an_image"),
], ids=["jpeg-header-claims-12MP", "png-header-claims-6MP", "jpeg-cut-in-header", "jpeg-cut-in-data",
        "gif-header-only", "text-named-jpg"])
def test_lying_and_broken_headers_get_422(client, data, code):
    assert_refused(upload(client, data), 422, code)


def test_the_photo_filename_is_never_used_as_a_path(client, tmp_path):
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    for name in ("../../../../tmp/evil.jpg", "..\\..\\evil.jpg", "/etc/passwd", "a\x00b.jpg", "%2e%2e%2fevil.jpg"):
        r = upload(client, small_jpeg(), name=name)
        assert r.status_code == 200, r.text
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before
    assert not Path("/tmp/evil.jpg").exists()


def test_a_session_photo_is_stored_under_a_generated_name(tmp_path):
    from api.sessions.db import PHOTO_DIR

    app = create_app(tmp_path / "data", TOKEN, scanner=empty_scan)
    with TestClient(app, headers=AUTH) as c:
        s = c.post("/api/sessions", json={"variant": "riichi", "players": ["A", "B", "C", "D"]}).json()
        record = ('{"version": %d, "request": {"concealed": "123m456m789m123p55p", "winning_tile": "5p", '
                  '"self_drawn": true, "winner": "E"}}' % s["version"])
        r = c.post(f"/api/sessions/{s['id']}/hands", data={"record": record},
                   files={"photo": ("../../../token", small_jpeg(), "image/jpeg")})
        assert r.status_code == 200, r.text
        stored = [p.name for p in (tmp_path / "data" / PHOTO_DIR).iterdir()]
        assert len(stored) == 1 and stored[0].endswith(".jpg") and len(stored[0]) == 28
        assert {p.name for p in (tmp_path / "data").iterdir()} <= {
            "sessions.sqlite3", "sessions.sqlite3-wal", "sessions.sqlite3-shm", PHOTO_DIR}
        # the stored photo is reachable only by entry number; names and paths are not routes
        for path in (f"/api/sessions/{s['id']}/entries/1/photo/../../../../token",
                     f"/api/sessions/{s['id']}/entries/..%2F..%2Ftoken/photo", "/static/../data/token",
                     "/static/", f"/api/sessions/{s['id']}/entries/", f"/{PHOTO_DIR}/{stored[0]}"):
            r = c.get(path)
            assert r.status_code in (404, 405, 422), (path, r.status_code)
            assert TOKEN not in r.text


@pytest.fixture
def live(tmp_path):
    def slow_scan(data: bytes) -> dict:
        time.sleep(0.3)
        return empty_scan(data)

    with ThreadServer(create_app(tmp_path / "data", TOKEN, scanner=slow_scan)) as srv:
        yield srv


def _raw_request(port: int, head: bytes) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(head)
    return s


def _read_status(s: socket.socket) -> tuple[int, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(4096)
        if not chunk:
            break
        data += chunk
    try:
        while True:  # the (short) body, up to the close
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    except OSError:
        pass
    return int(data.split(b" ", 2)[1]), data


def test_an_endless_multipart_body_gets_413_at_the_cap(live):
    s = socket.create_connection(("127.0.0.1", live.port), timeout=10)
    sent = send_endless_upload(s, TOKEN, 200 * MB)  # "endless": 8x the cap, the server must stop it long before
    status, raw = _read_status(s)
    s.close()
    assert status == 413 and b'"too_large"' in raw and b"25 MB" in raw
    assert sent < 40 * MB, f"the server read {sent / MB:.0f} MB before refusing"


def test_a_declared_huge_body_is_refused_before_reading(live):
    s = _raw_request(live.port, b"POST /api/scan HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + TOKEN.encode()
                     + b"\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 10000000000\r\n\r\n")
    status, raw = _read_status(s)
    s.close()
    assert status == 413 and b'"too_large"' in raw


def test_a_trickling_upload_gets_408_and_the_server_keeps_answering(live, monkeypatch):
    monkeypatch.setattr(guard, "BODY_IDLE_TIMEOUT", 1.0)
    monkeypatch.setattr(guard, "BODY_DEADLINE", 3.0)
    head = (b"POST /api/scan HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + TOKEN.encode()
            + b"\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n--b\r\n")

    def trickle(pause: float):
        """Send a byte every ``pause`` s until the server answers; the answer and how long it took."""
        s = _raw_request(live.port, head)
        s.settimeout(pause)
        t0 = time.monotonic()
        try:
            while time.monotonic() - t0 < 20:
                try:
                    if s.recv(1, socket.MSG_PEEK):
                        break
                except socket.timeout:
                    s.sendall(b"x")
            s.settimeout(5)
            return _read_status(s), time.monotonic() - t0
        finally:
            s.close()

    results = {}
    threads = [threading.Thread(target=lambda p=p: results.__setitem__(p, trickle(p))) for p in (0.2, 2.5)]
    for t in threads:
        t.start()
    with httpx.Client(base_url=live.url, headers=AUTH, timeout=5) as c:
        for _ in range(5):  # meanwhile the server answers everyone else at once
            t0 = time.monotonic()
            assert c.get("/api/variants").status_code == 200
            assert time.monotonic() - t0 < 5.0  # generous: the CI machine is shared
            time.sleep(0.3)
    for t in threads:
        t.join(30)
    for pause, ((status, raw), took) in results.items():
        assert status == 408 and b'"too_slow"' in raw, (pause, raw[:300])
        assert took < 10, (pause, took)
    assert results[2.5][1] < results[0.2][1]  # the stalled one is cut at the idle timeout, the trickle at the deadline


def test_a_hundred_uploads_at_once_are_scanned_or_told_to_retry(live):
    photo = small_jpeg(640, 480)

    async def one(c: httpx.AsyncClient):
        return await c.post("/api/scan", files={"photo": ("h.jpg", photo, "image/jpeg")})

    async def all_at_once():
        limits = httpx.Limits(max_connections=100)
        async with httpx.AsyncClient(base_url=live.url, headers=AUTH, timeout=60, limits=limits) as c:
            return await asyncio.gather(*(one(c) for _ in range(100)))

    answers = asyncio.run(all_at_once())
    codes = sorted(r.status_code for r in answers)
    assert set(codes) <= {200, 503}, codes
    assert codes.count(200) >= MAX_WAITING
    for r in answers:
        if r.status_code == 503:
            assert r.json()["error"]["code"] == "busy" and r.headers["retry-after"]
    with httpx.Client(base_url=live.url, headers=AUTH, timeout=10) as c:  # and it is still fine afterwards
        assert c.post("/api/scan", files={"photo": ("h.jpg", photo, "image/jpeg")}).status_code == 200
