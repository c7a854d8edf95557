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
``REF_PERCENTILE`` over the light where it lies, at most ``MAX_GAIN`` times."""
from __future__ import annotations

import cv2
import numpy as np

LIGHT_SIDE = 126       # px: the long side of the picture the light is read off
CLOSE_SHARE = 0.06     # of that side: the disc that fills small dark things first ...
OPEN_SHARE = 0.2       # ... and the disc that then takes off the bright tiles
REF_PERCENTILE = 95    # each pixel is brought up to this percentile of the light ...
MAX_GAIN = 3.0         # ... at most this many times brighter
BLUR = 1.5             # px at LIGHT_SIDE: the light's blockiness smoothed


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


def evened(img: np.ndarray) -> np.ndarray:
    """BGR uint8 ``img`` with its light evened: each pixel times the light's ``REF_PERCENTILE``
    over the light where it lies (:func:`light_field`), between 1 and ``MAX_GAIN``."""
    light = light_field(img)
    ref = float(np.percentile(light, REF_PERCENTILE))
    gain = np.clip(ref / np.maximum(light, 1.0), 1.0, MAX_GAIN).astype(np.float32)
    gain = cv2.resize(gain, (img.shape[1], img.shape[0]), interpolation=cv2.INTER_LINEAR)
    return cv2.multiply(img, cv2.merge([gain, gain, gain]), dtype=cv2.CV_8U)
