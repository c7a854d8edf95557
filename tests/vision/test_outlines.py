"""Faces on a pale table, found by their outlines (vision/outlines.py)."""
import cv2
import numpy as np

from vision.detect import detect
from vision.face_mask import face_mask, whiteness
from vision.white_balance import white_balance
import vision.outlines as outlines
from vision.outlines import outlined_face_mask, silhouettes

FACE_W, FACE_H, X0, Y0, N = 60, 80, 60, 150, 6


def _cloth(rng: np.random.Generator, lit: bool = True) -> np.ndarray:
    """A white cloth, 600 x 400, with a fine weave and noise (drawn from ``rng``), lit brighter on
    its right (a lamp) where ``lit``; float32."""
    h, w = 400, 600
    light = np.linspace(0.92, 1.04, w, dtype=np.float32)[None, :, None] if lit else np.float32(1.0)
    cloth = np.full((h, w, 3), (228, 232, 234), np.float32) * light
    weave = ((np.indices((h, w)).sum(axis=0) % 4) < 2).astype(np.float32)[..., None] * 5.0
    return cloth - weave + rng.normal(0, 3, (h, w, 3)).astype(np.float32)


def _cloth_with_a_row(seed: int = 0) -> np.ndarray:
    """A white cloth (:func:`_cloth`) and a row of ``N`` touching ivory faces that are *less*
    white than the cloth, edged by a slightly darker bevel: a green body layer below them, their
    shadow on the cloth, dark seams and ink strokes on each face."""
    rng = np.random.default_rng(seed)
    img = _cloth(rng)
    right = X0 + N * FACE_W
    cv2.rectangle(img, (X0 + 4, Y0 + FACE_H), (right + 4, Y0 + FACE_H + 16), (150, 150, 150), -1)  # shadow
    cv2.rectangle(img, (X0, Y0 + FACE_H), (right, Y0 + FACE_H + 10), (60, 120, 40), -1)             # body's green
    for k in range(N):
        x = X0 + k * FACE_W
        cv2.rectangle(img, (x, Y0), (x + FACE_W - 1, Y0 + FACE_H - 1), (165, 185, 195), -1)           # bevel
        cv2.rectangle(img, (x + 2, Y0 + 2), (x + FACE_W - 3, Y0 + FACE_H - 3), (190, 212, 222), -1)   # ivory
        cv2.line(img, (x, Y0), (x, Y0 + FACE_H - 1), (120, 130, 135), 2)                                # seam
        for _ in range(3):  # ink
            cy = Y0 + int(rng.integers(20, FACE_H - 20))
            cv2.line(img, (x + 15, cy), (x + FACE_W - 15, cy + int(rng.integers(-8, 9))), (40, 40, 160), 4)
    cv2.line(img, (right - 1, Y0), (right - 1, Y0 + FACE_H - 1), (120, 130, 135), 2)
    return np.clip(img, 0, 255).astype(np.uint8)


def _faces_box() -> tuple[slice, slice]:
    return slice(Y0 + 6, Y0 + FACE_H - 6), slice(X0 + 6, X0 + N * FACE_W - 6)


def _cloth_away_from_the_row(shape) -> np.ndarray:
    """Where the picture is cloth only: everything but the row with its body, shadow and a margin."""
    cloth = np.ones(shape[:2], bool)
    cloth[Y0 - 20:Y0 + FACE_H + 40, X0 - 20:X0 + N * FACE_W + 30] = False
    return cloth


def test_silhouettes_enclose_the_row_and_not_the_weave():
    img = _cloth_with_a_row()
    sil = silhouettes(img)
    rows, cols = _faces_box()
    assert sil[rows, cols].mean() / 255 > 0.98
    cloth = _cloth_away_from_the_row(sil.shape)
    assert sil[cloth].mean() / 255 < 0.01


def test_faces_less_white_than_the_cloth_are_found_by_their_outlines():
    img = _cloth_with_a_row()
    gains, _ = white_balance(img)
    white = whiteness(img, gains)
    rows, cols = _faces_box()
    cloth = _cloth_away_from_the_row(white.shape)
    plain = face_mask(white)[0]
    # the whiteness threshold takes the cloth, or leaves out the faces
    assert plain[cloth].mean() / 255 > 0.3 or plain[rows, cols].mean() / 255 < 0.5
    mask, cut, _ = face_mask(white, outlines_of=img)
    assert np.array_equal(mask, outlined_face_mask(img, np.clip(white, 0, 255).astype(np.uint8)))
    assert mask[rows, cols].mean() / 255 > 0.75  # the faces less their ink
    assert mask[cloth].mean() / 255 < 0.01
    assert mask[Y0 + FACE_H + 2:Y0 + FACE_H + 9, X0:X0 + N * FACE_W].mean() / 255 < 0.05  # not the body
    assert cut().shape == mask.shape


def test_a_row_on_a_pale_cloth_is_split_into_its_faces():
    img = _cloth_with_a_row()
    det = detect(img)
    assert det["pale_table"] is True
    faces = [q for r in det["runs"] if r.kind == "face" for q in r.quads]
    assert len(faces) == N
    xs = sorted(float(np.mean(q[:, 0])) for q in faces)
    assert np.allclose(xs, [X0 + (k + 0.5) * FACE_W for k in range(N)], atol=6)


def _lone_face_open_at_a_corner(gap: int = 12) -> tuple[np.ndarray, tuple[slice, slice]]:
    """A lone face on the cloth, as white as the cloth, its dark outline (a bevel, its body's
    layer) broken for ``gap`` px at its top-left corner, where its lit edge meets the cloth;
    ink strokes on the face. Returns the picture and the face's inside (rows, columns)."""
    img = _cloth(np.random.default_rng(0), lit=False)
    x0, y0, w, h = 250, 120, 90, 120
    outline = np.int32([[x0 + gap, y0], [x0 + w, y0], [x0 + w, y0 + h], [x0, y0 + h], [x0, y0 + gap]])
    cv2.polylines(img, [outline], False, (90, 110, 120), 3)
    for k in range(3):
        cy = y0 + 30 + 30 * k
        cv2.line(img, (x0 + 20, cy), (x0 + w - 20, cy + 6), (40, 40, 160), 4)
    return np.clip(img, 0, 255).astype(np.uint8), (slice(y0 + 8, y0 + h - 8), slice(x0 + 8, x0 + w - 8))


def test_a_lone_face_whose_outline_is_open_at_a_corner_is_enclosed(monkeypatch):
    img, (rows, cols) = _lone_face_open_at_a_corner()
    assert silhouettes(img)[rows, cols].mean() / 255 > 0.95
    monkeypatch.setattr(outlines, "HULL_COVER", 1.01)  # no outline closed by its hull
    assert silhouettes(img)[rows, cols].mean() / 255 < 0.5  # only the ink strokes' own outlines


def test_two_strokes_meeting_at_a_corner_are_not_closed_into_a_face():
    img = _cloth(np.random.default_rng(0), lit=False)
    cv2.polylines(img, [np.int32([[250, 120], [250, 240], [340, 240]])], False, (90, 110, 120), 3)
    sil = silhouettes(np.clip(img, 0, 255).astype(np.uint8))
    # the triangle the two strokes span, away from the strokes themselves
    inside = np.zeros(sil.shape, np.uint8)
    cv2.fillConvexPoly(inside, np.int32([[262, 160], [262, 228], [310, 228]]), 1)
    assert sil[inside > 0].mean() / 255 < 0.05
