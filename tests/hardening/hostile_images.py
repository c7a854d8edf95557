"""Hostile image files, built in memory: decompression bombs and lying headers."""
from __future__ import annotations

import io
import struct
import zlib

from PIL import Image


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png(width: int, height: int, *, full_data: bool = False) -> bytes:
    """A grayscale PNG declaring ``width`` x ``height``. With ``full_data`` every
    row is really there (zeros, so a few hundred KB decode to many megapixels);
    without, the data holds one row only: a header that lies."""
    co = zlib.compressobj(9)
    row = b"\x00" * (width + 1)
    idat = b"".join(co.compress(row) for _ in range(height if full_data else 1)) + co.flush()
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr) + _png_chunk(b"IDAT", idat) + _png_chunk(b"IEND", b"")


def small_jpeg(width: int = 64, height: int = 48) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (width, height), (90, 120, 60)).save(buf, "JPEG")
    return buf.getvalue()


def jpeg_claiming(width: int, height: int) -> bytes:
    """A small baseline JPEG whose frame header (SOF0) is rewritten to ``width`` x ``height``."""
    data = small_jpeg()
    sof = data.find(b"\xff\xc0")
    return data[:sof + 5] + struct.pack(">HH", height, width) + data[sof + 9:]
