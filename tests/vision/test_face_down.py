"""Face-down tiles and kongs (``vision.face_down``): colour blobs cut at the face pitch, outlined
kongs, row-end probes, the ivory layer of face-down tiles."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.faces import sources_for
from vision.faces.photos import REAL_DIR
from vision.quads import Run
from vision.scenes import make_scene


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


def _pale_cloth_with_faces(inked: list[int], seed: int = 0) -> np.ndarray:
    """A Lab picture of a pale cloth (a faint weave and a glare gradient) with cells 50 px wide
    along x from x=100 (row y 35-95); the cells in ``inked`` are white faces with dark and
    coloured strokes, the others bare cloth."""
    rng = np.random.default_rng(seed)
    lab = np.zeros((130, 500, 3), np.float32)
    lab[..., 0] = 215 + np.linspace(0, 25, 500)[None, :] + rng.normal(0, 2, (130, 500))
    lab[..., 1:] = 128 + rng.normal(0, 1, (130, 500, 2))
    for i in inked:
        x0 = 100 + 50 * i
        lab[35:95, x0:x0 + 50, 0] = 240
        lab[50:80, x0 + 12:x0 + 20, 0] = 90                  # a black stroke
        lab[45:85, x0 + 28:x0 + 36, 1:] = (170, 150)          # a red one
    return np.clip(lab, 0, 255)


def _pale_cell(i: int) -> np.ndarray:
    x0 = 100 + 50 * i
    return np.float32([[x0, 35], [x0 + 50, 35], [x0 + 50, 95], [x0, 95]])


def test_faces_a_pale_tables_outlines_lost_beyond_a_rows_end_are_face_probes():
    # development scene 57 on a pale table: a lamp's glare left the last three faces of a row
    # of eight without an outline on their lit side; white like the cloth, no colour test of
    # the probe beyond the row's end kept them, but their ink sets them apart from the cloth
    from vision.face_down import PALE_INK_CELLS, _inked_cells, cell_ink

    step = np.float32([50, 0])
    lab = _pale_cloth_with_faces([0, 1, 2])
    assert cell_ink(lab, _pale_cell(0)) >= 0.2 and cell_ink(lab, _pale_cell(4)) < 0.05
    cells = _inked_cells(lab, _pale_cell(0), step, 1.0)
    assert len(cells) == 3 and all(np.allclose(c, _pale_cell(i)) for i, c in enumerate(cells))
    # the cells stop at the first bare one, and at PALE_INK_CELLS
    assert len(_inked_cells(_pale_cloth_with_faces([0, 2]), _pale_cell(0), step, 1.0)) == 1
    assert len(_inked_cells(_pale_cloth_with_faces(list(range(6))), _pale_cell(0), step, 1.0)) == PALE_INK_CELLS
    # bare cloth beyond the row's end, glare and weave and all: none
    assert _inked_cells(_pale_cloth_with_faces([]), _pale_cell(0), step, 1.0) == []
    # a cell lying half over a found face (stepped across the gap to the next meld): none
    lab = _pale_cloth_with_faces([0, 1])
    assert len(_inked_cells(lab, _pale_cell(0), step, 1.0, [_pale_cell(2) - [25, 0]])) == 1
    assert len(_inked_cells(lab, _pale_cell(0), step, 1.0, [_pale_cell(2) - [3, 0]])) == 2
    # ink beside the cell as well (a busy printed cloth, or the cell lies across another row): none
    lab = _pale_cloth_with_faces([0])
    lab[95:125, 100:150] = lab[35:65, 100:150]
    assert _inked_cells(lab, _pale_cell(0), step, 1.0) == []


def test_on_a_pale_table_the_faces_beyond_a_rows_end_become_face_probes_and_elsewhere_not():
    # find_backs with the row's first two faces found and its last two lost: on a pale table
    # the two lost faces are face probes (read, and kept only where named surely: vision.scan);
    # told the table is not pale, the white cells beyond the row stay faces it ignores
    from vision.face_down import find_backs

    rng = np.random.default_rng(3)
    img = np.clip(np.float32([214, 222, 226]) + rng.normal(0, 2, (300, 700, 3)), 0, 255).astype(np.uint8)
    faces = np.zeros(img.shape[:2], np.uint8)
    quads = []
    for i in range(4):
        x0 = 100 + 60 * i
        cv2.rectangle(img, (x0, 100), (x0 + 57, 179), (248, 250, 252), -1)  # white: the cloth's colour
        cv2.line(img, (x0 + 12, 115), (x0 + 12, 165), (120, 120, 120), 3)   # thin grey ink, as a
        cv2.circle(img, (x0 + 32, 140), 16, (120, 120, 120), 3)             # glare washes it out
        quads.append(np.float32([[x0, 100], [x0 + 60, 100], [x0 + 60, 180], [x0, 180]]))
    for q in quads[:2]:
        cv2.fillConvexPoly(faces, np.int32(q), 255)
    step = quads[1] - quads[0]
    for pale, probes in ((True, 2), (False, 0)):
        run = Run(quads=quads[:2], axis=np.float32([1, 0]), pitch=60.0, height=80.0,
                  probes=[(0, quads[0] - step), (1, quads[1] + step)])
        find_backs(img, np.ones(3, np.float32), faces, 80.0, [run], 1.0, pale_mask=faces, pale_table=pale)
        assert len(run.face_probes) == probes and run.probes == []
        assert all(np.allclose(q, quads[2 + k]) for k, (_, q) in enumerate(run.face_probes))


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


def _wood_with_backs(fourth_bgr, table_bgr=(60, 100, 160), back_bgr=(30, 140, 240), seed: int = 0) -> np.ndarray:
    """A plain wood-coloured table (a little noise) with four face-down tiles side by side, 60 x 80
    px each (:func:`_cell`'s places), the first three in ``back_bgr``, the fourth in ``fourth_bgr``."""
    rng = np.random.default_rng(seed)
    img = np.clip(np.float32(table_bgr) + rng.normal(0, 3, (400, 800, 3)), 0, 255).astype(np.uint8)
    for i in range(4):
        cv2.rectangle(img, (100 + 60 * i, 150), (159 + 60 * i, 229), fourth_bgr if i == 3 else back_bgr, -1)
    return cv2.GaussianBlur(img, (3, 3), 0)


@pytest.mark.parametrize("mirrored", [False, True])
def test_a_kong_whose_end_back_lies_near_the_tables_colour_is_lengthened_to_four(mirrored):
    # development scene 55 shot close (--fill 0.95): orange backs on an orange-brown wood, one of
    # them lit nearer the wood's colour than a back may lie; the blob of the other three measured
    # 2.8 widths and was cut in three, which no hand shows, and the kong was lost. It is a kong's
    # four with its end missed, lengthened towards the end whose next cell lies further from the
    # table's colour
    from vision.face_down import find_backs

    img = _wood_with_backs((48, 112, 185))
    if mirrored:
        img = np.ascontiguousarray(img[:, ::-1])
    backs = find_backs(img, np.ones(3, np.float32), np.zeros(img.shape[:2], np.uint8), 80.0, [], 1.0)
    assert len(backs) == 1 and len(backs[0].quads) == 4
    centres = sorted(float(np.asarray(q).mean(axis=0)[0]) for q in backs[0].quads)
    want = [130, 190, 250, 310] if not mirrored else [800 - 1 - x for x in (310, 250, 190, 130)]
    assert np.allclose(centres, want, atol=8)


def test_two_face_down_tiles_side_by_side_are_not_lengthened():
    # a blob two widths long is not a kong short of its end (it is cut as before, and no kong)
    from vision.face_down import find_backs

    img = _wood_with_backs((60, 100, 160))
    img[150:230, 220:280] = (60, 100, 160)  # the third back gone too: two backs
    backs = find_backs(img, np.ones(3, np.float32), np.zeros(img.shape[:2], np.uint8), 80.0, [], 1.0)
    assert len(backs) == 1 and len(backs[0].quads) == 2


def test_a_face_down_run_longer_than_a_kong_is_not_shortened_to_four():
    # a run of seven widths is no kong at all: it is cut at its own count, as before
    from vision.face_down import find_backs

    rng = np.random.default_rng(1)
    img = np.clip(np.float32((60, 100, 160)) + rng.normal(0, 3, (400, 800, 3)), 0, 255).astype(np.uint8)
    cv2.rectangle(img, (100, 150), (519, 229), (30, 140, 240), -1)
    backs = find_backs(cv2.GaussianBlur(img, (3, 3), 0), np.ones(3, np.float32),
                       np.zeros(img.shape[:2], np.uint8), 80.0, [], 1.0)
    assert len(backs) == 1 and len(backs[0].quads) == 7


@pytest.mark.parametrize("width, gap, runs", [(46, 3, [4]), (46, 24, []), (60, 3, [1, 1, 1, 1])])
def test_a_kongs_backs_parted_by_thin_seams_are_one_run(width, gap, runs):
    # development scene 55 with its tiles a little askew (--askew 3): the four orange backs of a
    # concealed kong on wood, each parted from the next by a dark seam a few pixels wide, came out
    # as a pair and two blobs narrower than a face-down tile (0.59 of the face height), and the
    # kong was lost. Seams up to SEAM_CLOSE of the face height are closed over where that makes a
    # kong's four of blobs that are no tiles alone; blobs a quarter of a face apart stay apart, and
    # backs that are tiles each by itself stay single (their own outlines; vision.face_down joins
    # them into their kong later)
    from vision.face_down import find_backs

    rng = np.random.default_rng(0)
    img = np.clip(np.float32((60, 100, 160)) + rng.normal(0, 3, (400, 900, 3)), 0, 255).astype(np.uint8)
    for i in range(4):
        x0 = 100 + (width + gap) * i
        cv2.rectangle(img, (x0, 150), (x0 + width - 1, 229), (30, 140, 240), -1)
        if i:
            cv2.rectangle(img, (x0 - gap, 150), (x0 - 1, 229), (40, 70, 115), -1)  # the seam: the table in shade
    backs = find_backs(cv2.GaussianBlur(img, (3, 3), 0), np.ones(3, np.float32), np.zeros(img.shape[:2], np.uint8),
                       80.0, [], 1.0)
    assert sorted(len(b.quads) for b in backs) == runs
