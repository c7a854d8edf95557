"""Colours in Lab: the table's commonest colours, the mean colour inside a quad, and the weighted
colour distance (chroma counts more than lightness, which shading changes) by which the detector
tells faces, face-down tiles and gaps from the table."""
from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

from .quads import scaled_quad
from .white_balance import gain_table


def mean_in(img: np.ndarray, quad: np.ndarray, offset=(0, 0), convert: Callable | None = None):
    """Mean colour inside a quad (the middle 60% of it), or None when it is off the image.
    ``offset``: where ``img`` (a window) lies in the picture the quad's coordinates are of;
    ``convert``: a per-pixel conversion of ``img`` (its colour space, a mask's 0/1) applied to
    the window under the quad only, the same numbers as converting the whole picture first."""
    window = window_in(img, scaled_quad(quad, 0.6), 2, offset)
    if window is None:
        return None
    part, m = window
    if cv2.countNonZero(m) < 6:
        return None
    if convert is not None:
        part = convert(part)
    channels = 1 if part.ndim == 2 else part.shape[2]
    return np.float32(cv2.mean(part, mask=m)[:min(channels, 3)])


def pixels_in(img: np.ndarray, quad: np.ndarray, min_extent: int = 1, offset=(0, 0)):
    """The pixels of ``img`` inside a quad (N x channels), or None when the part of it on
    the image is less than ``min_extent`` px wide or high.  ``offset``: as in :func:`mean_in`."""
    window = window_in(img, quad, min_extent, offset)
    if window is None:
        return None
    part, m = window
    return part[m > 0]


def window_in(img: np.ndarray, quad: np.ndarray, min_extent: int, offset):
    """(the part of ``img`` under a quad's bounding box, the quad's mask there), or None (see
    :func:`pixels_in`)."""
    q = np.asarray(quad).astype(np.int32) - np.asarray(offset, np.int32)
    xs, ys = q[:, 0].tolist(), q[:, 1].tolist()  # four corners: plain ints cost less than numpy's reductions
    x0, y0 = max(min(xs), 0), max(min(ys), 0)
    x1, y1 = min(max(xs) + 1, img.shape[1]), min(max(ys) + 1, img.shape[0])
    if x1 - x0 < min_extent or y1 - y0 < min_extent:
        return None
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    cv2.fillConvexPoly(m, q - np.int32([x0, y0]), 1)
    return img[y0:y1, x0:x1], m


TABLE_APART = 25.0        # a table pixel this far (colour_distance) from a table colour is not of it
TABLE_SECOND_SHARE = 0.2  # a second table colour: the pixels far from the first are at least this share of the table,
TABLE_SECOND_OWN = 0.15   # ... and those near their commonest colour at least this share (not one object's colour)


def _dominant(lab: np.ndarray) -> np.ndarray:
    """The median of the most common coarse colour (16 levels a channel) of N x 3 Lab pixels
    (OpenCV's 8-bit scale). The coarse colour is ``lab // 16``, taken as ``floor(lab / 16)``: the
    same numbers (16 is a power of two, so the quotient is exact), at a fortieth of the cost of
    numpy's float floor division."""
    q = np.floor(lab * np.float32(1 / 16)).astype(np.int32)
    key = q[:, 0] * 256 + q[:, 1] * 16 + q[:, 2]
    return np.median(lab[key == np.bincount(key).argmax()], axis=0).astype(np.float32)


TABLE_STEP = 4  # the table's colour is read off every 4th pixel of every 4th row


def table_colours(lab: np.ndarray, exclude: np.ndarray, step: int = TABLE_STEP) -> list[np.ndarray]:
    """The colour (Lab) of the picture (a Lab image from :func:`to_lab`) outside ``exclude``,
    the table, and a second one when the table is of two (a checked or striped cloth): the
    dominant colour of the pixels far (over TABLE_APART) from the first, when they are at least
    TABLE_SECOND_SHARE of the table and the pixels within TABLE_APART of that colour at least
    TABLE_SECOND_OWN of it. Every ``step``-th pixel of every ``step``-th row counts.

    The second test keeps one object's colour from being the table's: where the far pixels are
    a wood's dark grain, lit patches and the like, each of many colours, their commonest can be
    a concealed kong's four backs, shot close (development scene 39 at ``--fill 0.95``: dark green
    backs, 4.5% of the table, became its second colour and the kong was lost). On the development
    scenes a table's own second colour covered 26-61% of it, an object's 4-8%."""
    lab = lab[::step, ::step].reshape(-1, 3)
    keep = exclude[::step, ::step].reshape(-1) == 0
    lab = lab[keep] if keep.sum() > 100 else lab
    first = _dominant(lab)
    far = lab[colour_distance(lab, first) > TABLE_APART]
    if len(far) < TABLE_SECOND_SHARE * len(lab):
        return [first]
    second = _dominant(far)
    if np.count_nonzero(colour_distance(lab, second) <= TABLE_APART) < TABLE_SECOND_OWN * len(lab):
        return [first]
    return [first, second]


# weights of squared lightness and chroma differences in a colour distance: chroma counts
# more, because shading changes lightness far more than hue
L_WEIGHT, CHROMA_WEIGHT = 0.5, 2.0


def balanced_lab(gains: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
    """A conversion of BGR uint8 pixels to ``to_lab(apply_gains(pixels, gains))`` by a uint8 table
    lookup (uint8 Lab: the same values), for :func:`mean_in` to apply to the few windows it
    reads; OpenCV's 8-bit Lab costs about 5 ms on a whole 1008 x 756 picture."""
    table = np.clip(gain_table(gains), 0, 255).astype(np.uint8).reshape(256, 1, 3)
    return lambda pixels: cv2.cvtColor(cv2.LUT(pixels, table), cv2.COLOR_BGR2Lab)


def is_set_pixel(mask: np.ndarray) -> np.ndarray:
    """A 0/255 mask's pixels as 0/1, so that their mean is the share set."""
    return (mask > 0).view(np.uint8)


def to_lab(wb: np.ndarray) -> np.ndarray:
    """A white-balanced float BGR image as float32 Lab (OpenCV's 8-bit scale)."""
    return cv2.cvtColor(np.clip(wb, 0, 255).astype(np.uint8), cv2.COLOR_BGR2Lab).astype(np.float32)


_DISTANCE_WEIGHTS = np.float32([[L_WEIGHT, CHROMA_WEIGHT, CHROMA_WEIGHT]])


def lab_distance(lab: np.ndarray, refs: list[np.ndarray]) -> np.ndarray:
    """Per pixel, the colour distance of a Lab image (from :func:`to_lab`) to the nearest of the
    colours ``refs`` (one or more): the square root of ``L_WEIGHT`` x the squared lightness
    difference plus ``CHROMA_WEIGHT`` x the squared a and b differences.

    The squares are summed per colour and the root taken once, of their least. Where the image
    holds whole numbers (as :func:`to_lab` gives) and the colours halves (medians of them, as
    :func:`table_colours` gives), every sum is exact in float32, so the order of the arithmetic
    cannot change a bit: the same numbers as a root per colour and a minimum of those, in less
    than half the time (one pass per step over the three channels, no planes split out)."""
    least = None
    for ref in refs:
        d = cv2.subtract(lab, tuple(float(v) for v in np.asarray(ref, np.float32)) + (0.0,))
        cv2.multiply(d, d, dst=d)
        sq = cv2.transform(d, _DISTANCE_WEIGHTS)
        least = sq if least is None else cv2.min(least, sq, dst=least)
    return cv2.sqrt(least, dst=least)


def colour_distance(a: np.ndarray, b: np.ndarray):
    """:func:`lab_distance` between Lab colours (the last axis): a float for two colours,
    an array for N colours against one."""
    d = np.sqrt(L_WEIGHT * (a[..., 0] - b[..., 0]) ** 2
                + CHROMA_WEIGHT * ((a[..., 1] - b[..., 1]) ** 2 + (a[..., 2] - b[..., 2]) ** 2))
    return float(d) if np.ndim(d) == 0 else d
