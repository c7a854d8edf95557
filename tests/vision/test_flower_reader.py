"""The flower reader (models/flowers.onnx): it loads, it names flowers, and vision.classify uses it
only to choose among the flowers of a crop that leans to one."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from engine.tiles import FLOWERS
from vision.dataset import make_crop

clf = importlib.import_module("vision.classify")  # the module: `vision.classify` is the function
SEED = 2026
SCAN_CROP = (128, 96)  # vision.scan hands crops of this size (h, w) to the classifier


def test_flower_reader_loads_and_is_small():
    assert clf.FLOWER_MODEL_PATH.stat().st_size <= 2 * 1024 * 1024
    sess = clf.session(clf.FLOWER_MODEL_PATH)
    assert sess.get_inputs()[0].shape[1:] == [3, clf.FLOWER_H, clf.FLOWER_W]
    assert sess.get_outputs()[0].shape[1] == len(FLOWERS)
    p = clf.flower_probabilities([np.full((128, 96, 3), 200, np.uint8)])
    assert p.shape == (1, len(FLOWERS)) and p.sum() == pytest.approx(1.0, abs=1e-4)
    assert clf.flower_probabilities([]).shape == (0, len(FLOWERS))


@pytest.fixture(scope="module")
def drawn_flowers():
    """Ten scanner-sized crops of each flower in the procedural style (always available), with the
    full training-time distortions; its flowers are named by their small corner marks only."""
    rng = np.random.default_rng(SEED)
    codes = [c for c in FLOWERS for _ in range(10)]
    return [make_crop(c, rng, source="drawn", out_size=SCAN_CROP) for c in codes], codes


def test_the_reader_names_drawn_flowers_far_better_than_the_classifier_alone(drawn_flowers):
    crops, codes = drawn_flowers
    alone = clf.second_look(crops, clf.probabilities(crops)).argmax(axis=1)
    alone_acc = np.mean([clf.LABELS[i] == c for i, c in zip(alone, codes)])
    acc = np.mean([r["tile"] == c for r, c in zip(clf.classify(crops), codes)])
    # models/CARD.md: drawn flowers 57% alone, about 80% with the reader on 4000 rendered crops
    assert acc >= 0.7, (acc, alone_acc)
    assert acc >= alone_acc + 0.1, (acc, alone_acc)


def test_read_flowers_only_chooses_among_the_flowers_of_crops_that_lean_to_one(drawn_flowers):
    crops, codes = drawn_flowers
    rng = np.random.default_rng(SEED + 1)
    others = [make_crop(c, rng, out_size=SCAN_CROP) for c in ("3m", "7p", "5s", "6z", "2z", "back")]
    crops = crops + others
    first = clf.second_look(crops, clf.probabilities(crops))
    after = clf.read_flowers(crops, first)
    fl = clf.FLOWER_INDEX
    leans = np.isin(first.argmax(axis=1), fl) | (first[:, fl].sum(axis=1) >= clf.SECOND_LOOK_SHARE)
    assert leans[: len(codes)].mean() > 0.9 and not leans[len(codes):].any()
    rest = np.setdiff1d(np.arange(len(clf.LABELS)), fl)
    np.testing.assert_allclose(after[:, rest], first[:, rest], atol=1e-6)  # only flower kinds change
    np.testing.assert_allclose(after[:, fl].sum(axis=1), first[:, fl].sum(axis=1), rtol=1e-4, atol=1e-6)
    np.testing.assert_array_equal(after[~leans], first[~leans])
    assert np.abs(after[leans] - first[leans]).max() > 0.05  # the reader does change readings
    assert clf.read_flowers([], np.zeros((0, len(clf.LABELS)), np.float32)).shape == (0, len(clf.LABELS))


def test_the_card_section_is_written_from_the_report_and_replaced_in_place(tmp_path):
    from vision.model_card import replace_card_section
    from vision.train_flowers import CARD_HEADING, card_section

    r = {"n": 10, "classifier": 0.5, "with_reader": 0.8, "reader_alone": 0.9}
    report = {"weight": 0.5, "params": 1000, "onnx_bytes": 700_000, "never_trained": ["imahjong_can"],
              "train": {"steps": 3000, "steps_planned": 3000, "batch": 64, "seconds": 600.0},
              "env": {"device": "cpu", "threads": 2}, "seconds": 1200.0, "command": "python -m vision.train_flowers",
              "real_finetune": None, "real_cv": None, "eval": {"rendered": {"drawn": r, "all": r}}}
    section = card_section(report)
    assert section[0] == CARD_HEADING and "| rendered drawn | 10 | 50.0% | 80.0% | 90.0% |" in section
    assert any("rendered crops only" in line for line in section)  # no real crops: said so
    assert not any("table photos (scene seeds" in line for line in section)  # trained on no photos
    with_photos = card_section(dict(report, scene_photos=400, n_scene_flowers=4823))
    assert any("the 4823 flowers the scanner cut from 400 flower-rich synthetic table photos" in line
               for line in with_photos)
    assert not any("camera" in line for line in section + with_photos)
    camera = card_section(dict(report, scene_photos=400, n_scene_flowers=4823, camera_share=0.5,
                               eval={"rendered": {"all": r}, "in camera photos": {"all": r}}))
    assert any("50% of them with the tiles' bodies where the camera sees them" in line for line in camera)
    assert any("in camera photos: the same photos" in line for line in camera)
    assert "| in camera photos all | 10 | 50.0% | 80.0% | 90.0% |" in camera
    card = tmp_path / "CARD.md"
    card.write_text("# Card\n\n## Accuracy\n\nold\n")
    replace_card_section(card, CARD_HEADING, section)  # appended
    replace_card_section(card, CARD_HEADING, [CARD_HEADING, "", "new", ""])  # replaced, the rest kept
    text = card.read_text()
    assert text.count(CARD_HEADING) == 1 and text.startswith("# Card\n\n## Accuracy\n\nold\n")
    assert text.rstrip().endswith("new") and "rendered drawn" not in text
    card.write_text(text + "\n## Later\n\nkept\n")
    replace_card_section(card, CARD_HEADING, section)
    assert card.read_text().rstrip().endswith("kept") and "rendered drawn" in card.read_text()


def test_the_shipped_card_describes_the_shipped_reader():
    from vision.train_flowers import CARD_HEADING

    card = (clf.MODEL_DIR / "CARD.md").read_text()
    assert CARD_HEADING in card
    size_mb = clf.FLOWER_MODEL_PATH.stat().st_size / 1e6
    assert f"{size_mb:.2f} MB ONNX" in card.split(CARD_HEADING)[1]
