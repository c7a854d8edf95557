"""Decoding photos: EXIF orientation, reduced decode, and bad input that must not crash."""
from __future__ import annotations

import io
import struct
import zlib

import cv2
import numpy as np
import pytest
from PIL import Image, ImageOps

from vision.decode import ScanError, decode


def _pattern(w=320, h=240) -> np.ndarray:
    """An asymmetric picture: any rotation or mirror of it is recognisable."""
    img = np.full((h, w, 3), 40, np.uint8)
    cv2.rectangle(img, (10, 10), (w // 3, h // 4), (0, 0, 255), -1)      # red block top-left
    cv2.circle(img, (w - 40, h - 40), 25, (0, 255, 0), -1)               # green disc bottom-right
    cv2.line(img, (w // 2, 0), (w // 2, h // 2), (255, 255, 255), 5)     # white line, top half only
    return img


def _jpeg_with_orientation(img: np.ndarray, orientation: int, fmt: str = "JPEG") -> bytes:
    pil = Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    exif = Image.Exif()
    exif[0x0112] = orientation
    buf = io.BytesIO()
    pil.save(buf, fmt, exif=exif.tobytes(), **({"quality": 92} if fmt != "PNG" else {}))
    return buf.getvalue()


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
@pytest.mark.parametrize("orientation", range(1, 9))
def test_exif_orientation_matches_pillow(orientation, fmt):
    data = _jpeg_with_orientation(_pattern(), orientation, fmt)
    d = decode(data)
    ref = ImageOps.exif_transpose(Image.open(io.BytesIO(data))).convert("RGB")
    ref = cv2.cvtColor(np.asarray(ref), cv2.COLOR_RGB2BGR)
    assert d.orientation == orientation
    assert (d.width, d.height) == (ref.shape[1], ref.shape[0])
    assert d.image.shape == ref.shape
    assert np.abs(d.image.astype(int) - ref.astype(int)).mean() < 6


def test_large_jpeg_is_decoded_reduced_and_scaled_back():
    img = cv2.resize(_pattern(), (4032, 3024), interpolation=cv2.INTER_NEAREST)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    d = decode(buf.tobytes())
    assert (d.width, d.height) == (4032, 3024)
    assert d.image.shape[:2] == (756, 1008)  # reduced 4x inside libjpeg
    assert d.reduction == 4 and d.scale == pytest.approx(4.0)


def test_hundred_megapixel_jpeg_is_downscaled_not_refused():
    pil = Image.new("L", (12000, 8400), 90)  # 100.8 MP
    buf = io.BytesIO()
    pil.save(buf, "JPEG", quality=50)
    d = decode(buf.getvalue())
    assert (d.width, d.height) == (12000, 8400)
    assert max(d.image.shape[:2]) == 1500  # reduced 8x inside libjpeg


def _png_header_only(w: int, h: int) -> bytes:
    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)) + chunk(b"IEND", b"")


@pytest.mark.parametrize("data, code", [
    (b"", "empty"),
    (b"this is not a picture at all", "not_an_image"),
    (b"\xff\xd8\xff\xe0" + b"\x00" * 20, "not_an_image"),  # a JPEG signature, then garbage
    (_png_header_only(20000, 6000), "image_too_large"),
])
def test_bad_input_is_refused_clearly(data, code):
    with pytest.raises(ScanError) as info:
        decode(data)
    assert info.value.code == code
    assert info.value.message
    assert info.value.to_dict() == {"error": code, "message": info.value.message}


def test_truncated_jpeg_is_refused():
    ok, buf = cv2.imencode(".jpg", _pattern(), [cv2.IMWRITE_JPEG_QUALITY, 90])
    data = buf.tobytes()
    assert decode(data).image.shape == (240, 320, 3)
    with pytest.raises(ScanError) as info:
        decode(data[: len(data) * 2 // 3])
    assert info.value.code == "truncated"


def test_data_after_the_end_marker_is_allowed():
    ok, buf = cv2.imencode(".jpg", _pattern(), [cv2.IMWRITE_JPEG_QUALITY, 90])
    d = decode(buf.tobytes() + b"\x00\x00\x00\x18ftypmp42" + b"\x00" * 100)  # a motion-photo trailer
    assert d.image.shape == (240, 320, 3)


def test_png_with_alpha_and_grey_decode_to_bgr():
    for mode in ("RGBA", "L"):
        buf = io.BytesIO()
        Image.new(mode, (50, 40)).save(buf, "PNG")
        d = decode(buf.getvalue())
        assert d.image.shape == (40, 50, 3) and d.format == "PNG"
