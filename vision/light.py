"""The light across a photo, and the photo with it evened: a phone's or an arm's shadow over part
of a hand leaves those faces dimmer than the lit table beside them, and the face mask's one
whiteness threshold (:mod:`vision.face_mask`) then takes the table and leaves the faces out
(docs/vision.md, "A phone's shadow over the hand"). The scanner looks at such a photo again with
its light evened (:func:`vision.scan.scan`).

The light is read off the table: on the picture in grey at about ``LIGHT_SIDE`` px, a closing
by a disc of ``CLOSE_SHARE`` of its long side fills what is small and dark (the tiles' bodies,
shadows and gaps, face-down tiles, a woven mat's seams), then an opening by a disc of
``OPEN_SHARE`` takes off what is bright and narrower than that (faces, rows, melds), and what
is left is the table's own level, a shadow's edge kept where it lies (an opening keeps the shape
of anything larger than its disc). Each pixel is then brightened by the light's
``REF_PERCENTILE`` over the light where it lies, at most ``MAX_GAIN`` times.

A shadow can also hide tiles while the rest still add up to a hand (flowers set aside in it, a
14-tile hand read as 13): :func:`faces_left_in_shade` looks for faces the evened photo shows in
the shade where a look named no tile, a cheap check that sends such a photo to the evened look
too."""
from __future__ import annotations

import cv2
import numpy as np

from .face_mask import whiteness
from .quads import ASPECT_TYPICAL

LIGHT_SIDE = 126       # px: the long side of the picture the light is read off
CLOSE_SHARE = 0.06     # of that side: the disc that fills small dark things first ...
OPEN_SHARE = 0.2       # ... and the disc that then takes off the bright tiles
REF_PERCENTILE = 95    # each pixel is brought up to this percentile of the light ...
MAX_GAIN = 3.0         # ... at most this many times brighter
BLUR = 1.5             # px at LIGHT_SIDE: the light's blockiness smoothed

SHADE_SIDE = 252       # px: about the long side of the picture a shade's faces are looked for on
SHADE_GAIN = 1.35      # a pixel is in shade where evening brightens it this many times or more
SHADE_AREA = (0.4, 6.0)  # a left face's pale area (or a meld's touching faces'), times a face's
#                           (its height squared times ASPECT_TYPICAL)
SHADE_SIDE_MIN = 0.45  # its narrower side, at least this share of a face's width ...
SHADE_FILL = 0.45      # ... and its pale area at least this share of its bounding box
SHADE_CHROMA = 14.0    # its colour (Lab a + b) at most this far from the named faces' ...
SHADE_DIMMER = 60.0    # ... and its lightness (Lab L) at most this far below theirs (less evened at a shadow's edge)


def _disc(size: float) -> np.ndarray:
    n = max(3, int(round(size)) | 1)
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (n, n))


def light_field(img: np.ndarray) -> np.ndarray:
    """The light across BGR ``img`` as grey levels (float32) at about ``LIGHT_SIDE`` px on its long
    side (see the module's docstring)."""
    h, w = img.shape[:2]
    f = LIGHT_SIDE / max(h, w)
    tw, th = max(1, round(w * f)), max(1, round(h * f))
    grey = cv2.resize(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (tw, th), interpolation=cv2.INTER_AREA)
    side = max(tw, th)
    level = cv2.morphologyEx(grey, cv2.MORPH_CLOSE, _disc(CLOSE_SHARE * side), borderType=cv2.BORDER_REPLICATE)
    level = cv2.morphologyEx(level, cv2.MORPH_OPEN, _disc(OPEN_SHARE * side), borderType=cv2.BORDER_REPLICATE)
    return cv2.GaussianBlur(level.astype(np.float32), (0, 0), BLUR)


def light_gain(img: np.ndarray) -> np.ndarray:
    """How many times evening brightens each part of BGR ``img`` (float32, at :func:`light_field`'s
    size): the light's ``REF_PERCENTILE`` over the light where it lies, between 1 and ``MAX_GAIN``."""
    light = light_field(img)
    ref = float(np.percentile(light, REF_PERCENTILE))
    return np.clip(ref / np.maximum(light, 1.0), 1.0, MAX_GAIN).astype(np.float32)


def _brightened(img: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """BGR uint8 ``img`` times ``gain`` (float32, at ``img``'s size), each channel alike."""
    return cv2.multiply(img, cv2.merge([gain, gain, gain]), dtype=cv2.CV_8U)


def evened(img: np.ndarray) -> np.ndarray:
    """BGR uint8 ``img`` with its light evened: each pixel times :func:`light_gain` where it lies."""
    gain = cv2.resize(light_gain(img), (img.shape[1], img.shape[0]), interpolation=cv2.INTER_LINEAR)
    return _brightened(img, gain)


def shade_picture(img: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """What :func:`faces_left_in_shade` needs of BGR ``img`` alone: ``img`` taken every few pixels,
    about ``SHADE_SIDE`` px on its long side (a strided view, no resize), how many times evening
    (:func:`evened`) brightens each of its pixels (float32, at its size), and it so brightened;
    None where evening brightens no pixel ``SHADE_GAIN`` times (no shade). It depends on the photo
    only, so the scan makes it on a thread of its own while it reads the photo
    (:func:`vision.scan.scan`)."""
    h, w = img.shape[:2]
    step = max(1, round(max(h, w) / SHADE_SIDE))
    small = np.ascontiguousarray(img[::step, ::step])
    sh, sw = small.shape[:2]
    gain = light_gain(small)
    if float(gain.max()) < SHADE_GAIN:
        return None
    gain = cv2.resize(gain, (sw, sh), interpolation=cv2.INTER_LINEAR)
    return small, gain, _brightened(small, gain)


def faces_left_in_shade(img: np.ndarray, gains: np.ndarray, threshold: float | None, named: list,
                        face_height: float) -> int:
    """How many faces BGR ``img`` shows in shade, with its light evened, where a look named no
    tile: the look's white balance ``gains`` and whiteness ``threshold`` (None: a pale table, whose
    faces are found by their outlines: 0), the quads it named (``named``, in ``img`` px) and its
    face height (px). :func:`faces_left_in` on :func:`shade_picture`."""
    return faces_left_in(shade_picture(img), img.shape[1], gains, threshold, named, face_height)


def faces_left_in(picture: tuple | None, width: int, gains: np.ndarray, threshold: float | None, named: list,
                  face_height: float) -> int:
    """:func:`faces_left_in_shade` on the :func:`shade_picture` (``picture``) of a photo ``width``
    px wide.

    Where evening brightens a pixel of the strided picture ``SHADE_GAIN`` times or more, a
    pale blob (whiteness at ``threshold`` or over) away from every named quad counts when it is
    about a face's size or a meld's of touching faces (``SHADE_AREA``), a face's shape (its
    narrower side and fill, ``SHADE_SIDE_MIN`` and ``SHADE_FILL``) and the named faces' colour
    (``SHADE_CHROMA``, ``SHADE_DIMMER``: a checked cloth's dark squares, evened, pass the threshold
    too, in the cloth's colour). A photo with no shade costs the light's reading only (about 1 ms
    on a 1008 x 756 picture; docs/vision.md, "Tiles hidden in a shadow")."""
    if threshold is None or face_height <= 0 or not named or picture is None:
        return 0
    small, gain, lit = picture
    sh, sw = small.shape[:2]
    pale = whiteness(lit, gains) >= threshold
    k = sw / width
    found = np.zeros((sh, sw), np.uint8)
    for quad in named:
        cv2.fillConvexPoly(found, np.int32(np.round(np.asarray(quad, np.float32) * k)), 255)
    away = cv2.dilate(found, np.ones((3, 3), np.uint8)) == 0
    n, labels, stats, _ = cv2.connectedComponentsWithStats((pale & away & (gain >= SHADE_GAIN)).astype(np.uint8),
                                                           connectivity=8)
    side = face_height * k
    face = side * side * ASPECT_TYPICAL
    area, bw, bh = (stats[1:, c] for c in (cv2.CC_STAT_AREA, cv2.CC_STAT_WIDTH, cv2.CC_STAT_HEIGHT))
    shaped = 1 + np.flatnonzero((area >= SHADE_AREA[0] * face) & (area <= SHADE_AREA[1] * face)
                                & (np.minimum(bw, bh) >= SHADE_SIDE_MIN * side * ASPECT_TYPICAL)
                                & (area >= SHADE_FILL * bw * bh))
    if not len(shaped):
        return 0
    lab = cv2.cvtColor(lit, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)
    faces = lab[((found > 0) & pale).ravel()]
    if len(faces) < 20:  # too few named faces' pixels to know their colour
        return 0
    L0, a0, b0 = np.median(faces, axis=0)
    flat = labels.ravel()
    # each blob's mean L, a and b at once (a mask of the picture per blob cost up to 2 ms a photo)
    L, a, b = (np.bincount(flat, weights=lab[:, c], minlength=n)[shaped] / area[shaped - 1] for c in range(3))
    return int(np.count_nonzero((np.abs(a - a0) + np.abs(b - b0) <= SHADE_CHROMA) & (L >= L0 - SHADE_DIMMER)))
