"""Photo bytes -> an upright BGR image at a working size, cheaply.

* The header is read first (:mod:`vision.image_header`, no pixel decode) for the format,
  the size and the EXIF orientation; bad input is refused before any pixel is decoded.
* JPEGs are decoded at a reduced size by libjpeg's DCT scaling
  (``IMREAD_REDUCED_COLOR_2/4/8``), which costs about half a full decode or less.
  The factor is the largest that keeps the long side at least ``WORK_LONG_SIDE`` (or
  the ``long_side`` asked for).
* The EXIF orientation is applied here (OpenCV is told to ignore it) so that the
  caller knows exactly which transform was used.

All coordinates that leave ``vision.scan`` are in the *oriented, full-size* image,
i.e. the picture as a phone shows it; ``Decoded.scale`` converts.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .image_header import Header, HeaderError, read_header

WORK_LONG_SIDE = 1000          # the reduced decode keeps at least this many px on the long side
MAX_JPEG_PIXELS = 250_000_000  # JPEGs are reduced by up to 8x in the decoder, so big ones are fine
MAX_OTHER_PIXELS = 40_000_000  # PNG/WebP/BMP... decode in full: refuse anything bigger
MAX_BYTES = 80 * 1024 * 1024

ORIENTATION_NAMES = {
    1: "normal", 2: "mirror-horizontal", 3: "rotate-180", 4: "mirror-vertical",
    5: "transpose", 6: "rotate-90-cw", 7: "transverse", 8: "rotate-90-ccw",
}


class ScanError(ValueError):
    """Bad input for a scan. ``code`` is a short machine-readable reason."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def to_dict(self) -> dict:
        return {"error": self.code, "message": self.message}


@dataclass
class Decoded:
    image: np.ndarray      # BGR uint8, oriented, possibly reduced
    width: int             # oriented full-size width
    height: int            # oriented full-size height
    orientation: int       # EXIF orientation tag that was applied (1 = none)
    format: str            # "JPEG", "PNG", ...
    reduction: int         # 1, 2, 4 or 8

    @property
    def scale(self) -> float:
        """Full-size px per working-image px (x and y may differ by rounding; this is x)."""
        return self.width / self.image.shape[1]

    @property
    def scale_xy(self) -> tuple[float, float]:
        return self.width / self.image.shape[1], self.height / self.image.shape[0]


def _read_header(data: bytes) -> Header:
    """The format, stored size and EXIF orientation (1-8) of ``data``; :class:`ScanError` else."""
    try:
        return read_header(data)
    except HeaderError as exc:
        raise ScanError(exc.code, str(exc)) from None


def _jpeg_is_complete(data: bytes, data_at: int) -> bool:
    """True when the JPEG has an end-of-image marker after the start of its entropy-coded data
    (``data_at``, where its header ended: :func:`vision.image_header.read_header`).

    Entropy-coded data never contains ``FF D9`` (0xFF is always stuffed), so an
    EOI after the start of scan means the scan data is complete.  Data appended
    after the EOI (motion photos, maker trailers) is allowed.
    """
    return data.rfind(b"\xff\xd9", data_at) >= 0  # searched from the end, where it is


def _orient(img: np.ndarray, orientation: int) -> np.ndarray:
    if orientation == 2:
        return cv2.flip(img, 1)
    if orientation == 3:
        return cv2.rotate(img, cv2.ROTATE_180)
    if orientation == 4:
        return cv2.flip(img, 0)
    if orientation == 5:
        return cv2.transpose(img)
    if orientation == 6:
        return cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    if orientation == 7:
        return cv2.rotate(cv2.transpose(img), cv2.ROTATE_180)
    if orientation == 8:
        return cv2.rotate(img, cv2.ROTATE_90_COUNTERCLOCKWISE)
    return img


def _reduction_for(long_side: int, work: int = WORK_LONG_SIDE) -> int:
    for f in (8, 4, 2):
        if long_side // f >= work:
            return f
    return 1


_REDUCED_FLAGS = {1: cv2.IMREAD_COLOR, 2: cv2.IMREAD_REDUCED_COLOR_2,
                  4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}


def decode(data: bytes, *, reduce: bool = True, long_side: int | None = None) -> Decoded:
    """Decode photo bytes into an upright BGR image; raise :class:`ScanError` on bad input.

    ``long_side`` is the least working size kept on the long side (``WORK_LONG_SIDE``
    unless given; the scanner's closer look asks for twice that)."""
    work = long_side or WORK_LONG_SIDE
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise ScanError("bad_type", "image data must be bytes")
    data = bytes(data)
    if len(data) == 0:
        raise ScanError("empty", "the image is empty (0 bytes)")
    if len(data) > MAX_BYTES:
        raise ScanError("image_too_large", f"the file is larger than {MAX_BYTES // (1024 * 1024)} MB")
    header = _read_header(data)
    fmt, w, h, orientation = header.format, header.width, header.height, header.orientation
    if w <= 0 or h <= 0:
        raise ScanError("bad_image", "the image has no pixels")
    pixels = w * h
    is_jpeg = fmt == "JPEG"
    limit = MAX_JPEG_PIXELS if is_jpeg else MAX_OTHER_PIXELS
    if pixels > limit:
        raise ScanError("image_too_large",
                        f"the image is {pixels / 1e6:.0f} megapixels; the limit for {fmt} is {limit / 1e6:.0f}")
    if is_jpeg and len(data) < pixels // 4096:  # even a flat JPEG needs ~1 bit per 8x8 block
        raise ScanError("bad_image", f"the JPEG header claims {w}x{h} pixels, far more than its {len(data)} bytes hold")
    if is_jpeg and not _jpeg_is_complete(data, header.data_at):
        raise ScanError("truncated", "the JPEG is truncated (no end-of-image marker after its data)")
    factor = _reduction_for(max(w, h), work) if (reduce and is_jpeg) else 1
    flags = _REDUCED_FLAGS[factor] | cv2.IMREAD_IGNORE_ORIENTATION
    img = cv2.imdecode(np.frombuffer(data, np.uint8), flags)
    if img is None:
        raise ScanError("bad_image", f"the {fmt} image could not be decoded")
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    elif img.shape[2] == 4:
        img = cv2.cvtColor(img, cv2.COLOR_BGRA2BGR)
    if img.dtype != np.uint8:
        img = cv2.convertScaleAbs(img, alpha=255.0 / max(1.0, float(img.max())))
    if not is_jpeg and reduce and max(w, h) >= 2 * work:
        f = 2 * work / max(w, h)
        img = cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        factor = 0  # marks "resized, not a DCT reduction"
    img = _orient(img, orientation)
    if orientation in (5, 6, 7, 8):
        w, h = h, w
    return Decoded(image=np.ascontiguousarray(img), width=w, height=h, orientation=orientation,
                   format=fmt, reduction=factor if factor else max(1, round(max(w, h) / max(img.shape[:2]))))
