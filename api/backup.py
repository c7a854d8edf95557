"""``python -m api backup`` and ``python -m api restore``: a consistent snapshot of
the recorded sessions (the SQLite database and the hand photos), taken while the
server runs, and the way back into a data dir.

Backup, in this order (the order is what makes it consistent):

1. The database is copied with SQLite's online backup API from one read
   transaction. In WAL mode that does not block the server's writers, and the
   copy is exactly the database as of one commit: never half a hand.
2. The photos named by the *copied* database are copied next. The server writes
   a photo before the transaction that names it and only ever deletes a photo
   whose transaction failed, so every photo a committed entry names is on disk
   and stays there. Photos of hands recorded after step 1 are not in the
   snapshot, just as those hands are not.
3. A ``manifest.json`` lists every file with its SHA-256. The snapshot is built
   in ``<out>.partial`` and renamed to ``<out>`` at the end, so a directory
   named ``<out>`` is always a complete backup.

Restore checks every checksum, refuses to overwrite an existing database, puts
the database and photos into the data dir and runs the migrations (a backup of
an older schema comes back upgraded). Exports of the restored sessions are
identical to the exports of the snapshot.

Only the SQLite store is handled; a PostgreSQL store is backed up with
``pg_dump``.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sqlite3
import sys
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from .sessions.db import PHOTO_DIR, SQLITE_FILE, database_url, open_database

BACKUP_FORMAT = "tilelens-backup"
BACKUP_VERSION = 1
MANIFEST = "manifest.json"


class BackupError(RuntimeError):
    """The backup or restore cannot be done; the message says why."""


@dataclass
class BackupSummary:
    path: Path
    sessions: int
    entries: int
    photos: int
    missing_photos: list[str]


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def safe_photo_name(name: object) -> bool:
    """A stored photo name is a bare file name: never a path, never hidden."""
    return (isinstance(name, str) and 0 < len(name) <= 64 and name == Path(name).name
            and not name.startswith(".") and "/" not in name and "\\" not in name and "\x00" not in name)


def sqlite_path(data_dir: Path, url: str | None = None) -> Path:
    """The SQLite file of the sessions store (BackupError for any other database)."""
    from sqlalchemy.engine import make_url

    resolved = database_url(Path(data_dir), url)
    parsed = make_url(resolved)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        raise BackupError("backup handles the SQLite sessions store only; back a PostgreSQL store up with pg_dump")
    return Path(parsed.database)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def backup(data_dir: Path, out: Path, url: str | None = None) -> BackupSummary:
    """Write a consistent snapshot of the sessions store of ``data_dir`` to the new directory ``out``."""
    data_dir, out = Path(data_dir), Path(out)
    db_file = sqlite_path(data_dir, url)
    if not db_file.is_file():
        raise BackupError(f"there is no sessions database at {db_file}")
    if out.exists():
        raise BackupError(f"{out} already exists: choose a new directory for the backup")
    partial = out.with_name(out.name + ".partial")
    if partial.exists():
        shutil.rmtree(partial)
    (partial / PHOTO_DIR).mkdir(parents=True)
    try:
        summary = _write_snapshot(data_dir, db_file, partial)
        os.replace(partial, out)
        _fsync_dir(out.parent)
    except BaseException:
        shutil.rmtree(partial, ignore_errors=True)
        raise
    summary.path = out
    return summary


def _write_snapshot(data_dir: Path, db_file: Path, target: Path) -> BackupSummary:
    copy = target / SQLITE_FILE
    src = sqlite3.connect(db_file, timeout=30)  # only read: the backup API never writes the source
    dst = sqlite3.connect(copy)
    try:
        src.backup(dst)  # every page in one step: one read transaction, one commit's worth
    finally:
        src.close()
    try:
        dst.execute("PRAGMA journal_mode=DELETE")  # the snapshot is one self-contained file
        check = dst.execute("PRAGMA integrity_check").fetchone()[0]
        if check != "ok":
            raise BackupError(f"the copied database fails its integrity check: {check}")
        sessions = dst.execute("SELECT count(*) FROM sessions").fetchone()[0]
        entries = dst.execute("SELECT count(*) FROM entries").fetchone()[0]
        names = sorted({r[0] for r in dst.execute("SELECT photo FROM entries WHERE photo IS NOT NULL")})
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"the database is not a sessions store: {exc}") from None
    finally:
        dst.close()

    photo_dir = data_dir / PHOTO_DIR
    photos: dict[str, str] = {}
    missing: list[str] = []
    for name in names:
        source = photo_dir / name
        if not safe_photo_name(name) or not source.is_file():
            missing.append(name)
            continue
        shutil.copyfile(source, target / PHOTO_DIR / name)
        photos[name] = _sha256(target / PHOTO_DIR / name)
    manifest = {
        "format": BACKUP_FORMAT, "version": BACKUP_VERSION,
        "created_at": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "database": {"file": SQLITE_FILE, "sha256": _sha256(copy)},
        "photos": photos, "missing_photos": missing,
        "counts": {"sessions": sessions, "entries": entries, "photos": len(photos)},
    }
    with open(target / MANIFEST, "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, sort_keys=True)
        f.flush()
        os.fsync(f.fileno())
    return BackupSummary(target, sessions, entries, len(photos), missing)


def read_manifest(backup_dir: Path) -> dict:
    """The backup's manifest, after checking every file against its checksum."""
    backup_dir = Path(backup_dir)
    try:
        manifest = json.loads((backup_dir / MANIFEST).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BackupError(f"{backup_dir} is not a backup (no {MANIFEST})") from None
    except (ValueError, OSError) as exc:
        raise BackupError(f"the backup manifest cannot be read: {exc}") from None
    if not isinstance(manifest, dict) or manifest.get("format") != BACKUP_FORMAT:
        raise BackupError(f"{backup_dir} is not a {BACKUP_FORMAT}")
    if manifest.get("version") != BACKUP_VERSION:
        raise BackupError(f"unsupported backup version {manifest.get('version')!r}")
    db = backup_dir / SQLITE_FILE
    if not db.is_file() or _sha256(db) != manifest.get("database", {}).get("sha256"):
        raise BackupError("the backed-up database is missing or does not match its checksum")
    photos = manifest.get("photos")
    if not isinstance(photos, dict):
        raise BackupError("the backup manifest has no photo list")
    for name, digest in photos.items():
        path = backup_dir / PHOTO_DIR / name
        if not safe_photo_name(name) or not path.is_file() or _sha256(path) != digest:
            raise BackupError(f"the backed-up photo {name!r} is missing or does not match its checksum")
    return manifest


def restore(backup_dir: Path, data_dir: Path, url: str | None = None) -> dict:
    """Put a backup into ``data_dir`` (which must not hold a sessions database yet)."""
    backup_dir, data_dir = Path(backup_dir), Path(data_dir)
    manifest = read_manifest(backup_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    db_file = sqlite_path(data_dir, url)
    if db_file.exists():
        raise BackupError(f"{db_file} already exists: restore into a fresh data dir (or move that file away)")
    photo_dir = data_dir / PHOTO_DIR
    photo_dir.mkdir(parents=True, exist_ok=True)
    for name in manifest["photos"]:
        target = photo_dir / name
        if not target.exists():
            shutil.copyfile(backup_dir / PHOTO_DIR / name, target)
            os.chmod(target, 0o600)
    db_file.parent.mkdir(parents=True, exist_ok=True)
    staging = db_file.with_name(db_file.name + ".restoring")
    shutil.copyfile(backup_dir / SQLITE_FILE, staging)
    os.replace(staging, db_file)
    _fsync_dir(db_file.parent)
    database = open_database(data_dir, url)  # migrations: an older backup comes back upgraded
    database.dispose()
    return manifest


def default_backup_dir() -> Path:
    return Path(f"tilelens-backup-{datetime.now(timezone.utc):%Y%m%d-%H%M%S}")


def parse_args(argv) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m api", description="Back up or restore the recorded sessions.")
    sub = p.add_subparsers(dest="command", required=True)
    b = sub.add_parser("backup", help="snapshot the database and photos (safe while the server runs)")
    b.add_argument("--data-dir", type=Path, default=Path("data"), help="the server's data dir (default ./data)")
    b.add_argument("--database-url", default=None, help="the sessions database, if not the data dir's SQLite file")
    b.add_argument("--out", type=Path, default=None,
                   help="new directory to write the backup to (default ./tilelens-backup-<UTC time>)")
    r = sub.add_parser("restore", help="put a backup into a fresh data dir")
    r.add_argument("backup", type=Path, help="the backup directory")
    r.add_argument("--data-dir", type=Path, default=Path("data"), help="the data dir to restore into (default ./data)")
    r.add_argument("--database-url", default=None, help="the sessions database, if not the data dir's SQLite file")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    try:
        if args.command == "backup":
            s = backup(args.data_dir, args.out or default_backup_dir(), args.database_url)
            print(f"backup written to {s.path}: {s.sessions} sessions, {s.entries} entries, {s.photos} photos")
            if s.missing_photos:
                print(f"warning: {len(s.missing_photos)} photos named by entries were not on disk: "
                      + ", ".join(s.missing_photos[:5]), file=sys.stderr)
        else:
            m = restore(args.backup, args.data_dir, args.database_url)
            c = m["counts"]
            print(f"restored {args.backup} into {args.data_dir}: {c['sessions']} sessions, {c['entries']} entries, "
                  f"{c['photos']} photos")
    except (BackupError, OSError, sqlite3.Error) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
