"""A blob's four-corner outline (``vision.quads``): lines fitted to its hull sides, rounded corners,
ink bites and glare bumps, and a row's end leaning far from the other."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.quads import fit_quad, squared_ends


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


def test_a_face_with_a_bump_of_glare_is_not_grown_to_the_bump():
    # a pentagon whose fifth corner sticks out (glare joined to a face) is no bitten corner:
    # its four longest sides, extended, would hold far more than the blob
    mask = np.zeros((300, 300), np.uint8)
    cv2.fillConvexPoly(mask, np.int32([[90, 90], [190, 90], [190, 210], [90, 210]]), 255)
    cv2.fillConvexPoly(mask, np.int32([[190, 90], [260, 150], [190, 210]]), 255)
    c, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    q = fit_quad(c[0], faces=True)
    assert abs(cv2.contourArea(q.reshape(-1, 1, 2))) <= 1.35 * cv2.contourArea(cv2.convexHull(c[0]))


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
