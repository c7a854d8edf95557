"""A found tile's four corners: the :class:`Run` of touching tiles the detector finds, and the
four-corner outline fitted to a blob of the face mask (lines fitted to its hull's sides, so that
rounded corners and perspective are handled; a row's long sides to their outer edge, which glyphs
reaching a face's edge cannot pull in). Step 3 of :mod:`vision.detect`."""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

ASPECT_MIN, ASPECT_MAX, ASPECT_TYPICAL = 0.5, 1.05, 0.75   # face width / height (foreshortening included)


@dataclass
class Run:
    """A group of touching tiles (possibly one) found as one component."""
    quads: list[np.ndarray]            # each 4x2 float32, TL TR BR BL of a portrait face
    kind: str = "face"                 # "face" (found as white faces) or "back" (found by colour)
    axis: np.ndarray = field(default_factory=lambda: np.zeros(2, np.float32))  # unit vector along the run
    pitch: float = 0.0                 # tile width along the run, px
    height: float = 0.0                # face height, px
    probes: list[tuple[int, np.ndarray]] = field(default_factory=list)  # (end: 0 start / 1 end, quad)
    # probes beyond the ends of a lone pair of faces that look like the table around them: a
    # concealed kong's face-down ends in the table's own colour (green backs on green felt);
    # they count only when both ends of the pair read as face-down (see vision.scan)
    pair_probes: list[tuple[int, np.ndarray]] = field(default_factory=list)
    # probes beyond a row's ends that differ from the table to either side of them but not from
    # the cell further out: a face the row's mask lost, next to another (two heavily inked faces
    # side by side); they count only as a face named surely (see vision.scan)
    face_probes: list[tuple[int, np.ndarray]] = field(default_factory=list)


def centre(quad: np.ndarray) -> np.ndarray:
    """``quad.mean(axis=0)`` of a 4 x 2 quad (the same sums in the same order), without numpy's
    per-call cost of ``mean``, which is most of the work on four points."""
    return (quad[0] + quad[1] + quad[2] + quad[3]) * 0.25


def _line_fit(points: np.ndarray):
    vx, vy, x0, y0 = cv2.fitLine(points.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
    return np.array([vx, vy]), np.array([x0, y0])


def _intersect(l1, l2):
    """Where two (direction, point) lines cross, or None when they are (nearly) parallel.
    Solved by Cramer's rule in plain floats: numpy's 2x2 solver costs more in overhead."""
    (d1, p1), (d2, p2) = l1, l2
    a, b, c, d = float(d1[0]), -float(d2[0]), float(d1[1]), -float(d2[1])
    det = a * d - b * c
    if abs(det) < 1e-6:
        return None
    r = p2 - p1
    t = (float(r[0]) * d - b * float(r[1])) / det
    return p1 + t * d1


_TURNS = [np.array([(i + k) % 4 for i in range(4)]) for k in range(4)]


def turned_quad(q: np.ndarray, k: int) -> np.ndarray:
    """``np.roll(q, -k, axis=0)`` of a quad's four corners: the corner ``k`` first (a new
    array, as ``np.roll`` gives, at a fraction of its cost)."""
    return q[_TURNS[k % 4]]


def order_quad(q: np.ndarray) -> np.ndarray:
    """Order 4 points clockwise (image coordinates) starting from the top-left-most."""
    c = centre(q)
    ang = np.arctan2(q[:, 1] - c[1], q[:, 0] - c[0])
    q = q[np.argsort(ang)]
    start = int(np.argmin(q[:, 0] + q[:, 1]))
    return turned_quad(q, start).astype(np.float32)


def _outer_edge(pts: np.ndarray, s_: np.ndarray, out: np.ndarray, seg: float) -> np.ndarray:
    """Samples of a blob side's outer edge: per piece ``seg`` long along the side, the
    point at the 80th percentile of ``out`` (the distance outward).

    Ink never adds to a face, it only takes away: a glyph that reaches a face's edge
    (bamboo sticks, big dots) bites notches into the mask's outline, and where a row has
    several such faces at one end, a line fitted to every outline point tilts inward
    there; the strip cut from the row is then not rectified and its faces come out
    unequal, so the row is cut at a wrong count.  Per piece, notches are the inner
    part of the points while the margins between them still reach the true edge.  The
    single outermost point is not taken: it belongs to the one tile pushed furthest
    out of line, and a line through such points tilts as badly."""
    bins = np.floor((s_ - s_.min()) / max(seg, 1.0)).astype(np.int32)
    order = np.lexsort((out, bins))
    bins_sorted = bins[order]
    starts = np.flatnonzero(np.concatenate(([True], bins_sorted[1:] != bins_sorted[:-1])))
    counts = np.diff(np.append(starts, len(order)))
    held = counts >= 3
    # per piece of three points or more, its point int(0.8 * (count - 1)) places in
    return pts[order[starts[held] + (0.8 * (counts[held] - 1)).astype(np.int64)]]


def _fit_elongated(contour: np.ndarray, rect, faces: bool = False) -> np.ndarray | None:
    """Outline of a long blob (a row): lines fitted to each long side and to each end;
    for ``faces``, the long sides are fitted to their outer edge (:func:`_outer_edge`)."""
    pts = contour.reshape(-1, 2).astype(np.float32)
    (cx, cy), (w, h), ang = rect
    a = math.radians(ang)
    u = np.array([math.cos(a), math.sin(a)], np.float32)
    if h > w:
        u = np.array([-u[1], u[0]], np.float32)
    v = np.array([-u[1], u[0]], np.float32)
    s_, t_ = pts @ u, pts @ v
    smin, smax, tmin, tmax = s_.min(), s_.max(), t_.min(), t_.max()
    L, T = smax - smin, tmax - tmin
    mid = (s_ > smin + 0.1 * L) & (s_ < smax - 0.1 * L)
    tm = (tmin + tmax) / 2
    lines = [None] * 4
    for k, sel, sign in ((0, mid & (t_ < tm), -1), (2, mid & (t_ >= tm), 1)):
        side = pts[sel]
        if faces and len(side) >= 5:
            side = _outer_edge(side, s_[sel], sign * t_[sel], 0.25 * T)
        lines[k] = _line_fit(side) if len(side) >= 5 else None
    if lines[0] is None or lines[2] is None:
        return None
    for k, (end, sign) in ((1, (smax, -1)), (3, (smin, 1))):
        sel = (s_ * sign) < (end * sign + 0.2 * T) if sign > 0 else s_ > end - 0.2 * T
        sel = sel & (t_ > tmin + 0.2 * T) & (t_ < tmax - 0.2 * T)
        ln = _line_fit(pts[sel]) if sel.sum() >= 5 else None
        if ln is None or abs(float(np.dot(ln[0], u))) > 0.5:  # an end must run across the row
            ln = (v.copy(), u * end + v * tm)
        lines[k] = ln
    corners = []
    for i in range(4):
        p = _intersect(lines[(i - 1) % 4], lines[i])
        if p is None:
            return None
        corners.append(p)
    return order_quad(np.array(corners, np.float32))


END_SKEW_DEG, SQUARE_GAIN = 12.0, 0.5


def _angle(d1: np.ndarray, d2: np.ndarray) -> float:
    """Degrees (0-90) between two directions."""
    c = abs(float(np.dot(d1, d2))) / max(1e-9, float(np.linalg.norm(d1) * np.linalg.norm(d2)))
    return math.degrees(math.acos(min(1.0, c)))


def squared_ends(quad: np.ndarray) -> np.ndarray | None:
    """A row's outline with its more oblique end turned to the other end's direction, when
    the two differ by more than END_SKEW_DEG; else None.  Faces bitten by their ink, or one
    tile set askew, can lean an end far over and shear the strip, whose cells then straddle
    two faces; a long row seen at a steep tilt also has ends that differ, by perspective, so
    this is only a second outline to try (see :func:`vision.detect.detect`)."""
    a, b = quad_sides(quad)
    q = turned_quad(quad, 1) if b > a else quad  # q[0]->q[1] along the row
    if max(a, b) < 2.0 * min(a, b):
        return None
    side = q[1] - q[0]
    e1, e3 = q[2] - q[1], q[3] - q[0]  # the two ends
    a1, a3 = _angle(side, e1), _angle(side, e3)
    if abs(a1 - a3) <= END_SKEW_DEG:
        return None
    far = q[3] - q[2]  # the other long side
    # the end leaning further (q1-q2 or q3-q0) is redrawn through its midpoint, parallel to the other
    i, j, d = (1, 2, e3) if a1 < a3 else (0, 3, e1)
    m = (q[i] + q[j]) / 2
    pi, pj = _intersect((d, m), (side, q[0])), _intersect((d, m), (far, q[2]))
    if pi is None or pj is None:
        return None
    out = np.array(q, np.float32)
    out[i], out[j] = pi, pj
    return order_quad(out)


def fit_quad(contour: np.ndarray, faces: bool = False) -> np.ndarray | None:
    """A four-corner outline of a convex-ish blob, robust to rounded corners.

    ``faces``: the blob is of tile faces, whose glyphs can notch its outline (see
    :func:`_outer_edge`); a colour blob of face-down tiles has no ink, and its ragged
    outline is fitted better by all its points."""
    rect = cv2.minAreaRect(contour)
    if min(rect[1]) > 0 and max(rect[1]) / min(rect[1]) > 2.5:
        q = _fit_elongated(contour, rect, faces)
        if q is not None:
            return q
    hull = cv2.convexHull(contour)
    peri = cv2.arcLength(hull, True)
    approx = None
    for eps in (0.01, 0.02, 0.03, 0.045, 0.06, 0.08, 0.1):
        a = cv2.approxPolyDP(hull, eps * peri, True)
        if len(a) == 4:
            approx = a.reshape(4, 2).astype(np.float32)
            break
        if len(a) < 4:
            break
    if approx is None:
        approx = cv2.boxPoints(cv2.minAreaRect(contour)).astype(np.float32)
    approx = order_quad(approx)
    # refine: fit a line to the contour points near each side's middle, intersect neighbours
    pts = contour.reshape(-1, 2).astype(np.float32)
    lines = []
    for i in range(4):
        a, b = approx[i], approx[(i + 1) % 4]
        d = b - a
        L = float(np.linalg.norm(d))
        if L < 4:
            return approx
        d /= L
        nrm = np.array([-d[1], d[0]])
        rel = pts - a
        along = rel @ d
        off = rel @ nrm
        sel = (along > 0.15 * L) & (along < 0.85 * L) & (np.abs(off) < max(2.0, 0.06 * L))
        if sel.sum() < 5:
            lines.append((d, a))
        else:
            lines.append(_line_fit(pts[sel]))
    out = []
    for i in range(4):
        p = _intersect(lines[(i - 1) % 4], lines[i])
        if p is None or np.linalg.norm(p - approx[i]) > 0.25 * peri / 4:
            p = approx[i]
        out.append(p)
    quad = np.array(out, np.float32)
    alt = _chamfered_quad(hull, peri) if faces else None
    if alt is not None:
        hull_area = float(cv2.contourArea(hull))
        pts = hull.reshape(-1, 2).astype(np.float32)
        held = [cv2.intersectConvexConvex(pts, order_quad(x))[0] for x in (quad, alt)]
        if abs(cv2.contourArea(alt.reshape(-1, 1, 2))) <= CORNER_GROWTH * hull_area and \
                held[1] >= held[0] + CORNER_GAIN * hull_area:
            return alt
    return quad


CORNER_GROWTH = 1.35  # a face's hull's four longest sides, extended, make its quad when they are at most
CORNER_GAIN = 0.05    # this much bigger than the hull and hold this much more of it than the fitted quad
CHAMFER_REACH = 0.8   # a bitten corner lies at most this many of its bite's lengths beyond the bite


def _chamfered_quad(hull: np.ndarray, peri: float) -> np.ndarray | None:
    """The quad whose sides are the four longest sides of the hull's outline, or None.

    A glyph across a face's corner (a flower's big corner numeral) bites the corner out of the
    face mask; the hull then has a short side across the bite between two long ones, and the
    four-point fit of the hull keeps the bite's ends as corners, cutting the face diagonally.
    The four long sides, extended, meet where the corner was. Only a bite like a corner's is
    taken: an outline of five sides whose shortest, extended away, gives a corner of 60-120
    degrees at most ``CHAMFER_REACH`` of its own length beyond its middle (a right-angled bite
    of equal legs: half its length)."""
    poly = cv2.approxPolyDP(hull, 0.02 * peri, True).reshape(-1, 2).astype(np.float32)
    if len(poly) != 5:
        return None
    ends = [(poly[i], poly[(i + 1) % 5]) for i in range(5)]
    lengths = [float(np.linalg.norm(b - a)) for a, b in ends]
    j = int(np.argmin(lengths))
    lines = [((b - a) / max(lengths[i], 1e-6), a) for i, (a, b) in enumerate(ends)]
    corner = _intersect(lines[j - 1], lines[(j + 1) % 5])
    if corner is None:
        return None
    if _angle(ends[j - 1][0] - corner, ends[(j + 1) % 5][1] - corner) < 60.0 or \
            float(np.linalg.norm(corner - (ends[j][0] + ends[j][1]) / 2)) > CHAMFER_REACH * lengths[j]:
        return None
    corners = [_intersect(lines[i - 1], lines[i]) for i in range(5) if i != j and (i - 1) % 5 != j] + [corner]
    if any(c is None for c in corners):
        return None
    return order_quad(np.array(corners, np.float32))


def quad_sides(q: np.ndarray) -> tuple[float, float]:
    """Mean lengths of (TL-TR, BR-BL) and (TR-BR, BL-TL), in plain floats (a few hundred
    calls a scan: numpy's per-call cost is most of the work on four points)."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = np.asarray(q, np.float64).tolist()
    hyp = math.hypot
    return (hyp(x1 - x0, y1 - y0) + hyp(x2 - x3, y2 - y3)) / 2, (hyp(x2 - x1, y2 - y1) + hyp(x3 - x0, y3 - y0)) / 2


def squareness(quad: np.ndarray) -> float:
    """The shorter of each two opposite sides of ``quad`` over the longer, the less of the two:
    near 1 for a face or a short row of faces (perspective parts a long row's ends more); a corner
    pulled out makes it less (a thin tail on a face blob: :func:`vision.face_mask._without_tail`)."""
    q = np.asarray(quad, np.float64)
    s = [math.hypot(*(q[(i + 1) % 4] - q[i])) for i in range(4)]
    return min(min(s[0], s[2]) / max(s[0], s[2], 1e-9), min(s[1], s[3]) / max(s[1], s[3], 1e-9))


def scaled_quad(quad: np.ndarray, k: float) -> np.ndarray:
    """A quad shrunk (k < 1) or grown (k > 1) about its centre."""
    c = centre(quad)
    return c + (quad - c) * k


def point_in_quad(pt, quad) -> bool:
    """Is the point inside (or on) the quad?"""
    return cv2.pointPolygonTest(np.asarray(quad, np.float32).reshape(-1, 1, 2), (float(pt[0]), float(pt[1])), False) >= 0
