"""The tile's body beside its face: the face mask takes in the ivory layer of a tile's body
where the camera sees its side, and each face's edge is moved in to the step up from that
darker band (a lone face on all four edges, a row's faces along the row), deeper on the side
where the photo shows the tiles' bodies. Part of step 4 of :mod:`vision.detect`."""
from __future__ import annotations

import math

import cv2
import numpy as np

from .quads import Run, centre, quad_sides
from .small_stats import percentiles, row_percentile


SIDE_LOOK = 120     # px: the long side of the rectified quad that a body's side is looked for on
SIDE_DEPTH = 0.16   # a body's side lies within this share of the quad's size from its edge ...
SIDE_DARKER = 0.04  # ... is at least this much darker than the face (share of its lightness) ...
SIDE_STEP, SIDE_STEP_PX = 0.6, 3  # ... and the face's edge climbs this share of the way to half way within this many px
SIDE_DARKER_FAINT, SIDE_STEP_FAINT = 0.025, 0.4  # a faint side, where the photo's sides show (trim_deep_sides) ...
SIDE_PLAIN = 0.95   # ... is plain: along the edge, its lines' 20th percentile at least this share of their 80th (no ink)
INK_CHROMA, INK_LINES = 20.0, 0.1  # ... holding no coloured stroke: this much chroma on part of this share of its lines
SIDE_DEEP = 0.3     # ... or within this share on the side where the photo's tiles show their bodies, and on a lone face
SIDE_AGREE = 0.5    # the cuts' outward directions, averaged, are at least this long: one side for the photo ...
SIDE_AGREE_MIN = 4  # ... from at least this many cut edges
SIDE_FACING = 0.5   # an edge whose outward direction has this cosine with that side's faces it
ROW_EDGES = (0, 2)  # a row's faces are cut along its length only (q0-q1, q2-q3): the seams are split_run's


def _side_cuts(img: np.ndarray, quad: np.ndarray, edges: tuple[int, ...], depth_share: float = SIDE_DEPTH,
               deep_found: list | None = None, faint: bool = False,
               looks: dict | None = None) -> tuple[list[float], np.ndarray | None] | None:
    """How far in the face's edge lies from each of ``quad``'s ``edges`` (0: q0-q1, 1: q1-q2,
    2: q2-q3, 3: q3-q0), as shares of the quad's height (edges 0, 2) or width (1, 3), 0 where no
    body's side shows; with the quad's homography onto the unit square (None where no edge is
    cut).  None for a tiny quad.

    Each edge is looked at on the quad rectified to ``SIDE_LOOK`` px: the lightness profile
    inward (per depth, the 80th percentile along the middle 70% of the edge, so that ink does
    not pass for darkness) against the face's lightness near that edge (the 75th percentile of
    a block further in, so that neither dark ink nor a numeral paler than the face sets it).
    Where the profile 2-3 px inside is ``SIDE_DARKER`` below the face (nearer, the face's own
    bevel darkens it) and climbs half way to the face within ``SIDE_DEPTH`` in one step (most
    of that climb within ``SIDE_STEP_PX``: light falling off across a face climbs slowly), the
    face's edge is where it climbs.  ``depth_share`` replaces ``SIDE_DEPTH``; ``deep_found``
    gets the outward direction of each edge where a side shows looked for ``SIDE_DEEP`` in
    (the same look, another depth: :func:`body_direction`). With ``faint`` (on the edges facing
    the photo's body side: :func:`trim_deep_sides`) a side that fails those tests may also be a
    fainter band (``SIDE_DARKER_FAINT``) that climbs to the face more softly
    (``SIDE_STEP_FAINT``), if the face right beside it is that much lighter than the band's
    median (light falling off across a face makes no such step: development scene 655, a 2m whose
    lower fifth, 2-3% darker, was cut off with its second stroke) and the band is as plain as a
    body's side (:func:`_plainness`, ``SIDE_PLAIN``): a face's own ink near its edge is not. In
    that look no band holding a coloured stroke (:func:`_coloured_ink`) is cut, by either test.
    ``looks``: a dict kept for one picture ``img``, where each rectified face and its profiles
    are kept for the next look at the same quad (a face whose last cut found no side is looked
    at again on the edges facing the photo's body side: :func:`trim_deep_sides`)."""
    a, b = quad_sides(quad)
    if min(a, b) < 8:
        return None
    s = SIDE_LOOK / max(a, b)
    w, h = max(8, int(round(a * s))), max(8, int(round(b * s)))
    corners = quad.astype(np.float32)
    key = (corners.tobytes(), w, h)
    look = looks.get(key) if looks is not None else None
    if look is None:
        H = cv2.getPerspectiveTransform(corners, np.float32([[0, 0], [w, 0], [w, h], [0, h]]))
        flat = cv2.warpPerspective(img, H, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
        look = {"H": H, "flat": flat, "grey": cv2.cvtColor(flat, cv2.COLOR_BGR2GRAY).astype(np.float32)}
        if looks is not None:
            looks[key] = look
    H, flat, grey = look["H"], look["flat"], look["grey"]
    mid_w, mid_h = slice(int(0.15 * w), int(0.85 * w) + 1), slice(int(0.15 * h), int(0.85 * h) + 1)
    # only the profiles the edges asked for are computed (a row's faces: across its length)
    # each kept as numpy gives it and as Python floats (the same float32 values), which the
    # per-edge tests below read one by one
    if {0, 2} & set(edges) and "rows" not in look:
        look["rows"] = row_percentile(grey[:, mid_w], 80)
        look["rows_list"] = look["rows"].tolist()
    if {1, 3} & set(edges) and "cols" not in look:
        look["cols"] = row_percentile(grey[mid_h, :].T, 80)
        look["cols_list"] = look["cols"].tolist()
    rows, cols = look.get("rows"), look.get("cols")
    darker = SIDE_DARKER_FAINT if faint else SIDE_DARKER

    def cuts_within(share: float) -> list[float]:
        dh, dw = max(4, int(round(share * h))), max(4, int(round(share * w)))
        cut = [0.0] * 4
        for e in edges:
            if e == 0:
                prof, values, depth, near = rows, look["rows_list"], dh, grey[dh:2 * dh, mid_w]
            elif e == 1:
                prof, values, depth, near = cols[::-1], look["cols_list"][::-1], dw, grey[mid_h, w - 2 * dw:w - dw]
            elif e == 2:
                prof, values, depth, near = rows[::-1], look["rows_list"][::-1], dh, grey[h - 2 * dh:h - dh, mid_w]
            else:
                prof, values, depth, near = cols, look["cols_list"], dw, grey[mid_h, dw:2 * dw]
            face = float(percentiles(near, (75,))[0])
            band = max(values[2:4])
            if face <= 0 or band > face * (1 - darker):
                continue
            half = (band + face) / 2
            # the first depth from 1 where the profile reaches half way, compared in float32 as numpy compares
            level = float(np.float32(half))
            k = next((i for i in range(1, min(depth + 1, len(values))) if values[i] >= level), 0)
            if not k:
                continue
            climb = prof[k] - prof[max(k - SIDE_STEP_PX, 0)]
            if ((band <= face * (1 - SIDE_DARKER) and climb >= SIDE_STEP * (half - band)) or (
                    faint and climb >= SIDE_STEP_FAINT * (half - band) and k > 3
                    # a step up to the face right beside the band, not light falling off across it
                    and float(np.max(prof[k:k + 8])) - float(np.median(prof[3:k])) >= SIDE_DARKER_FAINT * face
                    and _plainness(grey, e, k, mid_w, mid_h) >= SIDE_PLAIN)) and not (
                    # the deeper look's band holds no coloured stroke (a 1m's, near the edge)
                    faint and _coloured_ink(flat, e, k, mid_w, mid_h)):
                cut[e] = (k - 0.5) / (h if e % 2 == 0 else w)
        return cut

    cut = cuts_within(depth_share)
    if deep_found is not None:
        deep = cut if depth_share == SIDE_DEEP else cuts_within(SIDE_DEEP)
        deep_found.extend(outward(quad, e) for e in edges if deep[e] > 0)
    # the homography onto the unit square only where an edge is cut (most second looks cut none)
    unit = np.float32([[1 / w, 0, 0], [0, 1 / h, 0], [0, 0, 1]]) @ H if any(cut) else None
    return cut, unit


def _edge_band(flat: np.ndarray, e: int, k: int, mid_w: slice, mid_h: slice) -> np.ndarray:
    """The band ``k`` px deep inside edge ``e`` of a rectified face ``flat`` (grey or colour), its
    first pixel (the bevel) left out, as its lines along the edge (one a row), their middle 70%."""
    h, w = flat.shape[:2]
    return [flat[1:k, mid_w], flat[mid_h, w - k:w - 1].swapaxes(0, 1), flat[h - k:h - 1, mid_w],
            flat[mid_h, 1:k].swapaxes(0, 1)][e]


def _coloured_ink(flat: np.ndarray, e: int, k: int, mid_w: slice, mid_h: slice) -> bool:
    """Whether the band ``k`` px deep inside edge ``e`` of a rectified face ``flat`` (BGR) holds a
    coloured stroke: on at least ``INK_LINES`` of its lines along the edge (their middle 70%),
    part of the line is ``INK_CHROMA`` more colourful than the rest (80th against 20th percentile
    of the chroma). A body's side is one colour along the edge, an ivory layer or a coloured
    one, on every line; a stroke covers part of each line it crosses (real-photo camera scene
    54: a 1m's blue stroke near the edge facing the photo's body side, chroma 44-54 on a face of
    17, was cut off with the band by the deeper look and the 1m read 7f)."""
    band = _edge_band(flat, e, k, mid_w, mid_h)
    if band.shape[0] == 0:
        return False
    lab = cv2.cvtColor(np.ascontiguousarray(band), cv2.COLOR_BGR2LAB).astype(np.float32)
    chroma = np.hypot(lab[..., 1] - 128, lab[..., 2] - 128)
    spread = row_percentile(chroma, 80) - row_percentile(chroma, 20)
    return float(np.mean(spread >= INK_CHROMA)) >= INK_LINES


def _plainness(grey: np.ndarray, e: int, k: int, mid_w: slice, mid_h: slice) -> float:
    """How plain the band ``k`` px deep inside edge ``e`` of a rectified face ``grey`` is (its first
    pixel, the bevel, left out): the median, over its lines along the edge (their middle 70%), of
    each line's 20th percentile over its 80th. Near 1 for a body's side (development scene 701:
    0.98-0.99), lower where ink lies (scene 192: a season's character and sun, 0.84)."""
    band = _edge_band(grey, e, k, mid_w, mid_h)
    p20, p80 = row_percentile(band, 20), row_percentile(band, 80)
    return float(np.median(p20 / np.maximum(p80, 1.0)))


def _cut_in(quad: np.ndarray, unit: np.ndarray, cut) -> np.ndarray:
    """``quad`` (mapped onto the unit square by ``unit``) with its edges moved in by ``cut``."""
    top, right, bottom, left = cut
    inner = np.float32([[left, top], [1 - right, top], [1 - right, 1 - bottom], [left, 1 - bottom]])
    return cv2.perspectiveTransform(inner.reshape(-1, 1, 2), np.linalg.inv(unit)).reshape(4, 2).astype(np.float32)


def _outer_end(quad: np.ndarray, neighbour: np.ndarray) -> int:
    """Which of a row's end face's edges across the row (1: q1-q2, 3: q3-q0) is the row's end:
    the one further from its ``neighbour`` face."""
    q, c = np.asarray(quad, np.float32), np.asarray(neighbour, np.float32).mean(axis=0)
    return 1 if np.linalg.norm((q[1] + q[2]) / 2 - c) > np.linalg.norm((q[3] + q[0]) / 2 - c) else 3


def outward(quad: np.ndarray, e: int) -> np.ndarray:
    """The unit vector from ``quad``'s centre out through the middle of its edge ``e``."""
    v = (quad[e] + quad[(e + 1) % 4]) / 2 - centre(quad)
    return v / (math.hypot(float(v[0]), float(v[1])) + 1e-6)


def trim_body_side(img: np.ndarray, quad: np.ndarray, edges: tuple[int, ...] = (0, 1, 2, 3),
                   passes: int = 2, depth_share: float = SIDE_DEPTH, deep_found: list | None = None,
                   faint: bool = False, looks: dict | None = None) -> np.ndarray:
    """A face's ``quad`` with the side of the tile's body cut off its ``edges`` (a lone face:
    all four; a row's faces: ``ROW_EDGES``).

    The layer of a tile's body next to its face is the face's own ivory, so the face mask takes
    it in: a lone tile's blob ran past its face by about 5% of the face's height on development
    scenes, on the one or two sides where the body shows, and the cut then loses the face's far
    corner, where a flower's numeral is.  The side is turned away from the camera and the
    light, so it is a band a few percent darker than the face, evenly along the whole edge, and
    the face's edge is a step up from it (:func:`_side_cuts`).  A lone face is looked at
    ``SIDE_DEEP`` in (:func:`vision.detect._recount`): at a tilt its side can be deeper than ``SIDE_DEPTH``
    (development scene 50 with camera bodies: a flower set aside kept its ivory side, 15-20% of
    its height deep, on its crop).  Looked at twice: a blob that
    took in the body's darker coloured layer as well shows the ivory layer after the first cut.
    ``depth_share``, ``deep_found``, ``faint``, ``looks``: as in :func:`_side_cuts` (``deep_found``
    the first look only)."""
    found = _side_cuts(img, quad, edges, depth_share, deep_found, faint, looks)
    if found is None or not any(found[0]):
        return quad
    trimmed = _cut_in(quad, found[1], found[0])
    if passes <= 1:
        return trimmed
    return trim_body_side(img, trimmed, edges, passes - 1, depth_share=depth_share, faint=faint, looks=looks)


def body_direction(cut_directions: list) -> np.ndarray | None:
    """The side on which a photo's tiles show their bodies, as a unit vector, from the outward
    directions of the face edges, as split, where a side shows looked for ``SIDE_DEEP`` in
    (:func:`_side_cuts`' ``deep_found``); None unless they agree.

    A camera sees every tile's body on the side turned towards it, the same side across a
    photo (it turns by the angle under which the camera sees the table, a few degrees over a
    hand), and the more so the more the camera is tilted: at 35 degrees the ivory layer of a
    tile's body shows for a tenth to a third of the face's height, often deeper than a side is
    looked for on an edge of its own (``SIDE_DEPTH``)."""
    if len(cut_directions) < SIDE_AGREE_MIN:
        return None
    mean = np.mean(np.asarray(cut_directions, np.float32), axis=0)
    n = float(np.linalg.norm(mean))
    return mean / n if n >= SIDE_AGREE else None


def trim_rows(img: np.ndarray, runs: list[Run], deep_found: list | None = None, looks: dict | None = None) -> None:
    """Cut the body's side off the faces of each run of two faces or more (:func:`trim_body_side`
    on the edges :func:`_allowed_edges` gives: a row's long sides, and its ends' outer edges);
    ``deep_found`` and ``looks`` as there."""
    for r in runs:
        qs = r.quads
        if len(qs) >= 2:
            r.quads = [trim_body_side(img, q, _allowed_edges(qs, k), deep_found=deep_found, looks=looks)
                       for k, q in enumerate(qs)]


def _allowed_edges(qs: list[np.ndarray], k: int) -> tuple[int, ...]:
    """The edges of face ``k`` of a run's faces ``qs`` on which its body's side can show: every
    edge of a lone face; a row's long sides, and the outer edge of its end faces."""
    if len(qs) == 1:
        return (0, 1, 2, 3)
    if k not in (0, len(qs) - 1):
        return ROW_EDGES
    return ROW_EDGES + (_outer_end(qs[k], qs[1] if k == 0 else qs[-2]),)


def trim_deep_sides(img: np.ndarray, runs: list[Run], toward: np.ndarray, looks: dict | None = None) -> None:
    """Look again, deeper (``SIDE_DEEP``), for the body's side on the face edges turned
    ``toward`` the photo's body side (:func:`body_direction`): a row's long side and outer end
    that face that way, any side of a lone face that does. Every tile there shows its side, so a
    fainter side counts as well (``faint``, :func:`_side_cuts`): development scene 701 with camera
    bodies (34 degrees), whose ivory sides, lit nearly as the faces, stayed on four faces of its
    long row, 15-20% of their height deep, 2.8-8.3% darker than the face, the darker ones blurred
    into it. ``looks``: as in :func:`_side_cuts` (most faces are looked at as the last cut left
    them)."""
    for r in runs:
        qs = r.quads
        for k, q in enumerate(qs):
            edges = tuple(e for e in _allowed_edges(qs, k) if float(np.dot(outward(q, e), toward)) > SIDE_FACING)
            if edges:
                qs[k] = trim_body_side(img, q, edges, depth_share=SIDE_DEEP, faint=True, looks=looks)


def lone_face(quad: np.ndarray, row_axis: np.ndarray | None) -> Run:
    """One tile from a blob: the face's width runs along the nearby row (tiles of one table
    lie the same way round), or, with no row, across the blob's long side."""
    a, b = quad_sides(quad)
    if row_axis is not None:
        width_first = abs(float(np.dot(quad[1] - quad[0], row_axis))) >= abs(float(np.dot(quad[2] - quad[1], row_axis)))
    else:
        width_first = a <= b
    face = quad if width_first else np.array([quad[1], quad[2], quad[3], quad[0]], np.float32)
    w, h = quad_sides(face)
    axis = face[1] - face[0]
    return Run(quads=[face.astype(np.float32)], kind="face", axis=axis / (np.linalg.norm(axis) + 1e-6), pitch=w, height=h)
