"""``python -m api backup`` / ``restore``: a consistent snapshot while hands are
being recorded, and a restore that gives identical exports."""
from __future__ import annotations

import io
import json
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from PIL import Image

from api.__main__ import main as api_main
from api.backup import BackupError, backup, read_manifest, restore
from api.sessions.db import PHOTO_DIR, SQLITE_FILE, open_database
from api.sessions.service import SessionService

ROOT = Path(__file__).resolve().parents[2]
# The dealer (E) self-draws every hand: the deal never passes, so hands can go on.
DEALER_TSUMO = {"concealed": "123m456m789m123p55p", "winning_tile": "5p", "self_drawn": True, "winner": "E"}
RON = {"concealed": "123m456m789m123p55p", "winning_tile": "5p", "winner": "S", "discarder": "W"}


def png(color) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 6), color).save(buf, "PNG")
    return buf.getvalue()


def exports(service: SessionService) -> dict:
    return {s["id"]: (service.export_json(s["id"]), service.export_csv(s["id"])) for s in service.list_sessions()}


@pytest.fixture
def store(tmp_path):
    db = open_database(tmp_path / "live")
    yield tmp_path / "live", SessionService(db)
    db.dispose()


def record(service, sid, version, request, photo=None):
    return service.record_hand(sid, version, request, photo=photo)["version"]


def test_round_trip_gives_identical_exports_and_photos(store, tmp_path):
    data_dir, service = store
    a = service.create("riichi", ["A", "B", "C", "D"], title="evening")
    v = record(service, a["id"], a["version"], DEALER_TSUMO, png((200, 0, 0)))
    v = record(service, a["id"], v, DEALER_TSUMO)
    v = service.undo(a["id"], v, 2, "misread")["version"]
    record(service, a["id"], v, RON, png((0, 200, 0)))
    b = service.create("riichi", ["E1", "S1", "W1", "N1"])
    record(service, b["id"], b["version"], DEALER_TSUMO, png((0, 0, 200)))
    before = exports(service)

    summary = backup(data_dir, tmp_path / "snap")
    assert (summary.sessions, summary.photos, summary.missing_photos) == (2, 3, [])
    assert not (tmp_path / "snap.partial").exists()
    manifest = read_manifest(tmp_path / "snap")
    assert manifest["counts"] == {"sessions": 2, "entries": summary.entries, "photos": 3}

    restore(tmp_path / "snap", tmp_path / "fresh")
    db2 = open_database(tmp_path / "fresh")
    try:
        again = SessionService(db2)
        assert exports(again) == before
        for sid in before:
            for e in again.get(sid)["history"]:
                if e["photo"]:
                    assert again.photo_path(sid, e["seq"]).read_bytes() == service.photo_path(sid, e["seq"]).read_bytes()
        # the restored store is a working store: recording goes on from where it was
        s = again.get(b["id"])
        assert again.record_hand(b["id"], s["version"], DEALER_TSUMO)["recorded"]["seq"] == 2
    finally:
        db2.dispose()


def test_snapshot_while_hands_are_recorded_is_consistent(store, tmp_path):
    data_dir, service = store
    s = service.create("riichi", ["A", "B", "C", "D"])
    stop = threading.Event()
    recorded = []

    def writer():  # a second connection pool writing as the server would
        db = open_database(data_dir)
        svc = SessionService(db)
        v = s["version"]
        try:
            while not stop.is_set() and len(recorded) < 400:
                v = record(svc, s["id"], v, DEALER_TSUMO, png((len(recorded) % 250, 9, 9)))
                recorded.append(v)
        finally:
            db.dispose()

    t = threading.Thread(target=writer)
    t.start()
    try:
        while len(recorded) < 5:
            assert t.is_alive(), "the writer stopped before recording 5 hands"
            t.join(0.05)
        snaps = []
        for k in range(3):
            backup(data_dir, tmp_path / f"snap{k}")
            snaps.append(tmp_path / f"snap{k}")
    finally:
        stop.set()
        t.join(60)
    counts = []
    for k, snap in enumerate(snaps):
        m = read_manifest(snap)
        assert m["missing_photos"] == []
        db = sqlite3.connect(snap / SQLITE_FILE)
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        n, photos = db.execute("SELECT count(*), count(photo) FROM entries").fetchone()
        version = db.execute("SELECT version FROM sessions").fetchone()[0]
        db.close()
        assert n == photos == m["counts"]["photos"] and version == 1 + n  # whole hands only, each with its photo
        counts.append(n)
        restore(snap, tmp_path / f"fresh{k}")
        db2 = open_database(tmp_path / f"fresh{k}")
        try:
            full = SessionService(db2).get(s["id"])
            assert len(full["history"]) == n
            assert full["totals"] == {seat: sum(e["payments"][seat] for e in full["history"]) for seat in "ESWN"}
        finally:
            db2.dispose()
    assert counts == sorted(counts) and counts[0] >= 5


def test_restore_refuses_a_tampered_backup_and_an_existing_database(store, tmp_path):
    data_dir, service = store
    s = service.create("riichi", ["A", "B", "C", "D"])
    record(service, s["id"], s["version"], DEALER_TSUMO, png((1, 2, 3)))
    backup(data_dir, tmp_path / "snap")
    with pytest.raises(BackupError, match="already exists"):
        backup(data_dir, tmp_path / "snap")
    with pytest.raises(BackupError, match="already exists"):
        restore(tmp_path / "snap", data_dir)  # never over a live database
    photo = next((tmp_path / "snap" / PHOTO_DIR).iterdir())
    photo.write_bytes(photo.read_bytes() + b"x")
    with pytest.raises(BackupError, match="checksum"):
        restore(tmp_path / "snap", tmp_path / "fresh")
    assert not (tmp_path / "fresh" / SQLITE_FILE).exists()
    manifest = json.loads((tmp_path / "snap" / "manifest.json").read_text())
    manifest["photos"] = {"../../token": "0" * 64}
    (tmp_path / "snap" / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(BackupError):
        restore(tmp_path / "snap", tmp_path / "fresh")
    with pytest.raises(BackupError, match="not a backup"):
        restore(tmp_path / "nothing", tmp_path / "fresh")
    with pytest.raises(BackupError, match="pg_dump"):
        backup(data_dir, tmp_path / "pg", url="postgresql+psycopg://u@localhost/db")


def test_cli_backup_and_restore(store, tmp_path, capsys):
    data_dir, service = store
    s = service.create("riichi", ["A", "B", "C", "D"])
    record(service, s["id"], s["version"], DEALER_TSUMO, png((5, 5, 5)))
    before = exports(service)
    out = subprocess.run([sys.executable, "-m", "api", "backup", "--data-dir", str(data_dir), "--out",
                          str(tmp_path / "snap")], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "1 sessions, 1 entries, 1 photos" in out.stdout
    assert api_main(["restore", str(tmp_path / "snap"), "--data-dir", str(tmp_path / "fresh")]) == 0
    assert api_main(["restore", str(tmp_path / "snap"), "--data-dir", str(tmp_path / "fresh")]) == 2
    assert "already exists" in capsys.readouterr().err
    db2 = open_database(tmp_path / "fresh")
    try:
        assert exports(SessionService(db2)) == before
    finally:
        db2.dispose()
