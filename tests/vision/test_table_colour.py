"""The table's colours in Lab and the distance to them (``vision.table_colour``): the same numbers as
the plain numpy ways."""
from __future__ import annotations

import numpy as np


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


def _table(parts, shape=(120, 160), seed=5):
    """A Lab picture (float32, OpenCV's 8-bit scale) whose pixels are drawn from ``parts``:
    (share, Lab colour, spread), laid out in random order."""
    rng = np.random.default_rng(seed)
    n = shape[0] * shape[1]
    pixels = [rng.normal(colour, spread, (int(round(share * n)), 3)) for share, colour, spread in parts]
    pixels = np.concatenate(pixels)[:n]
    pixels = np.concatenate([pixels, np.tile(pixels[-1:], (n - len(pixels), 1))])
    return np.clip(rng.permutation(pixels), 0, 255).astype(np.float32).reshape(shape + (3,))


def test_a_checked_cloth_has_two_table_colours():
    from vision.table_colour import colour_distance, table_colours

    lab = _table([(0.5, (150, 170, 150), 2), (0.5, (200, 128, 128), 2)])
    colours = table_colours(lab, np.zeros(lab.shape[:2], np.uint8), step=1)
    assert len(colours) == 2
    assert min(colour_distance(c, np.float32((200, 128, 128))) for c in colours) < 5


def test_a_kongs_backs_among_a_woods_grain_are_no_second_table_colour():
    # a light wood (75%) with its grain of many browns (ten of 2% each, all far from the wood)
    # and, shot close, a kong's four dark green backs (5%): the pixels far from the wood
    # are a fifth of the table, and their commonest colour is the backs', but so few pixels have
    # it that it is an object's colour, not the table's (were it the table's, the backs would
    # lie near it and not be found)
    from vision.table_colour import table_colours

    grain = [(0.02, (100 + 8 * i, 150 + 4 * (i % 3), 175 - 3 * i), 1) for i in range(10)]
    lab = _table([(0.75, (160, 135, 150), 2), (0.05, (69, 101, 146), 1)] + grain)
    colours = table_colours(lab, np.zeros(lab.shape[:2], np.uint8), step=1)
    assert len(colours) == 1
    assert np.abs(colours[0] - np.float32((160, 135, 150))).max() < 3
