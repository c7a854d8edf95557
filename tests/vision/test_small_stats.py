"""Percentiles and medians without numpy's per-call cost (``vision.small_stats``): the same numbers
as numpy's."""
from __future__ import annotations

import numpy as np
import pytest


def test_small_median_is_numpys_median_to_the_bit():
    """small_median stands in for np.median on a few values (run geometry, row heights): the
    same number, for float32 arrays (averaged in float32) and lists of Python floats alike."""
    from vision.small_stats import small_median

    rng = np.random.default_rng(11)
    for n in range(1, 30):
        for scale in (1.0, 57.3, 1e-3):
            a = (rng.random(n) * scale).astype(np.float32)
            assert small_median(a) == float(np.median(a))
            values = [float(x) for x in rng.random(n) * scale]
            assert small_median(values) == float(np.median(values))
            assert small_median(a.astype(np.float64)) == float(np.median(a.astype(np.float64)))
    assert small_median([2.0, np.float32(1.5)]) == float(np.median([2.0, np.float32(1.5)]))  # mixed: numpy's


def test_a_blocks_percentile_is_the_row_percentile_of_it_flattened():
    """_side_cuts reads a face's lightness near an edge as one percentile of a block, and
    _patchy two percentiles of a blob's lit pixels at once: the numbers row_percentile gives."""
    from vision.small_stats import percentiles, row_percentile

    rng = np.random.default_rng(5)
    grey = rng.integers(0, 256, (40, 60)).astype(np.float32)
    for block in (grey[3:9, 10:50], grey[5:35, 2:7], grey[0:1, 0:1], grey[4:6, 7:9]):
        for q in (75, 80, 20):
            (one,) = percentiles(block, (q,))
            assert one == row_percentile(block.reshape(1, -1), q)[0]
            assert float(one) == pytest.approx(float(np.percentile(block, q)), abs=1e-3)
        together = percentiles(block, (50, 90))
        assert [x.dtype for x in together] == [np.float32, np.float32]
        assert together == [row_percentile(block.reshape(1, -1), q)[0] for q in (50, 90)]
