"""Percentiles and medians of small arrays, the same numbers as numpy's without its per-call
overhead: the detector takes them a few times for every face it finds (:mod:`vision.detect`,
:mod:`vision.body_side`), where that overhead was most of the cost."""
from __future__ import annotations

import numpy as np


def small_median(values) -> float:
    """``float(np.median(values))`` of a few values, the same number without numpy's per-call
    cost (its median takes a dozen calls): a 1-D float32 array (the middle two averaged in
    float32, as numpy does) or a list of Python floats; anything else goes to numpy."""
    if isinstance(values, np.ndarray):
        if values.dtype != np.float32 or values.ndim != 1 or not values.size:
            return float(np.median(values))
        ranked, in_float32 = sorted(values.tolist()), True
    else:
        if not values or not all(type(v) is float for v in values):
            return float(np.median(values))
        ranked, in_float32 = sorted(values), False
    m = len(ranked) // 2
    if len(ranked) % 2:
        return ranked[m]
    if in_float32:
        return float((np.float32(ranked[m - 1]) + np.float32(ranked[m])) / np.float32(2))
    return (ranked[m - 1] + ranked[m]) / 2


def row_percentile(a: np.ndarray, q: float) -> np.ndarray:
    """``np.percentile(a, q, axis=1)`` of a small 2-D array (linear between ranks, equal to about
    1e-5), without numpy's per-call overhead: it runs a few times for every face found, and cut
    the body's side's cost from 0.28 to 0.11 ms a face. A single row (a block's pixels, a
    thousand or two) only has its two ranks put in place (``np.partition``): the same values in
    a third to a half of the time; many short rows sort faster than they partition."""
    n = a.shape[1]
    pos = q / 100 * (n - 1)
    lo = int(pos)
    hi = min(lo + 1, n - 1)
    srt = np.partition(a, (lo, hi) if hi > lo else lo, axis=1) if a.shape[0] == 1 else np.sort(a, axis=1)
    return srt[:, lo] + (srt[:, hi] - srt[:, lo]) * (pos - lo)


def percentiles(a: np.ndarray, qs: tuple[float, ...]) -> list[np.float32]:
    """``np.percentile(a, q)`` for each of ``qs`` of all of a float32 array, as float32 scalars
    computed as :func:`row_percentile` computes them, with one partition that puts every rank
    they need in place."""
    n = a.size
    spots = []
    for q in qs:
        pos = q / 100 * (n - 1)
        spots.append((pos, int(pos), min(int(pos) + 1, n - 1)))
    flat = np.partition(a, sorted({k for _, lo, hi in spots for k in (lo, hi)}), axis=None)
    return [flat[lo] + (flat[hi] - flat[lo]) * (pos - lo) for pos, lo, hi in spots]
