"""Scan speed on 12-megapixel phone JPEGs, against a plain ``cv2.imdecode`` of the same file.

    .venv/bin/python bench/scan_bench.py --photos 6 --repeat 5

For each synthetic 4032x3024 photo (``vision.scenes``, JPEG quality 70-95) the
median of ``--repeat`` runs of (a) ``cv2.imdecode(IMREAD_COLOR)`` and (b) the whole
``vision.scan`` (reduced decode, EXIF, detect, warp, classify, group) are measured in
the same process, interleaved, so machine load hits both alike.  The goal is
scan / imdecode <= 2.  With ``models/tiles.onnx`` absent the classifier step is
skipped (``--classifier truth``) and the report says so.  ``--fill 0.45`` times hands
shot from further away, most of which take the scanner's closer look (a second reading
at twice the working resolution; the column "closer look" says which did, and "evened light"
which were looked at again with their light evened, a reading still short of a hand).  ``--quality 92`` saves
the same photos at one JPEG quality instead of the scenes' own (70-95): the reference decode
costs more the more the file holds, the scan's own work does not.  ``ref faults`` is the median
count of minor page faults during one reference decode: a few hundred where the kernel backs its
36 MB picture with huge pages, about 9,000 where it does not, which can double the reference's
time from one run to the next (docs/performance.md).
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import cv2
import numpy as np

try:
    import resource
except ImportError:  # not on Windows: the fault count is then left out
    resource = None

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from vision.scan import scan  # noqa: E402
from vision.scenes import describe_drawing_setup, make_scene, truth_classifier  # noqa: E402


def _minor_faults() -> int:
    """This process's minor page faults so far (0 where the platform does not count them)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt if resource is not None else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photos", type=int, default=6)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--first-seed", type=int, default=900000)
    ap.add_argument("--classifier", choices=("model", "truth"), default=None)
    ap.add_argument("--fill", type=float, help="shoot the hands from further away (the share of the frame the hand "
                    "spans, as in bench/scan_accuracy.py): times the closer look at small faces")
    ap.add_argument("--quality", type=int, help="save every photo at this JPEG quality (default: each scene's own, "
                    "drawn from 70-95); the scenes are the same either way")
    a = ap.parse_args(argv)
    use_model = (ROOT / "models" / "tiles.onnx").exists() if a.classifier is None else a.classifier == "model"
    rows = []
    for k in range(a.photos):
        data, truth = make_scene(a.first_seed + k, width=4032, fill=a.fill, quality=a.quality)
        fn = None if use_model else truth_classifier(truth)
        scan(data, classify_fn=fn)  # warm-up: model load, caches
        dec, faults, sc, parts = [], [], [], []
        for _ in range(a.repeat):
            f0, t = _minor_faults(), time.perf_counter()
            img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
            dec.append((time.perf_counter() - t) * 1000)
            faults.append(_minor_faults() - f0)
            assert img is not None
            t = time.perf_counter()
            res = scan(data, classify_fn=fn)
            sc.append((time.perf_counter() - t) * 1000)
            parts.append(res["timings_ms"])
        md, ms = float(np.median(dec)), float(np.median(sc))
        part = {key: float(np.median([p[key] for p in parts])) for key in ("decode", "detect", "classify", "group")}
        rows.append((a.first_seed + k, len(data), truth["params"]["quality"], md, int(np.median(faults)), ms, part,
                     len(res["tiles"]), res["image"]["closer_look"], res["image"]["evened_light"]))
    print(f"classifier: {'models/tiles.onnx' if use_model else 'truth stand-in (no model: classify time not included)'}")
    print(f"scenes drawn with {describe_drawing_setup()}")  # other styles or fonts: other photos
    print("| photo seed | JPEG MB | quality | imdecode ms | ref faults | scan ms | scan / imdecode | decode | detect "
          "| classify | group | tiles | closer look | evened light |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for seed, size, quality, md, nf, ms, p, n, look, light in rows:
        print(f"| {seed} | {size / 1e6:.2f} | {quality} | {md:.1f} | {nf} | {ms:.1f} | {ms / md:.2f} "
              f"| {p['decode']:.1f} | {p['detect']:.1f} | {p['classify']:.1f} | {p['group']:.1f} | {n} | {look} | {light} |")
    ratio = float(np.median([r[5] / r[3] for r in rows]))
    print(f"median scan / imdecode: {ratio:.2f} (goal <= 2.0)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
