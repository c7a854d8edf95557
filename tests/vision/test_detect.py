"""The detector as a whole (``vision.detect``): faces found and rows split on synthetic photos with
known corners, the face-blob vote, further looks, windows of a photo, fragment joins and recounts.
Each step's own module has its own test file (test_quads, test_seams, test_face_mask, ...)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.decode import decode
from vision.detect import _recount, detect
from vision.faces import sources_for
from vision.quads import Run, fit_quad
from vision.scenes import make_scene


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


def _outline(r: Run) -> np.ndarray:
    q = r.quads
    return np.float32([q[0][0], q[-1][1], q[-1][2], q[0][3]])


def test_a_row_cut_where_no_seam_shows_does_not_set_the_photos_face_aspect():
    # development scene 641 with camera bodies: a row of ten pale faces whose seams barely show,
    # cut in 7 on next to no evidence (0.13 for six cuts), outvoted the faces measured elsewhere
    img = np.full((800, 1400, 3), 200, np.uint8)
    runs = [_row_run(3, 85.0), _row_run(3, 85.0, y0=150), _row_run(3, 85.0, y0=300),
            _row_run(8, 112.5, y0=500)]
    kept = [(_outline(r), r.pitch * len(r.quads) / r.height, len(r.quads), 1.5) for r in runs[:3]]
    kept.append((_outline(runs[3]), 9.0, 8, 0.13))
    assert abs(_recount(img, np.ones(3, np.float32), runs, kept) - 0.85) < 0.01
    assert len(runs[3].quads) == 11  # cut again by the photo's aspect: 9 / 0.85 = 10.6
    # with seams behind its cuts (0.5 a cut) the same row votes, and its faces outweigh the rest
    runs = [_row_run(3, 85.0), _row_run(3, 85.0, y0=150), _row_run(3, 85.0, y0=300),
            _row_run(8, 112.5, y0=500)]
    kept[3] = (_outline(runs[3]), 9.0, 8, 3.5)
    assert abs(_recount(img, np.ones(3, np.float32), runs, kept) - 1.125) < 0.01
    # and so does one that earned nothing at all (split_run cut it at the typical aspect, no guess)
    runs = [_row_run(3, 85.0), _row_run(3, 85.0, y0=150), _row_run(3, 85.0, y0=300),
            _row_run(8, 112.5, y0=500)]
    kept[3] = (_outline(runs[3]), 9.0, 8, 0.0)
    assert abs(_recount(img, np.ones(3, np.float32), runs, kept) - 1.125) < 0.01


def test_a_row_cut_where_no_seam_shows_is_cut_at_the_typical_aspect_when_little_else_is_measured():
    # scene 641 itself: besides that row only three lone faces, too little to measure the
    # photo's aspect by; the row is cut again at the typical face aspect, and then measures it
    # for the rest: the lone faces stay one face each
    img = np.full((800, 1400, 3), 200, np.uint8)
    lone = [_row_run(1, 75.0, x0=100.0 * i, y0=100) for i in range(3)]
    row = _row_run(7, 750 / 7, y0=400)
    runs = lone + [row]
    kept = [(_outline(r), 0.75, 1, 0.0) for r in lone] + [(_outline(row), 7.5, 7, 0.13)]
    assert _recount(img, np.ones(3, np.float32), runs, kept) == pytest.approx(0.75)
    assert len(runs[3].quads) == 10
    assert all(len(runs[i].quads) == 1 for i in range(3))
    # a row whose cuts found seams measures the aspect itself, and keeps its count
    row = _row_run(7, 750 / 7, y0=400)
    runs = lone + [row]
    kept[3] = (_outline(row), 7.5, 7, 3.0)
    assert _recount(img, np.ones(3, np.float32), runs, kept) == pytest.approx(750 / 700)
    assert len(runs[3].quads) == 7


def test_two_faces_without_a_seam_beside_a_row_cut_on_noise_are_a_pair_by_the_aspect_it_shows():
    # development scene 46 with camera bodies, every value times 1.26 (docs/vision.md, "A row cut
    # on noise"): the burnt row's seams gone, it was cut on noise and did not vote, and the only
    # other blob, a concealed kong's two faces whose seam burnt out too, weighed too little to
    # measure the photo's aspect alone; it stayed one lone tile. The row, cut again at the typical
    # aspect, now shows the aspect that makes that blob, laid along it, two faces
    img = np.full((800, 1400, 3), 200, np.uint8)
    pair = _row_run(1, 150.0, x0=200, y0=100)
    row = _row_run(7, 750 / 7, y0=400)
    runs = [pair, row]
    kept = [(_outline(pair), 1.5, 1, 0.0), (_outline(row), 7.5, 7, 0.13)]
    assert _recount(img, np.ones(3, np.float32), runs, kept) == pytest.approx(0.75)
    assert len(runs[1].quads) == 10
    assert len(runs[0].quads) == 2
    xs = sorted(float(np.asarray(q)[:, 0].mean()) for q in runs[0].quads)
    assert xs == pytest.approx([237.5, 312.5], abs=2)
    # a face as long as it is high, lying across the row, is one lone tile, not a pair
    lone = _row_run(1, 100.0, x0=200, y0=100, height=133.0)
    row = _row_run(7, 750 / 7, y0=400)
    runs = [lone, row]
    kept = [(_outline(lone), 133 / 100, 1, 0.0), (_outline(row), 7.5, 7, 0.13)]
    _recount(img, np.ones(3, np.float32), runs, kept)
    assert len(runs[1].quads) == 10 and len(runs[0].quads) == 1


def test_a_meld_cut_in_two_on_noise_does_not_set_the_photos_face_aspect_either():
    # development scene 33 with camera bodies, every value times 1.26: a burnt row of 13 cut on
    # noise, and a pung of 8s, its seams burnt too, cut in two for 0.02 of seam evidence; as a run
    # of two it still voted, with one lone blob, and set the aspect at 1.11, so the row was cut
    # again in 10. A run of two cut on next to no evidence does not vote either
    img = np.full((800, 1400, 3), 200, np.uint8)
    lone = [_row_run(1, 75.0, x0=100.0 * i, y0=100) for i in range(2)]
    meld = _row_run(2, 111.0, x0=400, y0=100)
    row = _row_run(7, 975 / 7, y0=400)
    runs = lone + [meld, row]
    kept = [(_outline(r), 0.75, 1, 0.0) for r in lone] + [(_outline(meld), 2.22, 2, 0.02),
                                                           (_outline(row), 9.75, 7, 0.13)]
    assert _recount(img, np.ones(3, np.float32), runs, kept) == pytest.approx(0.75, abs=0.01)
    assert len(runs[3].quads) == 13 and len(runs[2].quads) == 3
    assert all(len(runs[i].quads) == 1 for i in range(2))
    # cut in two at a seam that shows (0.3), the meld votes as before
    runs = lone + [_row_run(2, 111.0, x0=400, y0=100), _row_run(7, 975 / 7, y0=400)]
    kept[2] = (_outline(runs[2]), 2.22, 2, 0.3)
    assert _recount(img, np.ones(3, np.float32), runs, kept) == pytest.approx(1.11, abs=0.01)
    assert len(runs[2].quads) == 2


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
    row = sorted(x for y, x in centres if abs(y - row_y) < 6)
    meld = sorted(x for y, x in centres if abs(y - meld_y) < 6)
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
    # mask, and the first look finds a few inked cells of cloth and face (five; four since a
    # cloth blob with a step in it is cut as a meld with a sideways face would be,
    # vision/sideways.py); a hand has 13 tiles or more, so fewer inked faces than that look again
    import vision.detect as det
    img = _checked_cloth_photo()
    monkeypatch.setattr(det, "MORE_LOOKS", 0)
    first = detect(img)
    assert 1 <= det._face_count(first, 1.0, 99) < 13
    on_hand = [q for q in _face_quads(first) if any(x0 < np.mean(q[:, 0]) < x1 and y0 < np.mean(q[:, 1]) < y1
                                                     for x0, x1, y0, y1 in ((250, 756, 380, 442), (400, 538, 560, 622)))]
    assert len(on_hand) <= 3  # at most a few of the hand's 14 faces
    monkeypatch.setattr(det, "MORE_LOOKS", 2)
    _assert_row_and_meld(_face_quads(detect(img)), row_y=411, meld_y=591, pitch=46)


@pytest.mark.parametrize("counts, backs, faces, kept", [
    ((20,), (0,), (20,), 0),                    # enough faces: no second look
    ((9, 16), (0, 0), (9, 16), 1),              # scene 383: the second look finds the hand
    ((12, 13, 12), (0, 0, 0), (12, 13, 12), 0),  # one face more found the same tiles on development scenes: not worth a swap
    ((3, 4, 9), (0, 0, 0), (3, 4, 9), 2),       # the third look is measured against the best before it
    ((6, 11, 12), (0, 0, 0), (6, 11, 12), 1),
    ((11, 11), (0, 4), (11, 11), 1),            # camera cloth scene 1117: the same faces and a concealed kong's backs
    ((11, 11), (0, 1), (11, 11), 0),            # one face-down tile more: not worth a swap
    ((11, 10), (0, 4), (11, 10), 0),            # more backs but fewer inked faces
    ((12, 13), (2, 9), (12, 333), 0),           # camera scene 840: a look balanced to the table cut it into cells
    ((11, 11), (2, 3), (11, 11), 0),            # a kong's two ends probed beside its pair, then 3 cells of felt
    ((12, 12), (4, 6), (12, 12), 0),            # default scene 8: 12 faces and a kong's 4 backs are a hand's tiles
    ((12, 12), (0, 4), (12, 12), 1),            # 12 tiles are not: the kong's 4 backs, found further, are kept
    ((9, 11, 11), (4, 0, 6), (9, 11, 12), 2),   # more inked faces win, backs or not; then the same faces, more backs
])
def test_another_look_is_kept_if_it_finds_clearly_more_inked_faces_or_the_same_faces_and_more_backs(
        monkeypatch, counts, backs, faces, kept):
    import vision.detect as det
    looks = iter(range(len(counts)))
    told = []  # the pale table each look was told: each tells it by its own balance

    def look(*a, pale=None, on_faces=None):
        told.append(pale)
        return {"look": next(looks), "pale_table": True}
    monkeypatch.setattr(det, "_detect_with", look)
    monkeypatch.setattr(det, "MORE_LOOKS", len(counts) - 1)
    monkeypatch.setattr(det, "_face_count", lambda found, f, enough: min(counts[found["look"]], enough))
    monkeypatch.setattr(det, "_tiles_in", lambda found, kind="face": faces[found["look"]])
    monkeypatch.setattr(det, "_face_down_in", lambda found: backs[found["look"]])
    img = np.full((300, 400, 3), 128, np.uint8)
    assert detect(img)["look"] == kept
    assert told == [None] * len(counts)


def test_face_down_tiles_of_a_look_count_a_lone_pairs_end_probes():
    # a concealed kong's ends are found either as a face-down run or as the probes beside its
    # lone pair of faces (read by the classifier); either way they are the look's face-down tiles
    from vision.detect import _face_down_in
    q = np.float32([[0, 0], [40, 0], [40, 50], [0, 50]])
    pair = Run(quads=[q, q + [40, 0]], pair_probes=[(0, q - [40, 0]), (1, q + [80, 0])])
    row = Run(quads=[q + [40 * i, 100] for i in range(5)], probes=[(0, q + [200, 100])])
    backs = Run(quads=[q + [0, 200], q + [40, 200]], kind="back")
    assert _face_down_in({"runs": [row]}) == 0                 # a row's end probes are not counted
    assert _face_down_in({"runs": [row, pair]}) == 2
    assert _face_down_in({"runs": [row, pair, backs]}) == 4


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
        return {"look": len(told) - 1, "pale_table": False, "balance": (gains, 110.0), "runs": []}
    monkeypatch.setattr(det, "_detect_with", look)
    monkeypatch.setattr(det, "raised_threshold", lambda sample, t: None)  # no look with a raised threshold
    monkeypatch.setattr(det, "_face_count", lambda found, f, enough: 6)  # a look short of a hand's faces
    img = np.full((600, 800, 3), (40, 110, 60), np.uint8)  # green felt
    img[100:200, 100:300] = palest                          # the palest 4% of the photo, neutral
    assert np.all(det.white_balance(img)[1] == palest)      # the colour the first look balances to
    assert detect(img)["look"] == 0
    assert len(told) == looks


def _grey_check_photo() -> np.ndarray:
    """A checked cloth of green and neutral grey squares (200 px), lit from the left so that the
    grey is just paler than the whiteness threshold's floor (110) on the left third, with a row
    of eleven and a meld of three white faces (45 x 62 px, inked) touching those grey squares."""
    h, w, sq = 900, 1200, 200
    rng = np.random.default_rng(11)
    yy, xx = np.mgrid[0:h, 0:w]
    grey = ((yy // sq + xx // sq) % 2 == 1)[..., None]
    light = (1.25 - 0.5 * xx / w)[..., None]
    img = np.where(grey, np.float32((100, 102, 101)) * light, np.float32((50, 120, 60)) * light)
    img += rng.normal(0, 3, img.shape)
    return _with_row_and_meld(img, rng, (130, 390), (200, 560), (45, 62), (215, 222, 225), (150, 155, 158),
                              dots=3, margin=8, radius=(3, 7))


def test_faces_joined_by_grey_squares_just_over_the_threshold_are_found_with_it_raised(monkeypatch):
    # development: a hand on such a cloth at 38 degrees' tilt read 1 tile of 17. The grey squares'
    # lit side passes the mask and joins the faces into a few blobs, which the white balance's
    # further looks do not free: only a raised threshold does.
    import vision.detect as det
    img = _grey_check_photo()
    monkeypatch.setattr(det, "raised_threshold", lambda sample, t: None)
    assert det._face_count(detect(img), 1.0, 99) < 13
    monkeypatch.undo()
    found = detect(img)
    _assert_row_and_meld(_face_quads(found), row_y=421, meld_y=591, pitch=46)
    assert found["raised"] and found["balance"][1] > 120
    # a window of the photo is detected with the same raised threshold
    gains, threshold = det.photo_balance(img, det.DETECT_LONG_SIDE, found["left_out"], raised=True)
    assert np.array_equal(gains, found["balance"][0]) and threshold == found["balance"][1]


@pytest.mark.parametrize("inked, faces, backs, pale, kept", [
    ((14, 16), (14, 16), 0, False, False),  # the best look found a hand's faces: no raised look
    ((11, 13), (11, 13), 4, False, False),  # eleven faces and a kong face down (camera scene 1117's hand)
    ((11, 13), (11, 13), 2, False, False),  # eleven faces and a kong's two ends, probed beside its pair
    ((4, 13), (5, 13), 0, False, True),     # the grey check: kept
    ((4, 5), (5, 6), 0, False, False),      # one face more: not worth a swap
    ((10, 13), (15, 13), 0, False, False),  # camera scene 626: more faces count as inked, fewer are found
    ((4, 14), (5, 16), 0, True, False),     # a pale table's faces are found by their outlines, not the threshold
])
def test_a_raised_look_is_taken_only_where_the_best_look_found_too_few_and_kept_if_it_finds_more(
        monkeypatch, inked, faces, backs, pale, kept):
    import vision.detect as det
    thresholds = []

    def look(img, small, f, gains, threshold, *a, **k):
        thresholds.append(threshold)
        return {"look": len(thresholds) - 1, "pale_table": pale, "balance": (gains, 110.0)}
    monkeypatch.setattr(det, "_detect_with", look)
    monkeypatch.setattr(det, "MORE_LOOKS", 0)
    monkeypatch.setattr(det, "raised_threshold", lambda sample, t: t + 30)
    monkeypatch.setattr(det, "_face_count", lambda found, f, enough: min(inked[found["look"]], enough))
    monkeypatch.setattr(det, "_tiles_in", lambda found, kind="face": faces[found["look"]])
    monkeypatch.setattr(det, "_face_down_in", lambda found: backs)
    found = detect(np.full((300, 400, 3), 128, np.uint8))
    assert found["look"] == int(kept) and found.get("raised", False) == kept
    assert thresholds == ([None] if inked[0] + backs >= 13 or pale else [None, 140.0])


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
    img = np.full((800, 1200, 3), 200, np.uint8)
    for seams, count in ((1.4, 3), (0.6, 2)):   # 0.7 a cut: three faces; 0.3 a cut: a pair, as before
        runs = [_row_run(3, 90.0), _row_run(3, 90.0, y0=150), _row_run(3, 90.0, y0=300),
                _row_run(3, 200 / 3, x0=400, y0=500)]
        kept = [(_outline(r), r.pitch * len(r.quads) / r.height, len(r.quads), 1.5) for r in runs[:3]]
        kept.append((_outline(runs[3]), 2.0, 3, seams))
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


def _row_ending_on_a_patch(patch_white: float | None, shaded: float | None = None):
    """A row of three inked faces (80 px thick, whiteness 230) whose left end touches a patch of
    table one face wide, speckled into the face mask (a light square of a check cloth, whiteness
    ``patch_white``; None: no patch), and a lone face; ``shaded``: the whiteness of the row's
    last face (in shade). The mask, its whiteness map, the blobs and the row's blob."""
    rng = np.random.default_rng(4)
    mask = np.zeros((260, 420), np.uint8)
    white = np.full(mask.shape, 60, np.float32)
    _inked_faces(mask, 80, 20, 3)                     # the row, at x 80-259, y 20-99
    _inked_faces(mask, 20, 150, 1)                    # a lone face: the photo's face thickness, 80
    patch = (rng.random((80, 60)) < 0.85).astype(np.uint8) * 255
    if patch_white is not None:
        mask[20:100, 20:80] = patch                   # the patch, touching the row's left end
    white[mask > 0] = 230.0
    if patch_white is not None:  # the weave's holes in the mask are barely darker than its lit threads
        white[20:100, 20:80] = np.where(patch > 0, patch_white, patch_white - 14.0)
    if shaded is not None:
        white[20:100, 200:260][mask[20:100, 200:260] > 0] = shaded
    blobs = [_blob_of(m) for m in _components(mask)]
    return mask, white, blobs, [b for b in blobs if b[1][:, 1].max() < 120]


def test_a_row_ending_on_a_paler_patch_of_the_table_is_freed_from_it():
    # real-photo scene 196 with camera bodies: a meld of three touching a grey square of a check
    # cloth (whiteness 113-119, the faces' 210-240, the threshold 110) made one blob four faces
    # long; three quarters of its lit pixels are the faces', so its median is theirs (_patchy),
    # and the row was split into five, its first face cut askew and rejected
    from vision.detect import _dim_end, _face_blobs, _patchy

    mask, white, blobs, row = _row_ending_on_a_patch(patch_white=118.0)
    assert len(blobs) == 2 and len(row) == 1
    assert not _patchy(row[0][0], white, mask)
    assert _dim_end(row[0], white, mask, 110.0)
    faces, typical = _face_blobs(blobs, [], white, mask, lambda: mask, 300.0, 10.0, threshold=110.0)
    assert typical == pytest.approx(80, abs=6)
    freed = [f for f in faces if f[1][:, 1].max() < 120]
    assert len(freed) == 1 and not any(f is row[0] for f in faces)
    assert freed[0][1][:, 0].min() > 70  # the patch is left out ...
    assert max(freed[0][2], freed[0][3]) == pytest.approx(180, abs=12)  # ... and the three faces kept


def test_a_row_with_a_face_in_shade_is_left_whole():
    # a face in shade is paler than the rest of its row: mostly well above the threshold, and
    # where it is as dim as a grey square (118), it still holds its ink, which a square does not
    # (DIM_INK); a patch as white as the faces is one of them to this test (_patchy's case)
    from vision.detect import _dim_end, _face_blobs

    for patch_white, shaded in ((None, 170.0), (None, 150.0), (None, 118.0), (225.0, None)):
        mask, white, blobs, (row,) = _row_ending_on_a_patch(patch_white, shaded)
        assert not _dim_end(row, white, mask, 110.0)
        faces, _ = _face_blobs(blobs, [], white, mask, lambda: mask, 300.0, 10.0, threshold=110.0)
        assert any(f is row for f in faces)


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


def test_an_inkless_strip_is_no_row_of_the_perspective_fit():
    # real-photo scene 395 with camera bodies: the ivory layer of a face-down kong's bodies, a
    # strip 14 px thick and 13 times as long, weighed as if 15 faces long (a tenth of that for
    # no ink, still over one face) and joined the rows' perspective fit, which then expected faces
    # 15 px thick there: the strip passed for a row, was cut into 17 cells, and every face of the
    # photo was lost to it
    from vision.detect import _face_blobs

    mask = np.zeros((760, 1010), np.uint8)
    # (left, top, faces, face width, face height): a hand seen at a tilt, the nearer rows thicker
    for x, y, n, w, h in [(160, 610, 1, 52, 70), (60, 530, 1, 52, 70), (130, 420, 4, 62, 84),
                          (300, 330, 3, 56, 75), (480, 250, 3, 50, 66)]:
        _inked_faces(mask, x, y, n, w, h)
    cv2.rectangle(mask, (420, 120), (604, 133), 255, -1)  # the strip: no ink
    white = np.where(mask > 0, 200.0, 60.0).astype(np.float32)
    blobs = [_blob_of(m) for m in _components(mask)]
    assert len(blobs) == 6
    faces, typical = _face_blobs(blobs, [], white, mask, lambda: mask, 300.0, 10.0)
    assert typical == pytest.approx(65, abs=3)
    assert len(faces) == 5 and min(min(f[2], f[3]) for f in faces) > 45  # the five groups, not the strip


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
