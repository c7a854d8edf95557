"""What a session refuses, over HTTP through the real ``create_app``: every refusal
is a documented JSON error (never a 500) and writes nothing, so bad input never
blocks a session, loses a recorded hand or breaks the session list."""
from __future__ import annotations

import asyncio
import json
import logging

import pytest
from fastapi.testclient import TestClient

from api.app import create_app
from api.sessions.router import MAX_PHOTO

TOKEN = "sessions-refusals-token-7"
RON = {"concealed": "123m456m789m123p55p", "winning_tile": "5p", "winner": "S", "discarder": "E"}
PLAIN_PH = {"concealed": "123m456m789p234s567s99s", "winning_tile": "9s", "flowers": "1f", "indicator": "1p",
            "winner": "S", "discarder": "W", "dealer": "E"}
DEEP = b"[" * 100_000 + b"]" * 100_000


@pytest.fixture
def client(riichi_client):
    with riichi_client(TOKEN) as c:
        yield c


def new_session(client, variant="riichi", players=("A", "B", "C", "D"), **extra) -> str:
    r = client.post("/api/sessions", json={"variant": variant, "players": list(players), **extra})
    assert r.status_code == 200, r.text
    return r.json()["id"]


def error(r, status: int) -> dict:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "field"}
    return body["error"]


def test_a_draw_the_state_hooks_refuse_is_422_and_the_session_goes_on(client):
    sid = new_session(client)
    err = error(client.post(f"/api/sessions/{sid}/draws", json={"version": 1, "outcome": {"riichi": ["S"]}}), 422)
    assert err["code"] == "bad_outcome" and err["field"] == "outcome.tenpai"
    assert "S declared riichi but is not listed in tenpai" in err["message"]
    totals = client.get(f"/api/sessions/{sid}/totals").json()
    assert totals["version"] == 1 and totals["entries"] == 0 and "replay_error" not in totals["state"]
    r = client.post(f"/api/sessions/{sid}/draws", json={"version": 1, "outcome": {"riichi": ["S"], "tenpai": ["S"]}})
    assert r.status_code == 200, r.text
    r = client.post(f"/api/sessions/{sid}/hands", json={"version": 2, "request": RON})
    assert r.status_code == 200, r.text


def test_a_riichi_declarer_is_counted_once_per_hand(client):
    sid = new_session(client)
    for outcome in ({"riichi": ["W", "W", "W"]}, {"riichi": ["W"], "tenpai": ["E", "E"]}):
        err = error(client.post(f"/api/sessions/{sid}/hands",
                                json={"version": 1, "request": RON, "outcome": outcome}), 422)
        assert err["code"] == "bad_outcome" and err["field"] in ("outcome.riichi", "outcome.tenpai")
    err = error(client.post(f"/api/sessions/{sid}/draws",
                            json={"version": 1, "outcome": {"riichi": ["W", "W"], "tenpai": ["W"]}}), 422)
    assert err["field"] == "outcome.riichi" and "once per hand" in err["message"]
    assert client.get(f"/api/sessions/{sid}/totals").json()["version"] == 1
    r = client.post(f"/api/sessions/{sid}/hands", json={"version": 1, "request": RON, "outcome": {"riichi": ["W"]}})
    assert r.status_code == 200 and r.json()["state"]["scores"]["W"] < 0


@pytest.mark.parametrize("variant, players, options, field", [
    ("riichi", "ABCD", {"riichi_stick": -1000}, "options.riichi_stick"),
    ("riichi", "ABCD", {"uma": "x"}, "options.uma"),
    ("riichi", "ABCD", {"uma": [1, 2, 3]}, "options.uma"),
    ("riichi", "ABCD", {"noten_total": 1000}, "options.noten_total"),
    ("malaysian", "ABC", {"rate": -5}, "options.rate"),
    ("malaysian", "ABC", {"min_fan": 11}, "options.min_fan"),
    ("philippine", "ABCD", {"discard_win": -1}, "options.discard_win"),
    ("taiwan", "ABCD", {"base": -50}, "options.base"),
    ("wenzhou", "ABCD", {"caishen_money": -1}, "options.caishen_money"),
])
def test_table_rules_the_variant_refuses_are_refused_at_creation_and_import(client, need_variant, variant, players,
                                                                             options, field):
    need_variant(variant)
    body = {"variant": variant, "players": list(players), "options": options}
    err = error(client.post("/api/sessions", json=body), 422)
    assert (err["code"], err["field"]) == ("bad_value", field)
    assert client.get("/api/sessions").json() == []  # no session was made
    exported = client.get(f"/api/sessions/{new_session(client, variant, players)}/export.json").json()
    exported["session"]["options"] = options
    err = error(client.post("/api/sessions/import", json=exported), 422)
    assert (err["code"], err["field"]) == ("bad_value", field)
    assert len(client.get("/api/sessions").json()) == 1


def test_good_table_rules_still_make_a_session(client):
    sid = new_session(client, options={"riichi_stick": 500, "uma": [20000, 10000], "noten_total": 1500})
    assert client.get(f"/api/sessions/{sid}").json()["options"]["riichi_stick"] == 500


@pytest.mark.parametrize("path", ["/api/sessions/import", "/api/sessions/{sid}/hands", "/api/sessions",
                                  "/api/sessions/{sid}/draws"])
def test_deeply_nested_json_is_bad_json_not_a_500(client, path):
    sid = new_session(client)
    err = error(client.post(path.format(sid=sid), content=DEEP, headers={"Content-Type": "application/json"}), 422)
    assert err["code"] == "bad_json" and "nested too deeply" in err["message"]
    assert client.get(f"/api/sessions/{sid}/totals").json()["version"] == 1


def test_an_import_that_does_not_replay_is_refused_and_the_list_keeps_working(client, need_variant):
    need_variant("philippine")
    sid = new_session(client, "philippine")
    r = client.post(f"/api/sessions/{sid}/hands", json={"version": 1, "request": PLAIN_PH})
    assert r.status_code == 200, r.text
    exported = client.get(f"/api/sessions/{sid}/export.json").json()
    for chips in ({"after": 5}, {"after": {"E": "x", "S": 1, "W": 0, "N": 0}}):
        tampered = json.loads(json.dumps(exported))
        tampered["entries"][0]["result"]["chips"] = chips
        err = error(client.post("/api/sessions/import", json=tampered), 422)
        assert err["code"] == "bad_import" and err["field"] == "entries[0]"
        assert "entry 1 cannot be replayed" in err["message"]
    listed = client.get("/api/sessions")
    assert listed.status_code == 200 and [s["id"] for s in listed.json()] == [sid]  # nothing was saved
    assert client.post("/api/sessions/import", json=exported).status_code == 200


def test_a_stored_session_that_fails_to_replay_does_not_break_the_list(client, data_dir, need_variant):
    """A session stored before imports were replayed (or edited in the database) still lists."""
    need_variant("philippine")
    import sqlite3

    from api.sessions.db import SQLITE_FILE

    sid = new_session(client, "philippine")
    assert client.post(f"/api/sessions/{sid}/hands", json={"version": 1, "request": PLAIN_PH}).status_code == 200
    other = new_session(client)
    con = sqlite3.connect(data_dir / SQLITE_FILE)
    (result,) = con.execute("SELECT result FROM entries WHERE session_id = ?", (sid,)).fetchone()
    con.execute("UPDATE entries SET result = ? WHERE session_id = ?",
                (json.dumps({**json.loads(result), "chips": {"after": 5}}), sid))
    con.commit()
    con.close()
    listed = client.get("/api/sessions")
    assert listed.status_code == 200 and {s["id"] for s in listed.json()} == {sid, other}
    state = client.get(f"/api/sessions/{sid}").json()["state"]
    assert state["replay_error"]["seq"] == 1 and state["replay_error"]["code"] == "bad_outcome"
    err = error(client.post(f"/api/sessions/{sid}/hands", json={"version": 2, "request": PLAIN_PH}), 409)
    assert err["code"] == "bad_history"


def test_malformed_json_on_a_session_route_is_bad_json(client):
    err = error(client.post("/api/sessions", content=b'{"variant":', headers={"Content-Type": "application/json"}),
                422)
    assert err["code"] == "bad_json" and err["field"] is None
    assert err["message"].startswith("The request body is not JSON") and "character 11" in err["message"]
    sid = new_session(client)
    err = error(client.post(f"/api/sessions/{sid}/draws", content=b"{nope",
                            headers={"Content-Type": "application/json"}), 422)
    assert err["code"] == "bad_json"


@pytest.mark.parametrize("version", [True, "1", 1.0])
def test_version_is_a_whole_number_only(client, version):
    sid = new_session(client)
    for path, body in (("hands", {"request": RON}), ("draws", {}), ("end", {})):
        err = error(client.post(f"/api/sessions/{sid}/{path}", json={**body, "version": version}), 422)
        assert err["field"] == "version"
    assert client.get(f"/api/sessions/{sid}/totals").json()["version"] == 1


def test_a_photo_over_the_cap_names_the_limit(client):
    sid = new_session(client)
    photo = b"\x89PNG\r\n\x1a\n" + bytes(MAX_PHOTO)
    r = client.post(f"/api/sessions/{sid}/hands", data={"record": json.dumps({"version": 1, "request": RON})},
                    files={"photo": ("p.png", photo, "image/png")})
    err = error(r, 413)
    assert err["code"] == "too_large" and f"{MAX_PHOTO // (1024 * 1024)} MB" in err["message"]


def test_a_client_that_disconnects_mid_upload_is_not_an_error_in_the_log(data_dir, need_variant, caplog):
    need_variant("riichi")
    app = create_app(data_dir, TOKEN)
    with TestClient(app, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        sid = new_session(c)
    sent: list[dict] = []
    chunks = [{"type": "http.request", "body": b'--xyz\r\nContent-Disposition: form-data; name="record"\r\n\r\n{"ver',
               "more_body": True}, {"type": "http.disconnect"}]

    async def receive():
        return chunks.pop(0) if chunks else {"type": "http.disconnect"}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": f"/api/sessions/{sid}/hands", "raw_path": f"/api/sessions/{sid}/hands".encode(),
             "root_path": "", "query_string": b"", "client": ("127.0.0.1", 5000), "server": ("testserver", 80),
             "headers": [(b"authorization", f"Bearer {TOKEN}".encode()),
                         (b"content-type", b"multipart/form-data; boundary=xyz")]}
    with caplog.at_level(logging.ERROR):
        asyncio.run(app(scope, receive, send))
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert sent[0]["status"] == 400
    with TestClient(app, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
        assert c.get(f"/api/sessions/{sid}/totals").json()["version"] == 1


def test_the_carried_state_follows_the_sessions_table_rules(client):
    # a riichi session whose stick is 500 and whose noten payments total 6000: a draw with S in riichi
    # and alone tenpai carries S's 500 stick and 6000 from the three others, not the defaults
    sid = new_session(client, options={"riichi_stick": 500, "noten_total": 6000})
    r = client.post(f"/api/sessions/{sid}/draws", json={"version": 1, "outcome": {"riichi": ["S"], "tenpai": ["S"]}})
    assert r.status_code == 200, r.text
    state = client.get(f"/api/sessions/{sid}/totals").json()["state"]
    assert "replay_error" not in state
    assert state["scores"]["S"] - state["scores"]["E"] == 6000 - 500 + 2000
