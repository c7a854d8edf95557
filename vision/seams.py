"""Splitting a run of touching tiles into faces (step 4 of :mod:`vision.detect`): the run's quad is
rectified to a strip; touching faces leave a darker seam across the whole face height, blank
margins included, and every tile count the face aspect range allows is scored by the seams under
its evenly spaced cuts, not by a fixed tile size."""
from __future__ import annotations

import functools
import math

import cv2
import numpy as np

from .face_mask import whiteness
from .quads import ASPECT_MAX, ASPECT_MIN, ASPECT_TYPICAL, quad_sides, turned_quad

STRIP_H = 64


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
EXPECTED_NEAR = 0.25  # ... and within this many tiles of it, more even at all (the best count over half a tile off)
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
    it (:data:`EXPECTED_TIE`), and one within :data:`EXPECTED_NEAR` of it need only leave faces
    more even at all where the best count lies over half a tile off it (development scene 1110
    with camera bodies on a cloth: a meld of three bamboo tiles, cut in four on its sticks for
    1.11 against 0.84 in three, where the photo expected 3.2); where even the best count's cuts
    are faint (:data:`FAINT_SEAMS` each), evenness is not asked of that nearer count; where the
    best count's cuts together pay less than one clear seam (:data:`SEAM_FLOOR`), no count is
    supported and the count nearest ``expected``
    is cut, as where none pays at all (development scene 20 shot from further away: a meld of
    three cut in four for 0.05). On a long row (:data:`LONG_CUTS` cuts or more) a
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
    combs_by_n = {}  # n: (score, comb cut positions) of every count's best comb
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
        combs_by_n[n] = (float(sc[top]), X[top])
    # (score, n, comb cut positions) of every count whose best comb pays, by count
    scored = [(score, n, xs.tolist()) for n, (score, xs) in combs_by_n.items() if score > 0]
    if not scored:
        return 1, [], 0.0
    best_score, n, xs = max(scored)
    if expected is not None and best_score < SEAM_FLOOR:
        # less than one clear seam's worth over the whole strip: no count is supported, and the
        # photo's face aspect tells it (as where none scores at all: split_run cuts at it)
        m = min(max(int(round(expected)), n_lo), min(n_hi, 40))
        if m in combs_by_n:
            score, xs = combs_by_n[m]
            return m, _snap(prof, xs.tolist(), m), score
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
            # the count the photo's aspect expects (within EXPECTED_NEAR), against a best count over
            # half a tile off it, need only leave faces more even
            on_expected = nearer and abs(m - expected) <= EXPECTED_NEAR and abs(best_n - expected) > 0.5
            if alt_even < (1.0 if tie and on_expected else EVEN_GAIN if tie else LONG_EVEN) * even:
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
    with another ``n_range``; ``expected``: as in :func:`choose_count`, and where no count earns
    any seam evidence at all, the count cut (rounded into ``n_range``).
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
        if n == 1 and not single_ok:
            # no seam evidence at all: cut evenly at the count the photo's face aspect expects,
            # or the middle of the range without one (real-photo camera scene 331: a meld of
            # three, its blob a quarter taller than its faces, was cut at round(2.5) = 2)
            guess = expected if expected is not None else (n_range[0] + n_range[1]) / 2
            n = max(2, n_range[0], min(int(round(guess)), n_range[1]))
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
