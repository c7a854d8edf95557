"""``scan(image_bytes) -> dict``: find, rectify, classify and group every tile in a photo.

Output::

    {"tiles": [{"tile", "confidence", "top3", "corners": [[x, y] * 4], "group"}, ...],
     "hand": {"concealed": "123m...", "melds": [{"tiles": "555p", "concealed": false}], "flowers": "12f"},
     "image": {"width", "height", "orientation", "orientation_name", "format", "working_width", "working_height"},
     "timings_ms": {"decode", "detect", "classify", "group", "total"}}

* ``corners`` are TL, TR, BR, BL of the tile *face* in the photo as displayed
  (after EXIF orientation, full size), clockwise; TL->TR runs across the face's width.
  Whether a face is upside down is not known to the geometry, so TL may be at the
  face's bottom right.
* ``tiles`` are in reading order: the concealed row, then each meld, then flowers.
* ``tile`` is an engine code or ``"back"`` (a face-down tile of a concealed kong).
* One photo holds one set's tiles, so no kind is read more often than a set holds it
  (:mod:`vision.copy_limits`): a surplus reading moves to its next likeliest kind in
  ``top3``, and such a tile says ``"moved_from"`` (the classifier's first choice).
* A kong whose four tiles are all face down is ``{"tiles": "", "concealed": true,
  "unknown": true}``: its kind cannot be read from the photo.
* Bad input raises :class:`ScanError` (``code``, ``message``); a photo with no
  tiles returns empty ``tiles`` and an empty hand.
"""
from __future__ import annotations

import time

import cv2
import numpy as np

from .decode import ORIENTATION_NAMES, ScanError, decode
from .detect import detect, point_in_quad
from .copy_limits import limit_copies
from .group import group_tiles

CROP_W, CROP_H = 96, 128     # the classifier resizes; this keeps the detail of big tiles
__all__ = ["scan", "scan_image", "ScanError", "crop_face"]


def crop_face(img: np.ndarray, quad: np.ndarray, w: int = CROP_W, h: int = CROP_H) -> np.ndarray:
    """Warp a face quad (TL TR BR BL of a portrait face) to an upright ``w x h`` crop."""
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    M = cv2.getPerspectiveTransform(np.asarray(quad, np.float32), dst)
    return cv2.warpPerspective(img, M, (w, h), flags=cv2.INTER_AREA if _side(quad) > 1.5 * h else cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)


def _side(q):
    q = np.asarray(q, np.float32)
    return float(np.linalg.norm(q[3] - q[0]))


def candidates(runs) -> list[dict]:
    """Flatten detection runs into candidates: faces first, then probes, then face-down blobs.

    A later candidate whose centre lies inside an earlier one is a duplicate and dropped.
    """
    out: list[dict] = []
    for i, r in enumerate(runs):
        if r.kind == "face":
            for q in r.quads:
                out.append({"quad": q, "run": i, "source": "face"})
    for i, r in enumerate(runs):
        for end, q in r.probes:
            out.append({"quad": q, "run": i, "source": "probe", "end": end})
    for i, r in enumerate(runs):
        if r.kind == "back":
            for q in r.quads:
                out.append({"quad": q, "run": i, "source": "back"})
    kept: list[dict] = []
    for c in out:
        ctr = np.asarray(c["quad"], np.float32).mean(axis=0)
        if any(point_in_quad(ctr, k["quad"]) for k in kept):
            continue
        kept.append(c)
    return kept


def scan_image(decoded, classify_fn=None) -> dict:
    """Scan an already decoded photo (see :func:`vision.decode.decode`).

    ``classify_fn(crops, quads) -> results`` replaces the ONNX classifier (tests and
    benchmarks use :func:`vision.scenes.truth_classifier` to measure the geometry
    alone); ``quads`` are the candidates' corners in full-size photo coordinates.
    """
    timings = {}
    t0 = time.perf_counter()
    det = detect(decoded.image)
    cands = candidates(det["runs"])
    t1 = time.perf_counter()
    timings["detect"] = (t1 - t0) * 1000
    sx, sy = decoded.scale_xy
    crops = [crop_face(decoded.image, c["quad"]) for c in cands]
    if not crops:
        results = []
    elif classify_fn is None:
        from .classify import classify

        results = classify(crops)
    else:
        results = classify_fn(crops, [np.asarray(c["quad"], np.float64) * [sx, sy] for c in cands])
    t2 = time.perf_counter()
    timings["classify"] = (t2 - t1) * 1000
    tiles = []
    for c, res in zip(cands, results):
        code = res["tile"]
        if code == "reject":
            continue
        if c["source"] == "probe" and code != "back":
            continue  # a probe only ever adds a face-down end
        tiles.append({"tile": code, "confidence": float(res.get("confidence", 0.0)),
                      "top3": res.get("top3", []), "quad": c["quad"], "run": c["run"]})
    ordered, hand = group_tiles(limit_copies(tiles))
    out_tiles = []
    for t in ordered:
        q = np.asarray(t["quad"], np.float64) * [sx, sy]
        out_tiles.append({"tile": t["tile"], "confidence": round(t["confidence"], 4), "top3": t["top3"],
                          "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in q], "group": t["group"]})
        if "moved_from" in t:  # the classifier's first choice, one copy too many for one set
            out_tiles[-1]["moved_from"] = t["moved_from"]
    timings["group"] = (time.perf_counter() - t2) * 1000
    return {
        "tiles": out_tiles,
        "hand": hand,
        "image": {"width": decoded.width, "height": decoded.height, "orientation": decoded.orientation,
                  "orientation_name": ORIENTATION_NAMES[decoded.orientation], "format": decoded.format,
                  "working_width": int(decoded.image.shape[1]), "working_height": int(decoded.image.shape[0])},
        "timings_ms": timings,
    }


def scan(image_bytes: bytes, *, classify_fn=None) -> dict:
    """Find, rectify, classify and group every tile in a photo (JPEG/PNG/WebP... bytes).

    Raises :class:`ScanError` for input that is not a usable image.
    """
    t0 = time.perf_counter()
    decoded = decode(image_bytes)
    t1 = time.perf_counter()
    result = scan_image(decoded, classify_fn=classify_fn)
    timings = {"decode": (t1 - t0) * 1000, **result["timings_ms"]}
    timings["total"] = (time.perf_counter() - t0) * 1000
    result["timings_ms"] = {k: round(v, 2) for k, v in timings.items()}
    return result
