"""Scan accuracy when a camera changes the photo: development scenes sharpened, shaken, grainy,
under- or over-exposed.

    .venv/bin/python bench/scan_robustness.py --scenes 60 --first-seed 0 --bodies camera
    .venv/bin/python bench/scan_robustness.py --classifier truth     # detection and grouping alone

The synthetic scenes (``vision.scenes``) draw their light, blur and noise from fixed ranges. A
phone does more to a photo than those ranges hold: it sharpens, a hand shakes at a slow shutter
in a dim room, its sensor's grain is coarser than one pixel, and its exposure follows the whole
frame, so white tiles on a dark cloth come out burnt. Each change below is applied to the
decoded photo, which is then JPEG-encoded again at the scene's own quality; ``re-encoded``
(no change, one more encoding) is the control the others compare with, and ``as shot`` is the
scene's own file. Every change is a fixed function of the photo: the same seeds give the same
figures on the same machine.

Per change: exact scenes, tile recall and precision (as in ``bench/scan_accuracy.py``), and why
the scenes not read exactly were lost (``loss_causes``; a scene may have several causes). Use
development seeds (below 1,000): the acceptance seeds (500,000 up) stay unseen.
"""
from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from scan_accuracy import LOSS_CAUSES, WIDTHS, loss_causes, score_scene  # noqa: E402
from vision.scan import scan  # noqa: E402
from vision.scenes import make_scene, truth_classifier  # noqa: E402
from vision.scenes import shaken as streaked_by_shake  # noqa: E402


def sharpened(img: np.ndarray) -> np.ndarray:
    """A phone's sharpening: an unsharp mask of amount 1 and a radius of a pixel per 1,600 px of
    width (halos beside every edge, the seams between tiles among them)."""
    blur = cv2.GaussianBlur(img, (0, 0), max(1.0, img.shape[1] / 1600))
    return cv2.addWeighted(img, 2.0, blur, -1.0, 0)


def shaken(img: np.ndarray) -> np.ndarray:
    """A hand's shake at a slow shutter: a streak along a 30-degree line a pixel long per 400 px of
    width, 3 px at least (10 px on a 12 MP photo), as ``make_scene(shake=0.0025)`` streaks a scene
    before its noise (:func:`vision.scenes.shaken`; ``bench/scan_accuracy.py --shake`` for other lengths)."""
    streaked = streaked_by_shake(img.astype(np.float32), max(3.0, img.shape[1] / 400), math.radians(30))
    return np.clip(np.rint(streaked), 0, 255).astype(np.uint8)


def grainy(img: np.ndarray) -> np.ndarray:
    """A small sensor's grain in a dim room: lightness noise of sigma 6 over 2 px clumps and colour
    noise of sigma 3.6 over 4 px (demosaicing spreads a sensor's noise), from a fixed seed."""
    rng = np.random.default_rng(1)
    h, w = img.shape[:2]
    luma = cv2.resize(rng.normal(0, 6.0, (h // 2 + 1, w // 2 + 1)).astype(np.float32), (w, h))
    colour = cv2.resize(rng.normal(0, 3.6, (h // 4 + 1, w // 4 + 1, 3)).astype(np.float32), (w, h))
    return np.clip(img.astype(np.float32) + luma[..., None] + colour, 0, 255).astype(np.uint8)


def _scaled(img: np.ndarray, factor: float) -> np.ndarray:
    return np.clip(img.astype(np.float32) * factor, 0, 255).astype(np.uint8)


def under(img: np.ndarray) -> np.ndarray:
    """Under-exposed: every value times 0.55 (a dim room, a dark photo)."""
    return _scaled(img, 0.55)


def over(img: np.ndarray) -> np.ndarray:
    """Over-exposed: every value times 1.26, clipped at 255 (white faces burnt out, as a phone
    that exposes for a dark cloth makes them)."""
    return _scaled(img, 1.26)


def over_more(img: np.ndarray) -> np.ndarray:
    """Over-exposed further: every value times 1.41, clipped at 255."""
    return _scaled(img, 1.41)


CHANGES = {"as shot": None, "re-encoded": lambda img: img, "sharpened": sharpened, "shaken": shaken,
           "grainy": grainy, "under": under, "over": over, "over more": over_more}


def changed_photo(data: bytes, quality: int, change) -> bytes:
    """The JPEG ``data`` decoded, changed by ``change`` (None: the file itself) and encoded again
    at ``quality``."""
    if change is None:
        return data
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    ok, buf = cv2.imencode(".jpg", change(img), [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    if not ok:
        raise RuntimeError("the changed photo could not be encoded")
    return buf.tobytes()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", type=int, default=60)
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--bodies", choices=("sprite", "camera"), default="camera",
                    help="where the scenes draw the tiles' thickness (vision.scenes.make_scene)")
    ap.add_argument("--classifier", choices=("model", "truth"), default="model",
                    help="truth: every candidate named from the scene's truth (detection and grouping alone)")
    ap.add_argument("--changes", default=",".join(CHANGES),
                    help=f"comma-separated, of: {', '.join(CHANGES)}")
    a = ap.parse_args(argv)
    names = [n.strip() for n in a.changes.split(",") if n.strip()]
    unknown = [n for n in names if n not in CHANGES]
    if unknown:
        ap.error(f"unknown change(s) {unknown}; known: {list(CHANGES)}")
    if a.first_seed + a.scenes > 1000:
        print("note: seeds of 1,000 and up include acceptance scenes (500,000 up); keep development below 1,000",
              file=sys.stderr)
    t0 = time.perf_counter()
    scenes = [make_scene(seed, width=WIDTHS[seed % len(WIDTHS)], bodies=a.bodies)
              for seed in range(a.first_seed, a.first_seed + a.scenes)]
    print(f"scenes {a.scenes} (seeds {a.first_seed}..{a.first_seed + a.scenes - 1}), bodies {a.bodies}, "
          f"classifier: {a.classifier}; rendered in {time.perf_counter() - t0:.0f} s")
    print("| change | exact | recall | precision | " + " | ".join(LOSS_CAUSES) + " |")
    print("|---|---|---|---|" + "---|" * len(LOSS_CAUSES))
    for name in names:
        totals, lost = Counter(), Counter()
        for data, truth in scenes:
            fn = truth_classifier(truth) if a.classifier == "truth" else None
            s = score_scene(scan(changed_photo(data, truth["params"]["quality"], CHANGES[name]), classify_fn=fn), truth)
            for key in ("true", "found", "right", "exact"):
                totals[key] += s[key]
            lost.update(loss_causes(s))
        print(f"| {name} | {totals['exact']} / {a.scenes} | {totals['right'] / max(1, totals['true']):.3f} "
              f"| {totals['right'] / max(1, totals['found']):.3f} | "
              + " | ".join(str(lost[c]) for c in LOSS_CAUSES) + " |", flush=True)
    print(f"wall {time.perf_counter() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
