"""The database: engine and session factory for SQLite (default) or PostgreSQL.

SQLite lives in ``<data_dir>/sessions.sqlite3`` in WAL mode with full
synchronous commits. Every write transaction starts with ``BEGIN IMMEDIATE`` so
two writers never deadlock on a lock upgrade: the second one waits (busy
timeout) and then sees the first one's commit. ``$TILELENS_DB`` may name a
PostgreSQL URL (``postgresql+psycopg://user@host/db``) for a club server.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, event
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session, sessionmaker

ENV_DB = "TILELENS_DB"
SQLITE_FILE = "sessions.sqlite3"
PHOTO_DIR = "session-photos"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"


class DatabaseError(RuntimeError):
    """The configured database cannot be used."""


@dataclass
class Database:
    engine: Engine
    factory: sessionmaker
    photo_dir: Path

    def session(self) -> Session:
        return self.factory()

    def dispose(self) -> None:
        self.engine.dispose()


def database_url(data_dir: Path, url: str | None = None) -> str:
    """``url``, else ``$TILELENS_DB``, else the SQLite file in ``data_dir``."""
    url = url or os.environ.get(ENV_DB) or None
    if url is None:
        return f"sqlite:///{Path(data_dir).resolve() / SQLITE_FILE}"
    if url.startswith("postgres://"):
        url = "postgresql+psycopg://" + url[len("postgres://"):]
    elif url.startswith("postgresql://"):
        url = "postgresql+psycopg://" + url[len("postgresql://"):]
    if not (url.startswith("sqlite") or url.startswith("postgresql+")):
        raise DatabaseError(f"{ENV_DB} must be a PostgreSQL or SQLite URL")
    return url


def _sqlite_pragmas(engine: Engine) -> None:
    @event.listens_for(engine, "connect")
    def _connect(dbapi_conn, _record):
        dbapi_conn.isolation_level = None  # transactions are begun explicitly below
        cur = dbapi_conn.cursor()
        cur.execute("PRAGMA journal_mode=WAL")
        cur.execute("PRAGMA synchronous=FULL")
        cur.execute("PRAGMA foreign_keys=ON")
        cur.execute("PRAGMA busy_timeout=15000")
        cur.close()

    @event.listens_for(engine, "begin")
    def _begin(conn):
        conn.exec_driver_sql("BEGIN IMMEDIATE")


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (idempotent)."""
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def open_database(data_dir: Path, url: str | None = None) -> Database:
    """Open (creating if needed) and migrate the sessions database."""
    data_dir = Path(data_dir)
    data_dir.mkdir(parents=True, exist_ok=True)
    url = database_url(data_dir, url)
    if url.startswith("sqlite"):
        engine = create_engine(url, pool_size=8, max_overflow=8, pool_timeout=30)
        _sqlite_pragmas(engine)
    else:
        engine = create_engine(url, pool_size=8, max_overflow=8, pool_pre_ping=True)
    try:
        migrate(engine)
    except Exception as exc:
        engine.dispose()
        raise DatabaseError(f"cannot open the sessions database: {type(exc).__name__}: {exc}") from exc
    photo_dir = data_dir / PHOTO_DIR
    photo_dir.mkdir(parents=True, exist_ok=True)
    return Database(engine, sessionmaker(engine, expire_on_commit=False), photo_dir)
