"""Finding faces and splitting touching rows, on synthetic photos with known corners."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.decode import decode
from vision.detect import _recount, detect
from vision.faces import sources_for
from vision.faces.photos import REAL_DIR
from vision.quads import Run, fit_quad, squared_ends
from vision.scenes import make_scene
from vision.seams import choose_count, seam_profile, split_run
from vision.white_balance import white_balance_gains


def _match(found, truth, scale):
    """How many true faces have a found quad whose corners are within 20% of a face height."""
    quads = [np.asarray(q) * scale for q in found]
    hits = 0
    for t in truth["tiles"]:
        tq = np.asarray(t["corners"])
        h = np.linalg.norm(tq[3] - tq[0])
        for q in quads:
            # the same face, either way up (the geometry cannot tell up from down)
            d = min(np.abs(q - tq).max(), np.abs(np.roll(q, 2, axis=0) - tq).max())
            if d < 0.2 * h:
                hits += 1
                break
    return hits


def _face_quads(res):
    return [q for r in res["runs"] if r.kind == "face" for q in r.quads]


def test_touching_row_is_split_into_single_faces():
    hand = {"concealed": "1234567m2345p11z", "melds": [], "flowers": ""}
    data, truth = make_scene(21, width=1200, hand=hand, tilt=0, roll=8, clutter=False)
    d = decode(data)
    res = detect(d.image)
    quads = _face_quads(res)
    assert len(quads) == 13
    assert _match(quads, truth, d.scale) == 13


@pytest.mark.parametrize("seed, tilt, roll", [(34, 30, 95), (32, 25, -60), (33, 38, 200)])
def test_rotation_and_tilt(seed, tilt, roll):
    hand = {"concealed": "2468m13579p246s77z", "melds": ["333s"], "flowers": ""}
    data, truth = make_scene(seed, width=1300, hand=hand, tilt=tilt, roll=roll, clutter=False)
    d = decode(data)
    quads = _face_quads(detect(d.image))
    n = len(truth["tiles"])
    assert _match(quads, truth, d.scale) >= n - 1
    assert len(quads) <= n + 1


def test_seam_profile_and_count_on_a_drawn_strip():
    # three 48-px faces with 2-px seams, glyph-like blobs inside that must not count as seams
    strip = np.full((64, 144), 220, np.float32)
    strip[:, 47:49] = 140
    strip[:, 95:97] = 150
    strip[20:44, 20:24] = 60      # a vertical stroke, not reaching the margins
    strip[30:34, 60:90] = 60      # a horizontal stroke
    prof = seam_profile(strip)
    assert prof[47:49].max() > 0.5 and prof[95:97].max() > 0.5
    assert prof[15:30].max() < 0.1 and prof[55:90].max() < 0.1
    n, cuts, score = choose_count(prof, 144 / 64)
    assert n == 3 and score > 0
    assert abs(cuts[0] - 48) <= 2 and abs(cuts[1] - 96) <= 2


def test_fit_quad_recovers_a_rounded_rotated_rectangle():

    mask = np.zeros((300, 300), np.uint8)
    rect = ((150, 150), (160, 90), 30)
    cv2.fillConvexPoly(mask, cv2.boxPoints(rect).astype(np.int32), 255)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (15, 15)))
    c, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    q = fit_quad(c[0])
    true = cv2.boxPoints(rect)
    for p in true:  # every true corner is close to a fitted corner despite the rounding
        assert np.linalg.norm(q - p, axis=1).min() < 4


def test_fit_quad_of_a_row_ignores_ink_notches_at_one_end():
    # a row of faces whose last three glyphs reach the face edges: the notches must not
    # tilt the fitted long sides inward (the row's far end would come out too thin)
    mask = np.zeros((200, 700), np.uint8)
    mask[60:140, 20:680] = 255
    for x in range(400, 670, 20):   # bamboo-like sticks biting into both long edges
        mask[60:70, x:x + 12] = 0
        mask[130:140, x:x + 12] = 0
    c, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    q = fit_quad(c[0], faces=True)
    for p in ((20, 60), (679, 60), (679, 139), (20, 139)):
        assert np.linalg.norm(q - p, axis=1).min() < 2.5


def _bitten_face(bite: int, angle: float = 40.0):
    """A face's mask, 90 x 120 px turned ``angle`` degrees, with a ``bite`` px square of ink taken
    out of one corner (a flower's big corner numeral), and its true corners."""
    mask = np.zeros((300, 300), np.uint8)
    rect = ((150, 150), (90, 120), angle)
    corners = cv2.boxPoints(rect)
    cv2.fillConvexPoly(mask, corners.astype(np.int32), 255)
    if bite:
        c0, c1, c3 = corners[0], corners[1], corners[3]
        u, v = (c1 - c0) / np.linalg.norm(c1 - c0), (c3 - c0) / np.linalg.norm(c3 - c0)
        ink = np.array([c0 - 3 * u - 3 * v, c0 + bite * u - 3 * v, c0 + bite * (u + v), c0 - 3 * u + bite * v])
        cv2.fillConvexPoly(mask, ink.astype(np.int32), 0)
    c, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return max(c, key=cv2.contourArea), corners


@pytest.mark.parametrize("angle", [40.0, 10.0, -25.0])
def test_fit_quad_puts_back_a_corner_bitten_out_by_ink(angle):
    # the hull has a short side across the bite: the four long sides, extended, meet where the
    # corner was (development scene 53: the fit cut the flower's face diagonally, and it was misread)
    contour, true = _bitten_face(30, angle)
    q = fit_quad(contour, faces=True)
    for p in true:
        assert np.linalg.norm(q - p, axis=1).min() < 4


def test_fit_quad_of_a_whole_or_slightly_bitten_face_is_unchanged_by_the_corner_rule(monkeypatch):
    import vision.quads as quads_module

    for bite in (0, 12):
        contour, true = _bitten_face(bite)
        q = fit_quad(contour, faces=True)
        monkeypatch.setattr(quads_module, "CORNER_GAIN", 2.0)  # the rule switched off
        plain = fit_quad(contour, faces=True)
        monkeypatch.undo()
        assert np.allclose(q, plain)


def _ink_bitten_row():
    """A row's mask, 400 x 70 px (five faces' length, one face thick), with nine 24 x 20 px bites
    of ink out of each long side (glyphs that reach the faces' edges), and its corners."""
    mask = np.zeros((200, 520), np.uint8)
    corners = np.int32([[60, 60], [460, 60], [460, 130], [60, 130]])
    cv2.fillConvexPoly(mask, corners, 255)
    for x in range(80, 430, 40):
        mask[60:80, x:x + 24] = 0
        mask[111:131, x + 12:x + 36] = 0
    return mask, corners


def test_a_row_bitten_by_ink_is_offered_whole_as_a_row_but_not_as_one_or_two_faces():
    # the blob is not a rectangle (its bites take over a fifth of its outline's area) but its
    # hull is: as one or two faces it is too long (at most twice as long as thick), as a row
    # bitten by its ink it is read on its hull, whole (the caller keeps it where it is as thick
    # as a face); both readings share one fit of its outline
    from vision.face_mask import _rect_blob, rect_blobs

    mask, corners = _ink_bitten_row()
    contour = max(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=cv2.contourArea)
    area = cv2.contourArea(contour)
    assert _rect_blob(contour, area, 10.0, bitten=2.0) is None
    choices: list = []
    rect_blobs(mask, lambda: mask, 300.0, 10.0, choices)
    assert len(choices) == 1
    (c, quad, a, b), _pieces = choices[0]
    for p in corners:
        assert np.linalg.norm(quad - p, axis=1).min() < 3
    assert max(a, b) / min(a, b) == pytest.approx(400 / 70, rel=0.05)
    assert cv2.contourArea(c) > area * 1.2  # read on the hull, not on the bitten outline
    single = _rect_blob(contour, area, 10.0, bitten=25.0)
    assert single is not None and np.array_equal(single[1], quad)


def test_a_face_with_a_bump_of_glare_is_not_grown_to_the_bump():
    # a pentagon whose fifth corner sticks out (glare joined to a face) is no bitten corner:
    # its four longest sides, extended, would hold far more than the blob
    mask = np.zeros((300, 300), np.uint8)
    cv2.fillConvexPoly(mask, np.int32([[90, 90], [190, 90], [190, 210], [90, 210]]), 255)
    cv2.fillConvexPoly(mask, np.int32([[190, 90], [260, 150], [190, 210]]), 255)
    c, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    q = fit_quad(c[0], faces=True)
    assert abs(cv2.contourArea(q.reshape(-1, 1, 2))) <= 1.35 * cv2.contourArea(cv2.convexHull(c[0]))


@pytest.mark.parametrize("seed, source", [(114, "drawn"), (106, "symbola"), (111, "symbola")])
def test_lone_tile_is_one_face_not_a_pair(seed, source):
    # a lone flower shows its body's side, so its blob is about as long as two touching
    # faces; it must stay one face, turned like the rows (not cut in two, not sideways)
    hand = {"concealed": "123456789m1122p", "melds": ["777s"], "flowers": "1357f"}
    data, truth = make_scene(seed, width=1200, source=source, hand=hand, clutter=False)
    d = decode(data)
    quads = [np.asarray(q) * d.scale for q in _face_quads(detect(d.image))]
    flowers = [t for t in truth["tiles"] if t["group"] == "flowers"]
    assert flowers
    for t in flowers:
        tq = np.asarray(t["corners"], np.float32).reshape(-1, 1, 2)
        inside = [q for q in quads if cv2.pointPolygonTest(tq, tuple(map(float, q.mean(axis=0))), False) >= 0]
        assert len(inside) == 1, t["tile"]
        assert _match(inside, {"tiles": [t]}, 1.0) == 1, t["tile"]


def test_count_follows_seams_whose_spacing_drifts_along_a_long_row():
    # a long row rectified from a slightly wrong outline: the faces shrink along the strip
    widths = [60, 57, 54, 51, 48, 45, 43]
    edges = np.cumsum([0] + widths)
    strip = np.full((64, int(edges[-1])), 220, np.float32)
    for x in edges[1:-1]:
        strip[:, x - 1:x + 1] = 140
    for x0, x1 in zip(edges[:-1], edges[1:]):
        strip[16:48, (x0 + x1) // 2 - 2:(x0 + x1) // 2 + 2] = 60   # a glyph stroke inside each face
    n, cuts, score = choose_count(seam_profile(strip), strip.shape[1] / 64)
    assert n == 7 and score > 0
    assert np.abs(np.array(cuts) - edges[1:-1]).max() <= 2


def test_a_meld_count_the_photo_expects_beats_a_stroke_across_its_middle():
    # a three-face meld (length 2.63 face heights) with faint seams, whose middle face carries a
    # stroke darker than they are, a little off the meld's middle: one cut on the stroke
    # outscores the two seams; the count the photo's face aspect expects (3.06) takes over
    length = int(round(2.63 * 64))
    prof = np.zeros(length, np.float32)
    prof[[length // 3, 2 * length // 3]] = 0.36
    prof[int(0.45 * length)] = 0.79
    n, cuts, _ = choose_count(prof, 2.63, (2, 4))
    assert n == 2
    n, cuts, score = choose_count(prof, 2.63, (2, 4), expected=3.06)
    assert n == 3 and score > 0
    assert np.abs(np.array(cuts) - [length // 3, 2 * length // 3]).max() <= 1
    # an expected count no nearer than the seams' own choice changes nothing
    assert choose_count(prof, 2.63, (2, 4), expected=2.2)[0] == 2


def test_a_meld_with_faint_seams_is_counted_by_the_photos_face_aspect():
    # a meld of three set askew (speed photo 900000): its seams lean and break, and faint
    # marks a quarter of the way along outscore them, so the seams alone would count four
    # narrow faces; with cuts this faint the count the photo's face aspect expects (2.98) wins
    length = 142
    prof = np.zeros(length, np.float32)
    prof[[36, 106]], prof[71] = 0.25, 0.40   # where four faces would be cut
    prof[[47, 95]] = 0.35                    # the meld's own seams, a third of the way
    assert choose_count(prof, length / 64, (2, 4))[0] == 4
    n, cuts, score = choose_count(prof, length / 64, (2, 4), expected=2.98)
    assert n == 3 and score > 0
    assert np.abs(np.array(cuts) - [47, 95]).max() <= 1
    # seams three times as clear are a count of their own: a kong whose faces the photo's
    # aspect takes for wider than they are (a meld lying across the rows) keeps its four
    assert choose_count(prof * 3, length / 64, (2, 4), expected=2.98)[0] == 4
    # and faint cuts still outvote a nearer count that the seams hardly support (a kong at a
    # steep tilt, development scene 151): nothing at a third of the way leaves four
    prof[[47, 95]] = 0.0
    assert choose_count(prof, length / 64, (2, 4), expected=2.98)[0] == 4


# development scene 601 with camera bodies: the seam profile of its row of 13 (639 px long,
# 9.98 face heights), its values over 0.02. Glyph strokes near the row's far end outscore the
# faint seams there, so 12 faces score best (2.21), cut 67, 58, 51 ... px wide; 13 score 1.78
# and leave faces within a few px of each other
ROW_601 = {55: 0.09, 56: 0.45, 57: 0.64, 58: 0.31, 66: 0.04, 67: 0.42, 68: 0.4, 69: 0.3, 70: 0.12, 78: 0.23,
           79: 0.2, 80: 0.23, 81: 0.11, 102: 0.03, 103: 0.35, 104: 1.0, 105: 0.78, 106: 0.16, 125: 0.04,
           126: 0.03, 166: 0.03, 210: 0.08, 211: 0.23, 212: 0.24, 213: 0.12, 214: 0.24, 215: 0.23, 259: 0.04,
           283: 0.04, 284: 0.35, 285: 0.58, 286: 0.03, 334: 0.3, 335: 0.37, 336: 0.11, 383: 0.08, 384: 0.51,
           385: 0.54, 386: 0.32, 433: 0.07, 434: 0.26, 435: 0.34, 436: 0.11, 484: 0.04, 485: 0.37, 486: 0.52,
           487: 0.34, 506: 0.03, 536: 0.22, 537: 0.72, 538: 0.64, 539: 0.28, 556: 0.03, 573: 0.04, 588: 0.03,
           589: 0.15, 590: 0.08}


def _profile(values: dict, length: int) -> np.ndarray:
    prof = np.zeros(length, np.float32)
    prof[list(values)] = list(values.values())
    return prof


def test_a_long_row_is_counted_by_the_cuts_that_leave_even_faces():
    prof = _profile(ROW_601, 639)
    twelve, thirteen = choose_count(prof, 9.98, (12, 12))[2], choose_count(prof, 9.98, (13, 13))[2]
    assert twelve > thirteen > 0.75 * twelve
    n, cuts, _ = choose_count(prof, 9.98)
    assert n == 13
    widths = np.diff([0.0, *cuts, 639.0])
    assert widths.max() < 1.2 * widths.min() + 4
    # the photo's face aspect, measured off the row cut in 12, expects 12: the even cut still wins
    assert choose_count(prof, 9.98, (10, 14), expected=12.0)[0] == 13


def test_a_long_rows_more_even_count_that_scores_far_less_does_not_win():
    # one more glyph stroke where only the count of 12 cuts: 13 scores under three quarters of it
    prof = _profile(ROW_601 | {176: 0.9}, 639)
    assert choose_count(prof, 9.98, (13, 13))[2] < 0.75 * choose_count(prof, 9.98, (12, 12))[2]
    assert choose_count(prof, 9.98)[0] == 12


def _row_run(n, pitch, x0=0.0, y0=0.0, height=100.0) -> Run:
    """A horizontal run of ``n`` faces ``pitch`` wide and ``height`` tall from (x0, y0)."""
    quads = [np.float32([[x0 + i * pitch, y0], [x0 + (i + 1) * pitch, y0], [x0 + (i + 1) * pitch, y0 + height],
                         [x0 + i * pitch, y0 + height]]) for i in range(n)]
    return Run(quads=quads, axis=np.float32([1, 0]), pitch=pitch, height=height)


def test_photo_aspect_is_not_outvoted_by_a_row_cut_at_twice_its_count():
    # three rows of 3 faces (aspect 0.85) and one long row wrongly cut into 11 (0.45):
    # the photo's face aspect must come from the faces' length, not from the tile count
    runs = [_row_run(3, 85.0), _row_run(3, 85.0), _row_run(3, 85.0), _row_run(11, 45.0)]
    kept = [(np.float32([[0, 0], [r.pitch * len(r.quads), 0], [r.pitch * len(r.quads), 100], [0, 100]]),
             r.pitch * len(r.quads) / 100, len(r.quads), 1.0) for r in runs]
    img = np.full((200, 1200, 3), 200, np.uint8)
    assert abs(_recount(img, np.ones(3, np.float32), runs, kept) - 0.85) < 0.01


def test_white_balance_keys_on_the_faces_not_on_bright_felt():
    # tiles far away cover under 1% of the photo; lit green felt is most of its bright
    # pixels, yet the faces (ivory, the least coloured bright things) must come out grey
    rng = np.random.default_rng(0)
    img = np.clip(rng.normal([90, 190, 110], 12, (400, 400, 3)), 0, 255).astype(np.uint8)
    img[100:106, 100:260] = (205, 235, 245)   # ivory faces in warm light: 0.6% of the photo
    g = white_balance_gains(img)
    face = np.float32([205, 235, 245]) * g
    assert face.max() / face.min() < 1.08


@pytest.mark.parametrize("gains", [(1.12, 0.91, 0.91), (1.14, 0.92, 0.92), (1.18, 0.91, 0.91)])
def test_row_count_does_not_flip_with_a_slightly_different_white(monkeypatch, gains):
    # a staggered 14-tile row where, with some of these references, one count too many
    # scores as well as the right one; the right count leaves even faces
    import vision.detect as det
    monkeypatch.setattr(det, "white_balance", lambda img, leave_out=(): (np.float32(gains), np.float32([200, 200, 200])))
    hand = {"concealed": "2468m13579p246s77z", "melds": ["333s"], "flowers": ""}
    data, truth = make_scene(34, width=1300, hand=hand, tilt=30, roll=95, clutter=False)
    d = decode(data)
    quads = _face_quads(detect(d.image))
    assert len(quads) == len(truth["tiles"])
    assert _match(quads, truth, d.scale) == len(truth["tiles"])


def _glare_photo(glare: float) -> np.ndarray:
    """A grey table with a soft round glare spot that the left end of a row of ten ivory
    faces (50 x 68 px, inked) runs into, and an exposed meld of three faces away from it."""
    h, w = 900, 1200
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    img = np.full((h, w, 3), (112, 118, 122), np.float32)
    spot = np.exp(-(((xx - 300) ** 2) / (2 * 170.0 ** 2) + ((yy - 330) ** 2) / (2 * 240.0 ** 2)))
    img += glare * spot[..., None]
    rng = np.random.default_rng(3)
    starts = [(230 + 51 * i, 420) for i in range(10)] + [(700 + 51 * i, 700) for i in range(3)]
    _draw_inked_faces(img, rng, starts, (50, 68), (222, 232, 238), (150, 150, 150), dots=3, margin=12,
                      radius=(5, 9), ink=(40, 40, 160))
    return np.clip(img + rng.normal(0, 2, img.shape), 0, 255).astype(np.uint8)


def _draw_inked_faces(img, rng, starts, size, colour, seam, dots: int, margin: int, radius, ink) -> None:
    """Faces of ``size`` (w, h) at the top-left corners ``starts``, a seam line right of each
    (where faces touch) and ``dots`` ink dots on each, kept ``margin`` px from its edges."""
    w, h = size
    for x0, y0 in starts:
        img[y0:y0 + h, x0:x0 + w] = colour
        img[y0:y0 + h, x0 + w] = seam
        for _ in range(dots):
            cx, cy = int(x0 + rng.integers(margin, w - margin)), int(y0 + rng.integers(margin, h - margin))
            cv2.circle(img, (cx, cy), int(rng.integers(*radius)), ink, -1)


def test_faces_joined_to_glare_on_a_grey_table_are_still_found():
    # with a glare spot bright enough to pass the face threshold (as bright as the scenes'
    # strongest), row and glare make one blob far thicker than the meld's faces, and the row
    # is found again as the brightest part of it. (A glare nearly as white as the faces
    # themselves still swallows the row: docs/vision.md.)
    for glare in (0.0, 60.0, 75.0):
        quads = _face_quads(detect(_glare_photo(glare)))
        assert len(quads) == 13, glare
        row = [q for q in quads if abs(float(np.mean(q[:, 1])) - 454) < 10]
        xs = sorted(float(np.mean(q[:, 0])) for q in row)
        assert len(xs) == 10 and np.allclose(np.diff(xs), 51, atol=4), glare


def _screen_photo() -> np.ndarray:
    """A grey cloth with a lit phone screen, paler and bluer than anything else, and a row of
    eleven plus a meld of three small cream faces (25 x 35 px, inked) in dim warm light."""
    h, w = 900, 1200
    rng = np.random.default_rng(5)
    img = np.clip(rng.normal((105, 110, 112), 6, (h, w, 3)), 0, 255).astype(np.float32)
    cv2.fillConvexPoly(img, np.int32([[80, 200], [150, 160], [330, 470], [260, 510]]), (235, 225, 200))
    return _with_row_and_meld(img, rng, (600, 400), (700, 520), (25, 35), (150, 185, 205), (90, 95, 100),
                              dots=2, margin=6, radius=(2, 5))


def _with_row_and_meld(img, rng, row_at, meld_at, size, colour, seam, **ink) -> np.ndarray:
    """``img`` (float) with a row of eleven and a meld of three touching inked faces of ``size``
    drawn from the top-left corners ``row_at`` and ``meld_at``, and a little noise, as uint8."""
    pitch = size[0] + 1
    starts = [(row_at[0] + pitch * i, row_at[1]) for i in range(11)] + [(meld_at[0] + pitch * i, meld_at[1]) for i in range(3)]
    _draw_inked_faces(img, rng, starts, size, colour, seam, ink=(40, 40, 150), **ink)
    return np.clip(img + rng.normal(0, 2, img.shape), 0, 255).astype(np.uint8)


def test_faces_dimmer_than_a_lit_screen_are_found_on_a_second_look(monkeypatch):
    # balanced to the screen (the palest 1%), the cream faces stay too dim and yellow to pass
    # the mask, and the blank screen is cut into face-sized cells; looking again without the
    # screen's colour balances to the faces
    import vision.detect as det
    img = _screen_photo()
    gains, ref = det.white_balance(img)
    assert np.abs(ref - (235, 225, 200)).max() < 8   # the first look balances to the screen
    monkeypatch.setattr(det, "MORE_LOOKS", 0)
    first = _face_quads(detect(img))
    assert not any(550 < float(np.mean(q[:, 0])) < 1000 for q in first)  # no face of the hand
    monkeypatch.setattr(det, "MORE_LOOKS", 2)
    found = detect(img)
    _assert_row_and_meld(_face_quads(found), row_y=417, meld_y=537, pitch=26)
    # the look kept left the screen's colour out, and a window's detection balances as it did
    assert len(found["left_out"]) == 1 and np.abs(found["left_out"][0] - ref).max() < 3
    gains, threshold = det.photo_balance(img, det.DETECT_LONG_SIDE, found["left_out"])
    assert np.array_equal(gains, found["balance"][0]) and threshold == found["balance"][1]


def _assert_row_and_meld(quads, row_y: float, meld_y: float, pitch: float) -> None:
    """The 14 faces of a test photo's row of eleven and meld of three, each once, ``pitch`` apart."""
    centres = sorted((round(float(np.mean(q[:, 1]))), float(np.mean(q[:, 0]))) for q in quads)
    assert len(quads) == 14
    row = [x for y, x in centres if abs(y - row_y) < 6]
    meld = [x for y, x in centres if abs(y - meld_y) < 6]
    assert len(row) == 11 and np.allclose(np.diff(row), pitch, atol=3)
    assert len(meld) == 3 and np.allclose(np.diff(meld), pitch, atol=3)


def _checked_cloth_photo() -> np.ndarray:
    """A checked cloth of green and woven light grey squares (220 px) lit brighter in the middle,
    and a row of eleven plus a meld of three cream faces (45 x 62 px, inked) tinted orange by
    warm light: the grey, neutral where the faces are not, is the palest colour in the photo."""
    h, w, sq = 900, 1200, 220
    rng = np.random.default_rng(7)
    yy, xx = np.mgrid[0:h, 0:w]
    weave = ((yy // 3 + xx // 3) % 2)[..., None] * 12.0
    grey = ((yy // sq + xx // sq) % 2 == 1)[..., None]
    img = np.where(grey, np.float32((158, 163, 161)) - weave, np.float32((60, 140, 80)))
    img *= (1.0 - 0.25 * np.hypot(yy - 450, xx - 700) / 800)[..., None]
    img += rng.normal(0, 4, img.shape)
    return _with_row_and_meld(img, rng, (250, 380), (400, 560), (45, 62), (125, 175, 210), (80, 110, 130),
                              dots=3, margin=8, radius=(3, 7))


def test_warm_faces_on_a_paler_grey_cloth_are_found_on_a_second_look(monkeypatch):
    # development scene 383: balanced to the grey squares, the orange-lit faces fall under the
    # mask, and the first look finds a few inked cells of cloth and face (more than five, so the
    # look was kept); a hand has 13 tiles or more, so fewer inked faces than that look again
    import vision.detect as det
    img = _checked_cloth_photo()
    monkeypatch.setattr(det, "MORE_LOOKS", 0)
    first = detect(img)
    assert 5 <= det._face_count(first, 1.0, 99) < 13
    on_hand = [q for q in _face_quads(first) if any(x0 < np.mean(q[:, 0]) < x1 and y0 < np.mean(q[:, 1]) < y1
                                                     for x0, x1, y0, y1 in ((250, 756, 380, 442), (400, 538, 560, 622)))]
    assert len(on_hand) <= 3  # at most a few of the hand's 14 faces
    monkeypatch.setattr(det, "MORE_LOOKS", 2)
    _assert_row_and_meld(_face_quads(detect(img)), row_y=411, meld_y=591, pitch=46)


@pytest.mark.parametrize("counts, kept", [
    ((20,), 0),          # enough faces: no second look
    ((9, 16), 1),        # scene 383: the second look finds the hand
    ((12, 13, 12), 0),   # one face more found the same tiles on development scenes: not worth a swap
    ((3, 4, 9), 2),      # the third look is measured against the best before it
    ((6, 11, 12), 1),
])
def test_another_look_is_kept_only_if_it_finds_clearly_more_inked_faces(monkeypatch, counts, kept):
    import vision.detect as det
    looks = iter(range(len(counts)))
    told = []  # the pale table each look was told: each tells it by its own balance

    def look(*a, pale=None, on_faces=None):
        told.append(pale)
        return {"look": next(looks), "pale_table": True}
    monkeypatch.setattr(det, "_detect_with", look)
    monkeypatch.setattr(det, "_face_count", lambda found, f, enough: min(counts[found["look"]], enough))
    img = np.full((300, 400, 3), 128, np.uint8)
    assert detect(img)["look"] == kept
    assert told == [None] * len(counts)


@pytest.mark.parametrize("palest, looks", [(255, 1), (251, 1), (235, 3)])
def test_a_look_balanced_to_clipped_white_looks_no_further(monkeypatch, palest, looks):
    # over-exposed (development scene 8 at 1.26 without the riichi_art style): the palest 1%, the
    # colour a look balances to, is the sensor's clipped white, and so are the burnt faces; a
    # further look without that colour leaves the faces out, and its count of inked faces was
    # won by a pale strip (a kong's ivory layer) cut into 29 cells. A paler thing that is not
    # clipped (a lit screen, paper) is still left out for another look.
    import vision.detect as det
    told = []

    def look(img, small, f, gains, *a, **k):
        told.append(gains)
        return {"look": len(told) - 1, "pale_table": False}
    monkeypatch.setattr(det, "_detect_with", look)
    monkeypatch.setattr(det, "_face_count", lambda found, f, enough: 6)  # a look short of a hand's faces
    img = np.full((600, 800, 3), (40, 110, 60), np.uint8)  # green felt
    img[100:200, 100:300] = palest                          # the palest 4% of the photo, neutral
    assert np.all(det.white_balance(img)[1] == palest)      # the colour the first look balances to
    assert detect(img)["look"] == 0
    assert len(told) == looks


def test_inked_face_count_takes_faces_cut_by_the_photo_edge():
    from vision.detect import _face_count
    mask = np.zeros((100, 200), np.uint8)
    mask[10:61, 150:200] = 255
    mask[30:42, 170:182] = 0                               # ink: 144 of 2550 px
    mask[10:61, 20:61] = 255                               # a blank face
    inked = np.float32([[150, 10], [230, 10], [230, 60], [150, 60]])     # half off the photo
    blank = np.float32([[20, 10], [60, 10], [60, 60], [20, 60]])
    off = np.float32([[300, 10], [330, 10], [330, 60], [300, 60]])       # wholly off it

    def count(*quads):
        return _face_count({"runs": [Run(quads=[q * 2 for q in quads])], "mask": mask}, 0.5, enough=99)
    assert (count(inked), count(blank), count(off)) == (1, 0, 0)
    assert count(inked, blank, off) == 1


def test_a_lone_face_whose_ink_runs_to_its_edge_is_found():
    # a blurred flower whose painting reaches the face's edge: the bright blob has a deep bite
    # out of one side (its area is well under its outline's), but its hull is still the face
    # a wood-coloured table (a paler tan, balanced with a photo of so few faces, would count as a
    # pale table, whose faces are found by their outlines: vision/outlines.py)
    img = np.full((900, 1200, 3), (100, 130, 160), np.uint8)
    for i in range(3):  # an exposed meld, for the photo's typical face size
        cv2.rectangle(img, (600 + 51 * i, 600), (600 + 51 * i + 49, 667), (222, 232, 238), -1)
        cv2.circle(img, (625 + 51 * i, 633), 9, (40, 40, 160), -1)
    cv2.rectangle(img, (300, 200), (349, 267), (222, 232, 238), -1)  # the lone face
    cv2.ellipse(img, (345, 228), (22, 20), 0, 0, 360, (60, 60, 190), -1)  # ink biting in from the right
    cv2.circle(img, (318, 250), 5, (150, 60, 40), -1)
    img = cv2.GaussianBlur(img, (0, 0), 1.2)
    quads = _face_quads(detect(img))
    assert len(quads) == 4
    lone = [q for q in quads if float(np.mean(q[:, 1])) < 400]
    assert len(lone) == 1
    x0, y0 = lone[0].min(axis=0)
    x1, y1 = lone[0].max(axis=0)
    assert abs(x0 - 300) < 4 and abs(x1 - 350) < 4 and abs(y0 - 200) < 4 and abs(y1 - 268) < 4



def test_a_row_end_leaning_far_from_the_other_is_offered_square():
    # a five-face row whose right end leans 27 degrees off the left one (a bitten end): the
    # second outline turns it parallel to the left end, through its own middle
    sheared = np.float32([[0, 0], [300, 0], [330, 60], [0, 60]])
    square = squared_ends(sheared)
    assert square is not None
    assert np.allclose(sorted(map(tuple, square.round(1).tolist())), [(0, 0), (0, 60), (315, 0), (315, 60)], atol=0.5)
    # ends that agree within perspective's few degrees are left alone
    assert squared_ends(np.float32([[0, 0], [300, 0], [306, 60], [0, 60]])) is None
    # and so is a blob too short to be a row
    assert squared_ends(np.float32([[0, 0], [100, 0], [130, 60], [0, 60]])) is None


def _askew_row(leans, pitch=48, height=64, seam=175):
    """A photo of touching faces laid by hand (BGR, dark table): face i is turned ``leans[i]``
    degrees and drawn over the one before it, so askew faces still touch; faint 1-px outlines
    are the seams, a stroke in each face. Returns the photo and the row's outline (TL TR BR BL)."""
    n = len(leans)
    x0, y0 = 40, 60
    img = np.full((height + 2 * y0, n * pitch + 2 * x0, 3), 60, np.uint8)
    for i, lean in enumerate(leans):
        centre = (x0 + (i + 0.5) * pitch, y0 + height / 2)
        corners = np.round(cv2.boxPoints((centre, (pitch + 3, height), lean)) * 4).astype(np.int32)
        cv2.fillPoly(img, [corners], (222, 224, 226), cv2.LINE_AA, shift=2)
        cv2.polylines(img, [corners], True, (seam,) * 3, 1, cv2.LINE_AA, shift=2)
        cx, cy = int(centre[0]), int(centre[1])
        cv2.rectangle(img, (cx - 2, cy - 12), (cx + 2, cy + 12), (50, 50, 50), -1)  # a glyph stroke
    outline = np.float32([[x0, y0], [x0 + n * pitch, y0], [x0 + n * pitch, y0 + height], [x0, y0 + height]])
    return img, outline


def test_leaning_seams_of_tiles_set_askew_are_found():
    # each tile turned a few degrees: its seams lean across the strip, and an upright search
    # finds too little of them to cut on (the comb then cuts evenly, or at a wrong count)
    img, outline = _askew_row([3, -3, 2.5, -3, 3, -2.5, 3, -3, 2.5])
    quads, _, _, _, score = split_run(img, np.ones(3, np.float32), outline)
    assert len(quads) == 9
    assert score >= 0.25 * (len(quads) - 1)  # cut on seams it found, not evenly for want of any
    centres = sorted(float(np.asarray(q)[:, 0].mean()) for q in quads)
    assert np.abs(np.diff(centres) - 48).max() <= 5


@pytest.mark.skipif("imahjong_can" not in sources_for("1m"),
                    reason="the imahjong_can font is in ../shared/art, not on this machine")
def test_a_row_sheared_by_a_bitten_end_is_cut_on_its_seams():
    # development scene 338: one end of a row leans far over; cut square, every face is found
    from vision.scan import scan
    from vision.scenes import hand_key, truth_classifier

    data, truth = make_scene(338, width=3024)
    res = scan(data, classify_fn=truth_classifier(truth))
    assert hand_key(res["hand"]) == hand_key(truth["hand"])


def _gains_by_numpy(img):
    """White balance as defined in plain numpy: the palest 1% of every other pixel (brightness
    minus chroma) give the reference colour, the 98.5th brightness percentile the level."""
    small = img[::2, ::2].reshape(-1, 3)
    lum = small.astype(np.float32).sum(axis=1)
    pale = lum - (small.max(axis=1).astype(np.float32) - small.min(axis=1))
    ref = np.median(small[pale >= np.percentile(pale, 99)].astype(np.float32), axis=0) + 1.0
    gains = np.clip(ref.max() / ref, 0.6, 1.8)
    scale = 235.0 / max(1.0, float(np.percentile(lum, 98.5) / 3 * gains.mean()))
    return (gains * min(scale, 2.0)).astype(np.float32)


@pytest.mark.parametrize("shape", [(1, 1, 3), (2, 3, 3), (1, 999, 3), (998, 1, 3), (11, 13, 3), (301, 400, 3)])
def test_white_balance_read_off_histograms_equals_numpy_percentiles(shape):
    """The histogram shortcut must give numpy's percentiles and medians, on any size (a 1x1
    image once crashed it)."""
    rng = np.random.default_rng(sum(shape))
    for img in (rng.integers(0, 256, shape, dtype=np.uint8), rng.integers(100, 140, shape, dtype=np.uint8),
                np.full(shape, 255, np.uint8), np.zeros(shape, np.uint8)):
        got = white_balance_gains(img)
        want = _gains_by_numpy(img)
        np.testing.assert_allclose(got, want, rtol=2e-7)
        assert isinstance(detect(img)["runs"], list)  # tiny and odd sizes go through detection too


def test_a_blob_too_big_for_a_kong_is_cut_again_at_a_stricter_colour_distance():
    # development scene 320: four yellow backs on felt ran into a lit patch of the felt (far
    # from its commonest colour too), one blob of ten faces' area that was thrown away whole;
    # cut at the blob's own Otsu distance, the face-down tiles come out alone
    from vision.face_down import _stricter_parts

    dist = np.full((300, 400), 10.0, np.float32)
    dist[100:260, 40:200] = 45.0       # the lit patch of table
    dist[120:170, 150:350] = 120.0     # four face-down tiles in a row, touching the patch
    blob = ((dist > 38) * 255).astype(np.uint8)
    c, _ = cv2.findContours(blob, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    assert len(c) == 1
    parts = _stricter_parts(c[0], dist, 5)
    assert len(parts) == 1
    x, y, w, h = cv2.boundingRect(parts[0])
    assert abs(x - 150) <= 3 and abs(y - 120) <= 3 and abs(w - 200) <= 4 and abs(h - 50) <= 4
    # a blob of one colour distance has nothing stricter to give
    flat = np.where(dist > 38, 45.0, 10.0).astype(np.float32)
    assert _stricter_parts(c[0], flat, 5) == []


def _felt_with_cells(n: int, cell_bgr, felt_bgr=(60, 125, 55), seed: int = 0) -> np.ndarray:
    """A plain felt (a little noise) with ``n`` tile-sized cells side by side, 60 x 80 px,
    each framed by a dark outline: the seams of face-down tiles seen from above."""
    rng = np.random.default_rng(seed)
    img = np.clip(np.float32(felt_bgr) + rng.normal(0, 3, (400, 800, 3)), 0, 255).astype(np.uint8)
    for i in range(n):
        x0, y0 = 100 + 60 * i, 150
        cv2.rectangle(img, (x0, y0), (x0 + 59, y0 + 79), cell_bgr, -1)
        cv2.rectangle(img, (x0, y0), (x0 + 59, y0 + 79), (20, 45, 20), 2)
    return cv2.GaussianBlur(img, (3, 3), 0)


def _cell(i: int) -> np.ndarray:
    """The corners of :func:`_felt_with_cells`' cell ``i``."""
    return np.float32([[100 + 60 * i, 150], [160 + 60 * i, 150], [160 + 60 * i, 230], [100 + 60 * i, 230]])


def test_a_kong_all_face_down_in_the_tables_colour_is_found_by_its_outlines():
    from vision.face_down import outlined_kongs

    img = _felt_with_cells(4, (40, 95, 35))
    kongs, took = outlined_kongs(img, np.ones(3, np.float32), [], 80.0, 1.0, 0.75)
    assert took == set()
    assert len(kongs) == 1 and kongs[0].kind == "back" and len(kongs[0].quads) == 4
    centres = sorted(float(np.asarray(q).mean(axis=0)[0]) for q in kongs[0].quads)
    assert np.allclose(centres, [130, 190, 250, 310], atol=4)
    for q in kongs[0].quads:  # portrait corners: the long side upright
        q = np.asarray(q)
        assert np.linalg.norm(q[3] - q[0]) > np.linalg.norm(q[1] - q[0])


@pytest.mark.parametrize("n, cell", [(3, (40, 95, 35)), (6, (40, 95, 35)), (4, (60, 125, 55))])
def test_framed_cells_that_are_not_four_of_one_colour_make_no_kong(n, cell):
    # three or six in a row is no kong's four; outlines drawn on the felt's own colour (a
    # pattern printed on the cloth) run on into the table on either side
    from vision.face_down import outlined_kongs

    assert outlined_kongs(_felt_with_cells(n, cell), np.ones(3, np.float32), [], 80.0, 1.0, 0.75) == ([], set())


def test_cells_that_found_tiles_cover_are_not_looked_at_again():
    from vision.face_down import outlined_kongs

    img = _felt_with_cells(4, (40, 95, 35))
    found = [Run(quads=[_cell(i) for i in range(4)], kind="back")]
    assert outlined_kongs(img, np.ones(3, np.float32), found, 80.0, 1.0, 0.75) == ([], set())


def test_a_kong_takes_in_the_face_down_tiles_found_by_their_colour():
    # real-photo scene 75 with camera bodies: the lit half of four green backs on green felt stood
    # off the felt enough to be found by colour, the rest only by its outlines; the kong is the four
    from vision.face_down import outlined_kongs

    img = _felt_with_cells(4, (40, 95, 35))
    for x0 in (100, 160):  # the first two tiles lit, their outlines as they were
        inner = img[153:227, x0 + 3:x0 + 57]
        inner[:] = np.clip(inner.astype(np.int16) + 40, 0, 255).astype(np.uint8)
    lit = Run(quads=[_cell(0), _cell(1)], kind="back")
    kongs, took = outlined_kongs(img, np.ones(3, np.float32), [lit], 80.0, 1.0, 0.75)
    assert took == {id(lit)}
    assert len(kongs) == 1 and len(kongs[0].quads) == 4
    centres = sorted(float(np.asarray(q).mean(axis=0)[0]) for q in kongs[0].quads)
    assert np.allclose(centres, [130, 190, 250, 310], atol=4)
    # without the face-down run the lit pair's colour ends the run at two: no kong
    assert outlined_kongs(img, np.ones(3, np.float32), [], 80.0, 1.0, 0.75) == ([], set())


def test_a_face_down_run_of_three_found_by_colour_is_not_taken_into_a_kong():
    # only runs of one or two face-down tiles are taken in (a body's side may cut one tile's blob
    # in two); a longer run was cut to its count by its own length and covers its cells as before
    from vision.face_down import outlined_kongs

    img = _felt_with_cells(4, (40, 95, 35))
    three = Run(quads=[_cell(0), _cell(1), _cell(2)], kind="back")
    assert outlined_kongs(img, np.ones(3, np.float32), [three], 80.0, 1.0, 0.75) == ([], set())


def test_a_framed_cell_wider_than_the_kongs_pitch_tries_the_nearest_faces_width():
    # development scene 738 with camera bodies: the first back's framed cell took in a strip of
    # the felt (23.5 px against a pitch of 20.7), so stepping by its width the fourth cell lay a
    # quarter off its tile; the nearest face lying the same way gives the second pitch to try
    from vision.face_down import _pitches
    from vision.quads import centre

    cell = np.float32([[0, 0], [24, 0], [24, 31], [0, 31]])
    step = np.float32([24, 0])
    face = [Run(quads=[np.float32([[x, 100], [x + 20, 100], [x + 20, 127], [x, 127]]) for x in (0, 20)],
                kind="face", axis=np.float32([1, 0]))]
    assert _pitches(cell, step, [centre(cell)], face, 27.0, 0.74, 1.0) == pytest.approx([24.0, 20.0])
    near = [Run(quads=[q * np.float32([1.1, 1]) for q in face[0].quads], kind="face", axis=np.float32([1, 0]))]
    assert _pitches(cell, step, [centre(cell)], near, 27.0, 0.74, 1.0) == pytest.approx([22.0])
    far = [Run(quads=[q * np.float32([0.75, 1]) for q in face[0].quads], kind="face", axis=np.float32([1, 0]))]
    assert _pitches(cell, step, [centre(cell)], far, 27.0, 0.74, 1.0) == pytest.approx([24.0])
    # another framed cell one tile along gives the pitch itself
    other = cell + np.float32([21.0, 0])
    assert _pitches(cell, step, [centre(cell), centre(other)], face, 27.0, 0.74, 1.0) == pytest.approx([21.0])


def test_green_backs_on_green_felt_are_read_as_a_concealed_kong():
    # development scene 6: four green backs on green felt, which no colour tells from the table
    from vision.scan import scan

    data, truth = make_scene(6, width=3024)
    assert any(m.get("unknown") for m in truth["hand"]["melds"])
    res = scan(data)
    assert [m for m in res["hand"]["melds"] if m.get("unknown")] == [{"tiles": "", "concealed": True, "unknown": True}]
    assert sum(t["tile"] == "back" for t in res["tiles"]) == 4


@pytest.mark.skipif("imahjong_can" not in sources_for("1m") or not REAL_DIR.is_dir(),
                    reason="the imahjong_can font and the real tile crops are in ../shared, not on this machine")
@pytest.mark.parametrize("seed, sources", [(738, None), (75, ("real_photo",))])
def test_green_backs_on_green_felt_shot_at_a_tilt_are_read_as_a_concealed_kong(seed, sources):
    # with camera bodies: development scene 738, whose first back's framed cell was wider than the
    # kong's pitch, and real-photo scene 75, whose lit half was found by colour and the rest by
    # its outlines; each lost its four backs
    from vision.scan import scan

    data, truth = make_scene(seed, width=(1600, 2016, 3024, 4032)[seed % 4], sources=sources, bodies="camera")
    res = scan(data)
    assert [m for m in res["hand"]["melds"] if m.get("unknown")] == [{"tiles": "", "concealed": True, "unknown": True}]
    assert sum(t["tile"] == "back" for t in res["tiles"]) == 4


def test_a_window_cut_from_a_photo_finds_the_faces_the_whole_photo_does():
    # the closer look detects on the part of a photo around the first look's finds; with the
    # whole photo's size given, its faces are those found in the whole, moved by the window's corner
    data, truth = make_scene(4, width=2016, fill=0.5, source="drawn")
    img = decode(data, long_side=2000).image
    whole = [q for r in detect(img, long_side=2000)["runs"] if r.kind == "face" for q in r.quads]
    pts = np.concatenate(whole)
    x0, y0 = (int(v) for v in np.maximum(pts.min(axis=0) - 60, 0))
    x1, y1 = (int(v) for v in np.minimum(pts.max(axis=0) + 60, [img.shape[1], img.shape[0]]))
    assert (x1 - x0) * (y1 - y0) < 0.5 * img.shape[0] * img.shape[1]
    part = img[y0:y1, x0:x1]
    scale = 2000 / max(img.shape[:2])
    runs = detect(part, long_side=round(max(part.shape[:2]) * scale), whole=img.shape[:2])["runs"]
    found = [q + np.float32([x0, y0]) for r in runs if r.kind == "face" for q in r.quads]
    assert len(found) == len(whole) == len(truth["tiles"])
    height = float(np.median([np.linalg.norm(q[3] - q[0]) for q in whole]))
    for q in whole:  # the same corners, within a few per cent of a face (the white balance sees less table)
        assert min(np.abs(f - q).max() for f in found) < 0.05 * height


def test_a_window_keeps_the_whole_photos_least_face_size(monkeypatch):
    # a scrap a window's own area would let through as a face (its least blob is a share of the
    # mask's area) is measured against the whole photo's instead
    import vision.detect as detect_module
    seen = []
    real = detect_module.rect_blobs
    monkeypatch.setattr(detect_module, "rect_blobs",
                        lambda mask, cut, min_area, min_side, choices=None: seen.append((min_area, min_side))
                        or real(mask, cut, min_area, min_side, choices))
    img = np.full((750, 1000, 3), 90, np.uint8)
    detect(img)
    detect(img[100:400, 200:600], long_side=400, whole=(750, 1000))
    assert seen[0] == pytest.approx(seen[-1])


def test_a_window_detected_with_the_whole_photos_balance_does_not_balance_again(monkeypatch):
    # a window is mostly tiles: its own palest pixels and whiteness split would differ from the
    # photo's, so the closer look takes the first look's white balance and threshold as they are
    import vision.detect as detect_module
    data, truth = make_scene(4, width=2016, fill=0.5, source="drawn")
    img = decode(data, long_side=2000).image
    first = detect(img, long_side=1000)
    gains, threshold = first["balance"]
    assert gains.shape == (3,) and threshold >= 110.0

    def no_balance(*a, **k):
        raise AssertionError("balanced again")
    monkeypatch.setattr(detect_module, "white_balance", no_balance)
    part = img[200:1300, 300:1800]
    got = detect(part, long_side=round(1500 * 2000 / 2016), whole=img.shape[:2], balance=(gains, threshold))
    assert got["balance"][0] is gains and got["balance"][1] == threshold
    assert sum(len(r.quads) for r in got["runs"] if r.kind == "face") > 0


@pytest.mark.parametrize("width, long_side", [(2016, 2000), (3024, 2000), (1600, 1000)])
def test_photo_balance_is_the_balance_a_detection_of_the_whole_photo_uses(width, long_side):
    from vision.detect import photo_balance
    data, _ = make_scene(83, width=width, fill=0.45)
    img = decode(data, long_side=2000).image
    det = detect(img, long_side=long_side)
    gains, threshold = photo_balance(img, long_side, det["left_out"])
    assert np.array_equal(gains, det["balance"][0]) and threshold == det["balance"][1]


@pytest.mark.skipif("imahjong_jp" not in sources_for("1m"),
                    reason="development scene 403 is drawn in the I.Mahjong font from ../shared/art, not on this machine")
def test_a_window_on_the_photos_grid_with_its_table_colour_finds_the_face_down_tiles_the_whole_photo_does():
    # development scene 403: a concealed kong's green backs on a table lit brighter in the middle;
    # the box around the hand measured its own table paler (L 149 against 138) and, cut at an
    # odd pixel, halved its picture on other pairs of pixels: its face-down search lost a back
    from vision.detect import photo_balance
    data, truth = make_scene(403, width=4032)
    assert truth["params"]["source"] == "imahjong_jp"
    img = decode(data, long_side=2000).image
    whole = detect(img, long_side=2000)
    found = [q for r in whole["runs"] if r.kind == "face" for q in r.quads]
    x0, y0, x1, y1 = 440, 80, 2016, 1288   # on the grid of 8 px
    part = img[y0:y1, x0:x1]
    balance = photo_balance(img, 2000, whole["left_out"], found, whole["face_height"])
    assert len(balance) == 3
    got = detect(part, long_side=round(max(part.shape[:2]) * 2000 / 2016), whole=img.shape[:2], balance=balance)

    def backs(runs, by=(0, 0)):
        return np.float32(sorted(tuple(q.mean(axis=0) + by) for r in runs if r.kind == "back" for q in r.quads))

    def same(a, b):
        return a.shape == b.shape and np.abs(a - b).max() < 0.5
    assert len(backs(whole["runs"])) >= 4
    assert same(backs(got["runs"], (x0, y0)), backs(whole["runs"]))
    own = detect(part, long_side=round(max(part.shape[:2]) * 2000 / 2016), whole=img.shape[:2], balance=balance[:2])
    assert not same(backs(own["runs"], (x0, y0)), backs(whole["runs"]))   # the window's own table colour


def test_a_probe_like_the_cell_beyond_it_but_not_the_table_beside_it_is_a_face_probe():
    # speed photo 900003: two heavily inked 9p faces lost from the mask between two runs of
    # one row; the probe beyond each run's end lies on one of them and the cell further out on
    # the other, so the face-down test (it must differ from all three cells) drops it, while the
    # table beside it differs: a face probe, which only a sure face naming keeps (vision.scan)
    from vision.face_down import _probe_off_table

    lab = np.zeros((100, 300, 3), np.float32)
    lab[:] = (120, 140, 150)               # the table
    lab[35:65, 100:200] = (190, 128, 135)  # two lost faces side by side, along x
    q = np.float32([[100, 35], [150, 35], [150, 65], [100, 65]])   # the probe on the first
    step = np.float32([50, 0])                                      # the next cell: the second
    inner = lab[40:60, 105:145].reshape(-1, 3).mean(axis=0)
    assert not _probe_off_table(lab, inner, q, step, 1.0)
    assert _probe_off_table(lab, inner, q, step, 1.0, beside_only=True)
    lab[35:65, 150:200] = (120, 140, 150)  # table further out: an ordinary probe
    assert _probe_off_table(lab, inner, q, step, 1.0)
    lab[5:35, 100:150] = lab[65:95, 100:150] = (190, 128, 135)   # like the table beside it: neither
    assert not _probe_off_table(lab, inner, q, step, 1.0, beside_only=True)


def test_the_ivory_layer_of_face_down_tiles_is_not_taken_for_their_backs():
    # a camera at a tilt sees a face-down tile's side: its ivory layer lies along the backs, as
    # far from the table's colour as they are; the face mask holds that pale layer, so the backs'
    # blob is the coloured backs alone and its cells are the tiles' backs, not backs and side
    from vision.face_down import find_backs
    from vision.face_mask import face_mask, whiteness

    rng = np.random.default_rng(0)
    img = np.clip(np.float32((40, 80, 130)) + rng.normal(0, 3, (400, 800, 3)), 0, 255).astype(np.uint8)  # wood
    cv2.rectangle(img, (100, 180), (339, 259), (60, 130, 40), -1)    # four green backs, 60 x 80 px each
    cv2.rectangle(img, (100, 150), (339, 179), (200, 225, 235), -1)  # their ivory layer, towards the camera
    img = cv2.GaussianBlur(img, (3, 3), 0)
    gains = np.ones(3, np.float32)
    pale = face_mask(whiteness(img, gains))[0]
    assert pale[160:170, 120:320].mean() > 200 and pale[200:240, 120:320].mean() < 50
    no_faces = np.zeros(img.shape[:2], np.uint8)
    for with_pale, top in ((None, 150), (pale, 180)):
        backs = find_backs(img, gains, no_faces, 80.0, [], 1.0, pale_mask=with_pale)
        assert len(backs) == 1 and len(backs[0].quads) == 4
        pts = np.concatenate(backs[0].quads)
        assert abs(pts[:, 1].min() - top) <= 6 and abs(pts[:, 1].max() - 260) <= 6


def _blobs_joined(small: np.ndarray, mask: np.ndarray) -> tuple[list, list]:
    """The blobs of ``mask`` as ``_join_fragments`` takes them (contour, quad, sides), and what
    it makes of them on the picture ``small`` (no white balance, typical face 100 px thick)."""
    from vision.detect import _join_fragments
    from vision.quads import quad_sides

    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    found = [(c, q, *quad_sides(q)) for c, q in ((c, fit_quad(c)) for c in contours)]
    return found, _join_fragments(found, small, np.ones(3, np.float32), 100.0)


def test_a_scrap_of_an_inked_face_inside_a_joined_row_is_no_tile_of_its_own():
    # development scene 161: a meld of 8s whose middle face is crossed by sticks leaves two
    # pieces, joined as one row, and a scrap between them too thin to link; the scrap was kept
    # as a lone face, and its crop (part of one 8s) took that face's place as a 1s
    small = np.full((300, 500, 3), (60, 120, 60), np.uint8)        # green table
    small[100:200, 100:325] = (225, 235, 240)                         # three faces of 75 x 100
    small[100:200, 240:262] = (140, 60, 40)                           # ink across the middle face
    mask = np.zeros((300, 500), np.uint8)
    mask[100:200, 100:240] = 255                                      # the faces' two pieces ...
    mask[100:200, 262:325] = 255
    mask[140:165, 246:256] = 255                                      # ... and a scrap between them
    found, joined = _blobs_joined(small, mask)
    assert len(found) == 3 and len(joined) == 1
    a, b = joined[0][2], joined[0][3]
    assert abs(max(a, b) - 225) < 8 and abs(min(a, b) - 100) < 8


@pytest.mark.parametrize("gap, joined", [(35, False), (5, True)])
def test_two_whole_faces_a_gap_apart_are_not_joined_as_pieces_of_one_row(gap, joined):
    # real-photo scene 108 with camera bodies: flowers set apart in a line, the gaps between them
    # filled by their bodies (a blue back, an ivory layer), not the table: their faces were joined
    # as pieces of one row and cut in five for three. Two whole faces a seam apart are still one row.
    small = np.full((300, 500, 3), (60, 120, 60), np.uint8)          # green table
    x1 = 100 + 75 + gap
    small[100:200, 100:x1 + 75] = (150, 60, 30)                         # the bodies, blue
    small[100:200, 100:175] = small[100:200, x1:x1 + 75] = (225, 235, 240)  # two faces of 75 x 100
    mask = np.zeros((300, 500), np.uint8)
    mask[100:200, 100:175] = mask[100:200, x1:x1 + 75] = 255
    mask[130:140, 120:150] = mask[150:160, x1 + 20:x1 + 50] = 0        # their ink
    found, rows = _blobs_joined(small, mask)
    assert len(found) == 2
    assert len(rows) == (1 if joined else 2)


def test_a_short_blob_cut_in_three_at_clear_seams_is_not_made_a_pair_by_the_photo_aspect():
    # development scene 161 at 38 degrees: the near row's blob of three faces, its body's side
    # thickening it, is only 1.98 times as long as thick, which the photo's face aspect (its
    # far melds' wide faces) takes for a pair; the first split found its two seams clearly
    def outline(r):
        q = r.quads
        return np.float32([q[0][0], q[-1][1], q[-1][2], q[0][3]])

    img = np.full((800, 1200, 3), 200, np.uint8)
    for seams, count in ((1.4, 3), (0.6, 2)):   # 0.7 a cut: three faces; 0.3 a cut: a pair, as before
        runs = [_row_run(3, 90.0), _row_run(3, 90.0, y0=150), _row_run(3, 90.0, y0=300),
                _row_run(3, 200 / 3, x0=400, y0=500)]
        kept = [(outline(r), r.pitch * len(r.quads) / r.height, len(r.quads), 1.5) for r in runs[:3]]
        kept.append((outline(runs[3]), 2.0, 3, seams))
        assert abs(_recount(img, np.ones(3, np.float32), runs, kept) - 0.9) < 0.01
        assert len(runs[3].quads) == count


def _blob_of(mask: np.ndarray):
    from vision.quads import quad_sides

    c = max(cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=cv2.contourArea)
    quad = fit_quad(c, faces=True)
    return (c, quad, *quad_sides(quad))


def _inked_faces(mask: np.ndarray, x: int, y: int, n: int, w: int = 60, h: int = 80) -> None:
    """``n`` touching white faces with two ink dots each, the first's top-left at (x, y)."""
    cv2.rectangle(mask, (x, y), (x + n * w - 1, y + h - 1), 255, -1)
    for k in range(n):
        for dy in (h // 3, 2 * h // 3):
            cv2.circle(mask, (x + k * w + w // 2, y + dy), w // 5, 0, -1)


def test_two_groups_joined_by_a_thin_link_fall_apart_into_their_rows():
    # development scene 760 with camera bodies: a meld of four and, below it, a concealed
    # kong's two faces, joined where the kong's body reached the meld; the two rows' outline
    # passed for one face 1.8 times as thick as the others and was read as one rejected face
    from vision.detect import _stacked_parts

    mask = np.zeros((260, 320), np.uint8)
    _inked_faces(mask, 20, 20, 4)
    _inked_faces(mask, 80, 112, 2)
    cv2.rectangle(mask, (190, 99), (194, 112), 255, -1)  # the link: 5 px wide, 13 long
    parts = _stacked_parts(_blob_of(mask), typical=80.0, min_area=300.0, min_side=10.0)
    centres = sorted(tuple(np.round(p[1].mean(axis=0))) for p in parts)
    assert len(parts) == 2
    assert np.allclose(centres[0], (140, 60), atol=4) and np.allclose(centres[1], (140, 152), atol=4)


@pytest.mark.parametrize("shape", ["thick face", "row with its body's side"])
def test_a_thick_face_or_a_row_with_a_sliver_beside_it_stays_whole(shape):
    from vision.detect import _stacked_parts

    mask = np.zeros((260, 320), np.uint8)
    if shape == "thick face":
        _inked_faces(mask, 40, 20, 1, w=110, h=150)
    else:  # a body's side, a sliver under the row, joined by a thin link
        _inked_faces(mask, 20, 20, 4)
        cv2.rectangle(mask, (20, 106), (259, 119), 255, -1)
        cv2.rectangle(mask, (150, 99), (154, 106), 255, -1)
    assert _stacked_parts(_blob_of(mask), typical=80.0, min_area=300.0, min_side=10.0) == []


def _face_beside_a_speckled_patch(patch_white: float):
    """A face with ink touching a patch of table speckled into the face mask (a light square of
    a check cloth), beside a row of four faces; the mask, its whiteness map and the blobs."""
    rng = np.random.default_rng(3)
    mask = np.zeros((260, 360), np.uint8)
    white = np.full(mask.shape, 60, np.float32)
    _inked_faces(mask, 20, 150, 4)                    # a row: the photo's face thickness, 80
    _inked_faces(mask, 200, 30, 1)                    # the face, at x 200-259, y 30-109
    patch = (rng.random((80, 80)) < 0.85).astype(np.uint8) * 255
    mask[30:110, 120:200] = patch                     # the patch, touching its left edge
    white[mask > 0] = 220.0
    white[30:110, 120:200][patch > 0] = patch_white
    blobs = [_blob_of(m) for m in _components(mask)]
    return mask, white, blobs


def _components(mask: np.ndarray) -> list[np.ndarray]:
    n, labels = cv2.connectedComponents(mask)
    return [np.where(labels == k, 255, 0).astype(np.uint8) for k in range(1, n)]


def test_a_face_joined_to_a_paler_patch_of_the_table_is_freed_from_it():
    # development scene 792 with camera bodies: a flower set aside touching a light square of a
    # grey check cloth, whose weave speckles the face mask, made one blob two faces long
    from vision.detect import _face_blobs, _patchy

    mask, white, blobs = _face_beside_a_speckled_patch(patch_white=120.0)
    merged = [b for b in blobs if b[1][:, 0].min() < 150][0] if len(blobs) == 2 else None
    assert merged is not None and _patchy(merged[0], white, mask)
    faces, typical = _face_blobs(blobs, [], white, mask, lambda: mask, 300.0, 10.0)
    assert typical == pytest.approx(80, abs=6)
    lone = [f for f in faces if f[1][:, 1].max() < 140]
    assert len(lone) == 1
    assert np.allclose(lone[0][1].mean(axis=0), (229.5, 69.5), atol=5)  # the face alone
    assert max(lone[0][2], lone[0][3]) < 90


def test_two_faces_of_one_whiteness_are_not_patchy():
    from vision.detect import _face_blobs, _patchy

    mask, white, blobs = _face_beside_a_speckled_patch(patch_white=215.0)  # as white as a face
    merged = [b for b in blobs if b[1][:, 1].max() < 140][0]
    assert not _patchy(merged[0], white, mask)
    faces, _ = _face_blobs(blobs, [], white, mask, lambda: mask, 300.0, 10.0)
    assert any(f is merged for f in faces)


def _row_among_pale_squares(square_white: float):
    """A row of four inked faces (80 px thick, whiteness 220) below twelve squares of a check
    cloth that pass the face mask, speckled by its weave (30 px thick, ``square_white``); the
    mask, its whiteness map and the blobs."""
    rng = np.random.default_rng(5)
    mask = np.zeros((300, 400), np.uint8)
    white = np.full(mask.shape, 60, np.float32)
    _inked_faces(mask, 20, 200, 4)
    white[mask > 0] = 220.0
    for y in (20, 80, 140):
        for x in (20, 110, 200, 290):
            weave = (rng.random((30, 45)) < 0.9).astype(np.uint8) * 255
            mask[y:y + 30, x:x + 45] = weave
            white[y:y + 30, x:x + 45][weave > 0] = square_white
    return mask, white, [_blob_of(m) for m in _components(mask)]


def test_a_check_cloths_pale_squares_do_not_outvote_the_faces():
    # real-photo scene 196 with camera bodies: a grey and teal check cloth, whose lit grey
    # squares passed the face mask and, speckled by the weave, counted as inked faces; they
    # voted the typical face 29 px thick, and the hand's rows, 55, were dropped as too thick
    from vision.detect import _face_blobs, _lit_level

    mask, white, blobs = _row_among_pale_squares(square_white=120.0)
    row = [b for b in blobs if b[1][:, 1].min() > 180]
    assert len(blobs) == 13 and len(row) == 1
    assert _lit_level(row[0][0], white, mask) == 220.0
    assert _lit_level(blobs[0][0], white, mask) == 120.0
    faces, typical = _face_blobs(blobs, [], white, mask, lambda: mask, 300.0, 10.0)
    assert typical == pytest.approx(80, abs=6)
    assert any(f is row[0] for f in faces)
    assert len(faces) == 1  # the squares, a third as thick, are no faces


def test_squares_as_white_as_the_faces_keep_their_vote():
    from vision.detect import _face_blobs

    mask, white, blobs = _row_among_pale_squares(square_white=215.0)
    faces, typical = _face_blobs(blobs, [], white, mask, lambda: mask, 300.0, 10.0)
    assert typical == pytest.approx(30, abs=3)
    assert all(f[1][:, 1].max() < 180 for f in faces)  # the row, too thick for them, is dropped


def test_a_white_score_sheet_does_not_outvote_faces_a_little_less_white():
    # a sheet of paper with writing on it, whiter than the faces and far thicker, is an inked
    # blob too thick for the vote: the vote is taken again, and faces three quarters as white
    # as the paper (old ivory, or in shade) keep their weight
    from vision.detect import _face_blobs

    mask = np.zeros((400, 500), np.uint8)
    white = np.full(mask.shape, 60, np.float32)
    _inked_faces(mask, 20, 20, 4)
    _inked_faces(mask, 20, 140, 1)
    white[mask > 0] = 190.0
    cv2.rectangle(mask, (170, 150), (479, 329), 255, -1)  # the sheet, 180 px thick, 310 long
    for y in range(170, 320, 20):
        cv2.line(mask, (185, y), (460, y), 0, 2)  # its lines of writing
    white[150:330, 170:480][mask[150:330, 170:480] > 0] = 250.0
    blobs = [_blob_of(m) for m in _components(mask)]
    faces, typical = _face_blobs(blobs, [], white, mask, lambda: mask, 300.0, 10.0)
    assert typical == pytest.approx(80, abs=6)
    assert len(faces) == 2 and all(f[1][:, 1].max() < 230 for f in faces)  # the row and the lone face


def test_a_window_converted_alone_gives_the_mean_of_the_whole_picture_converted():
    """kongs_from_ends converts to Lab only the windows it reads (mean_in's ``convert``)."""
    from vision.table_colour import balanced_lab, is_set_pixel, mean_in, to_lab
    from vision.white_balance import apply_gains

    rng = np.random.default_rng(7)
    img = rng.integers(0, 256, (120, 160, 3), dtype=np.uint8)
    gains = np.float32([1.2, 0.9, 1.4])
    whole = to_lab(apply_gains(img, gains))
    mask = np.where(rng.random((120, 160)) > 0.6, 255, 0).astype(np.uint8)
    share = (mask > 0).astype(np.float32)[..., None]
    for quad in (np.float32([[10, 12], [70, 15], [66, 90], [8, 85]]), np.float32([[100, 5], [170, 10], [165, 60], [95, 55]])):
        assert np.array_equal(mean_in(img, quad, convert=balanced_lab(gains)), mean_in(whole, quad))
        assert np.array_equal(mean_in(mask, quad, convert=is_set_pixel), mean_in(share, quad))


def test_small_median_is_numpys_median_to_the_bit():
    """small_median stands in for np.median on a few values (run geometry, row heights): the
    same number, for float32 arrays (averaged in float32) and lists of Python floats alike."""
    from vision.small_stats import small_median

    rng = np.random.default_rng(11)
    for n in range(1, 30):
        for scale in (1.0, 57.3, 1e-3):
            a = (rng.random(n) * scale).astype(np.float32)
            assert small_median(a) == float(np.median(a))
            values = [float(x) for x in rng.random(n) * scale]
            assert small_median(values) == float(np.median(values))
            assert small_median(a.astype(np.float64)) == float(np.median(a.astype(np.float64)))
    assert small_median([2.0, np.float32(1.5)]) == float(np.median([2.0, np.float32(1.5)]))  # mixed: numpy's


def test_a_blocks_percentile_is_the_row_percentile_of_it_flattened():
    """_side_cuts reads a face's lightness near an edge as one percentile of a block, and
    _patchy two percentiles of a blob's lit pixels at once: the numbers row_percentile gives."""
    from vision.small_stats import percentiles, row_percentile

    rng = np.random.default_rng(5)
    grey = rng.integers(0, 256, (40, 60)).astype(np.float32)
    for block in (grey[3:9, 10:50], grey[5:35, 2:7], grey[0:1, 0:1], grey[4:6, 7:9]):
        for q in (75, 80, 20):
            (one,) = percentiles(block, (q,))
            assert one == row_percentile(block.reshape(1, -1), q)[0]
            assert float(one) == pytest.approx(float(np.percentile(block, q)), abs=1e-3)
        together = percentiles(block, (50, 90))
        assert [x.dtype for x in together] == [np.float32, np.float32]
        assert together == [row_percentile(block.reshape(1, -1), q)[0] for q in (50, 90)]



def test_whiteness_worked_out_in_bands_is_the_whole_pictures():
    """whiteness works a picture out WHITENESS_ROWS rows at a time: the numbers are those of the
    whole picture at once, the last, shorter band included."""
    import cv2 as cv
    from vision.face_mask import WHITENESS_ROWS, whiteness
    from vision.white_balance import gain_table

    rng = np.random.default_rng(3)
    img = rng.integers(0, 256, (2 * WHITENESS_ROWS + 23, 90, 3), dtype=np.uint8)
    gains = np.float32([1.31, 0.87, 1.12])
    table = gain_table(gains)
    b, g, r = (cv.LUT(ch, np.ascontiguousarray(table[:, i])) for i, ch in enumerate(cv.split(img)))
    spread = cv.subtract(cv.max(cv.max(b, g), r), cv.min(cv.min(b, g), r))
    whole = cv.addWeighted(cv.add(cv.add(b, g), r), 1.0 / 3.0, spread, -1.6, 0.0)
    assert whiteness(img, gains).dtype == np.float32
    assert np.array_equal(whiteness(img, gains), whole)
    assert np.array_equal(whiteness(img[:5], gains), whole[:5])


def test_the_table_colours_coarse_colour_is_numpys_floor_division_to_the_bit():
    """``_dominant`` takes the coarse colour as ``floor(lab / 16)`` for speed: the same keys, and so
    the same colour, as ``lab // 16``, on Lab pixels (integers 0-255 as float32, as ``to_lab``
    gives them) and on any float32 values."""
    from vision.table_colour import _dominant

    rng = np.random.default_rng(3)
    for lab in (rng.integers(0, 256, (5000, 3)).astype(np.float32),
                rng.normal(128, 20, (5000, 3)).astype(np.float32).clip(0, 255).round()):
        q = (lab // 16).astype(np.int32)
        key = q[:, 0] * 256 + q[:, 1] * 16 + q[:, 2]
        want = np.median(lab[key == np.bincount(key).argmax()], axis=0).astype(np.float32)
        assert np.array_equal(_dominant(lab), want)
    values = rng.uniform(-1e6, 1e6, 100000).astype(np.float32)
    assert np.array_equal(np.floor(values * np.float32(1 / 16)), values // 16)


def test_a_column_rank_is_numpys_partition_to_the_bit():
    """The seam evidence takes per-column order statistics by sorting, and of a four-row band by
    maxima and minima: the same values as ``np.partition`` down the rows, ties and all."""
    from vision.seams import _column_rank

    rng = np.random.default_rng(5)
    for rows in (4, 5, 7, 61, 62):
        for values in (rng.random((rows, 300)).astype(np.float32),
                       rng.integers(0, 4, (rows, 300)).astype(np.float32)):  # many ties
            for k in {0, rows // 2, int(0.3 * (rows - 1)), rows - 1}:
                assert np.array_equal(_column_rank(values, k), np.partition(values, k, axis=0)[k])


def test_the_pale_table_test_is_the_median_rule_to_the_bit():
    """``is_pale_table`` tells the median's side of ``PALE_TABLE_WHITE`` from counts where they
    settle it: the same answer as ``np.median(sample) >= PALE_TABLE_WHITE``, odd and even sizes,
    middle values on the line, just under it, straddling it (their float32 mean rounded) and far
    from it."""
    from vision.detect import PALE_TABLE_WHITE, is_pale_table

    rng = np.random.default_rng(9)
    under = np.nextafter(np.float32(PALE_TABLE_WHITE), np.float32(0))
    for h in (4, 5, 8, 9, 40, 41):
        for w in (4, 5, 8, 12):
            for base in (rng.uniform(60, 180, (h, w)), rng.normal(PALE_TABLE_WHITE, 0.5, (h, w)),
                         rng.choice([under, PALE_TABLE_WHITE, 119.5, 121.0], (h, w))):
                white = np.zeros((h * 4, w * 4), np.float32)
                white[::4, ::4] = base
                want = bool(float(np.median(white[::4, ::4])) >= PALE_TABLE_WHITE)
                assert is_pale_table(white) == want
    for pair in ((under, PALE_TABLE_WHITE), (under, under), (PALE_TABLE_WHITE, PALE_TABLE_WHITE)):
        white = np.zeros((8, 4), np.float32)
        white[::4, ::4] = np.float32(pair).reshape(2, 1)  # the two middle values of an even sample
        assert is_pale_table(white) == bool(float(np.median(white[::4, ::4])) >= PALE_TABLE_WHITE)


def test_the_distance_to_the_nearest_colour_is_a_root_per_colour_to_the_bit():
    """``lab_distance`` sums each colour's weighted squares over the three channels at once and
    takes one root, of the least: the same float32 numbers, bit for bit, as the distance to each
    colour worked out plane by plane (squares, weighted sum, root) and the least of those, on
    whole-number Lab pictures and colours that are halves (medians), one colour or several."""
    from vision.table_colour import CHROMA_WEIGHT, L_WEIGHT, lab_distance, to_lab

    rng = np.random.default_rng(11)

    def one_by_one(lab, ref):
        l_, a_, b_ = (lab[..., i] - np.float32(ref[i]) for i in range(3))
        total = np.float32(L_WEIGHT) * (l_ * l_) + np.float32(CHROMA_WEIGHT) * (a_ * a_ + b_ * b_)
        return np.sqrt(total.astype(np.float32))

    for h, w in ((7, 5), (64, 48), (189, 252)):
        lab = to_lab(rng.integers(0, 256, (h, w, 3)).astype(np.float32))
        assert np.array_equal(lab, np.round(lab))
        for n in (1, 2, 3):
            refs = [(rng.integers(0, 511, 3) / 2).astype(np.float32) for _ in range(n)]
            refs.append(lab[h // 2, w // 2].copy())  # a colour the picture holds: distance 0 there
            want = np.minimum.reduce([one_by_one(lab, r) for r in refs])
            got = lab_distance(lab, refs)
            assert got.dtype == np.float32 and got.shape == (h, w)
            assert np.array_equal(got, want)
            assert got[h // 2, w // 2] == 0
