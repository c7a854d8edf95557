"""Splitting a run of touching tiles at its seams (``vision.seams``): the seam profile, the tile count
its evenly spaced cuts choose, leaning seams."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.faces import sources_for
from vision.scenes import make_scene
from vision.seams import choose_count, seam_profile, split_run


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


def test_a_strip_with_less_than_one_seams_evidence_is_cut_at_the_count_the_photo_expects():
    # development scene 20 shot from further away (fill 0.45): a meld of three whose seams do not
    # show, where faint marks a quarter of the way along paid a comb of four by a hair (0.05 in
    # all, under what one clear seam pays): the meld was cut in four and the photo took a closer
    # look. Less than one seam's worth over the whole strip supports no count: the count the
    # photo's face aspect expects (3.07) is taken, as where no count scores at all
    length = 149
    prof = np.zeros(length, np.float32)
    prof[[round(k * length / 4) for k in range(1, 4)]] = 0.137  # each pays 0.017
    assert choose_count(prof, length / 64, (2, 4))[0] == 4  # without an expected count the comb stands
    n, cuts, score = choose_count(prof, length / 64, (2, 4), expected=3.07)
    assert n == 3 and len(cuts) == 2 and score < 0
    # one clear seam's worth or more is evidence of its own, and the faint-seams rules decide
    prof[[round(k * length / 4) for k in range(1, 4)]] = 0.17
    assert choose_count(prof, length / 64, (2, 4), expected=3.07)[0] == 4


def test_a_blob_with_no_seam_at_all_is_cut_at_the_count_the_photo_expects():
    # real-photo scene 331 with camera bodies: a meld of three whose blob took in the lit tops of
    # the tiles' bodies, so it is taller than a face (1.9 face heights long, where the photo's
    # face aspect expects 2.57 faces) and no seam crosses its strip. With no count supported,
    # split_run cut it evenly at the middle of the counts tried (2 and 3): two faces, neither a
    # tile. The photo's expected count is the better guess where one is given
    img = np.full((200, 300, 3), 60, np.uint8)
    img[60:124, 40:162] = 222   # 122 x 64 px, no seam
    outline = np.float32([[40, 60], [162, 60], [162, 124], [40, 124]])
    gains = np.ones(3, np.float32)
    quads = split_run(img, gains, outline, (2, 3), expected=2.57)[0]
    assert len(quads) == 3
    centres = sorted(float(np.asarray(q)[:, 0].mean()) for q in quads)
    assert np.abs(np.array(centres) - [40 + 122 / 6 * k for k in (1, 3, 5)]).max() <= 1
    assert len(split_run(img, gains, outline, (2, 3), expected=2.4)[0]) == 2
    # without an expected count, the middle of the counts tried, as before
    assert len(split_run(img, gains, outline, (3, 5))[0]) == 4


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


# development scene 1110 with camera bodies on a cloth: the seam profile of a meld of three bamboo
# tiles (678s, 142 px, 2.22 face heights), its values over 0.02. The 7s's middle sticks (63-70) and
# the strip's left end outscore the two seams (44, 93): four faces score 1.11, three 0.84
MELD_1110 = {7: 0.61, 8: 0.67, 9: 0.08, 11: 0.35, 12: 0.63, 13: 0.22, 28: 0.28, 29: 0.41, 30: 0.18, 32: 0.02,
             33: 0.26, 34: 0.37, 35: 0.13, 43: 0.12, 44: 0.42, 45: 0.38, 46: 0.1, 57: 0.04, 63: 0.44, 64: 0.91,
             65: 0.72, 68: 0.64, 69: 0.97, 70: 0.5, 80: 0.02, 91: 0.06, 92: 0.55, 93: 0.67, 94: 0.23, 102: 0.06,
             103: 0.07, 106: 0.06, 107: 0.13, 108: 0.09, 115: 0.04, 116: 0.07, 119: 0.08, 120: 0.1, 121: 0.07,
             127: 0.06, 128: 0.08, 132: 0.03, 134: 0.03}


def test_the_count_the_photo_expects_needs_only_more_even_faces_against_one_far_off_it():
    prof = _profile(MELD_1110, 142)
    ratio = 142 / 64
    assert choose_count(prof, ratio, (2, 4))[0] == 4  # the seams alone
    n, cuts, _ = choose_count(prof, ratio, (2, 4), expected=3.2)
    assert n == 3
    assert np.abs(np.array(cuts) - [44, 93]).max() <= 1
    # expected 3.4 or 3.6: three lies 0.4 off it or more, and four at most 0.6: four stays
    assert choose_count(prof, ratio, (2, 4), expected=3.4)[0] == 4
    assert choose_count(prof, ratio, (2, 4), expected=3.6)[0] == 4


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
