"""The same store on PostgreSQL (``TILELENS_DB``): a throwaway server is started
in a temp dir (initdb + pg_ctl on a loopback port, as the ``postgres`` user when
the tests run as root). Skips visibly when no PostgreSQL can be started here."""
from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import threading
from pathlib import Path

import pytest

from api.sessions.db import open_database
from api.sessions.service import Conflict, SessionService
from sessions_live_server import free_port

H1 = {"concealed": "123m456m789m123p55p", "winning_tile": "5p", "self_drawn": True, "winner": "S"}


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


@pytest.fixture(scope="module")
def pg_url():
    try:
        import psycopg  # noqa: F401
    except ImportError:
        pytest.skip("psycopg is not installed (pip install 'psycopg[binary]')")
    bindir = pg_bin()
    if bindir is None:
        pytest.skip("no PostgreSQL server binaries (Debian package postgresql) on this machine")
    as_user: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            pytest.skip("running as root without runuser: PostgreSQL refuses to run as root")
        as_user = ["runuser", "-u", "postgres", "--"]
    root = Path(tempfile.mkdtemp(prefix="tilelens-pg-"))
    datadir = root / "data"
    if as_user:
        shutil.chown(root, "postgres")
    port = free_port()
    try:
        subprocess.run(as_user + [str(bindir / "initdb"), "-D", str(datadir), "-A", "trust", "-U", "postgres",
                                  "--no-sync"], check=True, capture_output=True, timeout=60)
        subprocess.run(as_user + [str(bindir / "pg_ctl"), "-D", str(datadir), "-w", "-t", "30", "-l",
                                  str(root / "log"), "-o",
                                  f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off", "start"],
                       check=True, capture_output=True, timeout=60)
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, OSError, LookupError) as exc:
        detail = getattr(exc, "stderr", b"") or b""
        shutil.rmtree(root, ignore_errors=True)
        pytest.skip(f"cannot start a throwaway PostgreSQL: {exc} {detail.decode(errors='replace')[-300:]}")
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run(as_user + [str(bindir / "pg_ctl"), "-D", str(datadir), "-m", "immediate", "stop"],
                       capture_output=True, timeout=60)
        shutil.rmtree(root, ignore_errors=True)


def test_a_session_on_postgresql(pg_url, tmp_path, need_variant, monkeypatch):
    need_variant("riichi")
    monkeypatch.setenv("TILELENS_DB", pg_url)
    db = open_database(tmp_path)  # the URL comes from TILELENS_DB
    assert db.engine.dialect.name == "postgresql"
    open_database(tmp_path).dispose()  # migrations again: a no-op
    service = SessionService(db)
    s = service.create("riichi", ["A", "B", "C", "D"])
    sid = s["id"]
    r = service.record_hand(sid, 1, H1)
    assert r["totals"] == {"E": -2000, "S": 4000, "W": -1000, "N": -1000}
    r = service.record_draw(sid, r["version"], {"tenpai": ["S"]}, "exhaustive_draw")
    assert r["recorded"]["payments"] == {"E": -1000, "S": 3000, "W": -1000, "N": -1000}
    assert r["next_context"]["dealer"] == "S" and r["next_context"]["dealer_streak"] == 1
    r = service.undo(sid, r["version"])
    assert r["totals"] == {"E": -2000, "S": 4000, "W": -1000, "N": -1000}

    # four writers on one version: one wins, three get the conflict, nothing is lost
    version = r["version"]
    results: list[str] = []
    barrier = threading.Barrier(4)

    def phone():
        barrier.wait(10)
        try:
            service.record_hand(sid, version, H1)
            results.append("ok")
        except Conflict:
            results.append("409")

    threads = [threading.Thread(target=phone) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert sorted(results) == ["409", "409", "409", "ok"]
    full = service.get(sid)
    assert full["version"] == version + 1
    assert [e["status"] for e in full["history"]] == ["active", "undone", "active"]
    moved = service.import_json(service.export_json(sid))
    assert moved["totals"] == full["totals"]
    db.dispose()
