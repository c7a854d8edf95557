"""Ink colours and ink layers shared by every face source.

An *ink layer* is a BGRA uint8 image: the drawing in colour, transparent where the tile face
shows through. Sources produce ink layers; :mod:`vision.render` lays them on a face.
"""
from __future__ import annotations

import cv2
import numpy as np

# Base ink colours (BGR) of real tile sets, jittered per tile.
INKS = {
    "red": (40, 35, 190),
    "green": (60, 120, 20),
    "blue": (150, 60, 25),
    "black": (35, 30, 30),
}


def ink(name: str, rng: np.random.Generator) -> tuple[int, int, int]:
    base = np.array(INKS[name], np.int32) + rng.integers(-28, 29, 3)
    if name == "black":
        base = np.full(3, base.mean(), np.int32) + rng.integers(-8, 9, 3)
    return tuple(int(v) for v in np.clip(base, 0, 235))


def pick(rng: np.random.Generator, weights: dict[str, float]) -> str:
    names = list(weights)
    p = np.array([weights[n] for n in names], np.float64)
    return names[int(rng.choice(len(names), p=p / p.sum()))]


def scheme_colour(code: str, rng: np.random.Generator, cy: float, cx: float, tile_inks: dict) -> tuple:
    """The ink for one stroke group of ``code`` whose centre is at (cy, cx), both in 0..1.

    ``tile_inks`` holds the choices made once per tile, so that a tile stays consistent.
    """
    s = code[1]
    if s == "m":
        return tile_inks["top"] if cy < 0.45 else tile_inks["bottom"]
    if s == "z":
        return tile_inks["main"]
    if s == "s" and code[0] != "1":
        # sticks are mostly one colour, with accent sticks in a second one
        return tile_inks["accent"] if rng.random() < tile_inks["accent_p"] else tile_inks["main"]
    # circles, birds, flowers, animals, faces, fei: a small per-tile palette
    return tile_inks["palette"][int(rng.integers(len(tile_inks["palette"])))]


def tile_palette(code: str, rng: np.random.Generator) -> dict:
    s, n = code[1], code[0]
    out: dict = {}
    if s == "m":
        out["top"] = ink(pick(rng, {"black": 4, "blue": 3, "green": 1.5, "red": 0.5}), rng)
        out["bottom"] = ink(pick(rng, {"red": 8, "black": 1, "blue": 1}), rng)
    elif s == "z":
        if n in "1234":
            w = {"black": 4, "blue": 3, "green": 1, "red": 1}
        elif n == "5":
            w = {"blue": 5, "black": 3, "green": 1}
        elif n == "6":
            w = {"green": 8, "black": 1, "blue": 1}
        else:
            w = {"red": 9, "black": 0.5, "blue": 0.5}
        out["main"] = ink(pick(rng, w), rng)
    elif s == "s":
        out["main"] = ink(pick(rng, {"green": 6, "blue": 2, "black": 1, "red": 0.5}), rng)
        out["accent"] = ink(pick(rng, {"red": 4, "blue": 2, "green": 1, "black": 1}), rng)
        out["accent_p"] = float(rng.choice([0.0, 0.15, 0.3]))
    names = ["red", "green", "blue", "black"]
    k = int(rng.integers(2, 5))
    chosen = rng.choice(names, size=k, replace=False)
    out["palette"] = [ink(str(c), rng) for c in chosen]
    return out


def recolour(layer: np.ndarray, code: str, rng: np.random.Generator, keep_dark: bool = False) -> np.ndarray:
    """Repaint each connected stroke group of an ink layer from the tile's usual colour scheme.

    ``keep_dark`` leaves near-black pixels black (outlines of coloured art).
    """
    alpha = layer[..., 3]
    mask = (alpha > 96).astype(np.uint8)
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    h, w = alpha.shape
    pal = tile_palette(code, rng)
    lut = np.zeros((max(n, 1), 3), np.uint8)
    for i in range(1, n):
        lut[i] = scheme_colour(code, rng, cents[i][1] / h, cents[i][0] / w, pal)
    # pixels with weak alpha (antialiasing) take the colour of the nearest strong label
    if n > 1:
        dist_labels = labels.copy()
        weak = (alpha > 0) & (labels == 0)
        if weak.any():
            dil = cv2.dilate(labels.astype(np.float32), np.ones((3, 3), np.uint8)).astype(np.int32)
            dist_labels[weak] = dil[weak]
        colour = lut[dist_labels]
    else:
        colour = np.zeros((h, w, 3), np.uint8)
    out = layer.copy()
    if keep_dark:
        dark = layer[..., :3].max(axis=2) < 70
        colour[dark] = layer[..., :3][dark]
    out[..., :3] = colour
    return out


def text_mask(text: str, font, pad: int = 2) -> np.ndarray:
    """Greyscale mask (uint8, 255 = ink) of ``text`` in a PIL font, cropped to the ink."""
    from PIL import Image, ImageDraw

    box = font.getbbox(text)
    w, h = box[2] - box[0] + 2 * pad, box[3] - box[1] + 2 * pad
    img = Image.new("L", (max(w, 1), max(h, 1)), 0)
    ImageDraw.Draw(img).text((pad - box[0], pad - box[1]), text, font=font, fill=255)
    m = np.asarray(img)
    return crop_to_ink(m)


def crop_to_ink(m: np.ndarray, thresh: int = 20) -> np.ndarray:
    ys, xs = np.nonzero(m > thresh)
    if len(ys) == 0:
        return m
    return m[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]


def mask_to_layer(mask: np.ndarray, colour=(0, 0, 0)) -> np.ndarray:
    out = np.zeros(mask.shape + (4,), np.uint8)
    out[..., :3] = colour
    out[..., 3] = mask
    return out


def fit_into(layer: np.ndarray, h: int, w: int, box: tuple[float, float, float, float],
             keep_aspect: bool = True) -> np.ndarray:
    """Place ``layer`` (BGRA) into a transparent h x w canvas inside ``box`` = (y0, x0, y1, x1),
    given as fractions of the canvas, centred, scaled to fit."""
    canvas = np.zeros((h, w, 4), np.uint8)
    paste(canvas, layer, box, keep_aspect)
    return canvas


def paste(canvas: np.ndarray, layer: np.ndarray, box, keep_aspect: bool = True) -> None:
    """Alpha-composite ``layer`` onto the BGRA ``canvas`` inside the fractional ``box``."""
    h, w = canvas.shape[:2]
    y0, x0, y1, x1 = box
    bh, bw = max(1, int(round((y1 - y0) * h))), max(1, int(round((x1 - x0) * w)))
    lh, lw = layer.shape[:2]
    if lh == 0 or lw == 0:
        return
    if keep_aspect:
        s = min(bh / lh, bw / lw)
        th, tw = max(1, int(round(lh * s))), max(1, int(round(lw * s)))
    else:
        th, tw = bh, bw
    interp = cv2.INTER_AREA if th < lh else cv2.INTER_LINEAR
    small = cv2.resize(layer, (tw, th), interpolation=interp)
    top = int(round(y0 * h + (bh - th) / 2))
    left = int(round(x0 * w + (bw - tw) / 2))
    over(canvas, small, top, left)


def over(canvas: np.ndarray, layer: np.ndarray, top: int, left: int) -> None:
    """Porter-Duff 'over' of BGRA ``layer`` onto BGRA ``canvas`` at (top, left), clipped."""
    h, w = canvas.shape[:2]
    lh, lw = layer.shape[:2]
    y0, x0 = max(0, top), max(0, left)
    y1, x1 = min(h, top + lh), min(w, left + lw)
    if y1 <= y0 or x1 <= x0:
        return
    src = layer[y0 - top: y1 - top, x0 - left: x1 - left].astype(np.float32)
    dst = canvas[y0:y1, x0:x1].astype(np.float32)
    a = src[..., 3:] / 255.0
    b = dst[..., 3:] / 255.0
    out_a = a + b * (1 - a)
    rgb = (src[..., :3] * a + dst[..., :3] * b * (1 - a)) / np.maximum(out_a, 1e-6)
    canvas[y0:y1, x0:x1, :3] = np.clip(rgb, 0, 255).astype(np.uint8)
    canvas[y0:y1, x0:x1, 3] = np.clip(out_a[..., 0] * 255, 0, 255).astype(np.uint8)
