"""Hostile uploads, built in memory: decompression bombs, lying headers, an endless body."""
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


def send_endless_upload(sock, token: str, limit: int) -> int:
    """Start a chunked multipart photo upload on ``sock`` and keep sending 256 KB chunks of junk
    until ``limit`` bytes are out or the server closes the connection. Returns the bytes sent."""
    sock.sendall(b"POST /api/scan HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer " + token.encode()
                 + b"\r\nContent-Type: multipart/form-data; boundary=b\r\nTransfer-Encoding: chunked\r\n\r\n")
    first = b'--b\r\nContent-Disposition: form-data; name="photo"; filename="a.jpg"\r\n\r\n'
    sock.sendall(b"%x\r\n%s\r\n" % (len(first), first))
    block = b"\xff" * (256 * 1024)
    chunk = b"%x\r\n%s\r\n" % (len(block), block)
    sent = 0
    try:
        while sent < limit:
            sock.sendall(chunk)
            sent += len(block)
    except OSError:  # the server answered and closed while we were still sending
        pass
    return sent
