"""Helpers for the browser tests, which run a real server (``python -m api`` in
a subprocess) and a real headless Debian chromium driven by Playwright, at a
phone-sized viewport.

No browser is ever downloaded: the test uses /usr/bin/chromium. Without it the
tests skip (visibly), except in CI (``CI=true``) where they fail.
"""
from __future__ import annotations

import os
import shutil
import socket
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TOKEN = "browser-test-token-42"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
PHONE = {"width": 390, "height": 844}


def chromium_path() -> str | None:
    for candidate in (os.environ.get("TILELENS_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def missing(reason: str):
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"{reason} (CI=true: the browser test must run)")
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def screenshots_wanted() -> bool:
    return os.environ.get("TILELENS_SCREENSHOTS") == "1"


SCREENSHOT_DIR = REPO / "docs" / "screenshots"
