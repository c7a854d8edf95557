"""White balance on the palest pixels of a table photo, not the brightest: pixels ranked by
brightness minus chroma, the median of the top 1% made neutral (tile faces are the near-white
things in the picture, even where lit felt is brighter), applied by table lookup. Step 1 of
:mod:`vision.detect`."""
from __future__ import annotations

import math

import cv2
import numpy as np

LEAVE_OUT_TOLERANCE = 24  # per channel: how near a reference colour a pixel is left out of a new look


def white_balance_gains(img: np.ndarray) -> np.ndarray:
    """Per-channel gains that make the bright, least coloured (face-like) pixels neutral and about 235.

    The reference pixels are ranked by brightness minus chroma, not brightness alone:
    where the tiles are small in the photo, the brightest 3% are lit felt or wood, and
    balancing those to grey would tint the faces.  Every ranking is read off a histogram
    (the values are integers), which gives numpy's percentile and median exactly."""
    return white_balance(img)[0]


def white_balance(img: np.ndarray, leave_out: tuple = ()) -> tuple[np.ndarray, np.ndarray]:
    """(:func:`white_balance_gains`, the reference colour it balanced to, BGR).

    ``leave_out``: reference colours of earlier looks whose pixels (within
    ``LEAVE_OUT_TOLERANCE`` in every channel) take no part in this one.  Where the faces are a
    small part of the photo, something paler than them (a lit phone screen, a sheet of paper)
    can be the palest 1%, and balancing to it leaves ivory faces dim and tinted; a second look
    without it balances to the next palest thing."""
    small = every_other_pixel(img)
    keep = None
    for colour in leave_out:
        near = cv2.inRange(small, np.clip(colour - LEAVE_OUT_TOLERANCE, 0, 255),
                           np.clip(colour + LEAVE_OUT_TOLERANCE, 0, 255))
        keep = cv2.bitwise_not(near) if keep is None else cv2.subtract(keep, near)
    if keep is not None and cv2.countNonZero(keep) < 100:
        keep = None  # nothing left to look at: look at everything
    b, g, r = cv2.split(small)
    chroma = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    lum = cv2.add(cv2.add(b, g, dtype=cv2.CV_16U), r, dtype=cv2.CV_16U)       # 0..765
    # brightness - chroma + 255 (at most 1020: no saturation); the 255 added by numpy, as OpenCV 5.1
    # returns a one-pixel picture plus a number as a 4 x 1 scalar
    pale = cv2.subtract(lum + np.uint16(255), chroma, dtype=cv2.CV_16U)
    cutoff = math.ceil(_hist_percentile(_histogram(pale, 1021, mask=keep), 99, offset=-255))  # the palest 1%
    top = np.greater_equal(pale, cutoff + 255).view(np.uint8)  # a 0/1 mask
    if keep is not None:
        top = cv2.bitwise_and(top, keep)
    ref = np.float32([_hist_percentile(_histogram(small, 256, c, top), 50) for c in range(3)]) + 1.0
    gains = np.clip(ref.max() / ref, 0.6, 1.8)
    scale = 235.0 / max(1.0, float(_hist_percentile(_histogram(lum, 766, mask=keep), 98.5) / 3 * gains.mean()))
    return (gains * min(scale, 2.0)).astype(np.float32), ref - 1.0


def gain_table(gains: np.ndarray) -> np.ndarray:
    """256 x 3 float32: every uint8 value times each channel's gain, as numpy computes it."""
    return np.arange(256, dtype=np.float32)[:, None] * np.asarray(gains, np.float32)[None, :]


def apply_gains(img: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``img.astype(float32) * gains`` per channel (a BGR uint8 image), by a table lookup: the
    same numbers, at a third of numpy's cost."""
    return cv2.LUT(img, gain_table(gains).reshape(256, 1, 3))


def every_other_pixel(img: np.ndarray) -> np.ndarray:
    """``img[::2, ::2]`` as a contiguous array: a nearest-neighbour halving, several times
    faster than numpy's strided copy of a 3-channel image (an odd side is padded first)."""
    h, w = img.shape[:2]
    if h % 2 or w % 2:
        img = cv2.copyMakeBorder(img, 0, h % 2, 0, w % 2, cv2.BORDER_REPLICATE)
    return cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2), interpolation=cv2.INTER_NEAREST)


def _histogram(img: np.ndarray, bins: int, channel: int = 0, mask: np.ndarray | None = None) -> np.ndarray:
    """Counts of the integer values 0 .. bins - 1 of one channel (where ``mask`` is set)."""
    return cv2.calcHist([img], [channel], mask, [bins], [0, bins]).ravel()


def _hist_percentile(hist: np.ndarray, q: float, offset: int = 0) -> float:
    """``np.percentile(values, q)`` (linear interpolation) of float32 values counted by
    ``hist`` (value = bin index + ``offset``), in the same float32 arithmetic."""
    c = np.cumsum(hist)
    pos = q / 100 * (int(c[-1]) - 1)
    lo, hi = int(np.floor(pos)), int(np.ceil(pos))
    vlo, vhi = (np.float32(v + offset) for v in np.searchsorted(c, [lo + 1, hi + 1]))
    return float(vlo + (pos - lo) * (vhi - vlo))
