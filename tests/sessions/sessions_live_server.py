"""The real table server (``python -m api``) in a subprocess, for the durability
and concurrency tests: started on a free loopback port, killed with SIGKILL."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "live-server-token-77"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class LiveServer:
    def __init__(self, data_dir: Path):
        self.data_dir = Path(data_dir)
        self.port = free_port()
        self.proc: subprocess.Popen | None = None
        self.log = self.data_dir.parent / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def client(self, timeout: float = 10.0) -> httpx.Client:
        return httpx.Client(base_url=self.url, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=timeout)

    def start(self, wait: float = 30.0) -> "LiveServer":
        env = {**os.environ, "TILELENS_TOKEN": TOKEN, "PYTHONUNBUFFERED": "1"}
        env.pop("TILELENS_DB", None)
        self.data_dir.mkdir(parents=True, exist_ok=True)
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "api", "--host", "127.0.0.1", "--port", str(self.port),
                 "--data-dir", str(self.data_dir), "--no-qr"],
                cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + wait
        with self.client(timeout=2.0) as c:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    raise RuntimeError(f"the server exited with {self.proc.returncode}: {self.log.read_text()[-2000:]}")
                try:
                    if c.get("/api/sessions").status_code == 200:
                        return self
                except httpx.TransportError:
                    pass
                time.sleep(0.1)
        self.kill()
        raise RuntimeError("the server did not start in time")

    def kill(self) -> None:
        """SIGKILL: no shutdown handler, no flush, exactly like a power cut for the process."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.proc = None
