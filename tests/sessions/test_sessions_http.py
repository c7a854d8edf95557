"""The /api/sessions routes through the real ``create_app``: auth, validation,
photos, versioning, exports and import, and the store's own guarantees."""
from __future__ import annotations

import io
import sqlite3

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from api.app import create_app
from api.sessions.db import SQLITE_FILE, open_database

TOKEN = "sessions-http-token-1"
H1 = {"concealed": "123m456m789m123p55p", "winning_tile": "5p", "self_drawn": True, "winner": "S"}


@pytest.fixture
def client(riichi_client):
    with riichi_client(TOKEN) as c:
        yield c


def png_bytes() -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 6), (200, 30, 30)).save(buf, "PNG")
    return buf.getvalue()


def new_session(client) -> dict:
    r = client.post("/api/sessions", json={"variant": "riichi", "players": ["A", "B", "C", "D"], "title": "t"})
    assert r.status_code == 200, r.text
    return r.json()


def test_every_route_needs_the_pairing_token(data_dir, need_variant):
    need_variant("riichi")
    with TestClient(create_app(data_dir, TOKEN)) as c:
        assert c.get("/api/sessions").status_code == 401
        assert c.post("/api/sessions", json={"variant": "riichi", "players": ["A", "B", "C", "D"]}).status_code == 401
        assert c.get("/api/sessions/abc/export.csv").status_code == 401


def test_create_list_and_clear_errors(client):
    s = new_session(client)
    assert [x["id"] for x in client.get("/api/sessions").json()] == [s["id"]]
    bad = [
        ({"variant": "riichi", "players": ["A", "B", "C"]}, 422, "bad_players"),
        ({"variant": "riichi", "players": ["A", "B", "C", "a"]}, 422, "bad_players"),
        ({"variant": "mahjongg", "players": ["A", "B", "C", "D"]}, 422, "unknown_variant"),
        ({"variant": "riichi", "players": ["A", "B", "C", "D"], "options": {"nope": 1}}, 422, "unknown_option"),
        ({"variant": "riichi"}, 422, "bad_request"),
    ]
    for body, status, code in bad:
        r = client.post("/api/sessions", json=body)
        assert (r.status_code, r.json()["error"]["code"]) == (status, code), body
    assert client.get("/api/sessions/nope").status_code == 404
    assert client.get("/api/sessions/" + "x" * 300).status_code == 404
    sid = s["id"]
    r = client.post(f"/api/sessions/{sid}/hands", json={"request": H1})
    assert r.status_code == 422 and r.json()["error"]["field"] == "version"
    r = client.post(f"/api/sessions/{sid}/hands", json={"version": 1, "request": {**H1, "concealed": "12m"}})
    assert r.status_code == 422 and r.json()["error"]["field"].startswith("request")
    r = client.post(f"/api/sessions/{sid}/hands", json={"version": 1, "request": {**H1, "options": {"uma": [1, 2]}}})
    assert r.status_code == 422 and r.json()["error"]["field"] == "request.options"
    r = client.post(f"/api/sessions/{sid}/events", json={"version": 1, "event": "kong"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "unknown_event"
    r = client.post(f"/api/sessions/{sid}/hands", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_json"
    assert client.get(f"/api/sessions/{sid}/totals").json()["version"] == 1  # nothing was written


def test_a_hand_with_its_photo_and_a_stale_write(client, data_dir):
    s = new_session(client)
    sid = s["id"]
    photo = png_bytes()
    import json

    r = client.post(f"/api/sessions/{sid}/hands",
                    data={"record": json.dumps({"version": 1, "request": H1})},
                    files={"photo": ("../../etc/passwd.png", photo, "image/png")})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["version"] == 2 and body["totals"] == {"E": -2000, "S": 4000, "W": -1000, "N": -1000}
    stored = list((data_dir / "session-photos").iterdir())
    assert len(stored) == 1 and stored[0].suffix == ".png" and "passwd" not in stored[0].name
    entry = client.get(f"/api/sessions/{sid}").json()["history"][0]
    got = client.get(entry["photo"])
    assert got.status_code == 200 and got.content == photo and got.headers["content-type"] == "image/png"

    r = client.post(f"/api/sessions/{sid}/hands", json={"version": 1, "request": H1})
    assert r.status_code == 409 and r.json()["error"]["code"] == "stale_version"
    r = client.post(f"/api/sessions/{sid}/hands", data={"record": json.dumps({"version": 2, "request": H1})},
                    files={"photo": ("x.png", b"GIF89a not an accepted photo", "image/gif")})
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_photo"
    assert len(list((data_dir / "session-photos").iterdir())) == 1
    assert client.get(f"/api/sessions/{sid}/entries/99/photo").status_code == 404


def test_edit_keeps_the_audit_trail_and_exports_import(client):
    s = new_session(client)
    sid = s["id"]
    r = client.post(f"/api/sessions/{sid}/hands", json={"version": 1, "request": H1}).json()
    wrong_seat = {**H1, "winner": "W"}
    r = client.post(f"/api/sessions/{sid}/entries/1/edit",
                    json={"version": r["version"], "request": wrong_seat, "reason": "it was Chen"})
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["replaced"] == 1 and body["recorded"]["seq"] == 2
    assert body["totals"] == {"E": -2000, "S": -1000, "W": 4000, "N": -1000}
    full = client.get(f"/api/sessions/{sid}").json()
    assert [(e["seq"], e["status"]) for e in full["history"]] == [(1, "replaced"), (2, "active")]
    assert full["corrections"] == [{"action": "edit", "entry_seq": 1, "new_entry_seq": 2, "reason": "it was Chen",
                                    "created_at": full["corrections"][0]["created_at"]}]
    r = client.post(f"/api/sessions/{sid}/entries/1/edit", json={"version": body["version"], "request": H1})
    assert r.status_code == 409 and r.json()["error"]["code"] == "already_corrected"

    csv_r = client.get(f"/api/sessions/{sid}/export.csv")
    assert csv_r.headers["content-type"].startswith("text/csv")
    assert csv_r.text.splitlines()[1].startswith("2,hand,win,W,,E,4000,-2000,-1000,4000,-1000")
    exported = client.get(f"/api/sessions/{sid}/export.json").json()
    r = client.post("/api/sessions/import", json=exported)
    assert r.status_code == 200
    assert r.json()["totals"] == body["totals"] and len(r.json()["history"]) == 2
    broken = {**exported, "entries": [{**exported["entries"][0], "payments": {"E": 5, "S": 0, "W": 0, "N": 0}}]}
    r = client.post("/api/sessions/import", json=broken)
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_payments"
    assert client.post("/api/sessions/import", json={"format": "other"}).status_code == 422


def test_the_store_is_wal_and_migrations_are_idempotent(tmp_path):
    first = open_database(tmp_path)
    first.dispose()
    again = open_database(tmp_path)  # running the migrations twice is harmless
    again.dispose()
    con = sqlite3.connect(tmp_path / SQLITE_FILE)
    assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert con.execute("SELECT version_num FROM alembic_version").fetchall() == [("0001",)]
    tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"sessions", "players", "entries", "corrections"} <= tables
    con.close()


def test_a_failed_hand_leaves_no_trace(service, need_variant, db):
    need_variant("riichi")
    from api.sessions.service import SessionError

    s = service.create("riichi", ["A", "B", "C", "D"])
    with pytest.raises(SessionError) as err:
        service.record_hand(s["id"], 1, {"concealed": "123m456m789m123p5p6p", "winning_tile": "6p", "winner": "S",
                                         "self_drawn": True}, photo=png_bytes())
    assert err.value.code == "not_winning"
    assert list(db.photo_dir.iterdir()) == []
    after = service.get(s["id"])
    assert after["version"] == 1 and after["history"] == []
