"""A claimed tile laid sideways in a meld (riichi style): a face blob with a step in its outline.

Riichi players lay one tile of each exposed meld turned a quarter, to show which tile they
claimed and from whom: its long side runs along the meld and its lower edge is in line with the
other tiles'. The face mask makes one blob of the meld, and the four-corner outline fitted to it
cuts across the step: the sideways face is as long as the others are tall, and only as thick as
they are wide. Along the blob's length, its thickness is the row's, then drops by a quarter or
so, at once, for about a face height. Such a blob is cut at the step into its parts, each fitted
on its own: the upright faces as a row, the sideways face as a lone tile whose short side is its
width. A sideways face that does not touch the others is a short blob of its own, which runs
along the row as two touching upright faces would; it is told from them by its thickness, that
of the faces' width, not their height (:func:`sideways_alone`).

Perspective thins a long row gradually from end to end, and a tile pushed out of line moves both
edges alike; neither is a step in the thickness.
"""
from __future__ import annotations

import cv2
import numpy as np

from .face_mask import filled_blob
from .quads import fit_quad, quad_sides

SIDEWAYS_THIN = (0.6, 0.9)   # a sideways face is this share of the row's thickness thick (a face's width for its height)
SIDEWAYS_LONG = (0.7, 1.35)  # ... and this many row thicknesses long (its height, along the row),
SIDEWAYS_SHAPE = 1.2  # ... at least this many times as long as it is thick (a face on its side),
UPRIGHT_THICK = 0.9  # ... beside upright faces at least this share of the row's thickness thick
STEP_JUMP = 0.15     # at a step the thickness drops by at least this share of the row's ...
STEP_REACH = 0.2     # ... between stretches this share of it long either side
MIN_LENGTH = 1.6     # a blob shorter than this many thicknesses has no room for a face beside a sideways one,
MAX_LENGTH = 4.0     # ... and one longer than a kong with a sideways face is a concealed row, which has none
ALONE_LONG = (0.8, 1.25)  # a sideways face apart from its meld is this many of the nearest faces' heights long
ALONE_ALONG = 0.87   # ... its long side runs along their row (cosine: within 30 degrees)


def _edges(contour: np.ndarray, u: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """(top, bottom, s0): per 1 px step of a blob's length along ``u`` from s0, the least and
    greatest offset across it of its outline's points (``contour``, every boundary pixel)."""
    pts = contour.reshape(-1, 2).astype(np.float64)
    s = pts @ u
    t = pts[:, 1] * u[0] - pts[:, 0] * u[1]
    s0 = float(s.min())
    k = (s - s0).astype(np.int64)
    n = int(k.max()) + 1
    order = np.lexsort((t, k))  # by step, then offset: each step's first and last point
    ks, ts = k[order], t[order]
    first = np.flatnonzero(np.r_[True, ks[1:] != ks[:-1]])
    last = np.r_[first[1:] - 1, len(ks) - 1]
    top = np.full(n, np.nan)
    bot = np.full(n, np.nan)
    top[ks[first]], bot[ks[first]] = ts[first], ts[last]
    filled = ~np.isnan(top)
    if not filled.all():  # a step with no point (an outline drawn with gaps): the last one's
        idx = np.maximum.accumulate(np.where(filled, np.arange(n), 0))
        top, bot = top[idx], bot[idx]
    return _median5(top), _median5(bot), s0


def _median5(v: np.ndarray) -> np.ndarray:
    """A running median over 5 steps (the ends padded with their own values): a stray pixel or a
    notch of ink is no step."""
    if len(v) < 5:
        return v
    p = np.pad(v, 2, mode="edge")
    # the middle of five sorted values: np.median's value, without its per-call cost
    return np.sort(np.lib.stride_tricks.sliding_window_view(p, 5), axis=1)[:, 2]


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """[start, end) of each run of True in a 1-D boolean array."""
    d = np.diff(np.concatenate([[0], mask.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(d == 1), np.flatnonzero(d == -1)))


def _is_step(th: np.ndarray, thin: tuple[int, int], at: int, thick: float) -> bool:
    """Whether the blob's thickness ``th`` (per step of its length) drops at ``at`` (the thin
    run's start or end) as at a sideways face's end: by ``STEP_JUMP`` of the row's thickness or
    more within ``STEP_REACH`` either side (perspective thins a row by a few hundredths over such
    a stretch)."""
    r = max(2, int(round(STEP_REACH * thick)))
    inner = slice(at, min(at + r, thin[1])) if at == thin[0] else slice(max(at - r, thin[0]), at)
    outer = slice(max(at - r, 0), at) if at == thin[0] else slice(at, min(at + r, len(th)))
    if inner.stop - inner.start < 2 or outer.stop - outer.start < 2:
        return False
    return float(np.median(th[outer]) - np.median(th[inner])) >= STEP_JUMP * thick


def sideways_parts(contour: np.ndarray, quad: np.ndarray, min_area: float) -> list[tuple[tuple, bool]]:
    """The parts of a face blob that holds a face laid sideways (see the module's docstring), cut
    at its steps, each as ((contour, quad, side a, side b), whether it is the sideways face); []
    where it holds none. ``min_area``: the least blob a face may be."""
    a, b = quad_sides(quad)
    q = np.asarray(quad, np.float64)
    along = (q[1] - q[0]) + (q[2] - q[3]) if a >= b else (q[2] - q[1]) + (q[3] - q[0])
    u = along / max(float(np.linalg.norm(along)), 1e-9)
    length, thick = max(a, b), min(a, b)
    if not MIN_LENGTH * thick <= length <= MAX_LENGTH * thick:
        return []
    top, bot, s0 = _edges(contour, u)
    th = bot - top
    full = float(np.percentile(th, 90))
    if full <= 0:
        return []
    cuts, thin = [], []
    for start, end in _runs(th <= SIDEWAYS_THIN[1] * full):
        if not SIDEWAYS_LONG[0] * full <= end - start <= SIDEWAYS_LONG[1] * full:
            continue
        thin_th = float(np.median(th[start:end]))
        if not SIDEWAYS_THIN[0] * full <= thin_th <= SIDEWAYS_THIN[1] * full or end - start < SIDEWAYS_SHAPE * thin_th:
            continue
        inside = [at for at in (start, end) if 0 < at < len(th)]  # the blob's own ends are no steps
        if inside and all(_is_step(th, (start, end), at, full) for at in inside):
            cuts += inside
            thin.append((start, end))
    if not cuts:
        return []
    own, x, y = filled_blob(contour)
    ys, xs = np.mgrid[0:own.shape[0], 0:own.shape[1]]
    s = (xs + x) * u[0] + (ys + y) * u[1] - s0
    for at in cuts:
        own[np.abs(s - at) < 1.0] = 0
    parts, _ = cv2.findContours(own, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE, offset=(x, y))
    out = []
    for p in parts:
        if cv2.contourArea(p) < min_area:
            continue
        pq = fit_quad(p, faces=True)
        pa, pb = quad_sides(pq)
        mid = float(pq.mean(axis=0) @ u) - s0
        side = any(start < mid < end for start, end in thin)
        across = float(np.ptp(pq.astype(np.float64) @ np.array([-u[1], u[0]])))  # its thickness across the row
        if not side and across < UPRIGHT_THICK * full:
            return []  # the rest is no thicker: the row's thickness was a corner's or a bump's, not its faces'
        out.append(((p, pq, pa, pb), side))
    return out if len(out) >= 2 and any(side for _, side in out) else []


def sideways_alone(quad: np.ndarray, height: float, axis: np.ndarray) -> bool:
    """Whether a short blob (``quad``) apart from the faces beside it is a face laid sideways
    rather than two touching upright faces: both run along the row of the nearest faces
    (``axis``, whose faces are ``height`` tall), but two upright faces are as thick as those are
    tall, and a sideways face only as thick as they are wide, and about as long as they are tall.
    A seam usually shows between two upright faces: the caller asks only of blobs that show none."""
    a, b = quad_sides(quad)
    if height <= 0:
        return False
    q = np.asarray(quad, np.float64)
    long_side = (q[1] - q[0]) if a >= b else (q[2] - q[1])
    along = abs(float(np.dot(long_side, axis))) / max(float(np.linalg.norm(long_side) * np.linalg.norm(axis)), 1e-9)
    return (along >= ALONE_ALONG and ALONE_LONG[0] * height <= max(a, b) <= ALONE_LONG[1] * height
            and min(a, b) <= SIDEWAYS_THIN[1] * height)


def sideways_beside(blob: tuple[float, float], other: tuple[float, float]) -> bool:
    """Whether a blob (length along the row, thickness) lying end to end with ``other`` is a
    face laid sideways rather than a piece of a face that ink cut in two: a piece is as thick as
    the row, a sideways face thinner (by less than the eye would think where its body's side
    shows along it) and about as long as the row is thick."""
    (length, thick), (_, row) = blob, other
    return thick <= SIDEWAYS_THIN[1] * row and ALONE_LONG[0] * row <= length <= ALONE_LONG[1] * row
