"""Synthetic table photos: reproducible, phone-like, with truth that matches the picture."""
from __future__ import annotations

import cv2
import numpy as np

from engine.tiles import parse
from vision.scenes import make_scene, random_hand, truth_geometry


def test_same_seed_same_photo_and_truth():
    a, ta = make_scene(5, width=800)
    b, tb = make_scene(5, width=800)
    assert a == b and ta == tb
    c, _ = make_scene(6, width=800)
    assert c != a


def test_photo_size_and_truth_inside_it():
    data, truth = make_scene(11, width=1000)
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert img.shape[:2] == (750, 1000)
    assert truth["image"] == {"width": 1000, "height": 750}
    for t in truth["tiles"]:
        q = np.asarray(t["corners"])
        assert q.shape == (4, 2)
        assert (q[:, 0] > -5).all() and (q[:, 0] < 1005).all() and (q[:, 1] > -5).all() and (q[:, 1] < 755).all()
        assert t["group"] == "concealed" or t["group"] == "flowers" or t["group"].startswith("meld:")


def test_truth_faces_are_bright_tile_faces():
    data, truth = make_scene(3, width=1000, tilt=0)
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    inside = []
    for t in truth["tiles"]:
        if t["tile"] == "back":
            continue
        m = np.zeros(gray.shape, np.uint8)
        cv2.fillConvexPoly(m, np.int32(t["corners"]), 1)
        inside.append(np.median(gray[m > 0]))
    assert np.median(inside) > np.median(gray) + 25  # ivory faces are the bright things on the table


def test_random_hands_have_13_to_17_tiles_and_real_counts():
    rng = np.random.default_rng(0)
    for _ in range(200):
        h = random_hand(rng)
        n = len(h["concealed"]) + 3 * len(h["melds"])
        assert n in (13, 14, 16, 17)
        tiles = h["concealed"] + [c for m in h["melds"] for c in m["tiles"]]
        assert max(tiles.count(c) for c in set(tiles)) <= 4
        assert len(h["flowers"]) <= 4


def test_given_hand_is_laid_out_and_reported():
    hand = {"concealed": "123456789m1122p", "melds": ["555s", "+7777z"], "flowers": "1f"}
    _, truth = make_scene(2, width=900, hand=hand)
    assert truth["hand"] == {"concealed": "123456789m1122p",
                             "melds": [{"tiles": "555s", "concealed": False}, {"tiles": "7777z", "concealed": True}],
                             "flowers": "1f"}
    codes = [t["tile"] for t in truth["tiles"]]
    assert codes.count("back") == 2 and len(codes) == 13 + 3 + 4 + 1
    assert sorted(c for c in codes if c != "back") == sorted(parse("123456789m1122p555s77z1f"))


def test_a_given_fill_shoots_the_same_hand_from_further_away():
    _, near = make_scene(5, width=800)
    _, far = make_scene(5, width=800, fill=near["params"]["fill"] * 0.6)
    assert far["hand"] == near["hand"]
    assert {k: v for k, v in far["params"].items() if k != "fill"} == {k: v for k, v in near["params"].items() if k != "fill"}
    assert 0.55 <= near["params"]["fill"] <= 0.85 and abs(far["params"]["fill"] - near["params"]["fill"] * 0.6) < 1e-3
    ratio = float(np.median(truth_geometry(far)[1]) / np.median(truth_geometry(near)[1]))
    assert 0.45 < ratio < 0.75  # the same tiles, about 0.6 times the size
