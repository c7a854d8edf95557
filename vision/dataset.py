"""Training data for the tile classifier.

:func:`make_crop` puts a rendered tile on a table, lights it, tilts the camera, and then cuts the
face out again the way the detector does (perspective warp of a slightly wrong quad), so the
crops look like what :func:`vision.classify.classify` receives. Rejects (crops that are not one
tile face) are made from the same scenes.

:func:`build_cache` renders a whole data set into a uint8 numpy cache (``.train/``) with a
fixed seed; :func:`load_real` reads ``../shared/data/real-tiles`` when present.

    python -m vision.dataset --n 40000 --out .train/rendered   # pre-render a cache
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import KINDS

from .classify import INPUT_H, INPUT_W, to_input
from .faces.photos import REAL_DIR, real_labels
from .render import back_colour, render_tile
from .scenes import shaken

LABELS: tuple[str, ...] = tuple(KINDS) + ("back", "reject")
LABEL_INDEX = {c: i for i, c in enumerate(LABELS)}
REJECT_SHARE = 0.05
# A body band (``make_crop``'s ``band``): the cut's edge toward the tile's body moved out by this
# share of the face across it, onto the body's ivory side, as the scanner cuts a densely inked
# face whose side it does not see (docs/vision.md, "Misnamed photographed faces")
BAND_GROW = (0.05, 0.25)
BAND_BODY_SIDE = 0.75  # the share of bands on a side where the tile shows its body (the rest: any side)
BAND_CUT = 0.06  # half of the banded crops also lose up to this share of the face on the opposite edge
_EDGE_CORNERS = ((0, 1), (1, 2), (2, 3), (3, 0))  # a quad's top, right, bottom and left edge


# -- the table -----------------------------------------------------------------------------

def table(h: int, w: int, rng: np.random.Generator) -> np.ndarray:
    """A table surface: felt, wood, cloth or a mat, BGR float32."""
    kind = rng.choice(["felt", "wood", "plain", "cloth"])
    if kind == "felt":
        base = np.array(rng.choice([[60, 110, 30], [90, 60, 20], [40, 40, 120], [50, 90, 50]]), np.float32)
    elif kind == "wood":
        base = np.array([40, 80, 140], np.float32) * rng.uniform(0.6, 1.3)
    else:
        base = rng.uniform(30, 230, 3).astype(np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base + rng.normal(0, 10, 3)
    if kind == "wood":
        grain = np.sin(np.linspace(0, rng.uniform(10, 40), h)[:, None] + rng.normal(0, 0.3, (1, w)))
        img *= (1 + 0.12 * grain)[..., None]
    elif kind == "cloth":
        period = rng.uniform(6, 30)
        yy, xx = np.arange(h, dtype=np.float32)[:, None], np.arange(w, dtype=np.float32)[None, :]
        img *= (1 + 0.1 * np.sign(np.sin(xx / period) * np.sin(yy / period)))[..., None]
    noise = cv2.GaussianBlur(rng.normal(0, 1, (h, w)).astype(np.float32), (0, 0), rng.uniform(0.5, 3))
    img += noise[..., None] * rng.uniform(2, 12)
    return img


def _composite(dst: np.ndarray, tile: np.ndarray, x: int, y: int) -> None:
    h, w = tile.shape[:2]
    H, W = dst.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(W, x + w), min(H, y + h)
    if x1 <= x0 or y1 <= y0:
        return
    t = tile[y0 - y: y1 - y, x0 - x: x1 - x].astype(np.float32)
    a = t[..., 3:] / 255.0
    dst[y0:y1, x0:x1] = t[..., :3] * a + dst[y0:y1, x0:x1] * (1 - a)


def _drop_shadow(dst: np.ndarray, tile: np.ndarray, x: int, y: int, rng) -> None:
    a = np.zeros(dst.shape[:2], np.float32)
    h, w = tile.shape[:2]
    ox, oy = int(rng.integers(-8, 9)), int(rng.integers(0, 12))
    H, W = a.shape
    x0, y0, x1, y1 = max(0, x + ox), max(0, y + oy), min(W, x + ox + w), min(H, y + oy + h)
    if x1 > x0 and y1 > y0:
        a[y0:y1, x0:x1] = tile[y0 - y - oy: y1 - y - oy, x0 - x - ox: x1 - x - ox, 3] / 255.0
    a = cv2.GaussianBlur(a, (0, 0), rng.uniform(2, 8))
    dst *= (1 - rng.uniform(0.2, 0.5) * a)[..., None]


def light(img: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Warm, cool or uneven light, a cast shadow and specular glare (float BGR in, out)."""
    h, w = img.shape[:2]
    tint = {"warm": [0.85, 0.97, 1.1], "cool": [1.1, 1.0, 0.9], "neutral": [1, 1, 1]}[
        str(rng.choice(["warm", "cool", "neutral"], p=[0.35, 0.25, 0.4]))]
    img = img * (np.array(tint, np.float32) * rng.uniform(0.95, 1.05, 3))
    yy, xx = np.arange(h, dtype=np.float32)[:, None], np.arange(w, dtype=np.float32)[None, :]
    ang = rng.uniform(0, 2 * math.pi)
    grad = (np.cos(ang) * (xx / w - 0.5) + np.sin(ang) * (yy / h - 0.5))
    img *= (1 + rng.uniform(0, 0.5) * grad)[..., None] * rng.uniform(0.65, 1.25)
    if rng.random() < 0.35:  # a shadow edge across the scene (a hand, a phone)
        m = np.zeros((h, w), np.float32)
        pts = rng.uniform([0, 0], [w, h], (3, 2)).astype(np.int32)
        side = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.int32)[rng.permutation(4)[:2]]
        cv2.fillPoly(m, [np.concatenate([pts, side])], 1.0)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(2, 15))
        img *= (1 - rng.uniform(0.2, 0.55) * m)[..., None]
    if rng.random() < 0.35:  # specular glare
        g = np.zeros((h, w), np.float32)
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        ax = (int(rng.uniform(0.05, 0.3) * w), int(rng.uniform(0.03, 0.2) * h))
        cv2.ellipse(g, c, ax, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        g = cv2.GaussianBlur(g, (0, 0), max(1.0, ax[0] * 0.4))
        img += (g * rng.uniform(60, 200))[..., None]
    return img


def _tilt_homography(w: int, h: int, rng: np.random.Generator, max_tilt: float = 40.0) -> np.ndarray:
    """A camera homography: tilt up to ``max_tilt`` degrees about a random in-plane axis, small roll."""
    tilt = math.radians(rng.uniform(0, max_tilt) if rng.random() < 0.8 else rng.uniform(0, 12))
    axis = rng.uniform(0, math.pi)
    roll = math.radians(rng.uniform(-12, 12))
    ux, uy = math.cos(axis), math.sin(axis)
    c, s = math.cos(tilt), math.sin(tilt)
    # Rodrigues rotation about (ux, uy, 0)
    R = np.array([[c + ux * ux * (1 - c), ux * uy * (1 - c), uy * s],
                  [ux * uy * (1 - c), c + uy * uy * (1 - c), -ux * s],
                  [-uy * s, ux * s, c]])
    Rz = np.array([[math.cos(roll), -math.sin(roll), 0], [math.sin(roll), math.cos(roll), 0], [0, 0, 1]])
    R = Rz @ R
    f = max(w, h) * rng.uniform(1.2, 3.0)
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    pts3 = np.c_[src - [w / 2, h / 2], np.zeros(4)] @ R.T + [0, 0, f]
    dst = (pts3[:, :2] / pts3[:, 2:3]) * f + [w / 2, h / 2]
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


# A phone's shake in the training crops, where asked for (``make_crop(shake=True)``): how often,
# and how long a streak as a share of the crop's height. A shake of 0.5% of a photo's long side
# streaks a face over 5-10% of its height; without it the crops are streaked 15% of the time by
# 3-5 px (2-12% of their height), and the scan's reading fell from 99 to 63 of 100 scenes at that
# shake (docs/vision.md, "A stronger shake").
SHAKE_P = 0.3
SHAKE_LENGTH = (0.03, 0.2)


def _degrade(img: np.ndarray, rng: np.random.Generator, shake: bool = False) -> np.ndarray:
    """Blur, noise and JPEG, on uint8 BGR; ``shake``: the longer streaks of a phone's shake
    (``SHAKE_P``, ``SHAKE_LENGTH``) instead of a short motion blur."""
    if rng.random() < 0.5:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.4))
    if shake:
        if rng.random() < SHAKE_P:  # a streak up to a fifth of the face's height, in any direction
            img = shaken(img, rng.uniform(*SHAKE_LENGTH) * img.shape[0], rng.uniform(0, math.pi))
    elif rng.random() < 0.15:  # motion blur
        k = int(rng.integers(3, 6))
        kern = np.zeros((k, k), np.float32)
        kern[k // 2] = 1.0 / k
        M = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1)
        img = cv2.filter2D(img, -1, cv2.warpAffine(kern, M, (k, k)))
    if rng.random() < 0.6:
        img = np.clip(img.astype(np.float32) + rng.normal(0, rng.uniform(1, 7), img.shape), 0, 255).astype(np.uint8)
    if rng.random() < 0.7:
        ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(rng.integers(30, 95))])
        img = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return img


def body_edges(face_quad: np.ndarray, shape: tuple[int, ...], pad: float = 3.0) -> list[int]:
    """The edges of a rendered tile's face (``render_tile``'s quad; 0 top, 1 right, 2 bottom,
    3 left) beside which its image shows the tile's body: more than ``pad`` pixels of it."""
    h, w = shape[:2]
    margins = (face_quad[:, 1].min(), w - face_quad[:, 0].max(), h - face_quad[:, 1].max(), face_quad[:, 0].min())
    return [e for e, m in enumerate(margins) if m > pad]


def with_band(quad: np.ndarray, body: list[int], rng: np.random.Generator) -> np.ndarray:
    """``quad`` (a face's corners, TL TR BR BL) with one edge moved outward by ``BAND_GROW`` of the
    face across it: an edge in ``body`` (:func:`body_edges`) ``BAND_BODY_SIDE`` of the time, else
    any edge; half of the time the opposite edge is moved inward by up to ``BAND_CUT``."""
    edge = int(rng.choice(body)) if body and rng.random() < BAND_BODY_SIDE else int(rng.integers(4))
    near, far = _EDGE_CORNERS[edge], _EDGE_CORNERS[(edge + 2) % 4]
    out = quad.astype(np.float64)
    across = (out[list(near)].sum(0) - out[list(far)].sum(0)) / 2  # from the far edge's middle to this one's
    out[list(near)] += across * rng.uniform(*BAND_GROW)
    if rng.random() < 0.5:
        out[list(far)] += across * rng.uniform(0, BAND_CUT)
    return out.astype(np.float32)


def make_crop(code: str, rng: np.random.Generator, *, source: str | None = None,
              exclude_sources: tuple[str, ...] = (), reject: bool = False,
              pool: list | None = None, out_size: tuple[int, int] = (INPUT_H, INPUT_W),
              band: float = 0.0, shake: bool = False) -> np.ndarray:
    """One classifier input (``out_size`` = (h, w), default INPUT_H x INPUT_W, BGR uint8) of ``code``
    as the detector would crop it.

    With ``reject=True`` the crop is something that is not one tile face (table, tile side,
    two half tiles, a far-off quad), made from the same kind of scene. ``pool``: recently rendered
    tiles to reuse as neighbours (faster); without it neighbours are rendered afresh. ``band``: the
    share of (non-reject) crops cut with a band of the tile's body or the table on one edge
    (:func:`with_band`); at 0 no random number is drawn for it, so the crops are those made before.
    ``shake``: streaked as by a phone's shake (:func:`_degrade`); without it, the crops made before.
    """
    th = int(rng.integers(60, 125))
    tile, quad = render_tile(code, rng, height=th, source=source, exclude_sources=exclude_sources)
    h, w = tile.shape[:2]
    gap = int(rng.integers(0, 4))
    pad_x, pad_y = int(w * 0.65) + 4, int(h * 0.4) + 4
    H, W = h + 2 * pad_y, w + 2 * pad_x
    scene = table(H, W, rng)
    # neighbours in the row (a hand of tiles touches side by side)
    neighbours = rng.random() < 0.6 or reject
    for dx in (-1, 1):
        if neighbours and rng.random() < 0.8:
            if pool:
                ntile = pool[int(rng.integers(len(pool)))]
                if ntile.shape[0] != h:
                    ntile = cv2.resize(ntile, (max(1, int(ntile.shape[1] * h / ntile.shape[0])), h))
            else:
                ncode = KINDS[int(rng.integers(len(KINDS)))] if rng.random() < 0.95 else "back"
                # neighbours come from the drawn source, so a held-out style never leaks in at the edges
                ntile, _ = render_tile(ncode, rng, height=th, source=None if ncode == "back" else "drawn")
            nx = pad_x + dx * (w - int(w - quad[1, 0] + quad[0, 0]) + gap) if dx > 0 else pad_x - ntile.shape[1] - gap + int(ntile.shape[1] - (quad[1, 0] - quad[0, 0]))
            _drop_shadow(scene, ntile, nx, pad_y, rng)
            _composite(scene, ntile, nx, pad_y)
    if pool is not None and source == "drawn":
        pool.append(tile)
        del pool[:-12]
    _drop_shadow(scene, tile, pad_x, pad_y, rng)
    _composite(scene, tile, pad_x, pad_y)
    scene = light(scene, rng)
    scene = np.clip(scene, 0, 255).astype(np.uint8)
    q = quad + [pad_x, pad_y]
    fw, fh = q[1, 0] - q[0, 0], q[3, 1] - q[0, 1]
    if reject:
        kind = rng.choice(["between", "table", "side", "far", "partial"])
        if kind == "between":  # two half faces
            q = q + [fw * rng.uniform(0.35, 0.65) * rng.choice([-1, 1]), 0]
        elif kind == "table":
            q = q + [0, fh * rng.uniform(1.05, 1.3) * rng.choice([-1, 1])]
        elif kind == "side":  # the tile's thickness and the table
            q = q + [rng.uniform(-0.2, 0.2) * fw, fh * rng.uniform(0.7, 0.9) * rng.choice([-1, 1])]
        elif kind == "far":  # a crop much bigger than the tile
            c = q.mean(0)
            q = c + (q - c) * rng.uniform(1.9, 2.6)
        else:  # a small piece of a face
            c = q.mean(0) + rng.uniform(-0.25, 0.25, 2) * [fw, fh]
            q = c + (q - q.mean(0)) * rng.uniform(0.3, 0.45)
    # camera tilt
    Hm = _tilt_homography(W, H, rng)
    warped = cv2.warpPerspective(scene, Hm, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    qw = cv2.perspectiveTransform(q.reshape(1, 4, 2).astype(np.float32), Hm)[0]
    if band and not reject and rng.random() < band:
        qw = with_band(qw, body_edges(quad, tile.shape), rng)
    # the detector's quad: a little off, usually a little large
    size = float(np.sqrt(cv2.contourArea(qw)))
    grow = rng.uniform(-0.03, 0.09)
    c = qw.mean(0)
    qd = c + (qw - c) * (1 + grow) + rng.normal(0, rng.uniform(0.004, 0.03) * size, (4, 2))
    out_h = int(rng.integers(40, 150))
    out_w = max(8, int(round(out_h * 0.75)))
    dst = np.array([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]], np.float32)
    M = cv2.getPerspectiveTransform(qd.astype(np.float32), dst)
    crop = cv2.warpPerspective(warped, M, (out_w, out_h), flags=cv2.INTER_AREA if out_h < size else cv2.INTER_LINEAR,
                               borderMode=cv2.BORDER_REPLICATE)
    crop = _degrade(crop, rng, shake)
    if rng.random() < 0.5:  # the detector gives upright or upside-down crops
        crop = crop[::-1, ::-1]
    return to_input(np.ascontiguousarray(crop), out_size)


def clean_check_set(seed: int = 2024, per_kind: int = 3) -> tuple[list[np.ndarray], list[str]]:
    """A small check set of plain crops: each kind (and ``back``) rendered ``per_kind`` times on a
    tile body from every available source, seen from straight above and cut out along a slightly
    loose face quad, with no lighting, tilt or degradation. Returns (BGR crops, codes)."""
    rng = np.random.default_rng(seed)
    codes = [c for c in list(KINDS) + ["back"] for _ in range(per_kind)]
    crops = []
    w, h = INPUT_W * 2, INPUT_H * 2
    dst = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    for code in codes:
        img, quad = render_tile(code, rng, height=int(rng.integers(70, 140)))
        c = quad.mean(0)
        loose = (c + (quad - c) * 1.04).astype(np.float32)
        a = img[..., 3:] / 255.0
        scene = img[..., :3] * a + np.array([60, 110, 40], np.float32) * (1 - a)
        M = cv2.getPerspectiveTransform(loose, dst)
        crops.append(cv2.warpPerspective(scene.astype(np.uint8), M, (w, h), flags=cv2.INTER_AREA,
                                         borderMode=cv2.BORDER_REPLICATE))
    return crops, codes


def random_reject(rng: np.random.Generator) -> np.ndarray:
    """A reject that needs no tile at all: table texture, a coloured back-like side, noise."""
    kind = rng.choice(["table", "noise", "strip"])
    if kind == "table":
        img = table(INPUT_H * 2, INPUT_W * 2, rng)
        img = light(img, rng)
    elif kind == "noise":
        img = cv2.GaussianBlur(rng.uniform(0, 255, (INPUT_H, INPUT_W, 3)).astype(np.float32), (0, 0), rng.uniform(0.5, 6))
    else:
        img = table(INPUT_H, INPUT_W, rng)
        band = int(rng.integers(INPUT_H // 4, INPUT_H))
        img[:band] = back_colour(rng) * rng.uniform(0.7, 1.1)
    return to_input(np.clip(img, 0, 255).astype(np.uint8))


# -- whole data sets -------------------------------------------------------------------------
CHUNK = 500
# Bump when the face renderers or make_crop change, so that cached crops are rendered again.
RENDER_VERSION = "v10"  # v10: riichi Black scheme on light faces; drawn flowers: numerals by group, marks over the painting


def chunk_plan(seed: int, index: int, labels: tuple[str, ...] | None = None) -> list[tuple[str, int]]:
    """The (label, sample seed) list of chunk ``index``: classes balanced, REJECT_SHARE rejects.

    A chunk depends only on (seed, index), so data sets of different sizes share their chunks."""
    rng = np.random.default_rng([seed, index])
    codes = list(labels) if labels else list(KINDS) + ["back"]
    n_rej = 0 if labels else int(round(CHUNK * REJECT_SHARE))
    offset = int(rng.integers(len(codes)))
    plan = [codes[(offset + i) % len(codes)] for i in range(CHUNK - n_rej)] + ["reject"] * n_rej
    seeds = rng.integers(0, 2**63 - 1, CHUNK)
    order = rng.permutation(CHUNK)
    return [(plan[i], int(seeds[i])) for i in order]


def _render_chunk(args) -> tuple[np.ndarray, np.ndarray, list[str]]:
    plan, exclude, only, out_size, band, shake = args
    cv2.setNumThreads(1)
    xs = np.empty((len(plan), *out_size, 3), np.uint8)
    ys = np.empty(len(plan), np.int16)
    srcs: list[str] = []
    pool: list = []  # per chunk (so output does not depend on scheduling); drawn-source tiles only
    for i, (label, s) in enumerate(plan):
        rng = np.random.default_rng(s)
        if label == "reject" and rng.random() < 0.3:
            xs[i] = random_reject(rng)
            srcs.append("")
        else:
            code = KINDS[int(rng.integers(len(KINDS)))] if label == "reject" else label
            source = _pick_source(code, rng, exclude, only)
            xs[i] = make_crop(code, rng, source=source, exclude_sources=exclude, reject=label == "reject", pool=pool,
                              out_size=out_size, band=band, shake=shake)
            srcs.append(source or "")
        ys[i] = LABEL_INDEX[label]
    return xs, ys, srcs


def _pick_source(label: str, rng, exclude, only) -> str | None:
    from .faces import sources_for

    if label == "back":
        return None
    pool = sources_for(label, exclude)
    if only:
        pool = [s for s in pool if s in only]
    if not pool:
        raise ValueError(f"no face source for {label} (excluded {exclude}, only {only})")
    weights = np.array([0.6 if s == "drawn" and len(pool) > 1 else 1.0 for s in pool])
    return pool[int(rng.choice(len(pool), p=weights / weights.sum()))]


def cached_chunks(path: str | os.PathLike, key: str, jobs: list, work, *, workers: int = 2,
                  what: str = "crops", per_chunk: int = CHUNK) -> dict:
    """Run ``work(job) -> (x, y, sources)`` for each job, caching each chunk's result under
    ``path``/<hash of ``key``> so that an interrupted or larger run reuses the work, and return
    the chunks joined as ``{"x", "y", "source"}``."""
    import hashlib

    from . import faces

    # the face sources present here (``../shared``'s art and fonts, the [train] extra's SVG
    # support) decide what a job renders: a cache made without them is not the one made with them
    key = f"{key} faces={','.join(faces.FACE_SOURCES)}"
    folder = Path(path) / hashlib.sha1(key.encode()).hexdigest()[:12]
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "key.txt").write_text(key)
    todo = [i for i in range(len(jobs)) if not (folder / f"{i:05d}.npz").exists()]
    t0 = time.time()

    def save(i, res):
        x, y, s = res
        np.savez(folder / f"{i:05d}.tmp.npz", x=x, y=y, source=np.array(s))
        os.replace(folder / f"{i:05d}.tmp.npz", folder / f"{i:05d}.npz")

    if todo:
        print(f"  making {len(todo) * per_chunk} {what} into {folder}", flush=True)
    if workers > 1 and len(todo) > 1:
        # spawned, not forked: a child forked from a process whose OpenCV (or torch) threads were
        # busy can hang for good at its first OpenCV call (the flower reader's evaluation did,
        # after training, in cv2.setNumThreads)
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn")) as ex:
            for k, (i, res) in enumerate(zip(todo, ex.map(work, [jobs[i] for i in todo]))):
                save(i, res)
                if k % 10 == 9:
                    print(f"  made {(k + 1) * per_chunk}/{len(todo) * per_chunk} {what} in {time.time() - t0:.0f}s",
                          flush=True)
    else:
        for i in todo:
            save(i, work(jobs[i]))
    parts = [np.load(folder / f"{i:05d}.npz") for i in range(len(jobs))]
    return {"x": np.concatenate([p["x"] for p in parts]),
            "y": np.concatenate([p["y"] for p in parts]).astype(np.int64),
            "source": np.concatenate([p["source"] for p in parts])}


def build_cache(path: str | os.PathLike, n: int, seed: int, *, exclude: tuple[str, ...] = (),
                only: tuple[str, ...] = (), labels: tuple[str, ...] | None = None, workers: int = 2,
                out_size: tuple[int, int] = (INPUT_H, INPUT_W), band: float = 0.0, shake: bool = False) -> dict:
    """Render ``n`` crops reproducibly from ``seed`` (rounded up to whole chunks of 500), cached
    per chunk under ``path`` (see :func:`cached_chunks`).

    ``exclude``/``only`` restrict the face sources, ``labels`` the classes (no rejects then),
    ``out_size`` (h, w) the crops' size, ``band`` the share cut with a body band, ``shake`` whether
    streaked by a phone's shake (:func:`make_crop`)."""
    key = f"seed={seed} exclude={sorted(exclude)} only={sorted(only)} labels={labels} n_labels={len(LABELS)} {RENDER_VERSION}"
    if out_size != (INPUT_H, INPUT_W):
        key += f" size={out_size}"
    if band:
        key += f" band={band}"
    if shake:
        key += f" shake={SHAKE_P},{SHAKE_LENGTH}"
    jobs = [(chunk_plan(seed, i, labels), exclude, only, tuple(out_size), band, shake) for i in range(-(-n // CHUNK))]
    d = cached_chunks(path, key, jobs, _render_chunk, workers=workers)
    return {k: v[:n] for k, v in d.items()}


def load_real(directory: str | os.PathLike = REAL_DIR) -> tuple[list[str], list[np.ndarray], list[str]]:
    """The labelled real crops as (files, BGR images at full size, tile codes); empty if absent."""
    files, imgs, codes = [], [], []
    for name, code in real_labels(directory):
        img = cv2.imread(str(Path(directory) / name), cv2.IMREAD_COLOR)
        if img is None:
            continue
        files.append(name)
        imgs.append(img)
        codes.append(code)
    return files, imgs, codes


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=".train/rendered")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--preview", help="write a PNG contact sheet of the first 200 crops here")
    a = ap.parse_args(argv)
    d = build_cache(a.out, a.n, a.seed, workers=a.workers)
    print(f"{len(d['y'])} crops in {a.out}")
    if a.preview:
        x = d["x"][:200]
        rows = [np.hstack(list(x[i: i + 20])) for i in range(0, len(x) - len(x) % 20, 20)]
        cv2.imwrite(a.preview, np.vstack(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
