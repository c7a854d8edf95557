"""The face mask and its blobs: whiteness (brightness minus chroma) thresholded by Otsu with a
floor, holes (the faces' ink) filled per component, and the solid, rectangular blobs of it with
their four-corner outlines; a blob that is not a rectangle (a face touching glare) is opened and
cut along strong edges to free the faces. Step 2 of :mod:`vision.detect`."""
from __future__ import annotations

import functools
from collections.abc import Callable

import cv2
import numpy as np

from .outlines import outlined_face_mask
from .quads import fit_quad, quad_sides, squareness
from .white_balance import gain_table

EDGE_LOW, EDGE_HIGH = 30, 70
RECT_FILL = 0.8     # a blob filling this share of its four-corner outline is a rectangle ...
OUTLINE_ASKEW = 0.4  # ... unless its outline is this askew (squareness): no face or row in perspective is so askew
TAIL_FILL = 0.93    # ... but one filling less than this may carry a thin tail, which pulls a corner out:
TAIL_ASKEW = 0.8    # ... askew: the shorter of two opposite sides under this share of the longer;
TAIL_OPEN = 0.1     # opened by a disc this share of its outline's shorter side,
TAIL_KEPT, TAIL_FILLED = 0.9, 0.97  # it is fitted without it where that keeps this much of it and fills its outline this well,
TAIL_SQUARE = 0.85  # ... and the outline comes out square: opposite sides within this share of each other
RAISED_APART = 20  # a raised threshold (raised_threshold) at least this far above the first
WHITENESS_ROWS = 64  # whiteness is worked out this many rows at a time
BLOCK_OPEN, BLOCK_AREA = 0.6, 0.3  # a hull whose gaps, opened by a disc this share of its thickness, keep this
#                                     many thicknesses squared is no bitten row: faces joined to something else


def whiteness(img: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """Brightness minus chroma (float32) of a BGR uint8 image white-balanced by ``gains``:
    high on ivory/white faces, low on felt, wood, backs.  (Each channel is balanced by a
    table lookup after the split: splitting the balanced float image costs far more.)

    Worked out ``WHITENESS_ROWS`` rows at a time, into one output: the same numbers, with the
    five float planes of a band small enough to stay in the processor's cache (a whole
    1008 x 756 picture's planes are 3 MB each), which took its 5.5 calls a scan from about 8.5
    to 6 ms."""
    table = gain_table(gains)
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
    it is found from ``white`` (:func:`mask_threshold`). ``outlines_of``: on a pale table, the
    BGR picture of ``white``, whose faces are then found by their outlines
    (:func:`vision.outlines.outlined_face_mask`, sizes times ``scale``) instead of above the
    threshold, which is still returned."""
    w8 = np.clip(white, 0, 255).astype(np.uint8)
    if t is None:
        t = mask_threshold(w8[::2, ::2].ravel())
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


def otsu_threshold(values: np.ndarray) -> float:
    """Otsu's threshold of uint8 ``values`` (any shape): the level that best parts them in two."""
    t, _ = cv2.threshold(values.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return float(t)


def mask_threshold(sample: np.ndarray) -> float:
    """The whiteness above which a pixel may be a face's, from a ``sample`` of a photo's (uint8
    whiteness, flat: every other pixel of every other row)."""
    t = max(otsu_threshold(sample), 110.0)
    # tiles cover a minority of a photo: on a pale cloth the first split is table vs the
    # rest, so split again among the bright pixels until the bright part is a minority
    for _ in range(3):
        bright = sample[sample > t]
        if bright.size <= 0.3 * sample.size or bright.size < 100:
            break
        t2 = otsu_threshold(bright)
        if t2 <= t + 4:
            break
        t = t2
    return t


def raised_threshold(sample: np.ndarray, t: float) -> float | None:
    """A whiteness threshold above ``t``, for a look that found few faces: where a neutral table
    a little paler than ``t`` (the grey squares of a checked cloth) joins the faces into a few
    blobs. Otsu's split among the pixels of ``sample`` (uint8 whiteness, flat, as
    :func:`mask_threshold` takes it) above ``t`` falls between the table's tail and the faces
    (:func:`mask_threshold` takes that split only where those pixels are a large share of the
    photo), but in a photo lit unevenly it lies among the dimmer faces; the threshold returned
    lies halfway from ``t`` to it (docs/vision.md, "Grey squares just over the threshold").
    None where the split lies within ``RAISED_APART`` of ``t`` or fewer than 100 pixels lie
    above ``t``."""
    bright = sample[sample > t]
    if bright.size < 100:
        return None
    t2 = otsu_threshold(bright)
    if t2 < t + RAISED_APART:
        return None
    return (t + t2) / 2


def rect_blobs(mask: np.ndarray, cut: Callable[[], np.ndarray], min_area: float, min_side: float, choices: list | None = None):
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
        own, x0, y0 = filled_blob(c, pad=1)
        pieces = _pieces(own, lambda: cv2.bitwise_and(own, _pad_window(cut(), x0, y0, own.shape[1], own.shape[0])),
                         area, (x0, y0), min_area, min_side)
        out.extend(pieces)
        if choices is not None:
            row = _rect_from(outline, min_side, bitten=25.0)
            if row is not None and not _holds_a_block(c, row[1]):
                choices.append((row, pieces))
    return out


def _holds_a_block(c, quad: np.ndarray) -> bool:
    """Whether the outline ``quad`` of a blob (contour ``c``) holds, beyond the blob, a block
    too broad to be ink: what is left where the gaps are opened by a disc ``BLOCK_OPEN`` of the
    outline's thickness, at least ``BLOCK_AREA`` of its thickness squared. A row bitten by ink
    lacks strokes, which the disc clears; a pair of faces joined by the lit ivory layer of the
    bodies to the face-down end beside them (a concealed kong, the camera seeing its bodies)
    lacks that end's back, a tile's breadth (real-photo camera scene 337: the outline ran on
    over the back, and the kong was read as a rejected face and two faces)."""
    t = min(quad_sides(quad))
    q = np.round(quad).astype(np.int32)
    x0, y0 = q.min(axis=0) - 1  # the outline's window, a pixel wider: the gaps lie inside the outline
    w, h = q.max(axis=0) - q.min(axis=0) + 3
    gaps = np.zeros((int(h), int(w)), np.uint8)
    cv2.fillConvexPoly(gaps, q - [x0, y0], 255)
    cv2.drawContours(gaps, [c], -1, 0, -1, offset=(-int(x0), -int(y0)))
    k = max(3, int(round(BLOCK_OPEN * t)))
    left = opened_mask(gaps, k)
    return cv2.countNonZero(left) >= BLOCK_AREA * t * t


def opened_mask(mask: np.ndarray, k: int) -> np.ndarray:
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
            got = opened_blobs(src, k, offset, min_area, min_side)
            if got and sum(cv2.contourArea(g[0]) for g in got) > 0.25 * area:
                return got
    return []


def opened_blobs(own: np.ndarray, k: int, offset, min_area: float, min_side: float, bitten: float = 0.0) -> list:
    """The rectangular blobs (:func:`_rect_blob`, with ``bitten``) of a blob's window ``own``
    opened by a ``k`` px disc, in image coordinates (``offset``: the window's top-left corner)."""
    subs, _ = cv2.findContours(opened_mask(own, k), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE, offset=offset)
    got = []
    for sc in subs:
        sa = cv2.contourArea(sc)
        sub = _rect_blob(sc, sa, min_side, bitten) if sa >= min_area else None
        if sub is not None:
            got.append(sub)
    return got


def brightest_part(contour, white: np.ndarray, mask: np.ndarray, cut: Callable[[], np.ndarray], typical: float,
                    min_area: float, min_side: float):
    """The rectangular blobs among the brightest pixels of a blob far thicker than a face.

    Glare on a grey or pale table joins the faces it touches into one bright blob; the faces
    are still the brightest part of it, so the blob's bright pixels are split again (Otsu)."""
    own, x, y = filled_blob(contour)
    h, w = own.shape
    win = white[y:y + h, x:x + w]
    vals = np.clip(win[(own > 0) & (mask[y:y + h, x:x + w] > 0)], 0, 255).astype(np.uint8)  # not the ink
    if vals.size < 100:
        return []
    t = otsu_threshold(vals)
    bright = np.where((own > 0) & (win > t), 255, 0).astype(np.uint8)
    kc = int(typical / 3) | 1  # close the ink of the faces, which is darker than the glare
    bright = cv2.morphologyEx(bright, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (kc, kc)))
    sub = np.zeros(white.shape, np.uint8)
    sub[y:y + h, x:x + w] = cv2.bitwise_and(bright, own)
    sub = cv2.morphologyEx(sub, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    return rect_blobs(sub, functools.cache(lambda: cv2.bitwise_and(sub, cut())), min_area, min_side)


def ink_share(mask: np.ndarray, contour) -> float:
    """Share of a blob's outline area that is not bright: the ink of a tile face.  Only the part
    of the outline inside the photo counts (0.0 for an outline wholly outside it)."""
    inside = filled_within(contour, mask.shape)
    if inside is None:
        return 0.0
    own, win = inside
    area = cv2.countNonZero(own)
    if area == 0:
        return 0.0
    lit = cv2.countNonZero(cv2.bitwise_and(own, mask[win]))
    return 1.0 - lit / area


def filled_within(contour, shape: tuple) -> tuple[np.ndarray, tuple[slice, slice]] | None:
    """``contour`` filled in a window just around it, cut to an image of ``shape`` (h, w): (the
    filled window, the window's (rows, columns) in the image); None where it lies wholly outside."""
    own, x, y = filled_blob(contour)
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


def filled_blob(contour, pad: int = 0) -> tuple[np.ndarray, int, int]:
    """(mask, x0, y0): ``contour`` filled in a window just around it, ``pad`` pixels wider on
    every side, and the window's top-left corner in the image."""
    x, y, w, h = cv2.boundingRect(contour)
    own = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(own, [contour], -1, 255, -1, offset=(pad - x, pad - y))
    return own, x - pad, y - pad


def _dense(poly: np.ndarray) -> np.ndarray:
    """A closed polygon (contour format) with a point at every pixel along its sides."""
    own, x0, y0 = filled_blob(poly, pad=1)
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
    fitted on its hull), or None where it is none: the fit that any ``bitten`` above 0 shares.

    An outline more askew than ``OUTLINE_ASKEW`` (the shorter of two opposite sides under that
    share of the longer) is none either: a row in perspective keeps its opposite sides within
    about half of each other, while a row joined to a patch of glare on the table is fitted
    with one corner out on the glare (development scene 1059 with camera bodies on a cloth, at
    18 degrees: a round lamp patch touching a row's end, fitted at 0.34, and the row's end face
    lost). Such a blob is looked at piece by piece (:func:`rect_blobs`), where the edge-cut mask
    parts the row from the glare."""
    quad = fit_quad(c, faces=True)
    qa = abs(cv2.contourArea(quad.reshape(-1, 1, 2)))
    if qa <= 0 or area / qa > 1.25:
        return None
    if area / qa >= RECT_FILL:
        if squareness(quad) < OUTLINE_ASKEW:
            return None  # a row joined to a patch of glare: looked at piece by piece (rect_blobs)
        if area / qa < TAIL_FILL:
            untailed = _without_tail(c, area, quad)
            if untailed is not None:
                return untailed[0], untailed[1], False
        return c, quad, False
    # not a rectangle: glare, a cloth pattern, a hand... or a bitten face
    hull = cv2.convexHull(c)
    if not bitten or area / qa < 0.5 or cv2.contourArea(hull) / qa < 0.92:
        return None
    c = _dense(hull)
    return c, fit_quad(c, faces=True), True


def _without_tail(c, area: float, quad: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """(contour, quad) of a rectangular blob ``c`` of ``area`` without a thin tail, or None where
    it has none. A tail is a strip thinner than ``TAIL_OPEN`` of the blob's outline (``quad``) along
    one of its sides: the lit ivory layer of a tile's body running on past the face, along the
    face-down tiles beside it (development real-photo scene 388 with camera bodies: a concealed
    kong's two faces between its face-down ends, whose outline reached 150 px down into an end
    along that layer and cut the faces askew; the blob filled 0.81 of it, 0.996 without the tail),
    or a streak of glare. Only an outline that is askew is looked at
    (:func:`vision.quads.squareness` under ``TAIL_ASKEW``: the tail pulls one corner out, and the
    sides beside it part; a long row in perspective may be looked at too, and is kept as it was
    unless its opened outline comes out square). Opened by a disc
    of that width, the blob sheds the tail; it counts as one where the opened blob keeps
    ``TAIL_KEPT`` of the area, fills ``TAIL_FILLED`` of its own outline and that outline is square
    (``TAIL_SQUARE``), as a face or a row of faces is. Ink bitten out of a face's edge stays
    (opening removes what sticks out, not what is missing); a heavily inked face at a row's end,
    whose mask is a thin lattice, would go with the opening, but that row's outline is square
    already and is not looked at (development scene 48: the row's last face lost; scene 390 with
    camera bodies: a meld's corner bitten by ink opened into a notch, and its outline, fitted to
    the notch, came out far from square)."""
    if squareness(quad) >= TAIL_ASKEW:
        return None
    a, b = quad_sides(quad)
    k = max(3, int(round(TAIL_OPEN * min(a, b))) | 1)
    own, x0, y0 = filled_blob(c, pad=1)
    parts, _ = cv2.findContours(opened_mask(own, k), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE, offset=(x0, y0))
    if not parts:
        return None
    part = max(parts, key=cv2.contourArea)
    kept = cv2.contourArea(part)
    if kept < TAIL_KEPT * area:
        return None
    fitted = fit_quad(part, faces=True)
    fa = abs(cv2.contourArea(fitted.reshape(-1, 1, 2)))
    if fa <= 0 or not TAIL_FILLED <= kept / fa <= 1.25 or squareness(fitted) < TAIL_SQUARE:
        return None
    return part, fitted


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
