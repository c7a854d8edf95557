"""The face mask and its blobs (``vision.face_mask``): whiteness, rows bitten by ink."""
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
