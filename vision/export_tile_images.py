"""``python -m vision.export_tile_images DIR``: write a clean upright PNG of every tile kind.

``<code>.png`` for the 51 engine codes plus ``back.png``, 96 x 128 px with a transparent
background, drawn only from the Debian fonts and procedural drawing (the ``drawn`` face source),
never from ``../shared`` art, so the images can be served by the phone page. Output is fixed by
per-tile seeds.
"""
from __future__ import annotations

import sys
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import KINDS

from .render import render_face

W, H = 96, 128
FACE_H = 116
# per-tile seeds picked so that each picture shows the usual features (flowers: digit and character)
SEEDS: dict[str, int] = {**{f"{n}f": 2 for n in range(1, 9)}, "6z": 0}
BACK_BGR = (60, 130, 40)


def _rounded(h: int, w: int, x0, y0, x1, y1, r, ss: int = 4) -> np.ndarray:
    big = np.zeros((h * ss, w * ss), np.uint8)
    X0, Y0, X1, Y1, R = (int(round(v * ss)) for v in (x0, y0, x1, y1, r))
    cv2.rectangle(big, (X0 + R, Y0), (X1 - R, Y1), 255, -1)
    cv2.rectangle(big, (X0, Y0 + R), (X1, Y1 - R), 255, -1)
    for cx, cy in ((X0 + R, Y0 + R), (X1 - R, Y0 + R), (X0 + R, Y1 - R), (X1 - R, Y1 - R)):
        cv2.circle(big, (cx, cy), R, 255, -1)
    return cv2.resize(big, (w, h), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def tile_image(code: str) -> np.ndarray:
    """BGRA 128x96 picture of ``code`` (or ``back``) with a green back showing below the face."""
    fw = int(round(FACE_H * 0.75))
    x0, y0 = (W - fw) / 2, 1.0
    body = _rounded(H, W, x0, y0 + 9, x0 + fw, y0 + FACE_H + 9, 8)
    ivory = _rounded(H, W, x0, y0 + 4, x0 + fw, y0 + FACE_H + 4, 8)
    face_m = _rounded(H, W, x0, y0, x0 + fw, y0 + FACE_H, 8)
    img = np.zeros((H, W, 3), np.float32)
    img += np.array(BACK_BGR, np.float32) * body[..., None]
    img = img * (1 - ivory[..., None]) + np.array([200, 222, 232], np.float32) * ivory[..., None]
    if code == "back":
        face = np.empty((FACE_H, fw, 3), np.float32)
        face[:] = np.array(BACK_BGR, np.float32) * 1.1
    else:
        rng = np.random.default_rng(SEEDS.get(code, 1000 + KINDS.index(code)))
        face = render_face(code, rng, height=FACE_H, source="drawn", clean=True).astype(np.float32)
    placed = np.zeros_like(img)
    ix, iy = int(round(x0)), int(round(y0))
    placed[iy: iy + FACE_H, ix: ix + fw] = face
    img = img * (1 - face_m[..., None]) + placed * face_m[..., None]
    alpha = np.maximum(np.maximum(body, ivory), face_m)
    return np.dstack([np.clip(img, 0, 255), alpha * 255]).astype(np.uint8)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if len(argv) != 1 or argv[0].startswith("-"):
        print("usage: python -m vision.export_tile_images DIR", file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.mkdir(parents=True, exist_ok=True)
    for code in list(KINDS) + ["back"]:
        cv2.imwrite(str(out / f"{code}.png"), tile_image(code), [cv2.IMWRITE_PNG_COMPRESSION, 9])
    print(f"wrote {len(KINDS) + 1} tile images to {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
