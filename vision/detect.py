"""Find tile faces (and face-down tiles) in a table photo and split touching rows.

The pipeline, on a working image of about 1000-2000 px:

1. **White balance** on the palest pixels (brightness minus chroma: tile faces are the
   near-white things in the picture, even where lit felt is brighter), so warm light
   does not turn ivory into "coloured".  Where that finds few inked faces, it looks
   again without the colour it balanced to (a lit phone screen or a sheet of paper
   paler than the faces).
2. **Face mask**: whiteness = brightness - chroma, thresholded by Otsu with a floor;
   holes (the ink of the faces) are filled per component.  On a pale table (a white or light
   grey cloth, :func:`is_pale_table`) the faces are no whiter than the cloth, and the mask is
   made from their outlines instead (:mod:`vision.outlines`).
3. **Quads** (:mod:`vision.quads`): every solid, rectangular component gets a four-corner outline (lines
   fitted to its hull sides, so rounded corners and perspective are handled; a row's
   long sides to their outer edge, which glyphs reaching the face edge cannot pull in).
   A component is a single tile, a run of touching tiles, or something else.
4. **Splitting a run**: the quad is rectified to a strip.  Touching faces leave a
   darker seam (upright, or leaning a little) that runs across the *whole* face height, including the blank top and
   bottom margins that glyphs never reach; the column profile of those margin bands
   shows the seams.  Every plausible tile count ``n`` (from the face aspect ratio
   range, not a fixed size) is scored by how dark the profile is at the ``n - 1``
   equally spaced cuts (the strip is perspective-free, so spacing is uniform) minus
   how dark it is anywhere else.  Cuts are then snapped to the nearest seam.
   **The body's side** (:mod:`vision.body_side`): the mask takes in the ivory layer of a tile's body beside its face;
   a face's edge is moved in to the step up from that darker band (a lone face on all four
   edges, a row's faces along the row).
5. **Face-down tiles**: a run is extended by one pitch at each end; a cell whose
   colour differs from the table becomes a candidate.  Blobs of a non-table colour
   elsewhere are cut at the face pitch into candidates too.  The classifier keeps
   those it calls ``back`` and drops the rest as ``reject``.

Every candidate is returned with its face quad in working-image coordinates,
TL, TR, BR, BL of the portrait face, and the run it belongs to.
"""
from __future__ import annotations

import functools
import math
from collections.abc import Callable

import cv2
import numpy as np

from .background import InBackground
from .body_side import SIDE_DEEP, body_direction, lone_face, trim_body_side, trim_deep_sides, trim_rows
from .outlines import REFERENCE_SIDE as OUTLINE_SIDE, outlined_face_mask
from .quads import SQUARE_GAIN, Run, centre, fit_quad, order_quad, quad_sides, squared_ends, turned_quad
from .small_stats import percentiles, small_median

ASPECT_MIN, ASPECT_MAX, ASPECT_TYPICAL = 0.5, 1.05, 0.75   # face width / height (foreshortening included)
STRIP_H = 64
EDGE_LOW, EDGE_HIGH = 30, 70
STACKED, STACKED_KEEP = 1.4, 0.8  # a face-thick blob this many typical faces thick is tried as rows stacked (_stacked_parts)
PATCHY = 0.6  # a face-thick blob whose lit pixels' median whiteness is under this share of their 90th percentile: faces and table
INK_SHARE = 0.03  # a blob with more of its outline not bright than this carries ink: a face, not glare
APART_GAP, APART_LONG = 0.15, 1.1  # blobs each one face long (at most this many thicknesses) this far apart are no fragments
VOTE_ROW = 2.0    # where an inked blob this many typical faces long is too thick for the typical face voted, ...
VOTE_PALER = 0.7  # ... blobs whose lit pixels are under this share of the whitest inked blob's weigh as if inkless
LEAVE_OUT_TOLERANCE = 24  # per channel: how near a reference colour a pixel is left out of a new look




# ----------------------------------------------------------------------------- masks

def white_balance_gains(img: np.ndarray) -> np.ndarray:
    """Per-channel gains that make the bright, least coloured (face-like) pixels neutral and about 235.

    The reference pixels are ranked by brightness minus chroma, not brightness alone:
    where the tiles are small in the photo, the brightest 3% are lit felt or wood, and
    balancing those to grey would tint the faces.  Every ranking is read off a histogram
    (the values are integers), which gives numpy's percentile and median exactly."""
    return white_balance(img)[0]


def white_balance(img: np.ndarray, leave_out: tuple = ()) -> tuple[np.ndarray, np.ndarray]:
    """(:func:`white_balance_gains`, the reference colour it balanced to, BGR).

    ``leave_out``: reference colours of earlier looks whose pixels (within
    ``LEAVE_OUT_TOLERANCE`` in every channel) take no part in this one.  Where the faces are a
    small part of the photo, something paler than them (a lit phone screen, a sheet of paper)
    can be the palest 1%, and balancing to it leaves ivory faces dim and tinted; a second look
    without it balances to the next palest thing."""
    small = _every_other_pixel(img)
    keep = None
    for colour in leave_out:
        near = cv2.inRange(small, np.clip(colour - LEAVE_OUT_TOLERANCE, 0, 255),
                           np.clip(colour + LEAVE_OUT_TOLERANCE, 0, 255))
        keep = cv2.bitwise_not(near) if keep is None else cv2.subtract(keep, near)
    if keep is not None and cv2.countNonZero(keep) < 100:
        keep = None  # nothing left to look at: look at everything
    b, g, r = cv2.split(small)
    chroma = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    lum = cv2.add(cv2.add(b, g, dtype=cv2.CV_16U), r, dtype=cv2.CV_16U)       # 0..765
    pale = cv2.subtract(cv2.add(lum, 255), chroma, dtype=cv2.CV_16U)           # brightness - chroma + 255
    cutoff = math.ceil(_hist_percentile(_histogram(pale, 1021, mask=keep), 99, offset=-255))  # the palest 1%
    top = np.greater_equal(pale, cutoff + 255).view(np.uint8)  # a 0/1 mask
    if keep is not None:
        top = cv2.bitwise_and(top, keep)
    ref = np.float32([_hist_percentile(_histogram(small, 256, c, top), 50) for c in range(3)]) + 1.0
    gains = np.clip(ref.max() / ref, 0.6, 1.8)
    scale = 235.0 / max(1.0, float(_hist_percentile(_histogram(lum, 766, mask=keep), 98.5) / 3 * gains.mean()))
    return (gains * min(scale, 2.0)).astype(np.float32), ref - 1.0


def _gain_table(gains: np.ndarray) -> np.ndarray:
    """256 x 3 float32: every uint8 value times each channel's gain, as numpy computes it."""
    return np.arange(256, dtype=np.float32)[:, None] * np.asarray(gains, np.float32)[None, :]


def apply_gains(img: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``img.astype(float32) * gains`` per channel (a BGR uint8 image), by a table lookup: the
    same numbers, at a third of numpy's cost."""
    return cv2.LUT(img, _gain_table(gains).reshape(256, 1, 3))


def _every_other_pixel(img: np.ndarray) -> np.ndarray:
    """``img[::2, ::2]`` as a contiguous array: a nearest-neighbour halving, several times
    faster than numpy's strided copy of a 3-channel image (an odd side is padded first)."""
    h, w = img.shape[:2]
    if h % 2 or w % 2:
        img = cv2.copyMakeBorder(img, 0, h % 2, 0, w % 2, cv2.BORDER_REPLICATE)
    return cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2), interpolation=cv2.INTER_NEAREST)


def _histogram(img: np.ndarray, bins: int, channel: int = 0, mask: np.ndarray | None = None) -> np.ndarray:
    """Counts of the integer values 0 .. bins - 1 of one channel (where ``mask`` is set)."""
    return cv2.calcHist([img], [channel], mask, [bins], [0, bins]).ravel()


def _hist_percentile(hist: np.ndarray, q: float, offset: int = 0) -> float:
    """``np.percentile(values, q)`` (linear interpolation) of float32 values counted by
    ``hist`` (value = bin index + ``offset``), in the same float32 arithmetic."""
    c = np.cumsum(hist)
    pos = q / 100 * (int(c[-1]) - 1)
    lo, hi = int(np.floor(pos)), int(np.ceil(pos))
    vlo, vhi = (np.float32(v + offset) for v in np.searchsorted(c, [lo + 1, hi + 1]))
    return float(vlo + (pos - lo) * (vhi - vlo))


WHITENESS_ROWS = 64  # whiteness is worked out this many rows at a time


def whiteness(img: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """Brightness minus chroma (float32) of a BGR uint8 image white-balanced by ``gains``:
    high on ivory/white faces, low on felt, wood, backs.  (Each channel is balanced by a
    table lookup after the split: splitting the balanced float image costs far more.)

    Worked out ``WHITENESS_ROWS`` rows at a time, into one output: the same numbers, with the
    five float planes of a band small enough to stay in the processor's cache (a whole
    1008 x 756 picture's planes are 3 MB each), which took its 5.5 calls a scan from about 8.5
    to 6 ms."""
    table = _gain_table(gains)
    luts = [np.ascontiguousarray(table[:, i]) for i in range(3)]
    h, w = img.shape[:2]
    out = np.empty((h, w), np.float32)
    rows = max(1, min(WHITENESS_ROWS, h))
    spread, low, g, r = (np.empty((rows, w), np.float32) for _ in range(4))
    for y in range(0, h, rows):
        n = min(rows, h - y)
        channels = cv2.split(img[y:y + n])
        b, gn, rn, sp, lo = out[y:y + n], g[:n], r[:n], spread[:n], low[:n]
        for ch, lut, dst in zip(channels, luts, (b, gn, rn)):
            cv2.LUT(ch, lut, dst=dst)
        cv2.max(b, gn, dst=sp)
        cv2.max(sp, rn, dst=sp)
        cv2.min(b, gn, dst=lo)
        cv2.min(lo, rn, dst=lo)
        cv2.subtract(sp, lo, dst=sp)
        cv2.add(b, gn, dst=b)
        cv2.add(b, rn, dst=b)
        cv2.addWeighted(b, 1.0 / 3.0, sp, -1.6, 0.0, dst=b)
    return out


def face_mask(white: np.ndarray, t: float | None = None, outlines_of: np.ndarray | None = None,
              scale: float = 1.0) -> tuple[np.ndarray, Callable[[], np.ndarray], float]:
    """Bright, neutral pixels: (plain mask, a function giving the mask cut along strong edges,
    the whiteness threshold used).

    The cut version separates a face from glare or a pale table that touches it;
    it is used only where the plain blob is not a clean rectangle (in about one photo of
    three), so its edge detection runs on first call only. ``t``: the threshold to use, else
    it is found from ``white`` (:func:`_mask_threshold`). ``outlines_of``: on a pale table, the
    BGR picture of ``white``, whose faces are then found by their outlines
    (:func:`vision.outlines.outlined_face_mask`, sizes times ``scale``) instead of above the
    threshold, which is still returned."""
    w8 = np.clip(white, 0, 255).astype(np.uint8)
    if t is None:
        t = _mask_threshold(w8[::2, ::2].ravel())
    if outlines_of is None:
        mask = cv2.threshold(w8, t, 255, cv2.THRESH_BINARY)[1]   # 255 where w8 > t
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    else:
        mask = outlined_face_mask(outlines_of, w8, scale)

    @functools.cache
    def cut() -> np.ndarray:
        edges = cv2.Canny(cv2.GaussianBlur(w8, (3, 3), 0), EDGE_LOW, EDGE_HIGH, L2gradient=True)
        return cv2.subtract(mask, edges)   # edges are 0 or 255: the mask with edge pixels cleared

    return mask, cut, t


def _mask_threshold(sample: np.ndarray) -> float:
    """The whiteness above which a pixel may be a face's, from a ``sample`` of a photo's (uint8
    whiteness, flat: every other pixel of every other row)."""
    t, _ = cv2.threshold(sample.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    t = max(float(t), 110.0)
    # tiles cover a minority of a photo: on a pale cloth the first split is table vs the
    # rest, so split again among the bright pixels until the bright part is a minority
    for _ in range(3):
        bright = sample[sample > t]
        if bright.size <= 0.3 * sample.size or bright.size < 100:
            break
        t2, _ = cv2.threshold(bright.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        if t2 <= t + 4:
            break
        t = float(t2)
    return t


def _rect_blobs(mask: np.ndarray, cut: Callable[[], np.ndarray], min_area: float, min_side: float, choices: list | None = None):
    """(contour, quad, side a, side b) of every rectangular blob.

    A blob of the plain mask that is not rectangular (a face merged with glare) and not
    one or two faces bitten by their ink is re-examined in the edge-cut mask (``cut()``), piece by piece.
    ``choices``, when given, receives (bitten blob, its pieces) for each longer blob whose
    hull is a rectangle, whose pieces are returned meanwhile: it is a row bitten by ink if it
    is as thick as a face, which only the caller knows (a row joined to glare is far thicker)."""
    out = []
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    for c in contours:
        area = cv2.contourArea(c)
        if area < min_area:
            continue
        outline = _blob_outline(c, area, bitten=True)  # fitted once for both readings below
        blob = _rect_from(outline, min_side, bitten=2.0)  # one face or two
        if blob is not None:
            out.append(blob)
            continue
        own, x0, y0 = _filled(c, pad=1)
        pieces = _pieces(own, lambda: cv2.bitwise_and(own, _pad_window(cut(), x0, y0, own.shape[1], own.shape[0])),
                         area, (x0, y0), min_area, min_side)
        out.extend(pieces)
        if choices is not None:
            row = _rect_from(outline, min_side, bitten=25.0)
            if row is not None:
                choices.append((row, pieces))
    return out


def _opened(mask: np.ndarray, k: int) -> np.ndarray:
    """``mask`` opened by a ``k`` px disc: parts and bridges thinner than that go."""
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))


def _pieces(own, own_cut: Callable[[], np.ndarray], area, offset, min_area, min_side):
    """Rectangular pieces of a blob that is not one: thin bridges (glare on a mat, a
    cloth pattern) are opened away, first in the plain blob, then in the edge-cut one
    (``own_cut()``, made only when the plain blob gives nothing)."""
    for src in (own, None):
        if src is None:
            src = own_cut()
        for k in (5, 9, 15):
            got = _opened_blobs(src, k, offset, min_area, min_side)
            if got and sum(cv2.contourArea(g[0]) for g in got) > 0.25 * area:
                return got
    return []


def _opened_blobs(own: np.ndarray, k: int, offset, min_area: float, min_side: float, bitten: float = 0.0) -> list:
    """The rectangular blobs (:func:`_rect_blob`, with ``bitten``) of a blob's window ``own``
    opened by a ``k`` px disc, in image coordinates (``offset``: the window's top-left corner)."""
    subs, _ = cv2.findContours(_opened(own, k), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE, offset=offset)
    got = []
    for sc in subs:
        sa = cv2.contourArea(sc)
        sub = _rect_blob(sc, sa, min_side, bitten) if sa >= min_area else None
        if sub is not None:
            got.append(sub)
    return got


def _brightest_part(contour, white: np.ndarray, mask: np.ndarray, cut: Callable[[], np.ndarray], typical: float,
                    min_area: float, min_side: float):
    """The rectangular blobs among the brightest pixels of a blob far thicker than a face.

    Glare on a grey or pale table joins the faces it touches into one bright blob; the faces
    are still the brightest part of it, so the blob's bright pixels are split again (Otsu)."""
    own, x, y = _filled(contour)
    h, w = own.shape
    win = white[y:y + h, x:x + w]
    vals = np.clip(win[(own > 0) & (mask[y:y + h, x:x + w] > 0)], 0, 255).astype(np.uint8)  # not the ink
    if vals.size < 100:
        return []
    t, _ = cv2.threshold(vals.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = np.where((own > 0) & (win > t), 255, 0).astype(np.uint8)
    kc = int(typical / 3) | 1  # close the ink of the faces, which is darker than the glare
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kc, kc)))
    sub = np.zeros(white.shape, np.uint8)
    sub[y:y + h, x:x + w] = cv2.bitwise_and(bright, own)
    sub = cv2.morphologyEx(sub, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return _rect_blobs(sub, functools.cache(lambda: cv2.bitwise_and(sub, cut())), min_area, min_side)


def _ink(mask: np.ndarray, contour) -> float:
    """Share of a blob's outline area that is not bright: the ink of a tile face.  Only the part
    of the outline inside the photo counts (0.0 for an outline wholly outside it)."""
    inside = _filled_within(contour, mask.shape)
    if inside is None:
        return 0.0
    own, win = inside
    area = cv2.countNonZero(own)
    if area == 0:
        return 0.0
    lit = cv2.countNonZero(cv2.bitwise_and(own, mask[win]))
    return 1.0 - lit / area


def _filled_within(contour, shape: tuple) -> tuple[np.ndarray, tuple[slice, slice]] | None:
    """``contour`` filled in a window just around it, cut to an image of ``shape`` (h, w): (the
    filled window, the window's (rows, columns) in the image); None where it lies wholly outside."""
    own, x, y = _filled(contour)
    h, w = own.shape
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, shape[1]), min(y + h, shape[0])
    if x1 <= x0 or y1 <= y0:
        return None
    return own[y0 - y:y1 - y, x0 - x:x1 - x], (slice(y0, y1), slice(x0, x1))


def _pad_window(img, x, y, w, h):
    win = np.zeros((h, w), img.dtype)
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(img.shape[1], x + w), min(img.shape[0], y + h)
    win[y0 - y:y1 - y, x0 - x:x1 - x] = img[y0:y1, x0:x1]
    return win


def _filled(contour, pad: int = 0) -> tuple[np.ndarray, int, int]:
    """(mask, x0, y0): ``contour`` filled in a window just around it, ``pad`` pixels wider on
    every side, and the window's top-left corner in the image."""
    x, y, w, h = cv2.boundingRect(contour)
    own = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(own, [contour], -1, 255, -1, offset=(pad - x, pad - y))
    return own, x - pad, y - pad


def _dense(poly: np.ndarray) -> np.ndarray:
    """A closed polygon (contour format) with a point at every pixel along its sides."""
    own, x0, y0 = _filled(poly, pad=1)
    cs, _ = cv2.findContours(own, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE, offset=(x0, y0))
    return max(cs, key=cv2.contourArea)


def _rect_blob(c, area, min_side, bitten: float = 0.0):
    """(contour, quad, side a, side b) when ``c`` is a rectangular blob, else None.

    ``bitten``: also a blob at most ``bitten`` times as long as thick with bites out of
    its sides whose hull is a rectangle (ink that runs to the edge of a small or blurred
    face); its outline is fitted on the hull, since the bite's own edge would pull a side in."""
    return _rect_from(_blob_outline(c, area, bool(bitten)), min_side, bitten)


def _blob_outline(c, area, bitten: bool):
    """(contour, quad, on its hull) of a blob of ``area`` that may be rectangular, as
    :func:`_rect_blob` fits it (``bitten``: a blob whose hull is a rectangle may be bitten, and is
    fitted on its hull), or None where it is none: the fit that any ``bitten`` above 0 shares."""
    quad = fit_quad(c, faces=True)
    qa = abs(cv2.contourArea(quad.reshape(-1, 1, 2)))
    if qa <= 0 or area / qa > 1.25:
        return None
    if area / qa >= 0.8:
        return c, quad, False
    # not a rectangle: glare, a cloth pattern, a hand... or a bitten face
    hull = cv2.convexHull(c)
    if not bitten or area / qa < 0.5 or cv2.contourArea(hull) / qa < 0.92:
        return None
    c = _dense(hull)
    return c, fit_quad(c, faces=True), True


def _rect_from(outline, min_side, bitten: float):
    """:func:`_rect_blob` of a blob whose :func:`_blob_outline` is ``outline``."""
    if outline is None:
        return None
    c, quad, on_hull = outline
    longest = min(25.0, bitten) if on_hull else 25.0
    a, b = quad_sides(quad)
    if min(a, b) < min_side or max(a, b) > longest * min(a, b):
        return None  # slivers: mat slats in glare, table edges
    return c, quad, a, b


# ----------------------------------------------------------------------------- splitting

def _strip(img: np.ndarray, gains: np.ndarray, q: np.ndarray, length_px: int) -> tuple[np.ndarray, np.ndarray]:
    """Rectify quad q (q[0]->q[1] along the run) of the BGR image to a whiteness strip STRIP_H high.

    Returns the strip and H^-1 (strip -> image)."""
    dst = np.float32([[0, 0], [length_px, 0], [length_px, STRIP_H], [0, STRIP_H]])
    H = cv2.getPerspectiveTransform(q.astype(np.float32), dst)
    strip = cv2.warpPerspective(img, H, (length_px, STRIP_H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return whiteness(strip, gains), np.linalg.inv(H)


SEAM_LEANS = (-3.0, 3.0)  # px across the strip's height: seams looked for this far off upright too


def seam_profile(strip: np.ndarray) -> np.ndarray:
    """Per column, how clearly a thin dark seam crosses the whole face height (0..1).

    A seam between touching faces is a line a few px wide, darker than the face on
    both sides, on (nearly) every row.  ``min(left, right) - centre`` measures that
    per pixel; glyph strokes are wider than the seam or do not span the height, so
    the 30th percentile over rows, and the medians over the margin bands, leave only seams.
    A tile set a little askew, or a long row rectified from an outline a little off, leaves
    its seams leaning: the same evidence is also taken along lines leaning ``SEAM_LEANS``
    px across the strip, and each column keeps the best."""
    s = cv2.blur(strip.astype(np.float32), (1, 5))
    best = np.zeros_like(s)
    w = s.shape[1]
    for d in (2, 3, 4):  # columns within d of an end stay 0
        if w > 2 * d:
            mid = best[:, d:w - d]
            np.maximum(mid, np.minimum(s[:, :w - 2 * d], s[:, 2 * d:]) - s[:, d:w - d], out=mid)
    h = s.shape[0]
    prof = _seam_evidence(best)
    for lean in SEAM_LEANS:  # a tile set a little askew leaves a seam that leans
        shear = np.float32([[1, lean / h, -lean / 2], [0, 1, 0]])
        np.maximum(prof, _seam_evidence(cv2.warpAffine(best, shear, (w, h), flags=cv2.INTER_LINEAR)), out=prof)
    return np.clip(prof / 40.0, 0, 1)


def _column_rank(rows: np.ndarray, k: int) -> np.ndarray:
    """Per column, the ``k``-th smallest of ``rows`` (``np.partition(rows, k, axis=0)[k]``): the same
    values, sooner. Sorting the columns beats partitioning them down the rows; of four rows (a
    strip's margin band) the third smallest is taken from pairs: the larger of the smaller of the
    two pairs' maxima and the larger of their minima."""
    if len(rows) == 4 and k == 2:
        hi_a, lo_a = np.maximum(rows[0], rows[1]), np.minimum(rows[0], rows[1])
        hi_b, lo_b = np.maximum(rows[2], rows[3]), np.minimum(rows[2], rows[3])
        return np.maximum(np.minimum(hi_a, hi_b), np.maximum(lo_a, lo_b))
    return np.sort(rows, axis=0)[k]


def _seam_evidence(best: np.ndarray) -> np.ndarray:
    """Per column of a per-pixel seam map, the evidence of an upright seam (see :func:`seam_profile`)."""
    h = best.shape[0]
    body = best[int(h * 0.03):int(h * 0.97)]
    every = _column_rank(body, int(0.3 * (len(body) - 1)))
    # ... and it must cross a blank top or bottom margin, which glyph strokes rarely reach
    band_t, band_b = best[int(h * 0.02):int(h * 0.09)], best[int(h * 0.91):int(h * 0.98)]
    top = _column_rank(band_t, len(band_t) // 2)
    bottom = _column_rank(band_b, len(band_b) // 2)
    # ... and the faces' rounded corners leave a notch in the row's outline at a seam
    notch = np.maximum(best[0:max(2, int(h * 0.05))].max(axis=0), best[h - max(2, int(h * 0.05)):].max(axis=0))
    return np.minimum(np.minimum(every, np.maximum(top, bottom)), notch)


SEAM_FLOOR = 0.12   # a cut must find a seam at least this clear to pay for itself
COUNT_TIE, EVEN_GAIN = 0.85, 0.6   # a count within 15% of the best score wins if its faces are 40% more even
EXPECTED_TIE = 0.6  # ... or within 40%, if it is also nearer the count the photo's face aspect expects
FAINT_SEAMS = 0.2  # ... or, where the best count's cuts score less than this each, on its score alone
CLEAR_SEAMS = 0.5  # a short blob cut in three with seams this clear each is not made a pair by the face aspect
LONG_TIE, LONG_EVEN = 0.75, 0.35  # a long row's count within 25% of the best score wins if its faces are
LONG_CUTS = 6                     # nearly three times as even; long: this many cuts or more
# the comb's freedom: stretch, shift (in pitches) and a perspective-like chirp k, which
# spaces cuts by (1 + k) t / (1 + k t) for t in 0..1 (spacing shrinking or growing along
# the strip, up to 1.44x end to end) because a row's outline fitted from a blob whose ends
# show a tile's body side does not rectify it exactly
_COMB_SCALE, _COMB_OFF, _COMB_CHIRP = (a.ravel().astype(np.float32) for a in np.meshgrid(
    [0.97, 1.0, 1.03], np.linspace(-0.12, 0.12, 7), [-0.2, -0.1, 0.0, 0.1, 0.2], indexing="ij"))

_UNCHIRPED = np.flatnonzero(_COMB_CHIRP == 0)


def choose_count(prof: np.ndarray, ratio: float, n_range: tuple[int, int] | None = None,
                 expected: float | None = None) -> tuple[int, list[float], float]:
    """Pick the tile count for a strip whose length/height is ``ratio``.

    Every count ``n`` the face aspect range allows is tried with evenly spaced cuts
    (the strip is rectified, so faces are equal), letting the comb shift, stretch and
    chirp a little for an imprecise outline.  A cut scores the seam evidence under it minus
    ``SEAM_FLOOR``: real seams pay, cuts through faces cost, and missing out real
    seams forgoes their score.  A count scoring nearly as well as the best takes over
    when its snapped cuts leave clearly more even faces; given the count ``expected`` from the
    photo's face aspect, so does one that scores less well but lies at least half a tile nearer
    it (:data:`EXPECTED_TIE`); where even the best count's cuts are faint (:data:`FAINT_SEAMS` each),
    evenness is not asked of that nearer count. On a long row (:data:`LONG_CUTS` cuts or more) a
    count scoring within :data:`LONG_TIE` of the best wins where its faces are nearly three times as
    even (:data:`LONG_EVEN`): glyph strokes near one end of a row shot at a tilt, its seams faint
    there, can pay a count one short for cuts that leave faces a third wider than the rest
    (development scene 601 with camera bodies: 13 faces cut as 12).  Returns (n, cut positions,
    score); score <= 0 means no count was supported by seams.  ``n_range`` narrows the counts tried.
    """
    L = len(prof)
    n_lo = max(2, int(math.floor(ratio / ASPECT_MAX)))
    n_hi = max(2, int(math.ceil(ratio / ASPECT_MIN)))
    if n_range is not None:
        n_lo, n_hi = max(2, n_range[0]), max(2, n_range[1])
    scored = []   # (score, n, comb cut positions) of every count's best comb
    near_max = {}  # the profile's running maximum over 2 tol + 1 columns, by tol
    # the chirp corrects drift that builds up along a long row; on a short one it would only
    # let a cut wander onto a glyph stroke: only the combs without chirp are tried there
    combs = _UNCHIRPED if ratio < 4 else slice(None)
    off, scale = _COMB_OFF[combs, None], _COMB_SCALE[combs, None]
    middle = (1 - scale) * L / 2  # a stretched comb stays centred
    for n in range(n_lo, min(n_hi, 40) + 1):
        pitch = L / n
        tol = max(1, int(round(pitch * 0.06)))
        if tol not in near_max:
            near_max[tol] = cv2.dilate(prof.reshape(1, -1).astype(np.float32), np.ones((1, 2 * tol + 1), np.uint8)).ravel()
        pm = near_max[tol]
        X = np.round(off * pitch + _comb_positions(n)[combs] * L * scale + middle).astype(int)
        ok = (X[:, 0] >= 1) & (X[:, -1] <= L - 2)  # a comb's cuts run in order: its first is its least
        if not ok.any():
            continue
        X = X[ok]
        sc = (pm[X] - SEAM_FLOOR).sum(axis=1)
        top = int(np.argmax(sc))
        if float(sc[top]) > 0:
            scored.append((float(sc[top]), n, X[top].tolist()))
    if not scored:
        return 1, [], 0.0
    best_score, n, xs = max(scored)
    if expected is not None and best_score < FAINT_SEAMS * (n - 1):
        # cuts this faint (a meld set askew leaves its seams leaning and broken) snap onto
        # whatever marks lie near, so how even they leave the faces says little: a count
        # nearer the one the photo's face aspect expects wins on its score alone
        near = [c for c in scored if c[0] >= EXPECTED_TIE * best_score and abs(c[1] - expected) + 0.5 <= abs(n - expected)]
        if near:
            score, n, xs = min(near, key=lambda c: (abs(c[1] - expected), -c[0]))
            return n, _snap(prof, xs, n), score
    cuts, score = _snap(prof, xs, n), best_score
    # a count that scores nearly as well wins if it leaves clearly more even faces: the
    # strip is rectified, so the right count's cuts, snapped onto their seams, leave equal
    # faces, while a count one off pulls some cuts onto glyph strokes or the seams' shadows
    # (a glyph stroke across the middle of a short meld can outscore its two real seams)
    even, best_n = _unevenness(cuts, L), n
    for s, m, ys in scored:
        nearer = expected is not None and abs(m - expected) + 0.5 <= abs(best_n - expected)
        tie = s >= (EXPECTED_TIE if nearer else COUNT_TIE) * best_score
        if tie or (m - 1 >= LONG_CUTS and s >= LONG_TIE * best_score):
            alt = _snap(prof, ys, m)
            alt_even = _unevenness(alt, L)
            if alt_even < (EVEN_GAIN if tie else LONG_EVEN) * even:
                n, cuts, even, score = m, alt, alt_even, s
    return n, cuts, score


@functools.lru_cache(maxsize=64)
def _comb_positions(n: int) -> np.ndarray:
    """The n - 1 cut positions (0..1) of every chirp of the comb, one row each (read-only)."""
    t = np.arange(1, n, dtype=np.float32)[None, :] / n
    k = _COMB_CHIRP[:, None]
    t = (1 + k) * t / (1 + k * t)
    t.flags.writeable = False
    return t


def _snap(prof: np.ndarray, xs: list[int], n: int) -> list[float]:
    """Each comb cut moved onto the clearest seam within 6% of a pitch."""
    L = len(prof)
    tol = max(1, int(round(L / n * 0.06)))
    cuts = []
    for x in xs:
        lo, hi = max(0, x - tol), min(L, x + tol + 1)
        cuts.append(float(lo + int(np.argmax(prof[lo:hi]))))
    return cuts


def _unevenness(cuts: list[float], length: int) -> float:
    """Mean change of face width from one face to the next, over the mean width.

    Neighbours are compared, not all faces with the mean: the comb's chirp lets widths
    drift smoothly along a row whose outline is not rectified exactly."""
    widths = np.diff([0.0] + cuts + [float(length)])
    return float(np.abs(np.diff(widths)).mean() / widths.mean())


def split_run(img: np.ndarray, gains: np.ndarray, quad: np.ndarray, n_range: tuple[int, int] | None = None,
              profiles: dict | None = None,
              expected: float | None = None) -> tuple[list[np.ndarray], np.ndarray, float, float, float]:
    """Split a quad into tile faces. Returns (quads, run-axis unit vector, pitch, face height,
    seam score of the cuts (:func:`choose_count`)).

    quads are TL TR BR BL of portrait faces in image coordinates.  ``profiles``, a dict
    kept for one image, remembers each outline's seam profile for a second split of it
    with another ``n_range``; ``expected``: as in :func:`choose_count`.
    """
    a, b = quad_sides(quad)
    if b > a:  # make q[0]->q[1] the long side
        quad = turned_quad(quad, 1)
        a, b = b, a
    ratio = a / max(b, 1e-3)
    length = int(max(8, round(STRIP_H * ratio)))
    key = (quad.astype(np.float32).tobytes(), length)
    if profiles is not None and key in profiles:
        prof, Hinv = profiles[key]
    else:
        strip, Hinv = _strip(img, gains, quad, length)
        prof = seam_profile(strip)
        if profiles is not None:
            profiles[key] = prof, Hinv
    n, cuts, score = choose_count(prof, ratio, n_range, expected)
    single_ok = ratio < 1.0 / ASPECT_MIN + 0.1  # a lone portrait tile: long side is its height
    if n_range is not None:
        single_ok = n_range[0] <= 1
        if n == 1 and not single_ok:  # no seam evidence: cut evenly at the expected count
            n = max(2, int(round((n_range[0] + n_range[1]) / 2)))
            cuts = [i * length / n for i in range(1, n)]
    if n == 1 and single_ok and ratio > 1.0 / 1.05:
        # one portrait tile: q[0]->q[1] runs along its height; TL..BL of the portrait face
        face = np.array([quad[1], quad[2], quad[3], quad[0]], np.float32)
        axis = quad[1] - quad[0]
        axis = axis / (np.linalg.norm(axis) + 1e-6)
        return [face], axis, b, a, score
    if n == 1:
        n = max(1, int(round(ratio / ASPECT_TYPICAL)))
        cuts = [i * length / n for i in range(1, n)]
    edges = [0.0] + list(cuts) + [float(length)]
    quads = []
    for x0, x1 in zip(edges[:-1], edges[1:]):
        cell = np.float32([[x0, 0], [x1, 0], [x1, STRIP_H], [x0, STRIP_H]]).reshape(-1, 1, 2)
        quads.append(cv2.perspectiveTransform(cell, Hinv).reshape(4, 2))
    axis = quad[1] - quad[0]
    axis = axis / (np.linalg.norm(axis) + 1e-6)
    return quads, axis, a / n, b, score


# ----------------------------------------------------------------------------- the detector





def _scaled(quad: np.ndarray, k: float) -> np.ndarray:
    """A quad shrunk (k < 1) or grown (k > 1) about its centre."""
    c = centre(quad)
    return c + (quad - c) * k


def _mean_in(img: np.ndarray, quad: np.ndarray, offset=(0, 0), convert: Callable | None = None):
    """Mean colour inside a quad (the middle 60% of it), or None when it is off the image.
    ``offset``: where ``img`` (a window) lies in the picture the quad's coordinates are of;
    ``convert``: a per-pixel conversion of ``img`` (its colour space, a mask's 0/1) applied to
    the window under the quad only, the same numbers as converting the whole picture first."""
    window = _window_in(img, _scaled(quad, 0.6), 2, offset)
    if window is None:
        return None
    part, m = window
    if cv2.countNonZero(m) < 6:
        return None
    if convert is not None:
        part = convert(part)
    channels = 1 if part.ndim == 2 else part.shape[2]
    return np.float32(cv2.mean(part, mask=m)[:min(channels, 3)])


def _pixels_in(img: np.ndarray, quad: np.ndarray, min_extent: int = 1, offset=(0, 0)):
    """The pixels of ``img`` inside a quad (N x channels), or None when the part of it on
    the image is less than ``min_extent`` px wide or high.  ``offset``: as in :func:`_mean_in`."""
    window = _window_in(img, quad, min_extent, offset)
    if window is None:
        return None
    part, m = window
    return part[m > 0]


def _window_in(img: np.ndarray, quad: np.ndarray, min_extent: int, offset):
    """(the part of ``img`` under a quad's bounding box, the quad's mask there), or None (see
    :func:`_pixels_in`)."""
    q = np.asarray(quad).astype(np.int32) - np.asarray(offset, np.int32)
    xs, ys = q[:, 0].tolist(), q[:, 1].tolist()  # four corners: plain ints cost less than numpy's reductions
    x0, y0 = max(min(xs), 0), max(min(ys), 0)
    x1, y1 = min(max(xs) + 1, img.shape[1]), min(max(ys) + 1, img.shape[0])
    if x1 - x0 < min_extent or y1 - y0 < min_extent:
        return None
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(m, q - np.int32([x0, y0]), 1)
    return img[y0:y1, x0:x1], m


TABLE_SECOND_SHARE = 0.2  # a second table colour covers at least this share of the table


def _dominant(lab: np.ndarray) -> np.ndarray:
    """The median of the most common coarse colour (16 levels a channel) of N x 3 Lab pixels
    (OpenCV's 8-bit scale). The coarse colour is ``lab // 16``, taken as ``floor(lab / 16)``: the
    same numbers (16 is a power of two, so the quotient is exact), at a fortieth of the cost of
    numpy's float floor division."""
    q = np.floor(lab * np.float32(1 / 16)).astype(np.int32)
    key = q[:, 0] * 256 + q[:, 1] * 16 + q[:, 2]
    return np.median(lab[key == np.bincount(key).argmax()], axis=0).astype(np.float32)


TABLE_STEP = 4  # the table's colour is read off every 4th pixel of every 4th row


def table_colours(lab: np.ndarray, exclude: np.ndarray, step: int = TABLE_STEP) -> list[np.ndarray]:
    """The colour (Lab) of the picture (a Lab image from :func:`to_lab`) outside ``exclude``,
    the table, and a second one when the table is of two (a checked or striped cloth): the
    dominant colour of the pixels far (over 25) from the first, when they are at least
    TABLE_SECOND_SHARE of the table. Every ``step``-th pixel of every ``step``-th row counts."""
    lab = lab[::step, ::step].reshape(-1, 3)
    keep = exclude[::step, ::step].reshape(-1) == 0
    lab = lab[keep] if keep.sum() > 100 else lab
    first = _dominant(lab)
    far = lab[_lab_distance(lab, first) > 25]
    if len(far) < TABLE_SECOND_SHARE * len(lab):
        return [first]
    return [first, _dominant(far)]


# weights of squared lightness and chroma differences in a colour distance: chroma counts
# more, because shading changes lightness far more than hue
L_WEIGHT, CHROMA_WEIGHT = 0.5, 2.0


def balanced_lab(gains: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """A conversion of BGR uint8 pixels to ``to_lab(apply_gains(pixels, gains))`` by a uint8 table
    lookup (uint8 Lab: the same values), for :func:`_mean_in` to apply to the few windows it
    reads; OpenCV's 8-bit Lab costs about 5 ms on a whole 1008 x 756 picture."""
    table = np.clip(_gain_table(gains), 0, 255).astype(np.uint8).reshape(256, 1, 3)
    return lambda pixels: cv2.cvtColor(cv2.LUT(pixels, table), cv2.COLOR_BGR2Lab)


def _is_set_pixel(mask: np.ndarray) -> np.ndarray:
    """A 0/255 mask's pixels as 0/1, so that their mean is the share set."""
    return (mask > 0).view(np.uint8)


def to_lab(wb: np.ndarray) -> np.ndarray:
    """A white-balanced float BGR image as float32 Lab (OpenCV's 8-bit scale)."""
    return cv2.cvtColor(np.clip(wb, 0, 255).astype(np.uint8), cv2.COLOR_BGR2Lab).astype(np.float32)


_DISTANCE_WEIGHTS = np.float32([[L_WEIGHT, CHROMA_WEIGHT, CHROMA_WEIGHT]])


def lab_distance(lab: np.ndarray, refs: list[np.ndarray]) -> np.ndarray:
    """Per pixel, the colour distance of a Lab image (from :func:`to_lab`) to the nearest of the
    colours ``refs`` (one or more): the square root of ``L_WEIGHT`` x the squared lightness
    difference plus ``CHROMA_WEIGHT`` x the squared a and b differences.

    The squares are summed per colour and the root taken once, of their least. Where the image
    holds whole numbers (as :func:`to_lab` gives) and the colours halves (medians of them, as
    :func:`table_colours` gives), every sum is exact in float32, so the order of the arithmetic
    cannot change a bit: the same numbers as a root per colour and a minimum of those, in less
    than half the time (one pass per step over the three channels, no planes split out)."""
    least = None
    for ref in refs:
        d = cv2.subtract(lab, tuple(float(v) for v in np.asarray(ref, np.float32)) + (0.0,))
        cv2.multiply(d, d, dst=d)
        sq = cv2.transform(d, _DISTANCE_WEIGHTS)
        least = sq if least is None else cv2.min(least, sq, dst=least)
    return cv2.sqrt(least, dst=least)


DETECT_LONG_SIDE = 1000
PALE_TABLE_WHITE = 120.0  # a photo whose median whiteness is this high lies on a pale table (white, cream, light grey)


FEW_FACES = 13  # a hand has 13 tiles or more: fewer inked faces than this, and the white balance looks again
MORE_LOOKS = 2  # each without the reference colours of the looks before
LOOK_GAIN = 2  # ... and kept only if it finds this many more inked faces (one more found the same tiles);
#                 faces are counted up to FEW_FACES, so a first look with FEW_FACES - 1 stays
CLIPPED_WHITE = 250  # a look balanced to a colour this pale in every channel (clipped white) looks no further


def detect(img: np.ndarray, long_side: int = DETECT_LONG_SIDE, whole: tuple[int, int] | None = None,
           balance: tuple | None = None, pale: bool = False,
           on_faces: Callable[[list[np.ndarray]], None] | None = None) -> dict:
    """Find candidate tiles in a BGR image.

    Masks are built on a copy of about ``long_side`` px (``DETECT_LONG_SIDE``); runs are split on
    strips warped from ``img`` itself.  Returns ``{"runs": [Run], "face_height": float,
    "mask": small face mask, "balance": (white balance gains, whiteness threshold), "body_side":
    the side the faces show their bodies on (:func:`body_direction`, a unit vector, or None)}``, and where
    it balanced itself ``"left_out"``: the reference colours its balance left out; quads are in
    ``img`` coordinates.

    ``whole``: where ``img`` is a window cut from a photo, the photo's (height, width) in ``img``
    px; the least blob a face may be is then the whole photo's at this scale (the window holds
    the same tiles at the same size, and smaller scraps count no more than they would there).

    Where fewer than ``FEW_FACES`` faces with ink are found, the white balance looks again
    without the pixels of the colour it balanced to (see :func:`white_balance`), up to
    ``MORE_LOOKS`` times; a look is kept over the best before it if it finds ``LOOK_GAIN`` more inked faces.
    A look balanced to clipped white (``CLIPPED_WHITE`` or more in every channel) looks no further:
    that colour tints nothing, and in an over-exposed photo it is the burnt faces' own.
    ``"pale_table"``: whether the photo lies on a pale table (:func:`is_pale_table`, told by each
    look's own balance), where the faces are found by their outlines (:mod:`vision.outlines`)
    instead of the face mask. A window detected with the photo's ``balance`` cannot tell (it is
    mostly tiles): ``pale`` says it.

    ``on_faces``: called in each look with the quads of its faces (``img`` px) once they are split
    and trimmed, before the look searches for face-down tiles, so that the caller can start
    reading them meanwhile (:class:`vision.read_ahead.ReadAhead`). Most of them are the look's faces as
    returned; the face-down search may still take a row's end face for a kong's, and a look that
    finds too few inked faces may be dropped for another.
    """
    small = _shrunk(img, long_side)
    f = small.shape[1] / img.shape[1]
    frame = small.shape[:2] if whole is None else (whole[0] * f, whole[1] * f)  # the whole photo's mask size
    if balance is not None:
        return _detect_with(img, small, f, *balance[:2], frame, table=balance[2] if len(balance) > 2 else None,
                            pale=pale, on_faces=on_faces)
    gains, ref = white_balance(small)
    found = _detect_with(img, small, f, gains, None, frame, on_faces=on_faces)
    found["left_out"] = ()
    inked = _face_count(found, f, FEW_FACES)
    left_out = [ref]
    for _ in range(MORE_LOOKS):
        if inked >= FEW_FACES or float(np.min(ref)) >= CLIPPED_WHITE:
            break
        gains, ref = white_balance(small, tuple(left_out))
        again = _detect_with(img, small, f, gains, None, frame, on_faces=on_faces)
        n = _face_count(again, f, FEW_FACES)
        if n >= inked + LOOK_GAIN:
            found, inked = again, n
            found["left_out"] = tuple(left_out)
        left_out.append(ref)
    return found


def _shrunk(img: np.ndarray, long_side: int) -> np.ndarray:
    """``img`` at about ``long_side`` px on its long side (not grown), where masks are made."""
    small = img
    while max(small.shape[:2]) >= 2 * long_side:
        small = cv2.pyrDown(small)  # cheap exact halving
    if max(small.shape[:2]) > long_side * 1.05:
        g = long_side / max(small.shape[:2])
        small = cv2.resize(small, (max(1, round(small.shape[1] * g)), max(1, round(small.shape[0] * g))),
                           interpolation=cv2.INTER_AREA)
    return small


def photo_balance(img: np.ndarray, long_side: int = DETECT_LONG_SIDE, leave_out: tuple = (),
                  found: list | None = None, face_h: float = 0.0) -> tuple:
    """The ``"balance"`` (white balance gains, whiteness threshold) that :func:`detect` gives
    ``img`` at ``long_side`` with the reference colours ``leave_out`` left out (a detection's
    ``"left_out"``), for a window of ``img`` detected alone: read off every other pixel of the
    picture at that size, as :func:`detect` reads them, without finding a single face.

    With ``found`` (quads in ``img`` px: the tiles an earlier look found) and their ``face_h``
    (px), a third part: the table's colours (:func:`table_colours`) as :func:`_find_backs`
    measures them, outside those tiles. A window's own table, a part of a table lit unevenly,
    is not the photo's, and face-down tiles are told from the table by their distance from its
    colour."""
    small = _shrunk(img, long_side)
    gains, _ = white_balance(small, leave_out)
    white = whiteness(_every_other_pixel(small), gains)
    threshold = _mask_threshold(np.clip(white, 0, 255).astype(np.uint8).ravel())
    if found is None:
        return gains, threshold
    f = small.shape[1] / img.shape[1] / 2  # to the half size where face-down tiles are looked for
    hh, hw = max(1, small.shape[0] // 2), max(1, small.shape[1] // 2)
    faces = np.zeros((hh, hw), np.uint8)
    for q in found:
        cv2.fillConvexPoly(faces, np.round(np.asarray(q, np.float32) * f).astype(np.int32), 255)
    near_faces = _near_faces(faces, face_h * f)
    if small.shape[0] % 2 or small.shape[1] % 2:  # an odd side: halved by area weights, as _find_backs does
        half = cv2.resize(apply_gains(small, gains), (hw, hh), interpolation=cv2.INTER_AREA)[::TABLE_STEP, ::TABLE_STEP]
    else:  # only the half-size pixels table_colours samples: the means of their 2 x 2 blocks
        step = 2 * TABLE_STEP
        blocks = [apply_gains(np.ascontiguousarray(small[dy:2 * hh:step, dx:2 * hw:step]), gains)
                  for dy in (0, 1) for dx in (0, 1)]
        half = (blocks[0] + blocks[1] + blocks[2] + blocks[3]) * np.float32(0.25)
    return gains, threshold, table_colours(to_lab(half), near_faces[::TABLE_STEP, ::TABLE_STEP], step=1)


def _face_count(det: dict, f: float, enough: int) -> int:
    """How many found faces carry ink (a blank lit screen cut into face-sized cells does not),
    counted up to ``enough``."""
    inked = 0
    for q in (q for r in det["runs"] if r.kind == "face" for q in r.quads):
        outline = np.round(np.asarray(q, np.float32) * f).astype(np.int32).reshape(-1, 1, 2)
        if _ink(det["mask"], outline) > INK_SHARE:
            inked += 1
            if inked == enough:
                break
    return inked


def _detect_with(img: np.ndarray, small: np.ndarray, f: float, gains: np.ndarray, threshold: float | None,
                 frame: tuple, table: list | None = None, pale: bool | None = None,
                 on_faces: Callable[[list[np.ndarray]], None] | None = None) -> dict:
    """:func:`detect` with the white balance ``gains`` of ``small`` (``img`` scaled by ``f``) and the
    whiteness ``threshold`` (None: :func:`face_mask` finds it); ``frame``: the (height, width) of
    the whole photo at ``small``'s scale; ``table``: the table's colours (None: those of
    ``small``, measured by :func:`_find_backs`); ``pale``: whether the photo lies on a pale table,
    where faces are found by their outlines (:mod:`vision.outlines`); None: told by this look's
    whiteness (:func:`is_pale_table`). A further look balanced without the colour of the look
    before may balance to the table's and tell it pale: it is kept only where it finds clearly
    more faces (:func:`detect`). ``on_faces``: as in :func:`detect`."""
    # the face-down search's whole-picture steps depend on the picture and its balance only: they
    # run on the spare core while this thread splits and trims the faces (vision/background.py)
    ahead = InBackground(_whole_picture_steps, small, gains)
    white = whiteness(small, gains)
    pale_table = is_pale_table(white) if pale is None else pale
    # on a pale table the faces are no whiter than the cloth: found by their outlines
    mask, cut, threshold = face_mask(white, threshold, small if pale_table else None, max(frame) / OUTLINE_SIDE)
    min_area, min_side = frame[0] * frame[1] * 0.00012, max(10.0, 0.012 * max(frame))
    choices: list = []
    found = _rect_blobs(mask, cut, min_area, min_side, choices)
    runs: list[Run] = []
    filled = np.zeros_like(mask)
    aspect = ASPECT_TYPICAL
    toward = None
    looks: dict = {}  # each face's rectified look, kept for a second look at the same quad (_side_cuts)
    if found:
        found, typical = _face_blobs(found, choices, white, mask, cut, min_area, min_side)
        kept = []
        profiles: dict = {}  # seam profiles by outline, for _recount's second split
        for c, quad, a, b in _join_fragments(found, small, gains, typical):
            quads, axis, pitch, height, score = split_run(img, gains, quad / f, profiles=profiles)
            square = squared_ends(quad)
            if square is not None:  # one end leans far from the other: keep the outline whose cuts find seams
                alt = split_run(img, gains, square / f, profiles=profiles)
                if alt[4] > score + SQUARE_GAIN:
                    quad, (quads, axis, pitch, height, score) = square, alt
            kept.append((quad / f, max(a, b) / max(min(a, b), 1e-3), len(quads), score))
            runs.append(Run(quads=quads, kind="face", axis=axis, pitch=pitch, height=height))
            cv2.drawContours(filled, [c], -1, 255, -1)
        deep_found: list = []  # where a side shows looked for SIDE_DEEP in: the photo's body side
        aspect = _recount(img, gains, runs, kept, profiles, deep_found)
        trim_rows(img, runs, deep_found, looks)  # a lone face was cut in _recount
        toward = body_direction(deep_found)
        if toward is not None:
            trim_deep_sides(img, runs, toward, looks)
        if on_faces is not None:
            on_faces([q for r in runs for q in r.quads])
    runs = link_rows(runs)
    heights = [r.height * f for r in runs]
    face_h = small_median(heights) if heights else 0.0
    backs: list[Run] = []
    if face_h > 0:
        colours, picture = ahead.result()
        backs = _find_backs(small, gains, filled, face_h, runs, f, aspect, table, pale_mask=mask, colours=colours)
        found_runs = {id(r) for r in runs}
        runs, backs = _kongs_from_ends(runs, backs, small, gains, mask, f)
        stepped = [r for r in runs if id(r) not in found_runs]
        trim_rows(img, stepped, looks=looks)
        if toward is not None and stepped:
            trim_deep_sides(img, stepped, toward, looks)
        kongs, took = _outlined_kongs(small, gains, runs + backs, face_h, f, aspect, picture)
        backs = [b for b in backs if id(b) not in took] + kongs
    ahead.join()  # waited for where no face needed it too: no work outlives the look that started it
    return {"runs": runs + backs, "face_height": face_h / f if f else 0.0, "mask": mask,
            "balance": (gains, threshold), "pale_table": pale_table, "body_side": toward}


def _whole_picture_steps(small: np.ndarray, gains: np.ndarray) -> tuple:
    """(:func:`_back_colours`, :func:`_outline_picture`) of a look's picture: its steps that need
    no face found, made while the faces are (:class:`vision.background.InBackground`)."""
    return _back_colours(small, gains), _outline_picture(small)


def is_pale_table(white: np.ndarray) -> bool:
    """Whether a photo of whiteness ``white`` (:func:`whiteness`) lies on a pale table, a white,
    cream or light grey cloth, where the face mask (a whiteness threshold) misses faces
    (docs/vision.md, "Pale tables"): its median, most of it the table's, is at least
    ``PALE_TABLE_WHITE``. On development scenes 0-299 the felt, wood, bamboo and cloths of the
    default scenes reach 114 at most; on scenes 0-99 drawn on a pale cloth the median lies at
    80-227, at 120 or more in 94 of the 100."""
    sample = white[::4, ::4]
    n = sample.size
    if n == 0:
        return False
    # the median's side of the line told from counts where they settle it (a median costs 0.5 ms):
    # the middle value (odd n) or both middle values (even n) at or above it, or both clearly under
    m = n // 2
    under = int(np.count_nonzero(sample < PALE_TABLE_WHITE))
    if under <= m - 1 or (n % 2 and under <= m):
        return True
    if n % 2 or int(np.count_nonzero(sample < PALE_TABLE_WHITE - 0.01)) >= m + 1:
        return False
    return float(np.median(sample)) >= PALE_TABLE_WHITE  # the middle values straddle it, or nearly


def _face_blobs(found, choices, white, mask, cut, min_area: float, min_side: float):
    """(the blobs that are faces, the photo's typical face thickness).

    Faces of one set are one size: blobs whose thickness is far from the typical face's
    (or, at a steep tilt, from the local one) are dropped, except that a longer bitten row
    of face thickness replaces its pieces and a far thicker blob is searched for faces
    joined to glare. ``found`` and ``choices`` are :func:`_rect_blobs`' answers.

    The typical face is the thickness that half the blobs' weight lies under, a blob weighing
    about as many faces as it is long, a tenth of that without ink. Where that drops an inked
    blob ``VOTE_ROW`` faces long or longer as too thick, the vote is taken again with the
    blobs paler than ``VOTE_PALER`` of the whitest inked one (:func:`_lit_level`) weighing as
    if inkless: the lit squares of a check cloth pass the face mask, speckled by the weave as if
    inked, and can outnumber the faces (real-photo scene 196 with camera bodies: grey squares
    of whiteness 113-161 voted the typical face 29 px thick, where the hand's faces, 204-219,
    were 49-56). Not much paler: a white score sheet with writing is such a blob too, and faces
    of old ivory or in shade, a little less white than paper, keep their vote."""
    thick = np.array([_thickness(blob) for blob in found])
    # weight ~ tile count, capped; blobs without ink (glare, a lit screen) count little
    counts = np.array([min(15.0, max(a, b) / max(1.0, min(a, b)) / ASPECT_TYPICAL) for _, _, a, b in found])
    inked = np.array([_ink(mask, c) > INK_SHARE for c, _, _, _ in found])
    weights = counts * np.where(inked, 1.0, 0.1)
    typical = _weighted_median(thick, weights)
    if any(inked & (counts >= VOTE_ROW) & (thick > typical) & ~np.array([_face_thick(t, typical) for t in thick])):
        # inked rows too thick for the vote: were the votes a pale table's squares? (_lit_level)
        lit = np.array([_lit_level(c, white, mask) for c, _, _, _ in found])
        paler = lit < VOTE_PALER * float(np.max(np.where(inked & (counts >= 1.0), lit, 0.0)))
        if paler.any():
            weights = counts * np.where(inked & ~paler, 1.0, 0.1)
            typical = _weighted_median(thick, weights)
    local = _perspective_thickness(found, weights)  # (``weights`` go with this ``found``)
    for row, pieces in choices:  # a row bitten by ink, or pieces of a row joined to glare?
        if _face_thick(_thickness(row), typical):
            found = [blob for blob in found if not any(blob is p for p in pieces)] + [row]
    def brightest_faces(blob):  # the face-thick blobs among a blob's brightest pixels
        return [b for b in _brightest_part(blob[0], white, mask, cut, typical, min_area, min_side)
                if _face_thick(_thickness(b), typical)]

    faces = []
    for blob in found:
        t = _thickness(blob)
        if _face_thick(t, typical) or (local is not None and _face_thick(t, local(blob[1].mean(axis=0)))):
            parts = _stacked_parts(blob, typical, min_area, min_side) if t >= STACKED * typical else []
            if not parts and _patchy(blob[0], white, mask):  # a face joined to a paler patch of table
                parts = brightest_faces(blob)
            faces += parts or [blob]
        elif t > typical:  # faces merged with glare or a pale patch of table?
            faces += brightest_faces(blob)
    return faces, typical


def _weighted_median(values: np.ndarray, weights: np.ndarray) -> float:
    """The value below which half of the ``weights`` lie (the lower middle where they split evenly)."""
    order = np.argsort(values)
    cum = np.cumsum(weights[order])
    return float(values[order][np.searchsorted(cum, cum[-1] / 2)])


def _lit_level(contour, white: np.ndarray, mask: np.ndarray) -> float:
    """The median whiteness of a blob's lit pixels (``mask`` inside ``contour``); 0 for a blob
    without them.

    Tile faces are the whitest things on a table, one ivory up to shading; a table's pale
    squares or patches that pass the face mask's threshold are clearly greyer. Read only
    where the vote for the typical face went wrong (:func:`_face_blobs`)."""
    v = _lit_values(contour, white, mask)
    return float(percentiles(v, (50,))[0]) if v is not None and v.size else 0.0


def _lit_values(contour, white: np.ndarray, mask: np.ndarray) -> np.ndarray | None:
    """The whiteness of a blob's lit pixels (``mask`` inside ``contour``), or None where the
    blob lies wholly outside the picture."""
    inside = _filled_within(contour, mask.shape)
    if inside is None:
        return None
    own, win = inside
    return white[win][(own > 0) & (mask[win] > 0)]


def _patchy(contour, white: np.ndarray, mask: np.ndarray) -> bool:
    """Whether a blob's lit pixels (``mask`` inside ``contour``) are of two whitenesses: their
    median under ``PATCHY`` of their 90th percentile. A face's pixels in the mask are its
    ivory, one whiteness up to shading (on development scenes 0-99, camera bodies 600-699 and
    pale tables 0-29, the 1,079 face blobs' median was at least 0.70 of their 90th percentile,
    0.94 typically); a face joined to a paler patch of the table is half table (development
    scene 792 with camera bodies: a flower set aside, touching a light square of a grey check
    cloth whose weave speckles the mask, made one blob two faces long, 0.52)."""
    v = _lit_values(contour, white, mask)
    if v is None or v.size < 50:
        return False
    p50, p90 = percentiles(v, (50, 90))
    return bool(p50 < PATCHY * p90)


def _stacked_parts(blob, typical: float, min_area: float, min_side: float) -> list:
    """The rows a thick blob falls apart into where thin links are opened away, or [].

    Two groups laid one above the other touch where the lower one's body, seen by a tilted
    camera, reaches the faces above it: the face mask joins them by a link a few pixels wide,
    and the two rows' outline can pass for one thick face (development scene 760 with camera
    bodies: a meld of four and a concealed kong's two faces, 1.8 times a face's thickness,
    read as one rejected face). The blob is opened by a ``k`` px disc (5, then 9); it is
    taken as rows where that leaves two or more rectangular blobs (:func:`_rect_blob`), each
    as thick as a face and together at least ``STACKED_KEEP`` of its area. One thick face
    opened does not fall apart so: its ink leaves no face-thick piece beside another, and
    a body's side cut off it is no thicker than a sliver."""
    own, x0, y0 = _filled(blob[0], pad=1)
    area = cv2.contourArea(blob[0])
    for k in (5, 9):
        got = _opened_blobs(own, k, (x0, y0), min_area, min_side, bitten=2.0)
        if len(got) >= 2 and all(_face_thick(_thickness(g), typical) for g in got) and \
                sum(cv2.contourArea(g[0]) for g in got) >= STACKED_KEEP * area:
            return got
    return []


def _perspective_thickness(found, weights: np.ndarray):
    """The face thickness expected at a point of a photo taken at a steep tilt, or None.

    Near rows can be two or three times as thick as far ones; a plane fitted to the
    thickness of the rows (blobs of two faces or more, with ink) over their centres
    predicts it, when at least four rows agree with it within a fifth and it spans more
    than 1.6 to 1 (a milder gradient is within the plain typical-face band)."""
    rows = [(blob[1].mean(axis=0), _thickness(blob)) for blob, w in zip(found, weights)
            if w >= 1.0 and max(blob[2], blob[3]) >= 1.4 * _thickness(blob)]
    if len(rows) < 4:
        return None
    xy = np.array([c for c, _ in rows], np.float64)
    t = np.array([t for _, t in rows], np.float64)
    A = np.column_stack([np.ones(len(t)), xy])
    coef, *_ = np.linalg.lstsq(A, t, rcond=None)
    pred = A @ coef
    if pred.min() <= 0 or np.any(np.abs(t / pred - 1) > 0.2) or pred.max() < 1.6 * pred.min():
        return None
    lo, hi = float(pred.min()), float(pred.max())
    return lambda p: float(np.clip(coef[0] + coef[1] * p[0] + coef[2] * p[1], lo, hi))


def _thickness(blob) -> float:
    """The short side of a (contour, quad, side a, side b) blob: a row's face height."""
    return min(blob[2], blob[3])


def _face_thick(thickness: float, typical: float) -> bool:
    """Is a blob as thick as a face? Faces of one set are one size; glare, cloth and clutter
    blobs are far thinner or thicker than the typical face blob."""
    return 0.55 * typical <= thickness <= 1.8 * typical


def _join_fragments(found, small: np.ndarray, gains: np.ndarray, typical: float):
    """Join blobs that are pieces of one row of faces split where ink crosses a face.

    Ink that runs from edge to edge of a face (a row of big dots, bamboo bars, a bird)
    cuts the face mask in two, and each piece is a blob whose length is no whole number
    of faces; split on its own, each is cut at a wrong count or lost.  Two blobs are
    pieces of one row when they lie end to end along one axis, are equally thick (the
    face height) and the gap between them, at most about a face wide, is not table: a
    face crossed by ink differs from the table beside the row, while the gap between two
    separate groups is the table itself.  A joined row is refitted as one blob.  Two blobs
    each a whole face long, further apart than a stroke, are tiles set apart in a line whose
    bodies, seen by the camera, fill the gap between them, not pieces (:func:`_fragment_link`)."""
    if len(found) < 2:
        return found
    parent = list(range(len(found)))

    def root(i):
        while parent[i] != i:
            i = parent[i]
        return i

    geo = []
    for _, q, a, b in found:
        geo.append((q.mean(axis=0), (q[1] - q[0]) / max(a, 1e-3), a, b))
    for i in range(len(found)):
        for j in range(i + 1, len(found)):
            link = _fragment_link(geo[i], geo[j], typical)
            if link is None:
                continue
            if not _table_between(small, gains, *link):
                parent[root(j)] = root(i)
    groups: dict[int, list[int]] = {}
    for i in range(len(found)):
        groups.setdefault(root(i), []).append(i)
    out, joined = [], []  # the blobs, and which of them are joined rows
    for members in groups.values():
        if len(members) == 1:
            out.append(found[members[0]])
            joined.append(False)
            continue
        pts = np.concatenate([found[k][0] for k in members])
        quad = fit_quad(pts, faces=True)
        a, b = quad_sides(quad)
        if not _face_thick(min(a, b), typical):
            out.extend(found[k] for k in members)
            joined.extend([False] * len(members))
            continue
        out.append((cv2.convexHull(pts), quad, a, b))
        joined.append(True)
    # a scrap of an inked face too thin to link (a stick's gap, a dot's edge) that lies inside a
    # joined row is a piece of it, not a tile of its own
    rows = [blob[1] for blob, j in zip(out, joined) if j]
    return [blob for blob, j in zip(out, joined) if j or not any(point_in_quad(blob[1].mean(axis=0), row) for row in rows)]


def _fragment_link(gi, gj, typical: float):
    """(gap centre, axis, gap length, thickness) when two blobs lie end to end, equally thick,
    and may be pieces of one row; else None. Two blobs each ``ASPECT_MIN`` to ``APART_LONG``
    times as long as thick (a whole face) more than ``APART_GAP`` of their thickness apart are
    no pieces: ink cuts a face into pieces shorter than a face, and a row at a stroke's width
    (real-photo scene 108 with camera bodies: three flowers set apart, 0.41 and 0.63 of their
    thickness apart, their bodies between them, were joined and cut in five)."""
    ci, ui, ai, bi = gi
    cj, uj, aj, bj = gj
    d = cj - ci
    dist = float(np.linalg.norm(d))
    if dist < 1e-3:
        return None
    u = d / dist
    ext = []
    for side, a, b in ((ui, ai, bi), (uj, aj, bj)):
        c = abs(float(np.dot(side, u)))
        if c >= math.cos(math.radians(10)):
            ext.append((a, b))      # this blob's TL-TR side runs along the link
        elif c <= math.sin(math.radians(10)):
            ext.append((b, a))
        else:
            return None
    (li, ti), (lj, tj) = ext
    if max(ti, tj) > 1.25 * min(ti, tj) or min(ti, tj) < 0.75 * typical:
        return None
    thick = (ti + tj) / 2
    gap = dist - (li + lj) / 2
    if not (-0.3 * thick < gap < 0.8 * thick):
        return None
    if gap > APART_GAP * thick and all(ASPECT_MIN * t <= ln <= APART_LONG * t for ln, t in ((li, ti), (lj, tj))):
        return None  # two whole faces a gap apart: tiles set apart in a line (flowers), not pieces of one
    centre = ci + u * (li / 2 + max(gap, 0.0) / 2)
    return centre, u, max(gap, 0.0), thick


def _table_between(small: np.ndarray, gains: np.ndarray, centre: np.ndarray, u: np.ndarray, gap: float, thick: float) -> bool:
    """Is the gap between two blobs (``gap`` long along ``u``, centred at ``centre``)
    mostly the colour of the table beside it, one face height to either side?

    Colours are compared in Lab of the picture blurred 3x3, converted only in the window
    around the three cells: the same numbers as converting the whole picture."""
    if gap < 2:
        return False   # touching: nothing between them but a seam
    v = np.array([-u[1], u[0]], np.float32)

    def cell(shift):
        c = centre + v * shift
        hu, hv = u * gap / 2, v * thick * 0.35
        return np.float32([c - hu - hv, c + hu - hv, c + hu + hv, c - hu + hv])

    cells = [cell(s) for s in (thick, -thick, 0.0)]
    lab, offset = _blurred_lab_window(small, gains, cells)
    refs = [m for m in (_mean_in(lab, c, offset) for c in cells[:2]) if m is not None]
    if not refs:
        return True
    px = _pixels_in(lab, cells[2], offset=offset)
    if px is None or len(px) == 0:
        return True
    near = np.zeros(len(px), bool)
    for r in refs:
        near |= _lab_distance(px, r) <= 25
    return float(near.mean()) > 0.4


def _blurred_lab_window(small: np.ndarray, gains: np.ndarray, quads: list[np.ndarray]) -> tuple[np.ndarray, np.ndarray]:
    """(``to_lab(cv2.blur(apply_gains(small, gains), (3, 3)))`` cut to the part of the picture the quads cover,
    that window's top-left corner).  The window is blurred with one pixel of the picture
    around it, so its values equal those of the whole blurred picture."""
    h, w = small.shape[:2]
    pts = np.concatenate(quads).astype(np.int32)
    x0, y0 = (int(v) for v in np.clip(pts.min(axis=0), 0, [w - 1, h - 1]))
    x1, y1 = (int(v) for v in np.clip(pts.max(axis=0) + 1, [x0 + 1, y0 + 1], [w, h]))
    mx0, my0, mx1, my1 = max(x0 - 1, 0), max(y0 - 1, 0), min(x1 + 1, w), min(y1 + 1, h)
    blurred = cv2.blur(apply_gains(small[my0:my1, mx0:mx1], gains), (3, 3))
    return to_lab(blurred[y0 - my0:y1 - my0, x0 - mx0:x1 - mx0]), np.array([x0, y0], np.int32)


def _recount(img, gains, runs: list[Run], kept, profiles: dict | None = None, deep_found: list | None = None) -> float:
    """Re-split runs whose tile count disagrees with the photo's own face aspect.

    All tiles of a set have one shape, and in one photo they are foreshortened
    alike, so the median face aspect (width / height) over the photo's runs predicts
    how many tiles a blob of a given length holds.  A run whose count is off by more
    than 15% is split again with the count held near that prediction.  A blob short
    enough to be one lone tile or two touching ones is settled by :func:`_is_pair`, unless the
    first split cut it in three at clear seams (:data:`CLEAR_SEAMS` each): a near row at a steep
    tilt has wider faces than the far melds that set the aspect, and its body's side thickens it.
    Returns the photo's face aspect.  ``profiles``: as in :func:`split_run`; ``deep_found``: as
    in :func:`trim_body_side`, for the lone faces."""
    aspects, weights = [], []
    for r in runs:
        if r.height > 0 and r.pitch > 0:
            aspects.append(r.pitch / r.height)
            # weighted by the run's length in face heights, not by its tile count: a row
            # cut at twice its count (glyph strokes taken for seams) must not outvote the rest
            weights.append(len(r.quads) * r.pitch / r.height)
    if sum(weights) < 3:
        return ASPECT_TYPICAL
    A = _weighted_median(np.asarray(aspects), np.asarray(weights, float))
    rows = _main_rows(runs)
    for i, (quad, ratio, n, seams) in enumerate(kept):
        n_e = ratio / A
        if ratio < 2.2 and (n <= 2 or n_e < 2.5):
            row_axis = _nearest_row_axis(quad, rows)
            if not _is_pair(quad, ratio, n >= 2, A, row_axis):
                # a lone tile's body shows on one or two of its sides, as deep as the camera's
                # tilt makes it (up to a third of its height): each edge is looked at SIDE_DEEP in
                runs[i] = lone_face(trim_body_side(img, quad, depth_share=SIDE_DEEP, deep_found=deep_found), row_axis)
                continue
            if n_e < 2.5:
                if n == 3 and seams >= CLEAR_SEAMS * (n - 1):
                    continue  # three faces whose two seams show clearly, wider than the photo's typical face
                if n != 2:  # the range makes split_run cut a pair, at its seam or in the middle
                    quads, axis, pitch, height, _ = split_run(img, gains, quad, (2, 2), profiles)
                    runs[i] = Run(quads=quads, kind="face", axis=axis, pitch=pitch, height=height)
                continue
        if n_e < 2.5 and abs(n - n_e) <= 0.6:
            continue
        lo, hi = max(2, int(math.floor(n_e * 0.87))), max(2, int(math.ceil(n_e * 1.13)))
        quads, axis, pitch, height, _ = split_run(img, gains, quad, (lo, hi), profiles, n_e)
        runs[i] = Run(quads=quads, kind="face", axis=axis, pitch=pitch, height=height)
    return A


def _main_rows(runs: list[Run]) -> list[Run]:
    """Runs of 3+ tiles that lie along the photo's main direction (within 30 degrees of the
    rows holding most of the tiles): a lone tile whose ink was cut into "tiles" lies across."""
    rows = [r for r in runs if len(r.quads) >= 3]
    total = sum(len(r.quads) for r in rows)
    cos30 = math.cos(math.radians(30))
    return [r for r in rows
            if 2 * sum(len(o.quads) for o in rows if abs(float(np.dot(r.axis, o.axis))) > cos30) > total]


def _nearest_row_axis(quad: np.ndarray, rows: list[Run]) -> np.ndarray | None:
    """Unit axis of the row (a run of 3+ tiles) whose nearest face is closest to ``quad``."""
    if not rows:
        return None
    c = centre(quad)
    dist = [min(float(np.linalg.norm(centre(q) - c)) for q in r.quads) for r in rows]
    return rows[int(np.argmin(dist))].axis


def _is_pair(quad: np.ndarray, ratio: float, seams: bool, A: float, row_axis: np.ndarray | None) -> bool:
    """Is a short blob two touching faces rather than one lone tile?

    Its length cannot tell: a lone tile looks 1/A long plus its body's visible side,
    two touching faces 2A, and the two meet near A = 0.7.  The seam between two faces
    can be faint or hidden.  But the tiles of one table lie the same way round, so a
    pair runs along the nearby rows and a lone tile's length runs across them.  Only
    when there is no row, or the blob lies diagonally to it, do length and seam decide.
    """
    if row_axis is not None:
        a, b = quad_sides(quad)
        long_side = (quad[1] - quad[0]) if a >= b else (quad[2] - quad[1])
        along = abs(float(np.dot(long_side / (np.linalg.norm(long_side) + 1e-6), row_axis)))
        if along > math.cos(math.radians(30)):
            return ratio > 1.5 * A  # else too short for two faces: a lone tile seen almost square
        if along < math.cos(math.radians(60)):
            return False
    if seams:
        return True
    if 0.9 <= ratio * A <= 1.35:
        return False  # a lone tile fits (its body's side adds up to a third) and no seam says two
    return abs(math.log(ratio / (2 * A))) < abs(math.log(ratio * A))




def link_rows(runs: list[Run]) -> list[Run]:
    """Join runs that continue each other into rows (see :func:`vision.group.clusters`) and
    add a probe cell beyond each end of every row (for face-down kong ends)."""
    from .group import clusters

    tiles = [{"quad": q, "run": i} for i, r in enumerate(runs) for q in r.quads]
    rows = []
    for cl in clusters(tiles):
        quads = [t["quad"] for t in cl]
        src = runs[cl[0]["run"]]
        cs = [np.asarray(q, np.float32).mean(axis=0) for q in quads]
        if len(quads) >= 2:
            v_end, v_start = cs[-1] - cs[-2], cs[0] - cs[1]
        else:
            q = np.asarray(quads[0], np.float32)
            v_end = ((q[1] - q[0]) + (q[2] - q[3])) / 2
            v_start = -v_end
        probes = [(0, np.asarray(quads[0], np.float32) + v_start), (1, np.asarray(quads[-1], np.float32) + v_end)]
        axis = cs[-1] - cs[0] if len(cs) > 1 else v_end
        axis = axis / (np.linalg.norm(axis) + 1e-6)
        heights = [float(np.linalg.norm(np.asarray(q)[3] - np.asarray(q)[0])) for q in quads]
        rows.append(Run(quads=quads, kind="face", axis=axis, pitch=float(np.linalg.norm(v_end)),
                        height=small_median(heights) if heights else src.height, probes=probes))
    return rows


KONG_RUN = (3.0, 5.5)  # a face-down run this many tile widths long is a concealed kong's four ...
KONG_SHAPE = 2.6       # ... as is a shorter one (by the nearby faces' width) this many times as long as thick
BACK_DISTANCE = 38.0  # a face-down tile's colour lies at least this far from every table colour
OUTLINE_MIN = 25.0   # a tile's outline: a Sobel step of the blurred lightness at least this strong ...
OUTLINE_GAIN = 3.0   # ... and this many times the mean gradient inside the cell (a table's own texture)


def _outlined(img: np.ndarray, quad: np.ndarray, toward: np.ndarray) -> bool:
    """Does a tile's outline frame the cell ``quad`` (in ``img`` px)?

    A face-down tile in the table's own colour (green backs on green felt) cannot be told from
    the table by colour, but its edges show: its bevel and the body's side step the lightness
    all along the cell's sides, while bare table is as smooth there as inside (felt), or as
    busy (a bamboo mat's slats, wood grain).  The side facing ``toward`` (the neighbouring
    faces, which make an edge of their own) is not counted; two of the other three must
    show a step of :data:`OUTLINE_MIN` and :data:`OUTLINE_GAIN` times the cell's inside."""
    W, H, M = 40, 54, 12  # the cell rectified to W x H px, with a margin of M px round it
    q = np.asarray(quad, np.float32)
    dst = np.float32([[M, M], [M + W, M], [M + W, M + H], [M, M + H]])
    Hm = cv2.getPerspectiveTransform(q, dst)
    warp = cv2.warpPerspective(img, Hm, (W + 2 * M, H + 2 * M), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    light = cv2.GaussianBlur(cv2.cvtColor(warp, cv2.COLOR_BGR2LAB)[..., 0].astype(np.float32), (3, 3), 0)
    gx, gy = np.abs(cv2.Sobel(light, cv2.CV_32F, 1, 0)), np.abs(cv2.Sobel(light, cv2.CV_32F, 0, 1))
    inside = float(np.hypot(gx, gy)[M + 6:M + H - 6, M + 6:M + W - 6].mean())
    px, py = cv2.perspectiveTransform(np.float32([[toward]]), Hm)[0, 0]
    # the strongest step across each side, within 3-4 px of it, averaged along the side
    sides = [(gx[M + 4:M + H - 4, M - 3:M + 4].max(axis=1).mean(), px < M),
             (gx[M + 4:M + H - 4, M + W - 4:M + W + 3].max(axis=1).mean(), px > M + W),
             (gy[M - 3:M + 4, M + 4:M + W - 4].max(axis=0).mean(), py < M),
             (gy[M + H - 4:M + H + 3, M + 4:M + W - 4].max(axis=0).mean(), py > M + H)]
    need = max(OUTLINE_MIN, OUTLINE_GAIN * inside)
    return sum(float(v) >= need for v, facing in sides if not facing) >= 2


def _near_faces(faces: np.ndarray, face_h: float) -> np.ndarray:
    """The face mask ``faces`` grown by 30% of the face height ``face_h`` (px of that mask): what
    the table's colour is measured outside of."""
    grow = max(3, int(face_h * 0.3))
    return cv2.dilate(faces, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * grow + 1, 2 * grow + 1)))


def _back_colours(small: np.ndarray, gains: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(``small`` white-balanced by ``gains`` at half size, float BGR; the same as Lab): the
    picture :func:`_find_backs` looks for face-down tiles in."""
    half = cv2.resize(apply_gains(small, gains), (max(1, small.shape[1] // 2), max(1, small.shape[0] // 2)),
                      interpolation=cv2.INTER_AREA)
    return half, to_lab(half)


def _find_backs(small: np.ndarray, gains: np.ndarray, faces: np.ndarray, face_h: float, runs: list[Run], f: float,
                aspect: float = ASPECT_TYPICAL, table: list | None = None, pale_mask: np.ndarray | None = None,
                colours: tuple[np.ndarray, np.ndarray] | None = None) -> list[Run]:
    """Runs of face-down tiles: blobs of a colour far from the table, cut at the face pitch.

    Works at half the detection size: face-down tiles are as big as faces, and colour
    needs no fine detail. ``table``: the table's colours where the whole photo's were measured
    already (:func:`photo_balance`), else those of ``small`` outside the faces. ``colours``:
    :func:`_back_colours` of ``small`` and ``gains``, where already made."""
    half, lab = colours or _back_colours(small, gains)
    faces = cv2.resize(faces, (half.shape[1], half.shape[0]), interpolation=cv2.INTER_NEAREST)
    to_small = f  # detection-image px of the picture's
    face_h, f = face_h / 2, f / 2
    near_faces = _near_faces(faces, face_h)
    refs = table_colours(lab, near_faces) if table is None else table
    dist = lab_distance(lab, refs)
    # a face-down tile may touch faces (the ends of a concealed kong): keep clear of the faces
    # by a few pixels only, and open away strips thinner than a quarter face (the coloured
    # layer of the face-up tiles' bodies, seen at their sides)
    touch = cv2.dilate(faces, np.ones((5, 5), np.uint8))
    # and clear of every pale pixel (``pale_mask``, the face mask): a face-down tile shows its
    # body's ivory layer on the camera's side, as far from the table's colour as its back
    if pale_mask is not None:
        touch |= cv2.resize(pale_mask, (half.shape[1], half.shape[0]), interpolation=cv2.INTER_AREA)
    cand = ((dist > BACK_DISTANCE) & (touch == 0)).astype(np.uint8) * 255
    k = max(5, int(face_h * 0.25)) | 1
    cand = _opened(cand, k)
    contours, _ = cv2.findContours(cand, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    face_area = face_h * face_h * ASPECT_TYPICAL
    # a blob too big for face-down tiles: a lit or shaded patch of the table, far from its
    # commonest colour too, has run into them; face-down tiles lie much further from the
    # table than its own light does, so the blob is cut again, once, at the colour distance
    # that best parts its pixels in two (Otsu); its parts are looked at after the other blobs
    too_big = [cv2.contourArea(c) > face_area * 8 for c in contours]
    contours = ([c for c, big in zip(contours, too_big) if not big]
                + [p for c, big in zip(contours, too_big) if big for p in _stricter_parts(c, dist, k)])
    for c in contours:
        area = cv2.contourArea(c)
        if area < face_area * 0.45 or area > face_area * 8:
            continue
        quad = fit_quad(c)
        qa = abs(cv2.contourArea(quad.reshape(-1, 1, 2)))
        if qa <= 0 or area / qa < 0.75:
            continue
        a, b = quad_sides(quad)
        short, long_ = min(a, b), max(a, b)
        if b > a:
            quad = turned_quad(quad, 1)
        # foreshortening changes across a tilted photo, so the faces nearest the blob lying
        # the same way give the local face height and aspect
        h_loc, a_loc = _local_face_shape(runs, quad / f, quad[1] - quad[0], face_h / f, aspect)
        h_loc *= f
        if not (0.6 * h_loc < short < 1.5 * h_loc):
            continue
        # the tile width, two ways: the nearest faces' width (their row runs the same way,
        # so it is foreshortened alike, but they may lie nearer or farther) and the blob's
        # own thickness times their aspect (same depth, but thickness is foreshortened
        # more where the table recedes); count with the geometric mean, less the body's
        # side that may lengthen the blob at one end
        width = math.sqrt(h_loc * a_loc * min(short, h_loc) * a_loc)
        raw = (long_ - 0.15 * h_loc) / width
        # a hand shows face-down tiles only as a concealed kong: one at each end of its
        # faces, or all four; a run of three to five and a half tiles is that kong's four.
        # Where the nearest faces lie nearer the camera than the run, they overstate the
        # width and a four reads as under three; its own shape still says four (two
        # backs side by side are at most about twice as long as thick)
        four = KONG_RUN[0] <= raw <= KONG_RUN[1] or (raw <= KONG_RUN[1] and long_ >= KONG_SHAPE * short)
        n = 4 if four else max(1, int(round(raw)))
        if n == 1:
            quads = [np.array([quad[1], quad[2], quad[3], quad[0]], np.float32)] if long_ > short * 1.05 else [quad]
        else:
            quads = []
            dst = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
            Hinv = np.linalg.inv(cv2.getPerspectiveTransform(quad.astype(np.float32), dst))
            for i in range(n):
                cell = np.float32([[i / n, 0], [(i + 1) / n, 0], [(i + 1) / n, 1], [i / n, 1]]).reshape(-1, 1, 2)
                quads.append(cv2.perspectiveTransform(cell, Hinv).reshape(4, 2))
        axis = quad[1] - quad[0]
        out.append(Run(quads=[q / f for q in quads], kind="back", axis=axis / (np.linalg.norm(axis) + 1e-6),
                       pitch=long_ / n / f, height=short / f))
    # probes of face runs: keep a cell beyond an end whose colour differs from the table
    # around it (see _probe_off_table) and is not a face (``lab``: the half-size picture's, above).
    # Beyond a lone pair of faces, a cell in the table's colour that a tile's outline frames is
    # kept apart as a pair probe: a concealed kong's backs can have the table's colour, and its
    # two ends come together
    for r in runs:
        keep, pair, lost = [], [], []
        for end, q in r.probes:
            step = q - (np.asarray(r.quads[0] if end == 0 else r.quads[-1], np.float32))
            inner = _mean_in(lab, q * f)
            if inner is None:
                continue
            chroma = float(np.hypot(inner[1] - 128, inner[2] - 128))
            if inner[0] > 200 and chroma < 12:
                continue  # a face
            if _probe_off_table(lab, inner, q, step, f):
                keep.append((end, q))
            elif len(r.quads) == 2 and _outlined(small, q * to_small, np.mean(r.quads, axis=0).mean(axis=0) * to_small):
                pair.append((end, q))
            elif _probe_off_table(lab, inner, q, step, f, beside_only=True):
                lost.append((end, q))
        r.probes = keep
        r.pair_probes = pair if len(keep) + len(pair) == 2 else []
        r.face_probes = lost
    return out


def _stricter_parts(contour: np.ndarray, dist: np.ndarray, k: int) -> list[np.ndarray]:
    """The parts of a blob (``contour`` in ``dist``'s px) lying further from the table colours
    than the Otsu threshold of the blob's own colour distances (when that is stricter than the
    first cut), opened by a ``k`` px disc like the first cut."""
    x, y, w, h = cv2.boundingRect(contour)
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [(contour - np.int32([x, y])).astype(np.int32)], -1, 255, -1)
    d = np.clip(dist[y:y + h, x:x + w], 0, 255).astype(np.uint8)
    t, _ = cv2.threshold(d[inside > 0].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if t <= BACK_DISTANCE:
        return []
    part = ((d > t) & (inside > 0)).astype(np.uint8) * 255
    part = _opened(part, k)
    found, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [(c + np.int32([x, y])).astype(np.int32) for c in found]


def _kongs_from_ends(runs: list[Run], backs: list[Run], small: np.ndarray, gains: np.ndarray, mask: np.ndarray, f: float):
    """Complete concealed kongs shown as face-down end, two faces, face-down end.

    The two faces between the ends are often cut wrongly (ink crossing them, the pale
    side of a face-down end joined to their blob), which loses the whole meld.  A lone
    face-down tile (found by colour) whose next two cells along its width are faces
    and whose third cell has its own back colour is such a kong: all four tiles have
    one size, so the cells are the face-down tile's outline stepped by the nearby faces'
    width (its own blob keeps clear of the faces and falls short of it; by a third of the
    distance between the ends when the far end was found too).
    The faces and probes found there before are replaced by the stepped cells, unless
    a row of faces runs on through them (then the tile is no kong's end)."""
    if not any(len(b.quads) == 1 for b in backs):
        return [r for r in runs if r.quads], backs  # no lone face-down tile: no kong end to start from
    lab = balanced_lab(gains)  # converted under each quad read only

    used: set[int] = set()       # face-down tiles settled (a kong's start or far end)
    consumed: set[int] = set()   # far ends, replaced by the stepped cell
    new_runs: list[Run] = []
    for bi, b in enumerate(backs):
        if len(b.quads) != 1 or bi in used:
            continue
        q = np.asarray(b.quads[0], np.float32)
        own = _mean_in(small, _scaled(q, 0.6) * f, convert=lab)
        if own is None:
            continue
        best = None
        for side in (((q[1] - q[0]) + (q[2] - q[3])) / 2, ((q[3] - q[0]) + (q[2] - q[1])) / 2):
            for sign in (1.0, -1.0):
                step = side * sign
                cells = [q + step * k for k in (1, 2, 3)]
                share = [_mean_in(mask, _scaled(c, k) * f, convert=_is_set_pixel) for c, k in zip(cells, (0.8, 0.8, 0.6))]
                far_lab = _mean_in(small, _scaled(cells[2], 0.6) * f, convert=lab)
                if any(v is None for v in share) or far_lab is None:
                    continue
                if share[0][0] < 0.3 or share[1][0] < 0.3 or share[2][0] > 0.2:
                    continue
                d = _lab_distance(own, far_lab)
                if d < 20 and (best is None or d < best[0]):
                    best = (d, step, cells)
        if best is None:
            continue
        _, step, cells = best
        if abs(float(np.dot(q[1] - q[0], step))) < abs(float(np.dot(q[3] - q[0], step))):
            q = turned_quad(q, 1)
            cells = [turned_quad(c, 1) for c in cells]
        far = [bj for bj in _blobs_at(backs, cells[2]) if bj != bi]
        far_quad = cells[2]
        if far:
            # the far end found too: the kong's pitch is a third of the distance between
            # the ends, which is surer than one tile's outline (its body's side included)
            c2 = cells[2].mean(axis=0)
            far_quad = min((np.asarray(x, np.float32) for bj in far for x in backs[bj].quads),
                           key=lambda x: float(np.linalg.norm(x.mean(axis=0) - c2)))
            step = (far_quad.mean(axis=0) - q.mean(axis=0)) / 3
            cells = [q + step * k for k in (1, 2, 3)]
        # a kong's tiles are as wide as the faces nearby (a table pattern's square is not)
        h_loc, a_loc = _local_face_shape(runs, q, step, 0.0, 0.0)
        if h_loc > 0 and not (0.7 < float(np.linalg.norm(step)) / (h_loc * a_loc) < 1.4):
            continue
        if not far and h_loc > 0:
            # the face-down tile's blob keeps clear of the faces beside it, so its own width
            # falls short of the pitch by that margin, three times over at the far end: step
            # by the nearby faces' width
            step = step / float(np.linalg.norm(step)) * (h_loc * a_loc)
            cells = [q + step * k for k in (1, 2, 3)]
            far_quad = cells[2]
        region = _scaled(np.array([q[0], cells[2][1], cells[2][2], q[3]], np.float32), 1.02)
        inside = [[point_in_quad(np.asarray(x).mean(axis=0), region) for x in r.quads] for r in runs]
        if any(any(v) and not all(v) for v in inside):
            continue  # a row of faces runs through: the kong's faces would be a group of their own
        used.update(far + [bi])
        consumed.update(far)
        axis = step / (np.linalg.norm(step) + 1e-6)
        pair = [r for r, v in zip(runs, inside) if any(v)]
        def outside(cells):
            return [(e, x) for e, x in cells if not point_in_quad(np.asarray(x).mean(axis=0), region)]

        for r in runs:
            r.probes, r.pair_probes, r.face_probes = outside(r.probes), outside(r.pair_probes), outside(r.face_probes)
        if len(pair) == 1 and len(pair[0].quads) == 2 and all(_same_shape(x, q) or _same_shape(x, turned_quad(q, 2))
                                                              for x in pair[0].quads):
            # its two faces were found as they are (the face-down tile's shape: the four tiles
            # of a kong look alike): their own outlines are surer than the stepped cells, so
            # the ends are the faces' outlines stepped by their pitch
            near, far_face = sorted((np.asarray(x, np.float32) for x in pair[0].quads), key=lambda x: float(x.mean(axis=0) @ axis))
            pv = far_face.mean(axis=0) - near.mean(axis=0)
            consumed.add(bi)
            for end in (near - pv, far_face + pv):
                consumed.update(_blobs_at(backs, end))
                new_runs.append(Run(quads=[end], kind="back", axis=axis, pitch=float(np.linalg.norm(pv)),
                                    height=pair[0].height))
            continue
        for r in runs:
            r.quads = [x for x in r.quads if not point_in_quad(np.asarray(x).mean(axis=0), region)]
        pitch, height = float(np.linalg.norm(step)), float(np.linalg.norm(q[3] - q[0]))
        b.quads = [q]
        new_runs.append(Run(quads=[cells[0], cells[1]], kind="face", axis=axis, pitch=pitch, height=height))
        new_runs.append(Run(quads=[far_quad], kind="back", axis=axis, pitch=pitch, height=height))
    runs = [r for r in runs if r.quads] + [r for r in new_runs if r.kind == "face"]
    backs = [b for i, b in enumerate(backs) if i not in consumed] + [r for r in new_runs if r.kind == "back"]
    return runs, backs


OUTLINED_CELL_AREA = (0.45, 1.4)  # a cell framed by edges: this many local face areas ...
OUTLINED_CELL_FILL = 0.8          # ... filling this much of its bounding rectangle ...
OUTLINED_CELL_SIDES = 0.65        # ... and each side within this factor of the local face's
SAME_BACK = 10.0                  # neighbouring cells within this colour distance are the same face-down tile's colour
PITCH_NEAR = (0.85, 1.35)         # another framed cell one tile along, or a face's width, within these shares of
#                                   a framed cell's width is the kong's pitch ...
PITCH_FAR = (0.7, 1.5)            # ... and within these, the pitch tried after the cell's own width
KONG_REACH = 3                    # cells looked at to either side of a framed cell
_KERNEL_5 = np.ones((5, 5), np.uint8)


def _edge_regions(small: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(labels, stats) of the regions of ``small`` that its edges part (4-connected), as
    ``cv2.connectedComponentsWithStats`` gives them: the cells :func:`_framed_cells` looks at."""
    light = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (3, 3), 0)
    edges = cv2.dilate(cv2.Canny(light, 10, 30), np.ones((2, 2), np.uint8))
    _, labels, stats, _ = cv2.connectedComponentsWithStats((edges == 0).astype(np.uint8), connectivity=4)
    return labels, stats


def _outline_picture(small: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """(``small`` at half size, its :func:`_edge_regions`): what :func:`_outlined_kongs` looks at."""
    half = cv2.resize(small, (max(1, small.shape[1] // 2), max(1, small.shape[0] // 2)), interpolation=cv2.INTER_AREA)
    return half, _edge_regions(half)


def _framed_cells(small: np.ndarray, covered: np.ndarray, face_h: float, aspect: float,
                  regions: tuple[np.ndarray, np.ndarray] | None = None) -> list[np.ndarray]:
    """Tile-sized cells of ``small`` that edges frame all round and that no found tile covers.

    A face-down tile in the table's own colour (green backs on green felt) has no colour of its
    own to find it by, but its outline, the seams between the tiles of a kong and the body's
    pale side are edges; a plain table has none at that size. Returns rotated rectangles
    (4 x 2 corners clockwise, in ``small``'s px) whose area, fill and sides fit a face
    ``face_h`` px high with the width / height ``aspect``. ``regions``: :func:`_edge_regions` of
    ``small``, where already made."""
    labels, stats = _edge_regions(small) if regions is None else regions
    face_area = face_h * face_h * aspect
    area = stats[:, cv2.CC_STAT_AREA]
    out = []
    for i in np.flatnonzero((area >= OUTLINED_CELL_AREA[0] * face_area) & (area <= OUTLINED_CELL_AREA[1] * face_area)):
        if i == 0:
            continue
        x, y, w, h = stats[i, :4]
        comp = (labels[y:y + h, x:x + w] == i).astype(np.uint8)
        if cv2.countNonZero(covered[y:y + h, x:x + w] & comp) > 0.05 * area[i]:
            continue
        # out to the middle of the edges round it (they are about four px thick), so that the
        # cell is the tile's outline and steps by its pitch
        comp = cv2.dilate(cv2.copyMakeBorder(comp, 2, 2, 2, 2, cv2.BORDER_CONSTANT, value=0), _KERNEL_5)
        contours, _ = cv2.findContours(comp, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        rect = cv2.minAreaRect(max(contours, key=cv2.contourArea) + np.int32([x - 2, y - 2]))
        short, long_ = sorted(rect[1])
        if short <= 0 or cv2.countNonZero(comp) < OUTLINED_CELL_FILL * short * long_:
            continue
        k = OUTLINED_CELL_SIDES
        if k * face_h * aspect <= short <= face_h * aspect / k and k * face_h <= long_ <= face_h / k:
            out.append(order_quad(cv2.boxPoints(rect)))
    return out


def _pitches(cell: np.ndarray, step: np.ndarray, centres: list[np.ndarray], found: list[Run], face_h: float,
             aspect: float, f: float) -> list[float]:
    """The distances from one tile of a kong to the next to try, likeliest first, for a framed
    ``cell`` (half-size px) whose width is ``step``. A framed cell's own width can miss the pitch
    either way: the edges eat into it, or a weak edge (a green back's against green felt) lets it
    take in a strip of the table or the body's side beyond it (development scene 738 with camera
    bodies: 23.5 px against a pitch of 20.7, so the fourth cell stepped a quarter off its tile).
    So: the nearest other framed cell one tile along (``centres``: the framed cells'
    :func:`centre`), else the width of the nearest face lying the same way
    (:func:`_local_face_shape`; ``found`` and ``face_h`` in ``img`` px, ``f`` the half-size scale)
    where it is within ``PITCH_NEAR`` of the cell's width, else the cell's width; then the face's
    width if it is further off but within ``PITCH_FAR`` (a second try)."""
    width = float(np.linalg.norm(step))
    u = step / width
    middle = centre(cell)
    across = np.array([-u[1], u[0]])
    for other in centres:
        d = other - middle
        along = abs(float(d @ u))
        if PITCH_NEAR[0] * width <= along <= PITCH_NEAR[1] * width and abs(float(d @ across)) < 0.3 * width:
            return [along]
    h, a = _local_face_shape(found, cell / f, u, face_h, aspect)
    local = h * a * f
    if PITCH_NEAR[0] * width <= local <= PITCH_NEAR[1] * width:
        return [local]
    return [width, local] if PITCH_FAR[0] * width <= local <= PITCH_FAR[1] * width else [width]


def _outlined_kongs(small: np.ndarray, gains: np.ndarray, found: list[Run], face_h: float, f: float,
                    aspect: float, picture: tuple | None = None) -> tuple[list[Run], set[int]]:
    """Concealed kongs shown all face down in the table's own colour, which :func:`_find_backs`
    cannot tell from the table (development scenes 6 and 125: green backs on green felt and on a
    green checked cloth), with the ``id`` of each face-down run in ``found`` that one took in.

    From each cell that edges frame (:func:`_framed_cells`), cells of its size are stepped across
    it by a kong's pitch (:func:`_pitches`; the second, where there is one, where the first runs
    on other than four), :data:`KONG_REACH` to either side; the neighbours within
    :data:`SAME_BACK` of its colour and covered by no found tile run on with it, and so does a
    neighbour where a face-down run of one or two tiles found before has a tile: the lit part of
    such a kong can stand off the table's colour enough for :func:`_find_backs` while the rest
    does not (real-photo scene 75 with camera bodies: two of four green backs on green felt).
    Exactly four in a row is a kong's four face-down tiles: the table itself runs on further (a
    framed patch of plain felt), and fewer is no kong. ``found``: the runs found so far, in
    ``img`` px (``small`` is ``img`` scaled by ``f``). The classifier still has to read each cell
    as a face-down tile (vision.scan). ``picture``: :func:`_outline_picture` of ``small``, where
    already made."""
    if face_h <= 0:
        return [], set()
    # at half the detection size, as the face-down blobs (:func:`_find_backs`): a tile is still
    # tens of pixels, and the edges cost a quarter
    half, regions = picture or _outline_picture(small)
    face_h, f = face_h / 2, f / 2
    loose = [r for r in found if r.kind == "back" and len(r.quads) <= 2]
    loose_ids = {id(r) for r in loose}
    covered = np.zeros(half.shape[:2], np.uint8)
    for r in found:
        if id(r) not in loose_ids:  # a loose face-down run may be part of a kong
            for q in r.quads:
                cv2.fillConvexPoly(covered, np.round(np.asarray(q, np.float32) * f).astype(np.int32), 1)
    loose_half = [Run(quads=[np.asarray(q, np.float32) * f for q in r.quads], kind="back") for r in loose]
    cells = _framed_cells(half, covered, face_h, aspect, regions)
    if not cells:
        return [], set()
    gains = np.asarray(gains, np.float32)

    def colour(q: np.ndarray):
        """The white-balanced Lab colour of the mean inside ``q`` (the middle of it), or None off the
        picture: one pixel converted, not the whole picture (nearly every photo has no such kong)."""
        mean = _mean_in(half, q)
        return None if mean is None else to_lab((mean * gains).reshape(1, 1, 3))[0, 0]

    kongs: list[Run] = []
    taken: list[np.ndarray] = []
    consumed: set[int] = set()
    centres = [centre(c) for c in cells]
    for cell, middle in zip(cells, centres):
        if any(point_in_quad(middle, t) for t in taken):
            continue
        a, b = cell[1] - cell[0], cell[3] - cell[0]
        across = a if np.linalg.norm(a) < np.linalg.norm(b) else b  # across the tile: along a kong
        own = colour(cell)
        if own is None:
            continue

        def run_of_four(step: np.ndarray) -> tuple[list[np.ndarray], set[int]] | None:
            """The four cells stepped by ``step`` that run on in ``own`` colour, with the ids of the
            face-down runs they take in, or None unless exactly four do (KONG_REACH + 1 to either
            side: further than a kong)."""
            took = {id(loose[i]) for i in _blobs_at(loose_half, cell)}

            def same(k: int) -> bool:
                q = cell + step * k
                at = _blobs_at(loose_half, q)
                if at:
                    took.update(id(loose[i]) for i in at)
                    return True
                if covered[tuple(np.clip(np.round(q.mean(axis=0)[::-1]).astype(int), 0,
                                         np.array(covered.shape) - 1))]:
                    return False
                other = colour(q)
                return other is not None and _lab_distance(own, other) <= SAME_BACK

            lo = next((k for k in range(1, KONG_REACH + 2) if not same(-k)), KONG_REACH + 2) - 1
            hi = next((k for k in range(1, KONG_REACH + 2) if not same(k)), KONG_REACH + 2) - 1
            return ([cell + step * k for k in range(-lo, hi + 1)], took) if lo + hi + 1 == 4 else None

        pitches = _pitches(cell, across, centres, found, face_h / f, aspect, f)
        steps = [across * p / float(np.linalg.norm(across)) for p in pitches]
        step, run = next(((st, r) for st in steps if (r := run_of_four(st)) is not None), (None, None))
        if run is None:
            continue
        quads, took = run
        consumed |= took
        taken.extend(quads)
        axis = step / (np.linalg.norm(step) + 1e-6)
        # portrait corners (clockwise, as TL TR BR BL): the long side upright
        quads = [q if np.linalg.norm(q[1] - q[0]) <= np.linalg.norm(q[3] - q[0]) else turned_quad(q, 1)
                 for q in quads]
        height = float(np.linalg.norm(quads[0][3] - quads[0][0]))
        kongs.append(Run(quads=[q / f for q in quads], kind="back", axis=axis,
                         pitch=float(np.linalg.norm(step)) / f, height=height / f))
    return kongs, consumed


def _blobs_at(backs: list[Run], cell: np.ndarray) -> list[int]:
    """Face-down blobs of at most two tiles (a body's side may have cut one tile's blob
    in two) with a tile centred in ``cell`` grown by 30%: that cell's tile, found before."""
    grown = _scaled(cell, 1.3)
    return [i for i, b in enumerate(backs)
            if len(b.quads) <= 2 and any(point_in_quad(centre(np.asarray(x)), grown) for x in b.quads)]


def _same_shape(a: np.ndarray, b: np.ndarray, tol_deg: float = 10.0, tol_len: float = 0.2) -> bool:
    """Do two nearby quads (corners in the same order) have sides of about the same
    directions and lengths?"""
    a, b = np.asarray(a, np.float32), np.asarray(b, np.float32)
    for i in range(4):
        u, v = a[(i + 1) % 4] - a[i], b[(i + 1) % 4] - b[i]
        lu, lv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
        if lu <= 0 or lv <= 0 or abs(lu - lv) > tol_len * max(lu, lv):
            return False
        if float(np.dot(u, v)) / (lu * lv) < math.cos(math.radians(tol_deg)):
            return False
    return True


def point_in_quad(pt, quad) -> bool:
    """Is the point inside (or on) the quad?"""
    return cv2.pointPolygonTest(np.asarray(quad, np.float32).reshape(-1, 1, 2), (float(pt[0]), float(pt[1])), False) >= 0


def _local_face_shape(runs: list[Run], quad: np.ndarray, axis: np.ndarray, face_h: float,
                      aspect: float) -> tuple[float, float]:
    """Height and aspect (width / height) of the face nearest ``quad`` in a run lying
    along ``axis`` (within 20 degrees); the photo's typical ones when there is none.

    A tilted camera foreshortens the far side of the table more than the near side,
    so the nearest face predicts a face-down tile's shape better than the photo's median."""
    axis = axis / (np.linalg.norm(axis) + 1e-6)
    cos20 = math.cos(math.radians(20))
    faces = [q for r in runs if len(r.quads) >= 2 and abs(float(np.dot(r.axis, axis))) >= cos20 for q in r.quads]
    if not faces:
        return face_h, aspect
    q = np.asarray(faces, np.float32)  # N x 4 x 2, all at once: this runs for every face-down blob
    w = (np.linalg.norm(q[:, 1] - q[:, 0], axis=1) + np.linalg.norm(q[:, 2] - q[:, 3], axis=1)) / 2
    h = (np.linalg.norm(q[:, 2] - q[:, 1], axis=1) + np.linalg.norm(q[:, 3] - q[:, 0], axis=1)) / 2
    d = np.linalg.norm(q.mean(axis=1) - np.asarray(quad, np.float32).mean(axis=0), axis=1)
    d[h <= 0] = np.inf
    i = int(np.argmin(d))
    return (float(h[i]), float(w[i] / h[i])) if np.isfinite(d[i]) else (face_h, aspect)


def _lab_distance(a: np.ndarray, b: np.ndarray):
    """:func:`lab_distance` between Lab colours (the last axis): a float for two colours,
    an array for N colours against one."""
    d = np.sqrt(L_WEIGHT * (a[..., 0] - b[..., 0]) ** 2
                + CHROMA_WEIGHT * ((a[..., 1] - b[..., 1]) ** 2 + (a[..., 2] - b[..., 2]) ** 2))
    return float(d) if np.ndim(d) == 0 else d


def _probe_off_table(lab: np.ndarray, inner: np.ndarray, q: np.ndarray, step: np.ndarray, f: float,
                     beside_only: bool = False) -> bool:
    """Does a probe cell (mean colour ``inner``) differ from the local table around it?

    The table is sampled one cell further out along the row and one face height to
    either side of the probe, whatever the light; the probe must differ from each
    sample that is on the image.  The cell further out alone is not enough: it often
    falls on another tile or the table's edge while the probe lies on bare table, and
    the classifier takes a plain table patch for a face-down tile.  On development
    scenes 0..199 every true face-down end differed from all three samples by 30 or
    more, while nine in ten bare-table probes that passed the outer cell alone came
    within 25 of a side sample.  ``beside_only``: the two side samples alone (a face-probe's test)."""
    rise = ((q[3] - q[0]) + (q[2] - q[1])) / 2
    for shift in ((rise, -rise) if beside_only else (step, rise, -rise)):
        table = _mean_in(lab, (q + shift) * f)
        if table is not None and _lab_distance(inner, table) <= 25:
            return False
    return True
