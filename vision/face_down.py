"""Face-down tiles: blobs of a colour far from the table, cut at the face pitch; a concealed
kong's face-down ends probed beyond a row's ends; and kongs whose backs show only as outlined
cells (a back the colour of the table). Step 5 of :mod:`vision.detect`; the classifier keeps
the candidates it calls ``back``."""
from __future__ import annotations

import math

import cv2
import numpy as np

from .face_mask import opened_mask, otsu_threshold
from .quads import ASPECT_TYPICAL, Run, centre, fit_quad, order_quad, point_in_quad, quad_sides, scaled_quad, turned_quad
from .table_colour import (balanced_lab, colour_distance, is_set_pixel, lab_distance, mean_in, pixels_in, table_colours,
                           to_lab)
from .white_balance import apply_gains

KONG_RUN = (3.0, 5.5)  # a face-down run this many tile widths long is a concealed kong's four ...
KONG_SHAPE = 2.6       # ... as is a shorter one (by the nearby faces' width) this many times as long as thick
KONG_SHORT = 2.5       # ... and one of this many widths up to KONG_RUN[0] is a kong's four with part of it missed (_lengthened)
BACK_DISTANCE = 38.0  # a face-down tile's colour lies at least this far from every table colour
SEAM_CLOSE = 0.12     # seams between face-down tiles up to this share of the face height are closed over
OUTLINE_MIN = 25.0   # a tile's outline: a Sobel step of the blurred lightness at least this strong ...
OUTLINE_GAIN = 3.0   # ... and this many times the mean gradient inside the cell (a table's own texture)
PALE_INK = 0.2          # on a pale table, a cell beyond a row's end with at least this share of ink ...
PALE_INK_BESIDE = 0.1   # ... where the cloth to either side of it has at most this share ...
PALE_INK_CELLS = 3      # ... is a face the outlines lost (a face probe), and so are up to this many cells on from it,
PALE_OVERLAP = 0.1      # ... each lying over found faces by at most this share of its area (not across a gap between two)
INK_DARKER, INK_CHROMA = 0.8, 20.0  # ink: a pixel darker than this share of the cell's 90th percentile of
#                                     lightness, or this far from neutral (Lab chroma)


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


def cell_ink(lab: np.ndarray, quad: np.ndarray) -> float | None:
    """The share of the middle 70% of ``quad`` in the Lab picture ``lab`` that is ink: darker than
    ``INK_DARKER`` of the cell's 90th percentile of lightness, or coloured (``INK_CHROMA``); None
    where too little of it lies on the picture. A face's strokes make it high; a plain cloth, lit
    or shaded, low."""
    px = pixels_in(lab, scaled_quad(np.asarray(quad, np.float32), 0.7), 3)
    if px is None or len(px) < 20:
        return None
    light = px[:, 0]
    chroma = np.hypot(px[:, 1] - 128, px[:, 2] - 128)
    top = float(np.percentile(light, 90))
    return float(np.mean((light < INK_DARKER * top) | (chroma > INK_CHROMA)))


def _inked_cells(lab: np.ndarray, q: np.ndarray, step: np.ndarray, f: float,
                 found: list[np.ndarray] = ()) -> list[np.ndarray]:
    """The cells from ``q`` (a probe beyond a row's end, ``img`` px; ``lab`` at scale ``f``) on,
    ``step`` apart, that hold ink (``PALE_INK``) where the cloth beside them holds next to none
    (``PALE_INK_BESIDE``) and that lie over the ``found`` faces (``img`` px) by at most
    ``PALE_OVERLAP`` of their area, up to ``PALE_INK_CELLS``, until the first that does not. (A
    cell stepped beyond a meld's end across the gap to the next meld takes in the ink of both
    melds' faces; read, half a face each, it could pass for a blank white dragon: development scene
    129 on a pale table.)

    On a pale table the faces are found by their outlines (:mod:`vision.outlines`), and a lamp's
    glare on the cloth leaves a face's lit side without one: the silhouette of a row ends there and
    its last faces are lost (development scene 57 on a pale table: a row of eight read as five, the
    last three in the glare). Their colour is the cloth's, so the colour tests of the probes
    beyond a row's end pass over them; their ink is what the cloth lacks."""
    rise = ((q[3] - q[0]) + (q[2] - q[1])) / 2
    out = []
    cell = np.asarray(q, np.float32)
    for _ in range(PALE_INK_CELLS):
        ink = cell_ink(lab, cell * f)
        if ink is None or ink < PALE_INK or _overlap(cell, found) > PALE_OVERLAP:
            break
        beside = [cell_ink(lab, (cell + s) * f) for s in (rise, -rise)]
        if any(b is not None and b > PALE_INK_BESIDE for b in beside):
            break
        out.append(cell)
        cell = cell + step
    return out


def _overlap(cell: np.ndarray, quads: list[np.ndarray]) -> float:
    """The share of ``cell``'s area that the ``quads`` (tiles do not overlap) lie over."""
    area = abs(float(cv2.contourArea(cell)))
    if area <= 0:
        return 0.0
    return sum(cv2.intersectConvexConvex(cell, np.asarray(x, np.float32))[0] for x in quads) / area


def faces_nearby(faces: np.ndarray, face_h: float) -> np.ndarray:
    """The face mask ``faces`` grown by 30% of the face height ``face_h`` (px of that mask): what
    the table's colour is measured outside of."""
    grow = max(3, int(face_h * 0.3))
    return cv2.dilate(faces, cv2.getStructuringElement(cv2.MORPH_RECT, (2 * grow + 1, 2 * grow + 1)))


def back_colours(small: np.ndarray, gains: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(``small`` white-balanced by ``gains`` at half size, float BGR; the same as Lab): the
    picture :func:`find_backs` looks for face-down tiles in."""
    half = cv2.resize(apply_gains(small, gains), (max(1, small.shape[1] // 2), max(1, small.shape[0] // 2)),
                      interpolation=cv2.INTER_AREA)
    return half, to_lab(half)


def find_backs(small: np.ndarray, gains: np.ndarray, faces: np.ndarray, face_h: float, runs: list[Run], f: float,
                aspect: float = ASPECT_TYPICAL, table: list | None = None, pale_mask: np.ndarray | None = None,
                colours: tuple[np.ndarray, np.ndarray] | None = None, pale_table: bool = False) -> list[Run]:
    """Runs of face-down tiles: blobs of a colour far from the table, cut at the face pitch.

    Works at half the detection size: face-down tiles are as big as faces, and colour
    needs no fine detail. ``table``: the table's colours where the whole photo's were measured
    already (:func:`vision.detect.photo_balance`), else those of ``small`` outside the faces. ``colours``:
    :func:`back_colours` of ``small`` and ``gains``, where already made. ``pale_table``: the photo
    lies on a pale table, where a probe that no colour test keeps may still be a face the outlines
    lost, and the cells on from it too (:func:`_inked_cells`)."""
    half, lab = colours or back_colours(small, gains)
    faces = cv2.resize(faces, (half.shape[1], half.shape[0]), interpolation=cv2.INTER_NEAREST)
    to_small = f  # detection-image px of the picture's
    face_h, f = face_h / 2, f / 2
    near_faces = faces_nearby(faces, face_h)
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
    contours, _ = cv2.findContours(opened_mask(cand, k), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    face_area = face_h * face_h * ASPECT_TYPICAL
    measured: dict[int, tuple[Run, bool] | None] = {}  # each blob's _back_run, by id: measured once

    def measure(c: np.ndarray) -> tuple[Run, bool] | None:
        if id(c) not in measured:
            measured[id(c)] = _back_run(c, dist, runs, face_h, f, aspect, face_area)
        return measured[id(c)]

    contours = _seams_closed(contours, cand, touch, k, face_h, measure)
    # a blob too big for face-down tiles: a lit or shaded patch of the table, far from its
    # commonest colour too, has run into them; face-down tiles lie much further from the
    # table than its own light does, so the blob is cut again, once, at the colour distance
    # that best parts its pixels in two (Otsu); its parts are looked at after the other blobs
    too_big = [cv2.contourArea(c) > face_area * 8 for c in contours]
    contours = ([c for c, big in zip(contours, too_big) if not big]
                + [p for c, big in zip(contours, too_big) if big for p in _stricter_parts(c, dist, k)])
    for c in contours:
        got = measure(c)
        if got is not None:
            out.append(got[0])
    # probes of face runs: keep a cell beyond an end whose colour differs from the table
    # around it (see _probe_off_table) and is not a face (``lab``: the half-size picture's, above).
    # Beyond a lone pair of faces, a cell in the table's colour that a tile's outline frames is
    # kept apart as a pair probe: a concealed kong's backs can have the table's colour, and its
    # two ends come together. On a pale table, a probe that no colour test keeps as a face-down end
    # is a face probe where it holds ink and the cloth beside it none, and so are the cells on from it
    found_faces = [x for r in runs for x in r.quads] if pale_table else []
    for r in runs:
        keep, pair, lost = [], [], []
        for end, q in r.probes:
            step = q - (np.asarray(r.quads[0] if end == 0 else r.quads[-1], np.float32))
            inner = mean_in(lab, q * f)
            if inner is None:
                continue
            chroma = float(np.hypot(inner[1] - 128, inner[2] - 128))
            face = inner[0] > 200 and chroma < 12  # a face: no face-down end
            if not face and _probe_off_table(lab, inner, q, step, f):
                keep.append((end, q))
            elif not face and len(r.quads) == 2 and _outlined(small, q * to_small,
                                                             np.mean(r.quads, axis=0).mean(axis=0) * to_small):
                pair.append((end, q))
            elif pale_table and (inked := _inked_cells(lab, q, step, f, found_faces)):
                lost.extend((end, cell) for cell in inked)  # faces the outlines lost, white or not
            elif not face and _probe_off_table(lab, inner, q, step, f, beside_only=True):
                lost.append((end, q))
        r.probes = keep
        r.pair_probes = pair if len(keep) + len(pair) == 2 else []
        r.face_probes = lost
    return out


def _back_run(c: np.ndarray, dist: np.ndarray, runs: list[Run], face_h: float, f: float, aspect: float,
              face_area: float) -> tuple[Run, bool] | None:
    """(the face-down run a colour blob ``c`` of the half-size picture makes, whether it is a
    kong's four), or None where the blob is no face-down tile: too small or too big, not
    rectangular, or not as thick as the faces near it (:func:`find_backs`; ``dist``: the picture's
    colour distance from the table, ``face_h`` and ``f``: the face height and scale at half size)."""
    area = cv2.contourArea(c)
    if area < face_area * 0.45 or area > face_area * 8:
        return None
    quad = fit_quad(c)
    qa = abs(cv2.contourArea(quad.reshape(-1, 1, 2)))
    if qa <= 0 or area / qa < 0.75:
        return None
    a, b = quad_sides(quad)
    short, long_ = min(a, b), max(a, b)
    if b > a:
        quad = turned_quad(quad, 1)
    # foreshortening changes across a tilted photo, so the faces nearest the blob lying
    # the same way give the local face height and aspect
    h_loc, a_loc = _local_face_shape(runs, quad / f, quad[1] - quad[0], face_h / f, aspect)
    h_loc *= f
    if not (0.6 * h_loc < short < 1.5 * h_loc):
        return None
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
    if not four and KONG_SHORT <= raw < KONG_RUN[0]:
        # three face-down tiles side by side are no hand's: the blob is a kong's four with the
        # part of a back lying nearer the table's colour missed (orange backs on a wood shot
        # close): it is lengthened to four widths towards the end less like the table
        kong = 4 * width + 0.15 * h_loc  # as long as four tiles and the body's side, as ``raw`` counts
        quad, long_, four = _lengthened(quad, kong - long_, dist), kong, True
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
    return Run(quads=[q / f for q in quads], kind="back", axis=axis / (np.linalg.norm(axis) + 1e-6),
               pitch=long_ / n / f, height=short / f), four


def _seams_closed(contours: list, cand: np.ndarray, touch: np.ndarray, k: int, face_h: float,
                  measure) -> list:
    """``contours`` (blobs of the opened candidate mask ``cand``), where two or more of them are
    the parts of one concealed kong's four backs replaced by the kong's whole blob. The backs of a
    kong pushed together still show a thin seam between them (a tile's bevel, its shadow, a hair
    of table where one lies turned) that can part them; the mask is closed over seams up to
    ``SEAM_CLOSE`` of the face height (still clear of the faces, ``touch``), and a closed blob
    that holds several of the blobs is taken only where one of them is no face-down tile by
    itself (the seam cut it narrower than a tile: ``measure(contour)`` -> (run, four) or None)
    and the closed blob measures as a kong's four. Otherwise its parts stay as they were: a
    bamboo mat's slats or a cloth's pattern run into each other as readily as backs do, and
    backs that stand alone as tiles are found as such (and joined into their kong later, by
    their cells' outlines and places) with their own outlines, which an even cut of the joined
    blob into four would lose where the backs lie turned apart."""
    if len(contours) < 2:
        return contours
    seam = max(3, int(face_h * SEAM_CLOSE)) | 1
    boxes = np.array([cv2.boundingRect(c) for c in contours], np.int64)
    x0, y0, x1, y1 = boxes[:, 0], boxes[:, 1], boxes[:, 0] + boxes[:, 2], boxes[:, 1] + boxes[:, 3]
    near = ((x0[:, None] <= x1[None, :] + seam) & (x0[None, :] <= x1[:, None] + seam)
            & (y0[:, None] <= y1[None, :] + seam) & (y0[None, :] <= y1[:, None] + seam))
    if np.count_nonzero(near) == len(contours):  # each blob near itself only: no seam to close
        return contours
    closed = cv2.morphologyEx(cand, cv2.MORPH_CLOSE, np.ones((seam, seam), np.uint8))
    closed[touch != 0] = 0
    joined, _ = cv2.findContours(opened_mask(closed, k), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if len(joined) >= len(contours):
        return contours  # no seam closed
    owner = []
    for c in contours:
        p = _inner_point(c)
        owner.append(next((i for i, j in enumerate(joined) if cv2.pointPolygonTest(j, p, False) >= 0), -1))
    out, taken = [], set()
    for i, j in enumerate(joined):
        parts = [n for n, o in enumerate(owner) if o == i]
        if len(parts) < 2 or all(measure(contours[n]) is not None for n in parts):
            continue  # parts that are face-down tiles each by itself are read as they are
        got = measure(j)
        if got is not None and got[1]:
            out.append(j)
            taken.update(parts)
    return out + [c for n, c in enumerate(contours) if n not in taken]


def _inner_point(contour: np.ndarray) -> tuple[float, float]:
    """A point of a blob's own pixels: its first outline point (a blob holds its outline)."""
    x, y = contour.reshape(-1, 2)[0]
    return float(x), float(y)


def _lengthened(quad: np.ndarray, by: float, dist: np.ndarray) -> np.ndarray:
    """``quad`` (long side from corner 0 to 1) lengthened by ``by`` px along its long side, at the
    end where the cell of that depth beyond it lies further from the table's colours (``dist``,
    in ``quad``'s px)."""
    along = (quad[1] - quad[0]) / (float(np.linalg.norm(quad[1] - quad[0])) + 1e-6) * by
    beyond_end = np.float32([quad[1], quad[1] + along, quad[2] + along, quad[2]])
    beyond_start = np.float32([quad[0] - along, quad[0], quad[3], quad[3] - along])
    far = [mean_in(dist, q) for q in (beyond_start, beyond_end)]
    far = [-1.0 if d is None else float(d[0]) for d in far]
    if far[1] >= far[0]:
        return np.float32([quad[0], quad[1] + along, quad[2] + along, quad[3]])
    return np.float32([quad[0] - along, quad[1], quad[2], quad[3] - along])


def _stricter_parts(contour: np.ndarray, dist: np.ndarray, k: int) -> list[np.ndarray]:
    """The parts of a blob (``contour`` in ``dist``'s px) lying further from the table colours
    than the Otsu threshold of the blob's own colour distances (when that is stricter than the
    first cut), opened by a ``k`` px disc like the first cut."""
    x, y, w, h = cv2.boundingRect(contour)
    inside = np.zeros((h, w), np.uint8)
    cv2.drawContours(inside, [(contour - np.int32([x, y])).astype(np.int32)], -1, 255, -1)
    d = np.clip(dist[y:y + h, x:x + w], 0, 255).astype(np.uint8)
    t = otsu_threshold(d[inside > 0])
    if t <= BACK_DISTANCE:
        return []
    part = ((d > t) & (inside > 0)).astype(np.uint8) * 255
    part = opened_mask(part, k)
    found, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return [(c + np.int32([x, y])).astype(np.int32) for c in found]


def kongs_from_ends(runs: list[Run], backs: list[Run], small: np.ndarray, gains: np.ndarray, mask: np.ndarray, f: float):
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
        own = mean_in(small, scaled_quad(q, 0.6) * f, convert=lab)
        if own is None:
            continue
        best = None
        for side in (((q[1] - q[0]) + (q[2] - q[3])) / 2, ((q[3] - q[0]) + (q[2] - q[1])) / 2):
            for sign in (1.0, -1.0):
                step = side * sign
                cells = [q + step * k for k in (1, 2, 3)]
                share = [mean_in(mask, scaled_quad(c, k) * f, convert=is_set_pixel) for c, k in zip(cells, (0.8, 0.8, 0.6))]
                far_lab = mean_in(small, scaled_quad(cells[2], 0.6) * f, convert=lab)
                if any(v is None for v in share) or far_lab is None:
                    continue
                if share[0][0] < 0.3 or share[1][0] < 0.3 or share[2][0] > 0.2:
                    continue
                d = colour_distance(own, far_lab)
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
        region = scaled_quad(np.array([q[0], cells[2][1], cells[2][2], q[3]], np.float32), 1.02)
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


def outline_picture(small: np.ndarray) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """(``small`` at half size, its :func:`_edge_regions`): what :func:`outlined_kongs` looks at."""
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


def outlined_kongs(small: np.ndarray, gains: np.ndarray, found: list[Run], face_h: float, f: float,
                    aspect: float, picture: tuple | None = None) -> tuple[list[Run], set[int]]:
    """Concealed kongs shown all face down in the table's own colour, which :func:`find_backs`
    cannot tell from the table (development scenes 6 and 125: green backs on green felt and on a
    green checked cloth), with the ``id`` of each face-down run in ``found`` that one took in.

    From each cell that edges frame (:func:`_framed_cells`), cells of its size are stepped across
    it by a kong's pitch (:func:`_pitches`; the second, where there is one, where the first runs
    on other than four), :data:`KONG_REACH` to either side; the neighbours within
    :data:`SAME_BACK` of its colour and covered by no found tile run on with it, and so does a
    neighbour where a face-down run of one or two tiles found before has a tile: the lit part of
    such a kong can stand off the table's colour enough for :func:`find_backs` while the rest
    does not (real-photo scene 75 with camera bodies: two of four green backs on green felt).
    Exactly four in a row is a kong's four face-down tiles: the table itself runs on further (a
    framed patch of plain felt), and fewer is no kong. ``found``: the runs found so far, in
    ``img`` px (``small`` is ``img`` scaled by ``f``). The classifier still has to read each cell
    as a face-down tile (vision.scan). ``picture``: :func:`outline_picture` of ``small``, where
    already made."""
    if face_h <= 0:
        return [], set()
    # at half the detection size, as the face-down blobs (:func:`find_backs`): a tile is still
    # tens of pixels, and the edges cost a quarter
    half, regions = picture or outline_picture(small)
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
        mean = mean_in(half, q)
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
                return other is not None and colour_distance(own, other) <= SAME_BACK

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
    grown = scaled_quad(cell, 1.3)
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
        table = mean_in(lab, (q + shift) * f)
        if table is not None and colour_distance(inner, table) <= 25:
            return False
    return True
