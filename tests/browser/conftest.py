"""Fixtures for the browser tests: see browser_support.py."""
from __future__ import annotations

import os
import subprocess
import sys
import time

import httpx
import pytest

from browser_support import CHROMIUM_ARGS, PHONE, REPO, TOKEN, chromium_path, free_port, missing


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The base URL of a freshly started ``python -m api`` on 127.0.0.1."""
    port = free_port()
    data = tmp_path_factory.mktemp("data")
    env = {**os.environ, "TILELENS_TOKEN": TOKEN, "PYTHONUNBUFFERED": "1"}
    log = open(data / "server.log", "w+")
    proc = subprocess.Popen(
        [sys.executable, "-m", "api", "--host", "127.0.0.1", "--port", str(port), "--data-dir", str(data), "--no-qr"],
        cwd=REPO, env=env, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while True:
        try:
            if httpx.get(base + "/", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            log.seek(0)
            pytest.fail(f"the server did not start:\n{log.read()[-3000:]}")
        time.sleep(0.1)
    yield base
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@pytest.fixture(scope="module")
def browser_context(tmp_path_factory):
    """A fresh chromium profile at a phone viewport."""
    path = chromium_path()
    if path is None:
        missing("Debian chromium is not installed (/usr/bin/chromium); `make test-deps` installs it")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing("the playwright Python package is not installed")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_playwright() as p:
        context = p.chromium.launch_persistent_context(
            str(profile), executable_path=path, headless=True, args=CHROMIUM_ARGS,
            viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True,
            locale="en-US", timezone_id="UTC")
        try:
            yield context
        finally:
            context.close()
