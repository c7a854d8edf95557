"""Recorded sessions: players, hands, events, corrections, running totals.

``init_sessions(app, data_dir)`` opens the database (SQLite in the data dir, or
``$TILELENS_DB``), runs the migrations and mounts the ``/api/sessions`` router.
"""
from __future__ import annotations

from .router import init_sessions, router

__all__ = ["init_sessions", "router"]
