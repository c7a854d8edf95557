"""Shared by the hardening tests: the pairing token they use, and the live
server helper of tests/sessions (the real ``python -m api`` in a subprocess)."""
from __future__ import annotations

import sys
from pathlib import Path

SESSIONS_TESTS = Path(__file__).resolve().parents[1] / "sessions"
if str(SESSIONS_TESTS) not in sys.path:
    sys.path.insert(0, str(SESSIONS_TESTS))

TOKEN = "hardening-token-0123456789"
