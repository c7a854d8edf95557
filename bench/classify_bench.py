"""Time the tile classifier on a batch of 17 crops (a 16-tile hand plus a drawn tile).

    python bench/classify_bench.py [--repeats 200] [--report .train/reports/bench.json]

Prints the median time per batch and per tile for ``vision.classify.classify`` (onnxruntime on
CPU, 2 threads, preprocessing included), and, as a reference measured in the same run, the
time to decode one 1600x1200 JPEG with OpenCV, so that runs on different machines compare.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.tiles import KINDS  # noqa: E402
from vision.classify import classify  # noqa: E402
from vision.render import render_face  # noqa: E402

BATCH = 17


def crops(seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    out = []
    for i in range(BATCH):
        h = int(rng.integers(60, 140))
        out.append(render_face(KINDS[int(rng.integers(len(KINDS)))], rng, height=h, source="drawn"))
    return out


def timed(fn, repeats: int) -> list[float]:
    ts = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t)
    return ts


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeats", type=int, default=200)
    ap.add_argument("--report", help="also write the figures as JSON here")
    a = ap.parse_args(argv)
    batch = crops()
    classify(batch)  # load the model and warm up
    t_cls = statistics.median(timed(lambda: classify(batch), a.repeats))
    rng = np.random.default_rng(1)
    photo = cv2.GaussianBlur(rng.integers(0, 255, (1200, 1600, 3), dtype=np.uint8), (0, 0), 3)
    ok, jpeg = cv2.imencode(".jpg", photo, [cv2.IMWRITE_JPEG_QUALITY, 90])
    t_ref = statistics.median(timed(lambda: cv2.imdecode(jpeg, cv2.IMREAD_COLOR), max(20, a.repeats // 4)))
    res = {"command": "python bench/classify_bench.py", "batch": BATCH, "repeats": a.repeats, "threads": 2,
           "ms_batch": t_cls * 1e3, "ms_per_tile": t_cls * 1e3 / BATCH, "ms_reference_jpeg_decode": t_ref * 1e3,
           "ratio_to_reference": t_cls / t_ref}
    print(f"classify {BATCH} crops: {res['ms_batch']:.2f} ms per batch, {res['ms_per_tile']:.3f} ms per tile "
          f"(goal < 1 ms); reference 1600x1200 JPEG decode {res['ms_reference_jpeg_decode']:.2f} ms; "
          f"ratio {res['ratio_to_reference']:.2f}")
    if a.report:
        Path(a.report).parent.mkdir(parents=True, exist_ok=True)
        Path(a.report).write_text(json.dumps(res, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
