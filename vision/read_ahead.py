"""The faces a detection has found, read while it looks on.

:func:`vision.detect.detect` tells its caller each look's faces once they are split and trimmed
(``on_faces``), then searches the photo for face-down tiles, a row's ends that are a kong's and
outlined kongs: several milliseconds of the scan's main thread, most of them Python. A
:class:`ReadAhead` given as ``on_faces`` crops those faces there and then (on the main thread:
the scan needs the crops anyway; made on the other thread too, they cost more than they saved,
docs/performance.md) and, on a thread of its own, reads them as :func:`vision.classify.classify`
would: the tile classifier's first reading and every look after it (the banded reader where
unsure, the turned crop and the flower reader where a reading leans to a flower;
:func:`vision.classify.read_ahead`, run by :class:`vision.background.InBackground`; OpenCV's
resizes and onnxruntime on one thread let go of the interpreter lock, so they take the spare
core). The classify step then takes the crops and readings of the faces it still has
(:meth:`ReadAhead.take`) and reads only the rest. onnxruntime reads a crop alike in any batch on
any number of threads, and each look after the first reads a crop by its own reading alone, so
the scan returns what it returned without the read-ahead; docs/performance.md gives the time it
saves.
"""
from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .background import InBackground


def _reading(crops: list[np.ndarray]) -> np.ndarray:
    """The classifier's reading of ``crops`` with every look (:func:`vision.classify.read_ahead`),
    their model inputs made here too: each is an area resize of about 0.07 ms, which the
    reading's thread makes while the main thread works on (they were made on the main thread
    before; docs/performance.md)."""
    from .classify import read_ahead

    return read_ahead(crops)


class ReadAhead:
    """``on_faces`` for :func:`vision.detect.detect` on ``image`` (or on a window of it whose
    top-left corner is at ``offset``): each call crops the quads with ``crop(image, quad)`` and
    starts their reading. Quads are matched by their float32 values, as the scan moves a
    window's quads (:func:`vision.scan._moved`). Every reading started is waited for by
    :meth:`join`, which the caller calls before it returns."""

    def __init__(self, image: np.ndarray, crop: Callable[[np.ndarray, np.ndarray], np.ndarray],
                 offset: tuple[int, int] = (0, 0)) -> None:
        self._image, self._crop = image, crop
        self._offset = np.float32(offset)
        self._faces: dict[bytes, tuple[np.ndarray, InBackground, int]] = {}
        self._jobs: list[InBackground] = []

    def _key(self, quad) -> bytes:
        return np.asarray(quad, np.float32).tobytes()

    def __call__(self, quads: list[np.ndarray]) -> None:
        if not quads:
            return
        moved = [np.asarray(q, np.float32) + self._offset for q in quads]
        crops = [self._crop(self._image, q) for q in moved]
        job = InBackground(_reading, crops)
        self._jobs.append(job)
        for k, (q, c) in enumerate(zip(moved, crops)):
            self._faces[self._key(q)] = (c, job, k)

    def crops(self, quads: list) -> list:
        """The crop of each of ``quads`` (``image`` px) read ahead, None for the others; waits for
        nothing."""
        return [f[0] if f else None for f in map(self._faces.get, map(self._key, quads))]

    def take(self, quads: list) -> list:
        """The reading of each of ``quads`` read ahead, None for the others; waits for the
        readings it returns."""
        return [f[1].result()[f[2]] if f else None for f in map(self._faces.get, map(self._key, quads))]

    def join(self) -> None:
        for job in self._jobs:
            job.join()
