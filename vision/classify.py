"""Name tile-face crops with the shipped ONNX model (``models/tiles.onnx``).

``classify(crops)`` takes BGR uint8 crops of single tile faces (perspective-rectified, portrait,
upright or upside down, any size) and returns, per crop,
``{"tile": code | "back" | "reject", "confidence": float, "top3": [[code, score], ...]}``.
``top3`` lists the three likeliest tile kinds (``back`` included, ``reject`` never; the named kind
first, :func:`choose`), so the phone can ask the player when ``confidence`` is low. The model is
loaded once per process, lazily, and crops are run as one batch on onnxruntime's CPU provider
with 2 threads.

A first reading whose likeliest kind holds under ``UNSURE`` of the probability is averaged with
the banded reader's (``models/tiles_banded.onnx``: the same network and recipe, trained with a band
of the tile's body left on a quarter of its crops, as the scanner leaves one on a densely inked
face whose side it does not see; :func:`banded_look`). About one crop in twenty of a hand.

Flowers are the hardest kinds to name (a small corner digit and a season or plant mark tell them
apart), so a crop whose first reading leans to a flower, animal or face tile (its first choice,
or ``SECOND_LOOK_SHARE`` of its probability) is read a second time turned 180 degrees, and the
two readings are averaged (about one crop in ten of a hand; docs/classifier.md gives the figures).
Such a crop that leans to a flower is then read by the flower reader (``models/flowers.onnx``, a
second model over the eight flowers at a higher resolution, both ways up), whose reading is
multiplied into the classifier's flower probabilities (:func:`read_flowers`). Last, the eight
flowers count together when a crop is named (:func:`choose`): a crop whose flowers hold more
probability than any other kind is named as its likeliest flower.

The table scan reads most faces ahead, every look included, on a thread of its own, while its
detection looks on (:func:`read_ahead`, :mod:`vision.read_ahead`), and hands those readings to
:func:`classify` (``read``), which reads only the rest.
"""
from __future__ import annotations

import json
import threading
from pathlib import Path

import cv2
import numpy as np

from engine.tiles import BONUS_KINDS, FLOWERS

MODEL_DIR = Path(__file__).resolve().parents[1] / "models"
MODEL_PATH = MODEL_DIR / "tiles.onnx"
FLOWER_MODEL_PATH = MODEL_DIR / "flowers.onnx"
BANDED_MODEL_PATH: Path | None = MODEL_DIR / "tiles_banded.onnx"
LABELS: tuple[str, ...] = tuple(json.loads((MODEL_DIR / "labels.json").read_text()))
INPUT_H, INPUT_W = 72, 54  # the model's fixed input (portrait); the batch axis is dynamic
MIN_SIDE = 4  # smaller crops cannot hold a tile face
SECOND_LOOK_SHARE = 0.3  # a first reading with this much on bonus kinds is read again, turned 180 degrees
UNSURE = 0.8  # a first reading whose likeliest kind has less is averaged with the banded reader's
_BONUS = np.array([label in BONUS_KINDS for label in LABELS])
FLOWER_H, FLOWER_W = 96, 72  # the flower reader's input; its output is FLOWERS ("1f".."8f") in order
FLOWER_INDEX = np.array([LABELS.index(c) for c in FLOWERS])
_FLOWER = np.isin(np.arange(len(LABELS)), FLOWER_INDEX)
FLOWER_WEIGHT = 0.5  # the classifier's flower reading, raised to this power, times the reader's
THREADS = 2

_sessions: dict[tuple[Path, int], object] = {}
_lock = threading.Lock()


def to_input(crop: np.ndarray, size: tuple[int, int] = (INPUT_H, INPUT_W)) -> np.ndarray:
    """Resize a BGR crop to a model's input ``size`` (h, w; the tile classifier's by default), the
    same way at training and at inference."""
    interp = cv2.INTER_AREA if crop.shape[0] > size[0] else cv2.INTER_LINEAR
    return cv2.resize(crop, (size[1], size[0]), interpolation=interp)


def use_model(path) -> None:
    """Run a different ONNX model with the same input and labels from now on (benchmarks use it
    to measure a model trained without some face sources on those sources)."""
    global MODEL_PATH
    MODEL_PATH = Path(path)


def use_flower_model(path) -> None:
    """Run a different flower reader from now on (its training script evaluates the new one)."""
    global FLOWER_MODEL_PATH
    FLOWER_MODEL_PATH = Path(path)


def use_banded_model(path) -> None:
    """Average unsure readings with a different banded reader from now on, or with none (``None``:
    the unseen-style bench measures a classifier trained without some styles, which the shipped
    banded reader has seen)."""
    global BANDED_MODEL_PATH
    BANDED_MODEL_PATH = None if path is None else Path(path)


def session(path: Path | None = None, threads: int = THREADS):
    """The onnxruntime session of ``path`` (default: the tile classifier) on ``threads`` threads,
    created on first use."""
    path = Path(path or MODEL_PATH)
    key = (path, threads)
    if key not in _sessions:
        with _lock:
            if key not in _sessions:
                import onnxruntime as ort

                opts = ort.SessionOptions()
                opts.intra_op_num_threads = threads
                opts.inter_op_num_threads = 1
                opts.log_severity_level = 3
                # two models run one after the other: threads left spinning by one would hold the
                # cores the other needs (bench/classify_bench.py: 1.2 ms a tile spinning, 0.5 not)
                opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
                _sessions[key] = ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    return _sessions[key]


def _as_bgr(crop) -> np.ndarray:
    """Validate one crop and bring it to a portrait BGR uint8 image; raises ValueError."""
    if not isinstance(crop, np.ndarray):
        raise ValueError(f"a crop must be a numpy array, not {type(crop).__name__}")
    if crop.ndim == 2:
        crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
    elif crop.ndim == 3 and crop.shape[2] == 4:
        crop = cv2.cvtColor(crop, cv2.COLOR_BGRA2BGR)
    elif crop.ndim == 3 and crop.shape[2] == 1:
        crop = cv2.cvtColor(crop, cv2.COLOR_GRAY2BGR)
    if crop.ndim != 3 or crop.shape[2] != 3:
        raise ValueError(f"a crop must be an H x W x 3 BGR image, got shape {crop.shape}")
    if min(crop.shape[:2]) < MIN_SIDE:
        raise ValueError(f"a crop of {crop.shape[1]}x{crop.shape[0]} px is too small to hold a tile face")
    if crop.dtype != np.uint8:
        if np.issubdtype(crop.dtype, np.floating) and crop.size and float(np.nanmax(crop)) <= 1.0:
            crop = crop * 255.0
        crop = np.clip(np.nan_to_num(crop), 0, 255).astype(np.uint8)
    h, w = crop.shape[:2]
    if w > h * 1.1:  # a tile lying sideways: turn it to portrait (the model reads either way up)
        crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
    return np.ascontiguousarray(crop)


def _run(path: Path, inputs: list[np.ndarray], threads: int = THREADS) -> np.ndarray:
    """The model at ``path`` on model-sized H x W x 3 uint8 inputs, as one batch."""
    x = np.stack(inputs).transpose(0, 3, 1, 2).astype(np.float32, order="C")  # N x 3 x H x W, in one copy
    return session(path, threads).run(None, {"crops": x})[0]


def model_input(crop: np.ndarray) -> np.ndarray:
    """A crop as the tile classifier takes it (:func:`_as_bgr`, then :func:`to_input`); raises
    ValueError where it cannot be a tile face."""
    return to_input(_as_bgr(crop))


def probabilities(crops: list[np.ndarray], threads: int = THREADS) -> np.ndarray:
    """Class probabilities (N x len(LABELS)) for valid BGR uint8 crops, on ``threads``
    onnxruntime threads."""
    if not crops:
        return np.zeros((0, len(LABELS)), np.float32)
    return _run(MODEL_PATH, [to_input(c) for c in crops], threads)


def read_ahead(crops: list[np.ndarray]) -> np.ndarray:
    """The reading :func:`classify` reports of each crop (:func:`readings`, the last of the three:
    every look made), as probabilities, on a single onnxruntime thread: for a caller reading
    crops on a thread of its own while its main thread works on
    (:class:`vision.read_ahead.ReadAhead`), where a second onnxruntime thread would take turns
    with that main thread. onnxruntime reads each crop of a batch alike whatever the batch and
    its threads, and every look after the first reads a crop by its own reading alone, so these
    are the same numbers, bit for bit, as :func:`classify` makes of the crop in any company.
    Raises ValueError for a crop that cannot be a tile face."""
    return readings([_as_bgr(c) for c in crops], threads=1)[2]


def _leaning(probs: np.ndarray, kinds: np.ndarray) -> np.ndarray:
    """The rows of ``probs`` whose reading leans to the ``kinds`` (a mask over LABELS): one of
    them is the first choice, or they hold ``SECOND_LOOK_SHARE`` of the probability."""
    return np.flatnonzero(kinds[probs.argmax(axis=1)] | (probs[:, kinds].sum(axis=1) >= SECOND_LOOK_SHARE))


def banded_look(crops: list[np.ndarray], probs: np.ndarray, threads: int = THREADS) -> np.ndarray:
    """``probs`` with every reading whose likeliest kind holds under ``UNSURE`` averaged with the
    banded reader's reading of the same crop (docs/classifier.md gives the figures); ``threads``:
    onnxruntime's, as for each look below."""
    unsure = np.flatnonzero(probs.max(axis=1) < UNSURE) if BANDED_MODEL_PATH is not None else []
    if len(unsure):
        probs = probs.copy()
        probs[unsure] = (probs[unsure] + _run(BANDED_MODEL_PATH, [to_input(crops[i]) for i in unsure], threads)) / 2
    return probs


def second_look(crops: list[np.ndarray], probs: np.ndarray, threads: int = THREADS) -> np.ndarray:
    """``probs`` with every crop whose reading leans to a bonus kind (first choice, or
    ``SECOND_LOOK_SHARE`` of the probability) averaged with a reading of it turned 180 degrees."""
    again = _leaning(probs, _BONUS)
    if len(again):
        probs = probs.copy()
        probs[again] = (probs[again] + probabilities([cv2.rotate(crops[i], cv2.ROTATE_180) for i in again], threads)) / 2
    return probs


def flower_probabilities(crops: list[np.ndarray], threads: int = THREADS) -> np.ndarray:
    """The flower reader's probabilities (N x 8, ``FLOWERS`` order), averaged over each crop and
    its 180-degree turn."""
    if not crops:
        return np.zeros((0, len(FLOWERS)), np.float32)
    x = [to_input(c, (FLOWER_H, FLOWER_W)) for c in crops]
    p = _run(FLOWER_MODEL_PATH, x + [c[::-1, ::-1] for c in x], threads)
    return (p[: len(crops)] + p[len(crops):]) / 2


def read_flowers(crops: list[np.ndarray], probs: np.ndarray, threads: int = THREADS) -> np.ndarray:
    """``probs`` with the flower kinds of every crop that leans to a flower (first choice, or
    ``SECOND_LOOK_SHARE`` of the probability) read again by the flower reader: the classifier's
    flower probabilities, raised to ``FLOWER_WEIGHT``, times the reader's, scaled back to the
    classifier's total on flowers (so the reader decides which flower, not whether a flower)."""
    again = _leaning(probs, _FLOWER)
    if not len(again):
        return probs
    flowers = probs[np.ix_(again, FLOWER_INDEX)]
    mass = flowers.sum(axis=1, keepdims=True)
    q = (flowers / np.maximum(mass, 1e-12)) ** FLOWER_WEIGHT * flower_probabilities([crops[i] for i in again], threads)
    probs = probs.copy()
    probs[np.ix_(again, FLOWER_INDEX)] = mass * q / np.maximum(q.sum(axis=1, keepdims=True), 1e-12)
    return probs


def readings(crops: list[np.ndarray], threads: int = THREADS) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The three readings of valid BGR uint8 crops, as probabilities: the classifier's, with the
    second looks (the banded reader's where unsure, :func:`banded_look`, then the turned reading
    where it leans to a bonus kind, :func:`second_look`), and with the flower reader as well
    (:func:`read_flowers`, the one :func:`classify` reports). Evaluations compare the three.
    ``threads``: onnxruntime's for each reading."""
    first = probabilities(crops, threads)
    looked = second_look(crops, banded_look(crops, first, threads), threads)
    return first, looked, read_flowers(crops, looked, threads)


def choose(probs: np.ndarray) -> np.ndarray:
    """The kind each reading names (label indices, N x len(LABELS) ``probs``): its likeliest
    kind, except that the eight flowers count together. Where their total beats every other
    kind's probability (``reject`` and ``back`` included), the crop is named as its likeliest
    flower, even if one other kind is likelier than that flower alone.

    A style the classifier has not seen spreads a flower's probability over the eight flowers,
    which look alike (one painting with a small corner mark), so the likeliest single kind is
    often a green or red non-flower kind though the crop is plainly a flower. On the crops the
    scanner cut from development scenes (docs/classifier.md) this set 6 right and 2 wrong of
    16,203 with the shipped models, and with models trained without two face styles 23 right
    and 1 wrong of those styles' 4,170 crops (2 right and 3 wrong of the other 12,033)."""
    probs = np.asarray(probs)
    best = probs.argmax(axis=1)
    flowers = probs[:, FLOWER_INDEX]
    together = flowers.sum(axis=1) > np.where(_FLOWER, -1.0, probs).max(axis=1)
    best[together] = FLOWER_INDEX[flowers[together].argmax(axis=1)]
    return best


def _result(p: np.ndarray, best: int, likely: int = 0, order: list[int] | None = None) -> dict:
    """One reading as ``classify`` reports it: ``p`` its probabilities, ``best`` the kind it names
    (:func:`choose`); ``order``: the kinds from likeliest down (``np.argsort(-p)``), where the
    caller has them."""
    wanted = max(3, likely)
    kinds: list[int] = []  # the named kind first, then the likeliest others, ``reject`` never
    for i in [best, *(np.argsort(-p).tolist() if order is None else order)]:
        if LABELS[i] != "reject" and i not in kinds:
            kinds.append(i)
            if len(kinds) == wanted:
                break
    values = p.tolist()
    ranked = [[LABELS[i], round(values[i], 4)] for i in kinds]
    out = {"tile": LABELS[best], "confidence": round(float(p[best]), 4), "top3": ranked[:3]}
    if likely:
        out["likely"] = ranked[:likely]
    return out


def classify(crops: list[np.ndarray], likely: int = 0, read: list | None = None) -> list[dict]:
    """Name each crop. A crop that cannot be a tile face (too small, wrong shape) gets
    ``{"tile": "reject", "confidence": 0.0, "top3": [], "error": why}``.

    ``likely``: each reading also lists that many likeliest kinds (``reject`` never; like
    ``top3``, the named kind first), with their scores, as ``"likely"``: more alternatives than
    the three shown to a player, for callers that weigh them (the table scan's readings by
    place, :mod:`vision.group`). ``read``: per crop, its reading where already made
    (:func:`read_ahead`), else None: only the others are read here."""
    probs = np.zeros((len(crops), len(LABELS)), np.float32)
    errors: dict[int, str] = {}
    fresh: list[int] = []  # the crops read here
    prepared: list[np.ndarray] = []
    for k, crop in enumerate(crops):
        if read is not None and read[k] is not None:
            probs[k] = read[k]
            continue
        try:
            prepared.append(_as_bgr(crop))
            fresh.append(k)
        except ValueError as e:
            errors[k] = str(e)
    if fresh:
        probs[fresh] = readings(prepared)[2]
    named = choose(probs)
    orders = np.argsort(-probs, axis=1).tolist()  # each reading's kinds from likeliest down, at once
    out = []
    for k in range(len(crops)):
        if k in errors:
            out.append({"tile": "reject", "confidence": 0.0, "top3": [], "error": errors[k]}
                       | ({"likely": []} if likely else {}))
        else:
            out.append(_result(probs[k], int(named[k]), likely, orders[k]))
    return out
