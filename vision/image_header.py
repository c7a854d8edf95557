"""A photo's format, size and EXIF orientation, read from its header alone.

The scanner refuses bad input before it decodes a pixel (a 60 MB upload, a header that
claims 2.5 gigapixels, a truncated JPEG), so it needs the size first; and it applies the
EXIF orientation itself, so it needs the tag. This module reads both from the bytes with
the standard library only: OpenCV, numpy and onnxruntime are all the scanner needs at run
time (Pillow is a test and training dependency).

Formats read: the ones OpenCV decodes from a phone or a desktop: JPEG (every SOF kind:
baseline, progressive, lossless; an MPO is a JPEG), PNG, WebP (lossy, lossless, extended),
BMP and TIFF. The orientation is read from a JPEG's first ``Exif`` APP1 segment, a PNG's
``eXIf`` chunk, an extended WebP's ``EXIF`` chunk and a TIFF's first IFD; a BMP is taken as
upright (phones write their photos as JPEG, or convert HEIC to JPEG on upload; an app that
saves or shares one as PNG or WebP may keep the camera's orientation tag). Anything else, GIF
included, is not an image this scanner reads.
"""
from __future__ import annotations

import struct
from typing import NamedTuple


class HeaderError(ValueError):
    """The bytes are no image in a format read here (``code`` ``not_an_image``) or its header
    is cut short or broken (``bad_image``)."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


class Header(NamedTuple):
    format: str       # "JPEG", "PNG", "WEBP", "BMP" or "TIFF"
    width: int        # as stored, before the orientation is applied
    height: int
    orientation: int  # the EXIF orientation tag, 1-8; 1 where none is given, it is out of range or broken
    data_at: int = 0  # a JPEG's: where its entropy-coded data begins (after its first scan header)


NOT_AN_IMAGE = "the data is not an image in a format this scanner reads (JPEG, PNG, WebP, BMP or TIFF)"
# HEIC/HEIF and AVIF (an ISO media file whose major brand is one of these): an iPhone's photos
# by default. OpenCV does not decode them, but a phone's browser converts them to JPEG when it
# uploads a photo; a file copied off the phone keeps the format, and is told how to get a JPEG.
_HEIF_BRANDS = frozenset({b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"mif1", b"msf1", b"avif", b"avis"})
NOT_HEIF = ("the photo is HEIC/HEIF or AVIF (an iPhone's default format), which this scanner does not read: "
            "upload it from the phone's browser (which sends a JPEG), export it as JPEG, or set the camera to "
            "take JPEGs (iPhone: Settings > Camera > Formats > Most Compatible)")
ORIENTATION_TAG = 0x0112
# SOF markers (C0-CF) less DHT (C4), JPG (C8) and DAC (CC), which share the range
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


def read_header(data: bytes) -> Header:
    """The format, stored size and EXIF orientation of an image; :class:`HeaderError` else."""
    if data[:3] == b"\xff\xd8\xff":
        return _jpeg(data)
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return _png(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return _webp(data)
    if data[:2] == b"BM":
        return _bmp(data)
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return _tiff(data)
    if data[4:8] == b"ftyp" and data[8:12] in _HEIF_BRANDS:
        raise HeaderError("not_an_image", NOT_HEIF)
    raise HeaderError("not_an_image", NOT_AN_IMAGE)


def _cut() -> HeaderError:
    return HeaderError("bad_image", "the image header is cut short")


def _jpeg(data: bytes) -> Header:
    """Walk the marker segments up to the first scan: the size from the frame header (SOFn),
    the orientation from the first Exif APP1 segment."""
    n, i = len(data), 2
    size, orientation = None, 1
    while True:
        while i < n and data[i] == 0xFF and i + 1 < n and data[i + 1] == 0xFF:
            i += 1  # fill bytes before a marker
        if i + 4 > n:
            raise _cut()
        if data[i] != 0xFF:
            if size is None:
                raise HeaderError("not_an_image", NOT_AN_IMAGE)
            raise HeaderError("bad_image", "the JPEG's header is broken (no marker where one belongs)")
        marker = data[i + 1]
        if marker == 0x01 or 0xD0 <= marker <= 0xD7:  # stand-alone markers
            i += 2
            continue
        if marker == 0xD9:
            raise HeaderError("bad_image", "the JPEG ends before its image data")
        length = (data[i + 2] << 8) | data[i + 3]
        if length < 2:
            if size is None:
                raise HeaderError("not_an_image", NOT_AN_IMAGE)
            raise HeaderError("bad_image", "the JPEG's header is broken (a segment of no length)")
        body = data[i + 4:i + 2 + length]
        if marker == 0xDA:  # start of scan: the header is over
            if size is None:
                raise HeaderError("bad_image", "the JPEG has no frame header before its image data")
            return Header("JPEG", size[0], size[1], orientation, i + 2 + length)
        if len(body) < length - 2:
            raise _cut()
        if marker in _SOF:
            if len(body) < 5:
                raise HeaderError("bad_image", "the JPEG's frame header is broken")
            h, w = struct.unpack(">HH", body[1:5])
            size = (w, h)
        elif marker == 0xE1 and body[:6] == b"Exif\x00\x00" and orientation == 1:
            orientation = _tiff_orientation(body[6:])
        i += 2 + length


def _png(data: bytes) -> Header:
    if len(data) < 24:
        raise _cut()
    if data[12:16] != b"IHDR":
        raise HeaderError("bad_image", "the PNG does not begin with its header chunk")
    w, h = struct.unpack(">II", data[16:24])
    return Header("PNG", w, h, _png_orientation(data))


def _png_orientation(data: bytes) -> int:
    """The orientation tag of a PNG's ``eXIf`` chunk (a TIFF structure, as in a JPEG's Exif
    segment, less its ``Exif`` prefix); 1 where there is none. The chunks are walked by their
    headers alone, up to ``IEND`` or the end of the bytes: the PNG specification puts ``eXIf``
    before the image data, but writers that add it afterwards exist, and Pillow reads it there
    too. A chunk cut short ends the walk (the decoder judges the pixels)."""
    i, n = 8, len(data)
    while i + 8 <= n:
        length = int.from_bytes(data[i:i + 4], "big")
        kind = data[i + 4:i + 8]
        if kind == b"IEND":
            break
        if kind == b"eXIf":
            body = data[i + 8:i + 8 + length]
            return _exif_orientation(body)
        i += 12 + length  # length, type, data, CRC
    return 1


def _webp(data: bytes) -> Header:
    kind = data[12:16]
    if kind == b"VP8X":
        if len(data) < 30:
            raise _cut()
        w = 1 + int.from_bytes(data[24:27], "little")
        h = 1 + int.from_bytes(data[27:30], "little")
    elif kind == b"VP8L":
        if len(data) < 25:
            raise _cut()
        if data[20] != 0x2F:
            raise HeaderError("bad_image", "the lossless WebP's header is broken")
        bits = int.from_bytes(data[21:25], "little")
        w, h = 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    elif kind == b"VP8 ":
        if len(data) < 30:
            raise _cut()
        if data[23:26] != b"\x9d\x01\x2a":
            raise HeaderError("bad_image", "the WebP's frame header is broken")
        w, h = (v & 0x3FFF for v in struct.unpack("<HH", data[26:30]))
    else:
        raise HeaderError("not_an_image", NOT_AN_IMAGE)
    return Header("WEBP", w, h, _webp_orientation(data) if kind == b"VP8X" else 1)


def _webp_orientation(data: bytes) -> int:
    """The orientation tag of an extended WebP's ``EXIF`` chunk (a TIFF structure; some writers
    keep a JPEG segment's ``Exif`` prefix before it); 1 where there is none. The RIFF chunks are
    walked by their headers alone (each padded to an even length)."""
    if not data[20] & 0x08:  # the VP8X flags: no EXIF chunk
        return 1
    i, n = 12, len(data)
    while i + 8 <= n:
        kind, size = data[i:i + 4], int.from_bytes(data[i + 4:i + 8], "little")
        if kind == b"EXIF":
            body = data[i + 8:i + 8 + size]
            return _exif_orientation(body)
        i += 8 + size + (size & 1)
    return 1


def _bmp(data: bytes) -> Header:
    if len(data) < 26:
        raise _cut()
    if struct.unpack("<I", data[14:18])[0] == 12:  # the old OS/2 header: 16-bit sizes
        w, h = struct.unpack("<HH", data[18:22])
    else:
        w, h = struct.unpack("<ii", data[18:26])
    return Header("BMP", w, abs(h), 1)  # a negative height: rows stored top-down


def _tiff(data: bytes) -> Header:
    tags = _ifd0(data)
    if tags is None:
        raise _cut()
    if 256 not in tags or 257 not in tags:
        raise HeaderError("bad_image", "the TIFF's first image has no size")
    orientation = tags.get(ORIENTATION_TAG, 1)
    return Header("TIFF", tags[256], tags[257], orientation if 1 <= orientation <= 8 else 1)


def _ifd0(tiff: bytes) -> dict[int, int] | None:
    """The numeric (BYTE, SHORT or LONG, one value) tags of a TIFF structure's first IFD, as
    found in a TIFF file or an Exif segment; None where it is cut short or broken."""
    if len(tiff) < 8 or tiff[:2] not in (b"II", b"MM"):
        return None
    end = "<" if tiff[:2] == b"II" else ">"
    offset = struct.unpack(end + "I", tiff[4:8])[0]
    if offset + 2 > len(tiff):
        return None
    count = struct.unpack(end + "H", tiff[offset:offset + 2])[0]
    tags = {}
    for k in range(count):
        at = offset + 2 + 12 * k
        if at + 12 > len(tiff):
            return None
        tag, kind, n = struct.unpack(end + "HHI", tiff[at:at + 8])
        if n != 1 or kind not in (1, 3, 4):
            continue
        fmt = {1: "B", 3: "H", 4: "I"}[kind]
        tags[tag] = struct.unpack(end + fmt, tiff[at + 8:at + 8 + struct.calcsize(fmt)])[0]
    return tags


def _exif_orientation(body: bytes) -> int:
    """The orientation tag of a PNG's or WebP's Exif chunk: a TIFF structure, which some writers
    begin with a JPEG segment's ``Exif`` prefix."""
    return _tiff_orientation(body[6:] if body[:6] == b"Exif\x00\x00" else body)


def _tiff_orientation(tiff: bytes) -> int:
    """The orientation tag of an Exif segment's TIFF structure; 1 where it is absent, out of
    range or the structure is broken (a broken Exif is no reason to refuse a photo)."""
    tags = _ifd0(tiff)
    value = (tags or {}).get(ORIENTATION_TAG, 1)
    return value if 1 <= value <= 8 else 1
