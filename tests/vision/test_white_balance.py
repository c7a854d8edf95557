"""White balance on the palest pixels (``vision.white_balance``)."""
from __future__ import annotations

import numpy as np
import pytest

from vision.detect import detect
from vision.white_balance import white_balance_gains


def test_white_balance_keys_on_the_faces_not_on_bright_felt():
    # tiles far away cover under 1% of the photo; lit green felt is most of its bright
    # pixels, yet the faces (ivory, the least coloured bright things) must come out grey
    rng = np.random.default_rng(0)
    img = np.clip(rng.normal([90, 190, 110], 12, (400, 400, 3)), 0, 255).astype(np.uint8)
    img[100:106, 100:260] = (205, 235, 245)   # ivory faces in warm light: 0.6% of the photo
    g = white_balance_gains(img)
    face = np.float32([205, 235, 245]) * g
    assert face.max() / face.min() < 1.08


def _gains_by_numpy(img):
    """White balance as defined in plain numpy: the palest 1% of every other pixel (brightness
    minus chroma) give the reference colour, the 98.5th brightness percentile the level."""
    small = img[::2, ::2].reshape(-1, 3)
    lum = small.astype(np.float32).sum(axis=1)
    pale = lum - (small.max(axis=1).astype(np.float32) - small.min(axis=1))
    ref = np.median(small[pale >= np.percentile(pale, 99)].astype(np.float32), axis=0) + 1.0
    gains = np.clip(ref.max() / ref, 0.6, 1.8)
    scale = 235.0 / max(1.0, float(np.percentile(lum, 98.5) / 3 * gains.mean()))
    return (gains * min(scale, 2.0)).astype(np.float32)


@pytest.mark.parametrize("shape", [(1, 1, 3), (2, 3, 3), (1, 999, 3), (998, 1, 3), (11, 13, 3), (301, 400, 3)])
def test_white_balance_read_off_histograms_equals_numpy_percentiles(shape):
    """The histogram shortcut must give numpy's percentiles and medians, on any size (a 1x1
    image once crashed it)."""
    rng = np.random.default_rng(sum(shape))
    for img in (rng.integers(0, 256, shape, dtype=np.uint8), rng.integers(100, 140, shape, dtype=np.uint8),
                np.full(shape, 255, np.uint8), np.zeros(shape, np.uint8)):
        got = white_balance_gains(img)
        want = _gains_by_numpy(img)
        np.testing.assert_allclose(got, want, rtol=2e-7)
        assert isinstance(detect(img)["runs"], list)  # tiny and odd sizes go through detection too
