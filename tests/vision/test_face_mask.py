"""The face mask and its blobs (``vision.face_mask``): whiteness, rows bitten by ink, thin tails."""
from __future__ import annotations

import cv2
import numpy as np
import pytest


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


# real-photo camera scene 337's concealed kong: the mask of its two faces, joined by the lit ivory
# layer of the bodies to a strip round the face-down end on their left (its green back not in the
# mask), traced as a polygon (cv2.approxPolyDP, 1 px) and moved near the origin
_KONG_PAIR_WITH_A_STRIP = [
    [176, 54], [141, 20], [138, 20], [105, 37], [102, 43], [100, 41], [96, 41], [67, 56], [66, 58], [63, 58],
    [63, 64], [94, 97], [97, 97], [99, 99], [95, 100], [94, 113], [91, 113], [58, 131], [52, 131], [48, 128],
    [22, 96], [20, 96], [20, 104], [51, 141], [54, 140], [55, 142], [59, 142], [94, 123], [95, 112], [99, 112],
    [135, 92], [137, 88], [141, 89], [176, 70]]


def test_faces_joined_by_a_strip_round_a_face_down_end_are_no_bitten_row():
    # the blob is no rectangle and its hull is: read as a row bitten by ink, its outline took in
    # the face-down end's back, a tile's breadth, and the kong was read as a rejected face and
    # two faces. What the hull holds beyond the blob is a block, not strokes: no row is offered,
    # and the two faces stand as the blob the strip leaves
    from vision.face_mask import rect_blobs

    mask = np.zeros((170, 200), np.uint8)
    cv2.fillPoly(mask, [np.int32(_KONG_PAIR_WITH_A_STRIP)], 255)
    choices: list = []
    blobs = rect_blobs(mask, lambda: mask, 300.0, 10.0, choices)
    assert choices == []
    (_, quad, a, b), = blobs
    assert max(a, b) == pytest.approx(91, abs=3) and min(a, b) == pytest.approx(65, abs=3)  # two faces


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


def _two_faces_with_a_tail(tail_width: int):
    """The mask of two faces side by side (120 x 170 px) with a strip ``tail_width`` px wide and 90
    px long running on from one long side: the lit ivory layer of the tiles' bodies, which goes on
    along the face-down tiles beyond them (a concealed kong's faces between its ends)."""
    mask = np.zeros((450, 350), np.uint8)
    mask[100:270, 100:220] = 255
    mask[270:360, 220 - tail_width:220] = 255
    return mask


def test_a_thin_tail_does_not_pull_a_faces_outline_askew(monkeypatch):
    import vision.face_mask as face_mask_module

    mask = _two_faces_with_a_tail(6)
    (_, quad, _, _), = face_mask_module.rect_blobs(mask, lambda: mask, 500, 10)
    assert np.abs(quad - np.float32([[100, 100], [219, 100], [219, 269], [100, 269]])).max() <= 2
    # fitted with its tail, as it was before the rule: one corner 90 px down the tail
    monkeypatch.setattr(face_mask_module, "TAIL_FILL", face_mask_module.RECT_FILL)
    (_, quad, _, _), = face_mask_module.rect_blobs(mask, lambda: mask, 500, 10)
    assert quad[:, 1].max() > 340


@pytest.mark.parametrize("shape", ["thick tail", "L"])
def test_what_is_no_thin_tail_is_fitted_as_before(shape, monkeypatch):
    """A strip as thick as a face's fifth is a part of the blob, not a tail, and a face set across a
    row's end (an L) is no rectangle with a tail: the outline is the one fitted before the rule."""
    import vision.face_mask as face_mask_module

    if shape == "thick tail":
        mask = _two_faces_with_a_tail(24)
    else:
        mask = np.zeros((400, 500), np.uint8)
        mask[100:160, 60:360] = 255   # a row of faces, 60 px high
        mask[100:130, 360:440] = 255  # a face lying across its end (shot from its side: half as high)
    got = face_mask_module.rect_blobs(mask, lambda: mask, 500, 10)
    monkeypatch.setattr(face_mask_module, "TAIL_FILL", face_mask_module.RECT_FILL)
    before = face_mask_module.rect_blobs(mask, lambda: mask, 500, 10)
    assert len(got) == len(before) and all(np.array_equal(a[1], b[1]) for a, b in zip(got, before))


def test_the_raised_threshold_lies_halfway_to_the_split_between_table_and_faces():
    from vision.face_mask import raised_threshold
    rng = np.random.default_rng(3)
    # green squares, grey ones whose lit tail passes a threshold of 110, and faces lit unevenly
    sample = np.concatenate([rng.normal(20, 8, 40000), rng.normal(95, 6, 40000), rng.uniform(150, 240, 6000)])
    sample = np.clip(sample, 0, 255).astype(np.uint8)
    bright = sample[sample > 110]
    split, _ = cv2.threshold(bright.reshape(1, -1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    t = raised_threshold(sample, 110.0)
    assert t == (110 + split) / 2 and 130 < t < 160
    assert np.count_nonzero(sample > t) == pytest.approx(6000, rel=0.02)  # the faces, not the grey
    assert np.count_nonzero(sample > split) < 0.9 * 6000  # the split itself loses dim faces
    # where nothing above the first threshold stands apart from it, or too little lies above it: none
    near = np.clip(np.concatenate([rng.normal(20, 8, 4000), rng.normal(120, 4, 4000)]), 0, 255).astype(np.uint8)
    assert raised_threshold(near, 110.0) is None
    assert raised_threshold(np.uint8([200] * 99 + [10] * 1000), 110.0) is None


def test_a_row_joined_to_a_patch_of_glare_is_parted_from_it(monkeypatch):
    """Development scene 1059 with camera bodies: a round patch of lamp glare on the cloth, as
    white as the faces, touched a row's end; the blob's outline was fitted with a corner out on
    the glare, far askew, and the row's end face was lost. The edge-cut mask holds the row's
    outline as an edge."""
    import vision.face_mask as face_mask_module
    from vision.quads import squareness

    mask = np.zeros((500, 800), np.uint8)
    row = np.int32([[200, 260], [560, 250], [575, 370], [210, 385]])  # four faces in perspective
    cv2.fillConvexPoly(mask, row, 255)
    cv2.circle(mask, (170, 200), 90, 255, -1)  # the glare, touching the row's end
    cut = mask.copy()
    cv2.polylines(cut, [row], True, 0, 3)
    inside = cv2.fillConvexPoly(np.zeros_like(mask), row, 255) > 0
    cut[inside] = mask[inside]
    (_, quad, _, _), = face_mask_module.rect_blobs(mask, lambda: cut, 500, 10)
    assert np.abs(quad - row).max() <= 2 and squareness(quad) > 0.9
    # without the rule, the outline takes in the glare
    monkeypatch.setattr(face_mask_module, "OUTLINE_ASKEW", 0.0)
    (_, quad, _, _), = face_mask_module.rect_blobs(mask, lambda: cut, 500, 10)
    assert squareness(quad) < 0.4 and quad[:, 1].min() < 200  # a corner out on the glare
