"""Reading a photo's format, size and EXIF orientation without Pillow (vision.image_header),
checked against what Pillow reads from the same bytes."""
from __future__ import annotations

import io
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from PIL import Image

from vision.image_header import HeaderError, read_header

ROOT = Path(__file__).resolve().parents[2]


def _saved(fmt: str, size=(37, 23), mode="RGB", **kw) -> bytes:
    buf = io.BytesIO()
    Image.new(mode, size, (120, 60, 30) if mode == "RGB" else 90).save(buf, fmt, **kw)
    return buf.getvalue()


def _exif(orientation: int, little_endian: bool = True) -> bytes:
    exif = Image.Exif()
    exif[0x0112] = orientation
    exif[0x010F] = "Tilelens test camera"  # a string tag before it, as phones write
    data = exif.tobytes()
    if not little_endian:  # the same tag big-endian, as some cameras write
        data = (b"Exif\x00\x00MM\x00*\x00\x00\x00\x08\x00\x01" + b"\x01\x12\x00\x03\x00\x00\x00\x01"
                + orientation.to_bytes(2, "big") + b"\x00\x00" + b"\x00\x00\x00\x00")
    return data


CASES = {
    "jpeg": _saved("JPEG"),
    "jpeg-progressive": _saved("JPEG", size=(640, 480), progressive=True),
    "jpeg-grey": _saved("JPEG", mode="L"),
    "png": _saved("PNG"),
    "png-grey": _saved("PNG", mode="L"),
    "webp-lossy": _saved("WEBP", size=(301, 157)),
    "webp-lossless": _saved("WEBP", size=(301, 157), lossless=True),
    "webp-extended": _saved("WEBP", size=(301, 157), exif=_exif(1)),
    "bmp": _saved("BMP"),
    "tiff": _saved("TIFF"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_format_and_size_match_pillow(name):
    data = CASES[name]
    header = read_header(data)
    ref = Image.open(io.BytesIO(data))
    assert (header.width, header.height) == ref.size
    assert header.format == ref.format
    assert header.orientation == 1


@pytest.mark.parametrize("little_endian", [True, False])
@pytest.mark.parametrize("orientation", range(1, 9))
def test_jpeg_exif_orientation_matches_pillow(orientation, little_endian):
    data = _saved("JPEG", exif=_exif(orientation, little_endian))
    assert read_header(data).orientation == orientation
    assert Image.open(io.BytesIO(data)).getexif().get(0x0112) == orientation


@pytest.mark.parametrize("fmt", ["PNG", "WEBP"])
@pytest.mark.parametrize("orientation", range(1, 9))
def test_png_and_webp_exif_orientation_matches_pillow(fmt, orientation):
    """Pillow writes a PNG's ``eXIf`` chunk without the ``Exif`` prefix and hands a WebP's to
    libwebp as given (with it): both forms are read."""
    data = _saved(fmt, exif=_exif(orientation))
    assert read_header(data).orientation == orientation
    assert Image.open(io.BytesIO(data)).getexif().get(0x0112) == orientation


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return len(body).to_bytes(4, "big") + kind + body + zlib.crc32(kind + body).to_bytes(4, "big")


def test_a_png_exif_chunk_after_the_image_data_is_read_as_pillow_reads_it():
    plain = _saved("PNG")
    end = plain.rindex(b"IEND") - 4  # the IEND chunk's length field
    data = plain[:end] + _png_chunk(b"eXIf", _exif(8)[6:]) + plain[end:]
    assert read_header(data).orientation == 8
    assert Image.open(io.BytesIO(data)).getexif().get(0x0112) == 8


@pytest.mark.parametrize("fmt", ["PNG", "WEBP"])
def test_a_png_or_webp_cut_inside_its_exif_keeps_its_size_and_counts_as_upright(fmt):
    data = _saved(fmt, size=(301, 157), exif=_exif(6))
    at = data.index(b"eXIf" if fmt == "PNG" else b"EXIF")
    for n in (at + 2, at + 8, at + 20):
        header = read_header(data[:n])
        assert (header.width, header.height, header.orientation) == (301, 157, 1)


def test_tiff_orientation_tag_is_read():
    buf = io.BytesIO()
    Image.new("RGB", (40, 30)).save(buf, "TIFF", exif=_exif(6)[6:])
    assert read_header(buf.getvalue())[:4] == ("TIFF", 40, 30, 6)


@pytest.mark.parametrize("exif", [
    b"Exif\x00\x00II*\x00\xff\xff\xff\x7f",                      # the first IFD far past the segment
    b"Exif\x00\x00II*\x00\x08\x00\x00\x00\x05\x00\x12\x01",      # five entries promised, one begun
    b"Exif\x00\x00XX*\x00\x08\x00\x00\x00",                      # no byte order
    _exif(1)[:-4] + b"\x09\x00\x00\x00",                         # orientation 1, the next-IFD offset askew
], ids=["ifd-out-of-range", "ifd-cut", "no-byte-order", "next-ifd-askew"])
def test_a_broken_exif_counts_as_upright(exif):
    data = _saved("JPEG", exif=exif)
    assert read_header(data).orientation == 1


def test_an_orientation_out_of_range_counts_as_upright():
    assert read_header(_saved("JPEG", exif=_exif(9))).orientation == 1


@pytest.mark.parametrize("data, code", [
    (b"GIF89a" + b"\x00" * 200, "not_an_image"),
    (b"hello, this is text", "not_an_image"),
    (b"\xff\xd8\xff\xe0" + b"\x00" * 20, "not_an_image"),   # a JPEG signature, then garbage
    (CASES["jpeg"][:120], "bad_image"),                       # cut inside its header
    (CASES["png"][:20], "bad_image"),
    (CASES["webp-lossy"][:26], "bad_image"),
    (CASES["bmp"][:20], "bad_image"),
    (CASES["tiff"][:6], "bad_image"),
])
def test_what_is_not_read_says_why(data, code):
    with pytest.raises(HeaderError) as info:
        read_header(data)
    assert info.value.code == code and str(info.value)


@pytest.mark.parametrize("brand", [b"heic", b"mif1", b"avif"])
def test_a_heic_or_avif_photo_is_refused_with_how_to_get_a_jpeg(brand):
    data = b"\x00\x00\x00\x18ftyp" + brand + b"\x00\x00\x00\x00mif1heic" + b"\x00" * 64
    with pytest.raises(HeaderError) as info:
        read_header(data)
    assert info.value.code == "not_an_image" and "HEIC" in str(info.value) and "JPEG" in str(info.value)
    other = b"\x00\x00\x00\x18ftypisom" + b"\x00" * 64  # an MP4 video is just not an image
    with pytest.raises(HeaderError) as info:
        read_header(other)
    assert "HEIC" not in str(info.value)


def test_a_jpeg_cut_anywhere_in_its_header_is_refused_not_crashed():
    data = _saved("JPEG", exif=_exif(6))
    for n in range(3, 200):
        try:
            header = read_header(data[:n])
        except HeaderError as exc:
            assert exc.code in ("bad_image", "not_an_image")
        else:
            pytest.fail(f"{n} bytes read as {header}")


def test_the_scan_runs_without_pillow(tmp_path):
    """Pillow is a test and training dependency only: the scan of a JPEG with an EXIF
    orientation must not import it."""
    photo = tmp_path / "photo.jpg"
    photo.write_bytes(_saved("JPEG", size=(800, 600), exif=_exif(6)))
    code = (
        "import sys; sys.modules['PIL'] = None\n"  # any `import PIL...` now raises ImportError
        "from vision.scan import scan\n"
        f"res = scan(open({str(photo)!r}, 'rb').read(), classify_fn=lambda crops, quads: [])\n"
        "print(res['image']['width'], res['image']['height'], res['image']['orientation'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["600", "800", "6"]


def test_mangled_headers_are_read_or_refused_never_crash():
    # bytes flipped in the first 300, with or without a cut: a Header or a HeaderError, never
    # struct.error, IndexError or the like (which the scan would turn into a 500)
    import random

    rng = random.Random(1)
    samples = list(CASES.values()) + [_saved("JPEG", exif=_exif(6)), _saved("JPEG", exif=_exif(3, False))]
    for data in samples:
        for _ in range(500):
            b = bytearray(data[:rng.randint(0, min(len(data), 400))] if rng.random() < 0.5 else data)
            for _ in range(rng.randint(1, 4)):
                if b:
                    b[rng.randrange(min(len(b), 300))] = rng.randrange(256)
            try:
                read_header(bytes(b))
            except HeaderError as exc:
                assert exc.code in ("bad_image", "not_an_image")
