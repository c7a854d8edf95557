"""Training crops cut from synthetic photos by the scanner, and the per-chunk cache behind both
training sets."""
from __future__ import annotations

import numpy as np

from vision.dataset import INPUT_H, INPUT_W, LABEL_INDEX, cached_chunks
from engine.tiles import FLOWERS
from vision.scene_crops import (FIRST_FLOWER_SCENE_SEED, SHAKE, flower_hand, flower_scene_crops, scene_bodies, scene_crops,
                                scene_shake)
from vision.scenes import make_scene, parse_hand

SEED = 10_000_003  # a training-scene seed (vision.scene_crops.FIRST_SCENE_SEED and up)


def test_scene_crops_label_what_the_scanner_cuts_from_the_truth():
    x, labels, source = scene_crops(SEED, sources=("drawn",))
    _, truth = make_scene(SEED, sources=("drawn",))
    assert source == "drawn"
    assert x.dtype == np.uint8 and x.shape == (len(labels), INPUT_H, INPUT_W, 3)
    assert all(c in LABEL_INDEX for c in labels)
    true_codes = sorted(t["tile"] for t in truth["tiles"])
    found = sorted(c for c in labels if c != "reject")
    # the scanner finds nearly every tile, and a found crop only ever carries a code of this photo
    assert len(found) >= 0.8 * len(true_codes)
    assert set(found) <= set(true_codes)
    again, labels_again, _ = scene_crops(SEED, sources=("drawn",))
    assert labels_again == labels and np.array_equal(again, x)  # reproducible from the seed


def test_a_share_of_the_photos_is_drawn_with_camera_bodies():
    for share, n in ((0.0, 0), (0.5, 5), (1.0, 10)):
        for first in (0, SEED - 3):  # every ten consecutive seeds hold the share
            assert [scene_bodies(s, share) for s in range(first, first + 10)].count("camera") == n
    x, labels, _ = scene_crops(SEED, sources=("drawn",), bodies="camera")
    sprite, sprite_labels, _ = scene_crops(SEED, sources=("drawn",))
    _, truth = make_scene(SEED, sources=("drawn",), bodies="camera")
    found = [c for c in labels if c != "reject"]
    assert len(found) >= 0.8 * len(truth["tiles"]) and set(found) <= {t["tile"] for t in truth["tiles"]}
    assert x.shape[0] != sprite.shape[0] or not np.array_equal(x, sprite)  # the photo is another


def test_a_share_of_the_photos_is_taken_with_a_shake():
    for share, n in ((0.0, 0), (0.25, 5), (1.0, 20)):
        for first in (0, SEED - 7):  # every twenty consecutive seeds hold the share
            shakes = [scene_shake(s, share) for s in range(first, first + 20)]
            assert len([x for x in shakes if x is not None]) == n
            assert all(SHAKE[0] <= x <= SHAKE[1] for x in shakes if x is not None)
            assert shakes == [scene_shake(s, share) for s in range(first, first + 20)]  # the seed's own
    shaken, labels, _ = scene_crops(SEED, sources=("drawn",), shake=0.004)
    still, still_labels, _ = scene_crops(SEED, sources=("drawn",))
    _, truth = make_scene(SEED, sources=("drawn",), shake=0.004)
    found = [c for c in labels if c != "reject"]
    assert len(found) >= 0.8 * len(truth["tiles"]) and set(found) <= {t["tile"] for t in truth["tiles"]}
    assert shaken.shape[0] != still.shape[0] or not np.array_equal(shaken, still)  # the photo is another


def test_a_flower_hand_sets_four_to_eight_flowers_aside_and_keeps_its_melds():
    for seed in range(FIRST_FLOWER_SCENE_SEED, FIRST_FLOWER_SCENE_SEED + 20):
        hand = parse_hand(flower_hand(seed))
        assert 4 <= len(hand["flowers"]) <= 8 and len(set(hand["flowers"])) == len(hand["flowers"])
        assert set(hand["flowers"]) <= set(FLOWERS)
        n = len(hand["concealed"]) + sum(min(3, len(m["tiles"])) for m in hand["melds"])
        assert n in (13, 14, 16, 17)
    kinds = {m["kind"] for s in range(FIRST_FLOWER_SCENE_SEED, FIRST_FLOWER_SCENE_SEED + 60)
             for m in parse_hand(flower_hand(s))["melds"]}
    assert {"concealed_kong", "hidden_kong"} <= kinds  # face-down kongs survive the text form


def test_flower_scene_crops_are_the_photos_flowers_as_the_scanner_cuts_them():
    seed = FIRST_FLOWER_SCENE_SEED + 1
    x, labels, source = flower_scene_crops(seed, width=1600, sources=("drawn",), size=(96, 72))
    _, truth = make_scene(seed, width=1600, sources=("drawn",), hand=flower_hand(seed))
    flowers = {t["tile"] for t in truth["tiles"] if t["group"] == "flowers"}
    assert source == "drawn" and x.dtype == np.uint8 and x.shape == (len(labels), 96, 72, 3)
    assert set(labels) <= flowers and len(set(labels)) >= len(flowers) - 1  # nearly every flower, nothing else


def _work(job):
    n, value = job
    return np.full((n, 2, 2, 3), value, np.uint8), np.full(n, value, np.int16), [f"s{value}"] * n


def test_cached_chunks_joins_chunks_in_order_and_reuses_the_cache(tmp_path, capsys):
    jobs = [(2, 1), (3, 2)]
    d = cached_chunks(tmp_path, "test key", jobs, _work, workers=1)
    assert d["y"].tolist() == [1, 1, 2, 2, 2] and d["y"].dtype == np.int64
    assert d["x"].shape == (5, 2, 2, 3) and d["source"].tolist() == ["s1"] * 2 + ["s2"] * 3
    assert "making" in capsys.readouterr().out
    again = cached_chunks(tmp_path, "test key", jobs, lambda job: 1 / 0, workers=1)  # nothing is made again
    assert again["y"].tolist() == d["y"].tolist()
    other = cached_chunks(tmp_path, "another key", [(1, 7)], _work, workers=1)
    assert other["y"].tolist() == [7]


def test_a_cache_made_with_other_face_sources_is_made_again(tmp_path, monkeypatch):
    import vision.faces as faces

    d = cached_chunks(tmp_path, "test key", [(2, 1)], _work, workers=1)
    monkeypatch.setattr(faces, "FACE_SOURCES", ("drawn",))  # as on a machine without ../shared
    other = cached_chunks(tmp_path, "test key", [(2, 3)], _work, workers=1)
    assert d["y"].tolist() == [1, 1] and other["y"].tolist() == [3, 3]
    assert len(list(tmp_path.iterdir())) == 2


def test_scanner_fingerprint_follows_the_scanner_code(tmp_path, monkeypatch):
    import vision.scene_crops as sc

    assert len(sc.scanner_fingerprint()) == 10
    code = tmp_path / "detect.py"
    code.write_text("THRESHOLD = 25\n")
    monkeypatch.setattr(sc, "SCANNER_MODULES", (str(code),))  # an absolute path replaces the package folder
    before = sc.scanner_fingerprint()
    assert sc.scanner_fingerprint() == before
    code.write_text("THRESHOLD = 26\n")
    assert sc.scanner_fingerprint() != before  # a detector change makes the cached crops again


def test_the_fingerprint_covers_every_module_a_scan_loads():
    # the detector's steps live in modules of their own (vision.seams, vision.body_side, ...): a
    # change in any of them changes the crops, so each must be in the hash, and no hand-kept list
    # can be trusted to follow them. A fresh process draws a scene and scans it; every module of
    # the package it loaded for that must be one the fingerprint reads.
    import subprocess
    import sys
    from pathlib import Path

    import vision.scene_crops as sc

    code = ("import sys; from vision.scenes import make_scene; from vision.scan import scan; "
            "scan(make_scene(3, width=1300, sources=('drawn',))[0]); "
            "print('\\n'.join(sorted(m.__file__ for n, m in list(sys.modules.items()) "
            "if n.startswith('vision') and getattr(m, '__file__', None))))")
    root = Path(sc.__file__).resolve().parents[1]
    done = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True, timeout=300, check=True)
    loaded = {Path(f).resolve() for f in done.stdout.split()}
    covered = set(sc.scanner_modules())
    assert {p.name for p in covered} >= {"seams.py", "body_side.py", "face_down.py", "quads.py", "classify.py"}
    assert loaded - covered == set()
