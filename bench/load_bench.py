"""Load run on loopback: concurrent phones scanning 12 MP photos and recording hands.

Run: ``nice -n 10 .venv/bin/python bench/load_bench.py --duration 600``

The real server (``python -m api`` in a subprocess, fresh data dir, the real
``vision.scan`` with the ONNX classifier) gets ``--clients`` (8) clients, each in
a loop: scan a 12 MP JPEG (``vision.scenes`` at 4000x3000, else a synthetic
image), then record a hand with that photo into its own riichi session (a new
session when the game is over). Meanwhile a probe scores a hand on ``/api/score``
every 0.5 s. Reports throughput, p50/p95 latencies, errors (any answer but the
expected ones, and transport errors), the server's RSS after 100 and 1000 scans
(leak check: within 10%), and ``/api/score`` latency idle and under load.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import httpx
import psutil

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "tests" / "sessions"):
    sys.path.insert(0, str(p))

MB = 1024 * 1024
DEALER_TSUMO = {"concealed": "123m456m789m123p55p", "winning_tile": "5p", "self_drawn": True, "winner": "E"}
SCORE = {"variant": "riichi", "concealed": "234m456p678s22z345m", "winning_tile": "5m", "winner": "S",
         "discarder": "W"}
CHECKPOINTS = (100, 300, 1000)


def photos(n: int) -> list[bytes]:
    out = []
    for seed in range(n):
        try:
            from vision.scenes import make_scene

            out.append(make_scene(100 + seed, width=4000)[0])
        except Exception as exc:  # noqa: BLE001 - no renderer: a synthetic 12 MP photo
            import cv2
            import numpy as np

            print(f"(vision.scenes unavailable: {type(exc).__name__}; synthetic 4000x3000 image)")
            rng = np.random.default_rng(seed)
            img = cv2.resize(rng.integers(0, 255, (300, 400, 3), dtype=np.uint8), (4000, 3000))
            out.append(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 90])[1].tobytes())
    return out


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


class Stats:
    def __init__(self, pid: int):
        self.lock = threading.Lock()
        self.scan_ms: list[float] = []
        self.record_ms: list[float] = []
        self.score_ms: list[float] = []
        self.answers: Counter = Counter()
        self.errors: Counter = Counter()
        self.games = 0
        self.proc = psutil.Process(pid)
        self.rss_at: dict[int, int] = {}

    def scanned(self, ms: float) -> None:
        with self.lock:
            self.scan_ms.append(ms)
            n = len(self.scan_ms)
        if n in CHECKPOINTS:
            self.rss_at[n] = self.proc.memory_info().rss


def client_loop(url: str, token: str, images: list[bytes], stats: Stats, stop: threading.Event, k: int) -> None:
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=120) as c:
        def new_session():
            s = c.post("/api/sessions", json={"variant": "riichi", "players": [f"P{k}{x}" for x in "abcd"]}).json()
            return s["id"], s["version"]

        sid, version = new_session()
        i = k
        while not stop.is_set():
            photo = images[i % len(images)]
            i += 1
            try:
                t0 = time.perf_counter()
                r = c.post("/api/scan", files={"photo": ("hand.jpg", photo, "image/jpeg")})
                dt = (time.perf_counter() - t0) * 1000
                stats.answers[f"scan {r.status_code}"] += 1
                if r.status_code == 200:
                    stats.scanned(dt)
                elif r.status_code == 503:  # busy: the documented back-off
                    time.sleep(float(r.headers.get("retry-after", 1)))
                    continue
                else:
                    stats.errors[f"scan {r.status_code} {r.text[:80]}"] += 1
                    continue
                t0 = time.perf_counter()
                body = {"version": version, "request": DEALER_TSUMO}
                r = c.post(f"/api/sessions/{sid}/hands", data={"record": json.dumps(body)},
                           files={"photo": ("hand.jpg", photo, "image/jpeg")})
                dt = (time.perf_counter() - t0) * 1000
                stats.answers[f"record {r.status_code}"] += 1
                if r.status_code == 200:
                    with stats.lock:
                        stats.record_ms.append(dt)
                    version = r.json()["version"]
                elif r.status_code == 409 and r.json()["error"]["code"] == "game_over":
                    c.post(f"/api/sessions/{sid}/end", json={"version": version})
                    with stats.lock:
                        stats.games += 1
                    sid, version = new_session()
                else:
                    stats.errors[f"record {r.status_code} {r.text[:80]}"] += 1
                    s = c.get(f"/api/sessions/{sid}").json()
                    version = s["version"]
            except httpx.HTTPError as exc:
                stats.errors[f"transport {type(exc).__name__}"] += 1


def score_probe(url: str, token: str, out: list[float], stop: threading.Event, errors: Counter) -> None:
    with httpx.Client(base_url=url, headers={"Authorization": f"Bearer {token}"}, timeout=60) as c:
        while not stop.is_set():
            t0 = time.perf_counter()
            try:
                r = c.post("/api/score", json=SCORE)
                if r.status_code != 200:
                    errors[f"score {r.status_code}"] += 1
                out.append((time.perf_counter() - t0) * 1000)
            except httpx.HTTPError as exc:
                errors[f"score transport {type(exc).__name__}"] += 1
            stop.wait(0.5)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--duration", type=float, default=600.0, help="seconds of load (default 600)")
    ap.add_argument("--clients", type=int, default=8)
    ap.add_argument("--photos", type=int, default=3, help="distinct 12 MP photos to cycle through")
    args = ap.parse_args()

    from sessions_live_server import TOKEN, LiveServer

    t_gen = time.time()
    images = photos(args.photos)
    print(f"{len(images)} photos of 4000x3000, {sum(map(len, images)) / len(images) / MB:.1f} MB each on average "
          f"(made in {time.time() - t_gen:.0f} s)", flush=True)
    srv = LiveServer(Path(tempfile.mkdtemp(prefix="tilelens-load-")) / "data").start()
    stats = Stats(srv.proc.pid)
    try:
        idle: list[float] = []
        with srv.client() as c:
            for _ in range(20):
                t0 = time.perf_counter()
                assert c.post("/api/score", json=SCORE).status_code == 200
                idle.append((time.perf_counter() - t0) * 1000)
            c.post("/api/scan", files={"photo": ("w.jpg", images[0], "image/jpeg")})  # load the model once
        rss_start = stats.proc.memory_info().rss
        stop = threading.Event()
        score_ms: list[float] = []
        threads = [threading.Thread(target=client_loop, args=(srv.url, TOKEN, images, stats, stop, k))
                   for k in range(args.clients)]
        threads.append(threading.Thread(target=score_probe, args=(srv.url, TOKEN, score_ms, stop, stats.errors)))
        t0 = time.time()
        for t in threads:
            t.start()
        next_report = 60
        while time.time() - t0 < args.duration:
            time.sleep(1)
            if time.time() - t0 >= next_report:
                next_report += 60
                print(f"  {time.time() - t0:4.0f} s: {len(stats.scan_ms)} scans, {len(stats.record_ms)} hands, "
                      f"RSS {stats.proc.memory_info().rss / MB:.0f} MB", flush=True)
        stop.set()
        for t in threads:
            t.join(180)
        wall = time.time() - t0
        rss_end = stats.proc.memory_info().rss
    finally:
        srv.kill()

    n = len(stats.scan_ms)
    print(f"\nclients: {args.clients}  duration: {wall:.0f} s  (asked {args.duration:.0f} s)")
    print(f"scans: {n} ({n / wall:.2f}/s)  p50 {pct(stats.scan_ms, .5):.0f} ms  p95 {pct(stats.scan_ms, .95):.0f} ms")
    print(f"hands recorded: {len(stats.record_ms)} ({len(stats.record_ms) / wall:.2f}/s)  "
          f"p50 {pct(stats.record_ms, .5):.0f} ms  p95 {pct(stats.record_ms, .95):.0f} ms  games finished: {stats.games}")
    print(f"/api/score idle: p50 {statistics.median(idle):.1f} ms  p95 {pct(idle, .95):.1f} ms;  "
          f"under load ({len(score_ms)} calls): p50 {pct(score_ms, .5):.1f} ms  p95 {pct(score_ms, .95):.1f} ms  "
          f"max {max(score_ms, default=float('nan')):.1f} ms")
    print(f"answers: {dict(stats.answers)}")
    print(f"errors: {sum(stats.errors.values())} {dict(stats.errors) if stats.errors else ''}")
    print(f"server RSS: start {rss_start / MB:.0f} MB, " + ", ".join(
        f"after {k} scans {v / MB:.0f} MB" for k, v in sorted(stats.rss_at.items())) + f", end {rss_end / MB:.0f} MB")
    leak_ok = True
    if all(k in stats.rss_at for k in (100, 1000)):
        growth = stats.rss_at[1000] / stats.rss_at[100] - 1
        leak_ok = growth <= 0.10
        print(f"leak check (RSS after 1000 vs 100 scans): {growth * 100:+.1f}% -> {'ok' if leak_ok else 'OVER 10%'}")
    else:
        print(f"leak check: not reached ({n} scans; needs 1000)")
    return 0 if leak_ok and not stats.errors else 1


if __name__ == "__main__":
    sys.exit(main())
