"""A claimed tile laid sideways in a meld, riichi style (vision/sideways.py)."""
import math

import cv2
import numpy as np
import pytest

from vision.quads import fit_quad
from vision.sideways import sideways_alone, sideways_beside, sideways_parts

H, W = 100.0, 75.0  # an upright face's height and width in the picture


def _turned(pts, deg, at=(300.0, 300.0)):
    a = math.radians(deg)
    r = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return (np.asarray(pts, np.float64) @ r.T + at).astype(np.float32)


def _blob(rects, deg):
    """The face mask of touching rectangles (x0, y0, x1, y1 in the meld's own frame, x along it),
    turned by ``deg``: (contour, fitted quad, area) of the one blob they make."""
    mask = np.zeros((700, 700), np.uint8)
    for x0, y0, x1, y1 in rects:
        cv2.fillConvexPoly(mask, np.int32(np.round(_turned([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], deg))), 255)
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    assert len(contours) == 1
    c = contours[0]
    return c, fit_quad(c, faces=True), cv2.contourArea(c)


def _meld(sideways_at: int | None, n: int = 3):
    """Rectangles of a meld of ``n`` touching faces along x, their lower edges (y = H / 2) in
    line, the one at ``sideways_at`` laid sideways (H long, W thick)."""
    rects, x = [], -150.0
    for i in range(n):
        along, thick = (H, W) if i == sideways_at else (W, H)
        rects.append((x, H / 2 - thick, x + along, H / 2))
        x += along
    return rects


@pytest.mark.parametrize("deg", [0.0, 33.0, -71.0])
@pytest.mark.parametrize("at", [0, 1, 2])
def test_a_meld_blob_is_cut_at_the_step_of_its_sideways_face(deg, at):
    c, quad, area = _blob(_meld(at), deg)
    parts = sideways_parts(c, quad, min_area=0.3 * W * H)
    sides = [blob for blob, side in parts if side]
    uprights = [blob for blob, side in parts if not side]
    assert len(sides) == 1
    _, q, a, b = sides[0]
    assert abs(max(a, b) - H) < 6 and abs(min(a, b) - W) < 6  # the sideways face, fitted on its own
    x0, y0, x1, y1 = _meld(at)[at]
    assert np.linalg.norm(q.mean(axis=0) - _turned([((x0 + x1) / 2, (y0 + y1) / 2)], deg)[0]) < 4
    # the upright faces: one blob of two beside a sideways end, one each beside a sideways middle
    assert [round(max(a, b) / W) for _, _, a, b in uprights] == ([2] if at in (0, 2) else [1, 1])
    assert sum(cv2.contourArea(p[0]) for p in sides + uprights) > 0.95 * area


@pytest.mark.parametrize("deg", [0.0, 33.0])
def test_rows_with_no_sideways_face_are_left_whole(deg):
    # a plain meld; a long row thinning end to end as perspective makes it; a tile pushed out
    # of line (both its edges move); a kong of four
    plain = _meld(None)
    c, quad, _ = _blob(plain, deg)
    assert sideways_parts(c, quad, min_area=0.3 * W * H) == []
    # thinning from 100 px to 75 over 250: its last half is as thin and as long as a sideways
    # face, but thins gradually, with no step (far steeper than perspective makes a meld)
    taper = np.array([(-125, -50), (125, -37.5), (125, 37.5), (-125, 50)], np.float64)
    mask = np.zeros((700, 700), np.uint8)
    cv2.fillConvexPoly(mask, np.int32(np.round(_turned(taper, deg))), 255)
    cs, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    assert sideways_parts(cs[0], fit_quad(cs[0], faces=True), min_area=0.3 * W * H) == []
    pushed = [(x0, y0 - (15 if i == 1 else 0), x1, y1 - (15 if i == 1 else 0)) for i, (x0, y0, x1, y1) in enumerate(plain)]
    c, quad, _ = _blob(pushed, deg)
    assert sideways_parts(c, quad, min_area=0.3 * W * H) == []
    c, quad, _ = _blob(_meld(None, 4), deg)
    assert sideways_parts(c, quad, min_area=0.3 * W * H) == []


def test_a_sideways_face_apart_from_its_meld_is_told_from_two_upright_faces_by_its_thickness():
    axis = np.array([math.cos(0.4), math.sin(0.4)])

    def quad(along, thick):
        return _turned([(0, 0), (along, 0), (along, thick), (0, thick)], math.degrees(0.4))

    assert sideways_alone(quad(H, W), H, axis)                # a sideways face beside faces H tall
    assert sideways_alone(quad(H * 1.05, W + 8), H, axis)     # ... its body's side showing along it
    assert not sideways_alone(quad(2 * W, H), H, axis)        # two touching upright faces
    assert not sideways_alone(quad(W, H), H, axis)            # a lone upright face: long side across
    assert not sideways_alone(quad(H, W), 1.5 * H, axis)      # too short for the faces beside it
    assert not sideways_alone(quad(H, W), H, np.array([-axis[1], axis[0]]))  # across the row


def test_a_sideways_face_end_to_end_with_its_meld_is_no_piece_of_a_face():
    assert sideways_beside((H, 0.85 * H), (2 * W, H))         # thickened by its body's side
    assert not sideways_beside((0.4 * W, H), (1.6 * W, H))    # a face cut in two by its ink
    assert not sideways_beside((0.6 * H, 0.85 * H), (2 * W, H))  # too short to be a face on its side
