"""Faces cut from photographs of real tiles, for measuring the scanner on real faces.

``../shared/data/real-tiles`` (when present) holds labelled crops of real tile faces from
product photos. :func:`photo_face` puts one of them, as it is, where a rendered face would go,
so that a synthetic table photo (``vision.scenes.make_scene(..., source=PHOTO_SOURCE)``) shows
real ink, real ivory and real photo texture under the scene's own camera and light.

This is a style for measuring only: it is not one of ``vision.faces.FACE_SOURCES``, so no
training data and no default scene draws from it (the classifier is fine-tuned on these very
crops, so a scene of them measures the detector fairly, the classifier only optimistically).
"""
from __future__ import annotations

import csv
import functools
from pathlib import Path

import cv2
import numpy as np

from .fonts import SHARED

PHOTO_SOURCE = "real_photo"
REAL_DIR = SHARED / "data" / "real-tiles"


# (file, label in labels.csv) -> (the tile the crop shows, what shows it), where the shared labels
# are wrong (checked by eye); the model card names them too (vision.model_card)
LABEL_FIXES = {
    # development real-photo scenes 7, 160, 239, 290 and 344 counted the scanner's 9p wrong
    ("350.jpg", "8p"): ("9p", "nine circles in three rows of three and a 9 in the corner"),
}


def real_labels(directory: str | Path = REAL_DIR) -> list[tuple[str, str]]:
    """(file name, tile code) of each labelled real crop in ``directory``'s ``labels.csv``, in its
    order, with the labels of ``LABEL_FIXES`` mended; empty when it is absent."""
    labels = Path(directory) / "labels.csv"
    if not labels.exists():
        return []
    with open(labels, newline="") as fh:
        rows = [(row["file"], row["tile"]) for row in csv.DictReader(fh)]
    return [(name, LABEL_FIXES.get((name, code), (code,))[0]) for name, code in rows]


@functools.cache
def photo_files(directory: Path = REAL_DIR) -> dict[str, tuple[Path, ...]]:
    """Tile code -> the crops of it in ``directory`` (its ``labels.csv``); empty when absent."""
    out: dict[str, list[Path]] = {}
    for name, code in real_labels(directory):
        out.setdefault(code, []).append(Path(directory) / name)
    return {code: tuple(sorted(files)) for code, files in sorted(out.items())}


def photo_codes() -> tuple[str, ...]:
    """The tile codes there are real crops of (none without ``../shared``)."""
    return tuple(photo_files())


@functools.lru_cache(maxsize=512)
def _read(path: Path) -> np.ndarray:
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError(f"cannot read the real tile crop {path}")
    img.flags.writeable = False
    return img


def face_ivory(img: np.ndarray) -> np.ndarray:
    """The colour (BGR float) of a crop's bare face: the per-channel median of its brighter half
    of pixels (ink is darker or more coloured than the face, and covers well under half of it)."""
    px = img.reshape(-1, 3).astype(np.float32)
    lum = px.sum(axis=1)
    return np.median(px[lum >= np.median(lum)], axis=0)


def photo_face(code: str, rng: np.random.Generator, h: int, w: int, ivory: np.ndarray | None = None) -> np.ndarray:
    """A real crop of ``code``, picked by ``rng``, resized to ``h`` x ``w`` (BGR uint8).

    ``ivory``: the set's face colour (BGR). The crops come from product photos of several sets
    under different lights (a warm one makes a face yellow-brown); a real photo shows one set
    under one light, so each crop's colours are scaled per channel to bring its bare face
    (:func:`face_ivory`) to ``ivory``, the way a white balance would."""
    files = photo_files().get(code)
    if not files:
        raise ValueError(f"no real crop of {code} (is ../shared/data/real-tiles there?)")
    img = cv2.resize(_read(files[int(rng.integers(len(files)))]), (w, h), interpolation=cv2.INTER_AREA)
    if ivory is None:
        return img
    gains = np.clip(np.asarray(ivory, np.float32) / np.maximum(face_ivory(img), 1.0), 0.5, 2.0)
    return np.clip(img.astype(np.float32) * gains, 0, 255).astype(np.uint8)
