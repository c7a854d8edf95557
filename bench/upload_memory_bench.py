"""Peak memory of the real server (``python -m api`` in a subprocess) under hostile uploads.

Run: ``nice -n 10 .venv/bin/python bench/upload_memory_bench.py``

Phases, each on the same server process, with its peak RSS (Linux VmHWM, reset
between phases through /proc/<pid>/clear_refs; sampled with psutil where that is
not allowed) and the answers it got:

* warm-up: one real scan of a 12 MP JPEG (OpenCV, the ONNX model loaded);
* bombs: PNG/JPEG headers declaring 2.5 gigapixels, a 48 KB PNG inflating to 49 MP;
* lying headers: a 12 MP JPEG header over 64x48 data, a 6 MP PNG header over one row;
* endless body: a chunked multipart upload that never ends (stopped by the server at 25 MB);
* trickle: 10 connections that stall after the headers and 2 that send a byte a second
  (cut at the 15 s idle timeout and the 60 s deadline);
* 100 at once: 100 concurrent uploads of a 12 MP JPEG padded to ``--photo-mb`` MB
  (bytes after the JPEG's end marker, which the decoder accepts).
"""
from __future__ import annotations

import argparse
import asyncio
import socket
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "tests" / "hardening", ROOT / "tests" / "sessions"):
    sys.path.insert(0, str(p))

MB = 1024 * 1024


class PeakRSS:
    """Peak resident memory of one process, per phase."""

    def __init__(self, pid: int):
        self.proc = psutil.Process(pid)
        self.pid = pid
        self.sampled = 0
        self._stop = threading.Event()
        threading.Thread(target=self._sample, daemon=True).start()

    def _sample(self):
        while not self._stop.is_set():
            try:
                self.sampled = max(self.sampled, self.proc.memory_info().rss)
            except psutil.Error:
                return
            time.sleep(0.01)

    def reset(self) -> None:
        self.sampled = self.proc.memory_info().rss
        try:
            Path(f"/proc/{self.pid}/clear_refs").write_text("5")
        except OSError:
            pass

    def peak(self) -> int:
        hwm = 0
        try:
            for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    hwm = int(line.split()[1]) * 1024
        except OSError:
            pass
        return max(hwm, self.sampled)

    def now(self) -> int:
        return self.proc.memory_info().rss

    def stop(self):
        self._stop.set()


def twelve_mp_jpeg() -> bytes:
    try:
        from vision.scenes import make_scene

        return make_scene(7, width=4000)[0]
    except Exception as exc:  # no scene renderer: a synthetic photo of the same size
        import cv2
        import numpy as np

        print(f"(vision.scenes unavailable: {type(exc).__name__}; using a synthetic 4000x3000 image)")
        rng = np.random.default_rng(7)
        img = cv2.resize(rng.integers(0, 255, (300, 400, 3), dtype=np.uint8), (4000, 3000))
        return cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes()


def post(c: httpx.Client, data: bytes, kind="image/jpeg"):
    return c.post("/api/scan", files={"photo": ("p", data, kind)})


def endless_body(port: int, token: str) -> tuple[int, int]:
    from hostile_images import send_endless_upload

    s = socket.create_connection(("127.0.0.1", port), timeout=30)
    sent = send_endless_upload(s, token, 1024 * MB)
    data = b""
    try:
        while b"\r\n" not in data:
            part = s.recv(4096)
            if not part:
                break
            data += part
    except OSError:
        pass
    s.close()
    return (int(data.split(b" ")[1]) if data.startswith(b"HTTP/") else 0), sent


def trickle(port: int, token: str, pause: float | None) -> tuple[int, float]:
    s = socket.create_connection(("127.0.0.1", port), timeout=120)
    s.sendall(b"POST /api/scan HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + token.encode()
              + b"\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 1000000\r\n\r\n--b\r\n")
    t0 = time.monotonic()
    s.settimeout(pause or 120)
    data = b""
    while time.monotonic() - t0 < 120:
        try:
            data = s.recv(4096)
            break
        except socket.timeout:
            try:
                s.sendall(b"x")
            except OSError:
                break
    s.close()
    return (int(data.split(b" ")[1]) if data.startswith(b"HTTP/") else 0), time.monotonic() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photo-mb", type=float, default=24.0, help="size of each of the 100 concurrent uploads")
    ap.add_argument("--skip-trickle", action="store_true", help="leave out the 60 s trickle phase")
    args = ap.parse_args()

    import tempfile

    from hostile_images import jpeg_claiming, png
    from sessions_live_server import TOKEN, LiveServer

    photo = twelve_mp_jpeg()
    big = photo + b"\0" * max(0, int(args.photo_mb * MB) - len(photo))
    srv = LiveServer(Path(tempfile.mkdtemp(prefix="tilelens-membench-")) / "data").start()
    rss = PeakRSS(srv.proc.pid)
    rows = []

    def phase(name: str, fn):
        rss.reset()
        t0 = time.monotonic()
        answers = fn()
        rows.append((name, rss.peak(), rss.now(), time.monotonic() - t0, answers))
        print(f"{name:<14} peak RSS {rss.peak() / MB:7.0f} MB  after {rss.now() / MB:6.0f} MB  "
              f"{time.monotonic() - t0:6.1f} s  answers: {answers}", flush=True)

    try:
        print(f"server pid {srv.proc.pid}, RSS at start {rss.now() / MB:.0f} MB; 12 MP photo {len(photo) / MB:.1f} MB")
        with srv.client(timeout=120) as c:
            phase("warm-up scan", lambda: dict(Counter(post(c, photo).status_code for _ in range(2))))
            bombs = [png(50_000, 50_000), png(7_000, 7_000, full_data=True), jpeg_claiming(50_000, 50_000)]
            phase("bombs", lambda: dict(Counter(f"{r.status_code} {r.json()['error']['code']}"
                                                for r in (post(c, b) for b in bombs * 5))))
            liars = [jpeg_claiming(4000, 3000), png(3000, 2000), photo[: len(photo) // 2]]
            phase("lying headers", lambda: dict(Counter(f"{r.status_code} {r.json()['error']['code']}"
                                                        for r in (post(c, b) for b in liars * 5))))
        phase("endless body", lambda: dict(zip(("status", "MB sent before the answer"),
                                               (lambda st, sent: (st, round(sent / MB)))(*endless_body(srv.port, TOKEN)))))
        if not args.skip_trickle:
            def trickles():
                out = []
                ts = [threading.Thread(target=lambda p=p: out.append(trickle(srv.port, TOKEN, p)))
                      for p in [None] * 10 + [1.0, 1.0]]
                for t in ts:
                    t.start()
                with srv.client(timeout=10) as c2:  # the server answers others meanwhile
                    worst = 0.0
                    for _ in range(10):
                        t0 = time.monotonic()
                        c2.get("/api/variants")
                        worst = max(worst, time.monotonic() - t0)
                        time.sleep(1)
                for t in ts:
                    t.join()
                return {"answers": dict(Counter(s for s, _ in out)),
                        "cut after s": sorted({round(d) for _, d in out}),
                        "slowest other request ms": round(worst * 1000)}
            phase("trickle", trickles)

        async def hundred():
            limits = httpx.Limits(max_connections=100)
            async with httpx.AsyncClient(base_url=srv.url, headers={"Authorization": f"Bearer {TOKEN}"},
                                         timeout=300, limits=limits) as c:
                rs = await asyncio.gather(*(c.post("/api/scan", files={"photo": ("p.jpg", big, "image/jpeg")})
                                            for _ in range(100)), return_exceptions=True)
            return dict(Counter(getattr(r, "status_code", type(r).__name__) for r in rs))

        phase(f"100 x {args.photo_mb:g} MB", lambda: asyncio.run(hundred()))
        with srv.client(timeout=30) as c:
            ok = c.get("/api/variants").status_code
        print(f"afterwards: /api/variants {ok}, server alive: {srv.proc.poll() is None}")
        print(f"worst peak RSS over all phases: {max(r[1] for r in rows) / MB:.0f} MB")
    finally:
        rss.stop()
        srv.kill()
    return 0


if __name__ == "__main__":
    sys.exit(main())
