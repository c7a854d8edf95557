"""Reading a detection's faces while it looks on (``vision.read_ahead``): the classifier's
readings made ahead (every look included) are the ones it would make, they are used, and a scan
returns the same with or without them."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from vision.dataset import clean_check_set
from vision.decode import decode
from vision.detect import detect
from vision.scenes import make_scene

clf = importlib.import_module("vision.classify")
scan_module = importlib.import_module("vision.scan")  # (``vision.scan`` the package attribute is the function)
read_ahead_module = importlib.import_module("vision.read_ahead")


@pytest.fixture(scope="module")
def crops():
    return clean_check_set(31, 1)[0]  # one of each kind, the flowers and a back among them


def _counting_runs(monkeypatch) -> list:
    """The (model, batch size) of every onnxruntime run from now on."""
    runs = []
    real_run = clf._run

    def counting(path, inputs, threads=clf.THREADS):
        runs.append((path, len(inputs)))
        return real_run(path, inputs, threads)

    monkeypatch.setattr(clf, "_run", counting)
    return runs


def test_a_reading_made_ahead_on_one_thread_is_the_classifiers_own_to_the_bit(crops, monkeypatch):
    own = clf.readings(crops)[2]
    runs = _counting_runs(monkeypatch)
    ahead = clf.read_ahead(crops)
    assert ahead.dtype == own.dtype and np.array_equal(ahead, own)
    # every look was made ahead: the flower reader's too
    assert {path for path, _ in runs} >= {clf.MODEL_PATH, clf.FLOWER_MODEL_PATH}
    # ... also in a batch of another size, where the flowers meet other company
    flowers = [i for i, code in enumerate(clean_check_set(31, 1)[1]) if code.endswith("f")]
    some = [flowers[0] - 2, flowers[0], flowers[3], flowers[3] + 1]
    assert np.array_equal(clf.read_ahead([crops[i] for i in some]), own[some])


def test_readings_given_are_used_and_only_the_rest_are_read(crops, monkeypatch):
    read = list(clf.read_ahead(crops))
    plain = clf.classify(crops, likely=6)
    runs = _counting_runs(monkeypatch)
    read[3] = None
    assert clf.classify(crops, likely=6, read=read) == plain
    assert runs[0] == (clf.MODEL_PATH, 1)  # the one crop not read ahead
    # a reading given is taken as it is: one that puts everything on 9m names the crop 9m
    doctored = np.zeros(len(clf.LABELS), np.float32)
    doctored[clf.LABELS.index("9m")] = 1.0
    read[3] = doctored
    runs.clear()
    assert clf.classify(crops, read=read)[3]["tile"] == "9m"
    assert runs == []  # nothing was left to read


def test_detect_tells_the_faces_before_its_face_down_search():
    hand = {"concealed": "123m456p789s11z", "melds": ["555p", "+7777s"], "flowers": "26f"}
    data, _ = make_scene(7, width=1400, hand=hand, tilt=12, roll=20)
    told = []
    det = detect(decode(data).image, on_faces=told.append)
    assert len(told) == 1
    told_keys = {np.asarray(q, np.float32).tobytes() for q in told[0]}
    faces = [q for r in det["runs"] if r.kind == "face" for q in r.quads]
    assert len(faces) >= 13 and all(np.asarray(q, np.float32).tobytes() in told_keys for q in faces)
    backs = [q for r in det["runs"] if r.kind == "back" for q in r.quads]  # found after: never told
    assert backs and not any(np.asarray(q, np.float32).tobytes() in told_keys for q in backs)


class _Counted(read_ahead_module.ReadAhead):
    """A read-ahead that counts the faces it was asked for and found read already."""
    taken: list = []

    def take(self, quads):
        read = super().take(quads)
        _Counted.taken.append(sum(r is not None for r in read))
        return read


class _Idle(read_ahead_module.ReadAhead):
    """A read-ahead that reads nothing ahead: the scan as it was without one."""

    def __call__(self, quads):
        return None


@pytest.mark.parametrize("seed, width, fill", [
    (3, 1600, None),     # one look
    (18, 2016, 0.4),     # a far hand: the closer look reads a window of the photo, its quads moved
])
def test_a_scan_returns_the_same_with_its_faces_read_ahead(seed, width, fill, monkeypatch):
    data, _ = make_scene(seed, width=width, fill=fill, source="drawn")
    _Counted.taken = []
    monkeypatch.setattr(scan_module, "ReadAhead", _Counted)
    ahead = scan_module.scan(data)
    monkeypatch.setattr(scan_module, "ReadAhead", _Idle)
    plain = scan_module.scan(data)
    assert ahead["tiles"] == plain["tiles"] and ahead["hand"] == plain["hand"]
    assert ahead["image"] == plain["image"]
    closer = ahead["image"]["closer_look"] != "none"
    looks = 1 + closer + (ahead["image"]["evened_light"] != "none")  # a look with the light evened too
    assert fill is None or closer
    assert len(_Counted.taken) == looks  # each look's first reading took faces read ahead ...
    assert all(n >= 10 for n in _Counted.taken)  # ... most of its faces
