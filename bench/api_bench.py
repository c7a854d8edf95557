"""Latency of the table server on this machine: serving the phone page and scoring a hand.

Starts the real server (``python -m api`` on 127.0.0.1, a free port) and times,
over one keep-alive HTTP connection as a phone would use it:

* page: ``GET /`` + ``/static/app.js`` + ``/static/app.css`` (a cold load of the page);
* score: ``POST /api/score`` with a winning Taiwanese hand;
* hint: ``POST /api/score/many`` with 40 copies of that hand, each with one tile changed (what
  the phone page asks when a scanned hand does not win: which of the scan's other guesses
  would make it win); not part of the target, reported beside it;
* floor: ``GET /api/tiles/0x.png`` (an authenticated 404: the cheapest round trip the
  server can do), as the in-run reference for HTTP overhead;
* engine: ``engine.score`` called in-process, the reference for the work itself.

Usage: ``python bench/api_bench.py [--rounds 300]``. The target is under 50 ms for the
page and for a score; ratios against the references of the same run are printed too.
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

import engine  # noqa: E402

TOKEN = "bench-token-123456"
HAND = {"variant": "taiwan", "concealed": "234m567m345p678s55z", "melds": [{"tiles": "777z", "concealed": False}],
        "flowers": "3f", "winning_tile": "5z", "self_drawn": True, "winner": "S", "dealer": "E"}
TARGET_MS = 50.0
HINT_REQUESTS = 40


def one_tile_changes(hand: dict, n: int) -> list[dict]:
    """``n`` copies of ``hand``, each with one concealed tile changed to a neighbouring kind."""
    from engine.tiles import parse

    tiles, out = parse(hand["concealed"]), []
    for k in range(n):
        i, step = k % len(tiles), 1 + k // len(tiles)
        code = tiles[i]
        other = (f"{(int(code[0]) - 1 + step) % 9 + 1}{code[1]}" if code[1] in "mps"
                 else f"{(int(code[0]) - 1 + step) % 7 + 1}z")
        out.append(dict(hand, concealed="".join(tiles[:i] + [other] + tiles[i + 1:])))
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(data_dir: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    env = {**os.environ, "TILELENS_TOKEN": TOKEN}
    proc = subprocess.Popen([sys.executable, "-m", "api", "--host", "127.0.0.1", "--port", str(port),
                             "--data-dir", data_dir, "--no-qr"], cwd=REPO, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            httpx.get(base + "/", timeout=1)
            return proc, base
        except httpx.HTTPError:
            time.sleep(0.1)
    proc.kill()
    raise SystemExit("the server did not start")


def timed(fn, rounds: int) -> list[float]:
    for _ in range(min(20, rounds)):  # warm up
        fn()
    out = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def summary(ms: list[float]) -> tuple[float, float]:
    ms = sorted(ms)
    return statistics.median(ms), ms[int(0.95 * (len(ms) - 1))]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=300)
    args = ap.parse_args(argv)

    with tempfile.TemporaryDirectory() as data:
        proc, base = start_server(data)
        try:
            with httpx.Client(base_url=base, headers={"Authorization": f"Bearer {TOKEN}"}) as c:
                def page():
                    for path in ("/", "/static/app.js", "/static/app.css"):
                        r = c.get(path)
                        assert r.status_code == 200, path

                def score():
                    r = c.post("/api/score", json=HAND)
                    assert r.status_code == 200 and r.json()["winning"], r.text

                hint_body = {"requests": one_tile_changes(HAND, HINT_REQUESTS)}

                def hint():
                    r = c.post("/api/score/many", json=hint_body)
                    assert r.status_code == 200 and len(r.json()["results"]) == HINT_REQUESTS, r.text

                def floor():
                    assert c.get("/api/tiles/0x.png").status_code == 404

                results = {
                    "engine.score in-process": timed(lambda: engine.score(dict(HAND)), args.rounds),
                    "floor: authenticated 404": timed(floor, args.rounds),
                    "page: / + app.js + app.css": timed(page, args.rounds),
                    "score: POST /api/score": timed(score, args.rounds),
                    f"hint: POST /api/score/many ({HINT_REQUESTS})": timed(hint, max(1, args.rounds // 5)),
                }
        finally:
            proc.terminate()
            proc.wait(timeout=10)

    engine_med = summary(results["engine.score in-process"])[0]
    floor_med = summary(results["floor: authenticated 404"])[0]
    print(f"{args.rounds} rounds each, {os.cpu_count()} CPUs, Python {sys.version.split()[0]}")
    print(f"{'what':32} {'median ms':>10} {'p95 ms':>8} {'x floor':>8} {'x engine':>9}")
    ok = True
    for name, ms in results.items():
        med, p95 = summary(ms)
        print(f"{name:32} {med:10.2f} {p95:8.2f} {med / floor_med:8.1f} {med / engine_med:9.1f}")
        if name.startswith(("page", "score")) and p95 >= TARGET_MS:
            ok = False
    print(f"target: page and score under {TARGET_MS:.0f} ms (p95): {'met' if ok else 'NOT met'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
