"""``python -m vision classify [--json] FILES...``: name the tile in each cropped tile photo.

With ``--json`` prints a JSON list with one entry per file, in order:
``{"path", "tile", "confidence", "top3"}``, or ``{"path", "error"}`` for a file that is missing,
empty, not an image, or too small to be a tile. Exit status 0 when every file was classified,
1 when some had errors, 2 on bad usage.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import cv2
import numpy as np

MAX_BYTES = 40 * 1024 * 1024


def read_crop(path: str) -> np.ndarray:
    """Read an image file as BGR; raises ValueError with a plain reason."""
    p = Path(path)
    if not p.exists():
        raise ValueError("no such file")
    if p.is_dir():
        raise ValueError("is a directory, not an image")
    size = p.stat().st_size
    if size == 0:
        raise ValueError("empty file")
    if size > MAX_BYTES:
        raise ValueError(f"file too large ({size} bytes; the limit is {MAX_BYTES})")
    data = np.frombuffer(p.read_bytes(), np.uint8)
    img = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError("not a readable image (JPEG, PNG, WebP, BMP or TIFF expected)")
    return img


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in argv
    files = [a for a in argv if a != "--json"]
    if not files or any(a in ("-h", "--help") for a in files):
        print(__doc__.strip().splitlines()[0].strip("`"), file=sys.stderr)
        return 2 if not files else 0
    from .classify import classify

    entries: list[dict] = []
    crops, where = [], []
    for path in files:
        try:
            crops.append(read_crop(path))
            where.append(len(entries))
            entries.append({"path": path})
        except (ValueError, OSError) as e:
            entries.append({"path": path, "error": str(e)})
    for i, res in zip(where, classify(crops)):
        if "error" in res:
            entries[i]["error"] = res["error"]
        else:
            entries[i].update(tile=res["tile"], confidence=res["confidence"], top3=res["top3"])
    if as_json:
        print(json.dumps(entries, ensure_ascii=False, indent=1))
    else:
        for e in entries:
            if "error" in e:
                print(f"{e['path']}: error: {e['error']}")
            else:
                alts = ", ".join(f"{c} {s:.2f}" for c, s in e["top3"])
                print(f"{e['path']}: {e['tile']} ({e['confidence']:.2f}; top 3: {alts})")
    return 1 if any("error" in e for e in entries) else 0
