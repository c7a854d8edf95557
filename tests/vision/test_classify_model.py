"""The shipped classifier: it loads, it is small, it names rendered tiles, and bad input never crashes."""
from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.tiles import KINDS
clf = importlib.import_module("vision.classify")  # the module: `vision.classify` is the function
from vision.classify_cli import main as cli_main
from vision.dataset import REAL_DIR, clean_check_set, load_real, make_crop

ROOT = Path(__file__).resolve().parents[2]
CHECK_SEED = 2024


def test_label_map_matches_the_engine():
    labels = json.loads((ROOT / "models" / "labels.json").read_text())
    assert labels == list(KINDS) + ["back", "reject"]
    assert clf.LABELS == tuple(labels)


def test_model_loads_and_is_small():
    path = ROOT / "models" / "tiles.onnx"
    assert path.stat().st_size <= 10 * 1024 * 1024
    sess = clf.session()
    inp = sess.get_inputs()[0]
    assert inp.shape[1:] == [3, clf.INPUT_H, clf.INPUT_W]
    out = sess.get_outputs()[0]
    assert out.shape[1] == len(clf.LABELS)


@pytest.fixture(scope="module")
def check_set():
    """Three plain rendered crops of each of the 52 kinds (tiles and back), fixed seed, every available
    source (see vision.dataset.clean_check_set)."""
    return clean_check_set(CHECK_SEED, 3)


def test_rendered_check_set_accuracy(check_set):
    crops, codes = check_set
    res = clf.classify(crops)
    wrong = [(c, r["tile"]) for c, r in zip(codes, res) if r["tile"] != c]
    acc = 1 - len(wrong) / len(codes)
    # The issue's goal: 98%. The shipped model with its flower reader reaches 100% here both with
    # every source and with the local sources only (Symbola and procedural drawing, as without
    # ../shared); 99.4% without the reader; models/CARD.md.
    floor = 0.98
    assert acc >= floor, f"{acc:.3f} on {len(codes)} rendered crops; wrong: {wrong}"


def test_hard_crops_are_mostly_right():
    """Crops with the full training-time distortions (tilt, light, blur, JPEG, a loose quad)."""
    rng = np.random.default_rng(CHECK_SEED + 1)
    codes = [c for c in list(KINDS) + ["back"] for _ in range(2)]
    res = clf.classify([make_crop(c, rng) for c in codes])
    acc = np.mean([r["tile"] == c for r, c in zip(res, codes)])
    assert acc >= 0.85, acc


def test_result_format_and_either_way_up(check_set):
    crops, codes = check_set
    a = clf.classify(crops[::3])
    b = clf.classify([c[::-1, ::-1].copy() for c in crops[::3]])
    for ra in a:
        assert set(ra) == {"tile", "confidence", "top3"}
        assert ra["tile"] in clf.LABELS and 0.0 <= ra["confidence"] <= 1.0
        assert len(ra["top3"]) == 3 and all(code != "reject" for code, _ in ra["top3"])
        scores = [s for _, s in ra["top3"]]
        assert scores == sorted(scores, reverse=True)
    same = np.mean([ra["tile"] == rb["tile"] for ra, rb in zip(a, b)])
    assert same >= 0.9, same  # crops come upright or upside down from the detector


def test_more_likely_kinds_on_request_the_top3_unchanged(check_set):
    crops, _ = check_set
    plain = clf.classify(crops[:8])
    more = clf.classify(crops[:8] + [np.zeros((1, 1, 3), np.uint8)], likely=6)
    for a, b in zip(plain, more):
        assert {k: b[k] for k in a} == a
        assert len(b["likely"]) == 6 and b["likely"][:3] == b["top3"]
        assert all(code != "reject" for code, _ in b["likely"])
        assert b["likely"][0][0] == b["tile"]  # the named kind first, then the others by score
        scores = [s for _, s in b["likely"][1:]]
        assert scores == sorted(scores, reverse=True)
    assert more[-1]["likely"] == [] and more[-1]["error"]


def test_sideways_grey_and_alpha_crops_are_accepted(check_set):
    crops, _ = check_set
    c = crops[0]
    res = clf.classify([np.ascontiguousarray(np.rot90(c)), cv2.cvtColor(c, cv2.COLOR_BGR2GRAY),
                        cv2.cvtColor(c, cv2.COLOR_BGR2BGRA)])
    assert all("error" not in r for r in res)


def test_bad_crops_get_an_error_entry_not_a_crash():
    res = clf.classify([np.zeros((1, 1, 3), np.uint8), np.zeros((0, 5, 3), np.uint8), np.zeros((20, 20, 7), np.uint8),
                        "not an image"])
    assert [r["tile"] for r in res] == ["reject"] * 4
    assert all(r["error"] and r["top3"] == [] for r in res)
    assert clf.classify([]) == []


def test_cli_reports_bad_files_per_file(tmp_path, capsys, check_set):
    good = tmp_path / "good.png"
    cv2.imwrite(str(good), check_set[0][0])
    empty = tmp_path / "empty.jpg"
    empty.write_bytes(b"")
    text = tmp_path / "notes.jpg"
    text.write_text("this is not a picture")
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.zeros((1, 1, 3), np.uint8))
    files = [str(good), str(empty), str(text), str(tiny), str(tmp_path / "missing.png"), str(tmp_path)]
    rc = cli_main(["--json", *files])
    out = json.loads(capsys.readouterr().out)
    assert rc == 1
    assert [e["path"] for e in out] == files
    direct = clf.classify([cv2.imread(str(good))])[0]
    assert out[0]["tile"] == direct["tile"] and out[0]["top3"] == direct["top3"] and "error" not in out[0]
    for e in out[1:]:
        assert e["error"] and "tile" not in e


def test_module_entry_point_runs(tmp_path, check_set):
    good = tmp_path / "t.jpg"
    cv2.imwrite(str(good), check_set[0][10])
    p = subprocess.run([sys.executable, "-m", "vision", "classify", "--json", str(good)], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)[0]["tile"] == clf.classify([cv2.imread(str(good))])[0]["tile"]


def test_real_crops_sanity():
    """A sanity check only: the shipped model was fine-tuned on these crops (the fair figure is
    the cross-validation in models/CARD.md)."""
    if not (REAL_DIR / "labels.csv").exists():
        pytest.skip("../shared/data/real-tiles is not present on this machine")
    files, imgs, codes = load_real()
    res = clf.classify(imgs)
    acc = np.mean([r["tile"] == c for r, c in zip(res, codes)])
    assert acc >= 0.9, acc


def test_a_crop_leaning_to_a_flower_is_read_again_turned_and_others_once(check_set):
    """The second look: a crop whose first reading leans to a bonus kind gets the mean of its
    reading and the reading of it turned 180 degrees; a clear suit tile keeps its one reading."""
    crops, codes = check_set
    crops = [clf._as_bgr(c) for c in crops]
    first = clf.probabilities(crops)
    turned = clf.probabilities([cv2.rotate(c, cv2.ROTATE_180) for c in crops])
    both = clf.second_look(crops, first)
    leans = clf._BONUS[first.argmax(axis=1)] | (first[:, clf._BONUS].sum(axis=1) >= clf.SECOND_LOOK_SHARE)
    flowers = [i for i, c in enumerate(codes) if c.endswith("f")]
    assert leans[flowers].all()  # every flower crop of the check set leans to a bonus kind
    assert 0 < leans.sum() < len(codes) // 2
    for i in range(len(codes)):
        expect = (first[i] + turned[i]) / 2 if leans[i] else first[i]
        np.testing.assert_allclose(both[i], expect, rtol=1e-5, atol=1e-6)
    i = flowers[0]
    res = clf.classify([crops[i]])[0]  # then the flower reader chooses among the flowers (after the
    looked = clf.second_look([crops[i]], clf.banded_look([crops[i]], first[[i]]))  # banded look, if unsure)
    assert res["confidence"] == pytest.approx(float(clf.read_flowers([crops[i]], looked)[0].max()), abs=1e-4)
    assert clf.second_look([], np.zeros((0, len(clf.LABELS)), np.float32)).shape == (0, len(clf.LABELS))


def test_an_unsure_reading_is_averaged_with_the_banded_readers_and_a_sure_one_kept(check_set, monkeypatch):
    crops = [clf._as_bgr(c) for c in check_set[0][:12]]
    first = clf.probabilities(crops)
    first[:3] = 1 / len(clf.LABELS)  # as unsure as a reading can be
    banded = clf._run(clf.BANDED_MODEL_PATH, [clf.to_input(c) for c in crops])
    looked = clf.banded_look(crops, first)
    unsure = first.max(axis=1) < clf.UNSURE
    assert unsure[:3].all() and (~unsure).sum() >= 6  # plain rendered crops: the classifier is mostly sure
    np.testing.assert_allclose(looked[unsure], (first[unsure] + banded[unsure]) / 2, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(looked[~unsure], first[~unsure])
    monkeypatch.setattr(clf, "BANDED_MODEL_PATH", None)  # clf.use_banded_model(None): no banded look
    np.testing.assert_array_equal(clf.banded_look(crops, first), first)


def test_the_banded_reader_loads_and_names_the_rendered_check_set(check_set):
    """models/CARD.md, "Banded reader": the second reader alone, on the same plain rendered crops."""
    path = clf.BANDED_MODEL_PATH
    assert path.stat().st_size <= 10 * 1024 * 1024
    crops, codes = check_set
    probs = clf._run(path, [clf.model_input(c) for c in crops])
    acc = np.mean([clf.LABELS[i] == c for i, c in zip(probs.argmax(axis=1), codes)])
    assert acc >= 0.98, acc  # 99.4% here with the local sources only, 100% with ../shared's as well


def _reading(**scores) -> np.ndarray:
    """One probability row: the named kinds' scores, the rest spread evenly over the other kinds."""
    p = np.zeros(len(clf.LABELS), np.float32)
    for code, score in scores.items():
        p[clf.LABELS.index(code.replace("_", ""))] = score
    rest = [i for i, code in enumerate(clf.LABELS) if code not in {c.replace("_", "") for c in scores}]
    p[rest] = (1 - p.sum()) / len(rest)
    return p


def _named(row: np.ndarray, likely: int = 0) -> dict:
    """``classify``'s report of one probability row."""
    return clf._result(row, int(clf.choose(row[None])[0]), likely)


def test_the_flowers_count_together_when_a_crop_is_named():
    """An unseen style spreads a flower over the eight flowers: when their total beats every other
    kind, the crop is named as its likeliest flower, and that flower leads its top3 and likely."""
    spread = {f"_{k}f": 0.06 for k in range(1, 9)} | {"_1f": 0.12}  # flowers 0.54 in all
    rows = np.stack([
        _reading(**spread, _6z=0.3),                  # 6z likeliest alone, the flowers together more
        _reading(**spread | {"_1f": 0.06}, _6z=0.5),  # 6z beats the eight flowers' 0.48
        _reading(**spread, reject=0.2),               # ... and beats a reject likelier than any one flower
        _reading(_6z=0.9),                            # no flower in sight
        _reading(reject=0.9),
    ])
    named = [clf.LABELS[i] for i in clf.choose(rows)]
    assert named == ["1f", "6z", "1f", "6z", "reject"]
    assert [clf.LABELS[i] for i in clf.choose(rows[:0])] == []
    res = _named(rows[0], likely=6)
    assert res["tile"] == "1f" and res["confidence"] == pytest.approx(0.12, abs=1e-4)
    assert [code for code, _ in res["top3"]] == ["1f", "6z", res["top3"][2][0]]
    assert res["top3"][1][1] == pytest.approx(0.3, abs=1e-4) and res["likely"][:3] == res["top3"]
    assert _named(rows[1])["tile"] == "6z" and _named(rows[1])["confidence"] == pytest.approx(0.5, abs=1e-4)
    # where the flowers' total loses to a reject, the crop is not a tile: no flower is made up
    assert _named(_reading(**{f"_{k}f": 0.05 for k in range(1, 9)}, reject=0.45))["tile"] == "reject"
