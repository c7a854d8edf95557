"""Faces found by their outlines, for photos on a pale table.

On a white, cream or light grey cloth the face mask of :mod:`vision.detect` (a whiteness
threshold over the whole photo) fails: the faces are no whiter than the cloth, often less
white, and the cloth's own light varies across the photo by more than the faces stand out
from it (docs/vision.md, "Pale tables"). What still sets a tile apart there is its outline:
the coloured layer of its body, its shadow on the cloth, the seams between touching tiles
and the ink on its face are edges far stronger than the cloth's weave.

So on such a photo the faces are looked for inside *silhouettes*: every region the strong edges
enclose, filled, or nearly enclose, closed by its convex hull (:func:`silhouettes`). Within
each silhouette the face is its whitest part (ink, the body's coloured layer and the shadow are
darker or coloured), split off by the silhouette's own Otsu threshold of whiteness, so neither
the table's brightness nor the light's fall-off across the photo enters. The result replaces
the threshold's face mask (:func:`vision.detect.face_mask`, which also cuts it along strong
edges); everything after it (quads, splitting rows, the body's side, face-down tiles) is
:mod:`vision.detect`'s as usual.

Sizes are in px of a working picture of ``REFERENCE_SIDE`` px on its long side, scaled with
the photo (``scale``).
"""
from __future__ import annotations

import cv2
import numpy as np

REFERENCE_SIDE = 1000  # px: the long side the sizes below are for
EDGE_BLUR = 1.0        # px: the Gaussian blur (sigma) before edges are looked for: the weave's finest threads go
EDGE_NOISE = 6.0       # an outline's edge is this many times the photo's median gradient (most of it the cloth's)
EDGE_GAP = 7           # px: gaps in an outline this wide are closed
MIN_PART = 9           # px: a silhouette's parts thinner than this are opened away (a thread, a crease)
INSET = 2              # px: the silhouette is taken in by this much: its edge is the outline's outer side
#                        (a shadow's or a body's far edge), and the band just inside it is cloth as often as face
MIN_AREA = 50          # px^2: smaller silhouettes are not looked at
HULL_COVER = 0.85      # an open outline whose edges lie along this share of its convex hull's perimeter is closed
HULL_NEAR = 2.0        # px: how near the hull an edge pixel lies to count for it
HULL_MIN_AREA = 400    # px^2: the least hull looked at (a far face is about 20 x 27 px)
HULL_FILLED = 0.7      # an outline is open where its own area (its stroke) is under this share of its hull's


def _odd(k: float) -> int:
    return max(3, int(round(k)) | 1)


def silhouettes(img: np.ndarray, scale: float = 1.0) -> np.ndarray:
    """A 0/255 mask of every region of ``img`` (BGR uint8) that strong edges enclose, filled (or
    nearly enclose, closed by its convex hull: :func:`_nearly_closed_hulls`), and taken in by
    ``INSET``.

    Edges are Canny's on the grey picture blurred by ``EDGE_BLUR``, with the high threshold
    ``EDGE_NOISE`` times the median gradient: the median pixel of a photo is the table's, so
    the threshold follows the cloth's weave and the photo's noise, not the tiles' contrast."""
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    blurred = cv2.GaussianBlur(grey, (0, 0), EDGE_BLUR * scale)
    gx = cv2.Sobel(blurred, cv2.CV_16S, 1, 0)
    gy = cv2.Sobel(blurred, cv2.CV_16S, 0, 1)
    sample = cv2.magnitude(gx[::2, ::2].astype(np.float32), gy[::2, ::2].astype(np.float32))
    high = max(EDGE_NOISE * float(np.median(sample)), 8.0)
    edges = cv2.Canny(gx, gy, high / 2, high, L2gradient=True)
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    gap = _odd(EDGE_GAP * scale)
    edges = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, np.ones((gap, gap), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(edges)
    cv2.drawContours(filled, contours, -1, 255, -1)
    for hull in _nearly_closed_hulls(contours, scale):
        cv2.fillConvexPoly(filled, hull, 255)
    part = _odd(MIN_PART * scale)
    opened = cv2.morphologyEx(filled, cv2.MORPH_OPEN, np.ones((part, part), np.uint8))
    inset = 2 * max(1, round(INSET * scale)) + 1
    return cv2.erode(opened, np.ones((inset, inset), np.uint8))


def _nearly_closed_hulls(contours, scale: float) -> list[np.ndarray]:
    """The convex hulls of the open outlines (``contours`` of the closed edges) that go nearly all
    the way round: an outline whose own filled area is under ``HULL_FILLED`` of its hull's, with
    its pixels within ``HULL_NEAR`` of at least ``HULL_COVER`` of the hull's perimeter. A lone face
    on a pale cloth lit from one side leaves a gap in its outline wider than ``EDGE_GAP`` where its
    lit edge meets the cloth (development scene 38 on a pale table: a flower set apart, its outline
    open at one corner by about 10 px, was not found at all)."""
    out = []
    near = HULL_NEAR * scale
    r = int(np.ceil(near))
    offsets = np.arange(-r, r + 1)
    disc = (offsets[:, None] ** 2 + offsets[None, :] ** 2 <= near * near).astype(np.uint8)  # grows an outline by ``near``
    least = HULL_MIN_AREA * scale * scale
    for c in contours:
        x0, y0, w, h = cv2.boundingRect(c)  # the hull's box too: its corners are the contour's extremes
        if w * h < least:
            continue
        hull = cv2.convexHull(c)
        area = cv2.contourArea(hull)
        if area < least or cv2.contourArea(c) >= HULL_FILLED * area:
            continue
        pts = hull.reshape(-1, 2).astype(np.float32)
        seg = np.roll(pts, -1, axis=0) - pts
        lengths = np.hypot(seg[:, 0], seg[:, 1])
        steps = np.maximum(1, np.ceil(lengths / 2)).astype(int)
        samples = np.concatenate([p + np.outer(np.arange(k) / k, d) for p, d, k in zip(pts, seg, steps)])
        own = np.zeros((h + 2 * r + 1, w + 2 * r + 1), np.uint8)  # the outline, with a margin of r
        cv2.drawContours(own, [c], -1, 1, -1, offset=(r - x0, r - y0))
        near_own = cv2.dilate(own, disc)  # 1 within ``near`` of an outline pixel
        xs = np.round(samples[:, 0]).astype(int) - x0 + r
        ys = np.round(samples[:, 1]).astype(int) - y0 + r
        if float(np.mean(near_own[ys, xs] > 0)) >= HULL_COVER:
            out.append(hull)
    return out


def outlined_face_mask(img: np.ndarray, w8: np.ndarray, scale: float = 1.0) -> np.ndarray:
    """The face mask (0/255) of ``img``, whose whiteness map (:func:`vision.detect.whiteness`,
    clipped to uint8) is ``w8``: inside each silhouette, the pixels above its own Otsu threshold
    of whiteness. :func:`vision.detect.face_mask` makes it in place of its threshold's mask."""
    sil = silhouettes(img, scale)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(sil)
    mask = np.zeros_like(sil)
    for i in range(1, n):
        x, y, w, h, area = (int(v) for v in stats[i])
        if area < MIN_AREA * scale * scale:
            continue
        own = labels[y:y + h, x:x + w] == i
        win = w8[y:y + h, x:x + w]
        t, _ = cv2.threshold(win[own].reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        mask[y:y + h, x:x + w][own & (win > t)] = 255
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
