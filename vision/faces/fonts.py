"""Fonts on this machine: Debian CJK fonts, Symbola's mahjong glyphs and the I.Mahjong tile fonts.

Tile fonts (I.Mahjong, Symbola) draw a whole tile as black line art inside a frame; this module
turns such a glyph into an ink layer of the face only (the frame removed).
"""
from __future__ import annotations

import functools
import os
from pathlib import Path

import cv2
import numpy as np

from .ink import crop_to_ink, mask_to_layer

SHARED = Path(os.environ.get("TILELENS_SHARED", Path(__file__).resolve().parents[2].parent / "shared"))
IMAHJONG_DIR = SHARED / "art" / "imahjong-fonts"
IMAHJONG_STYLES = ("hk", "tw", "can", "jp")

_CJK_CANDIDATES = [
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", 2),
    ("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc", 2),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc", 2),
    ("/usr/share/fonts/opentype/noto/NotoSerifCJK-Bold.ttc", 2),
    ("/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc", 0),
    ("/usr/share/fonts/truetype/arphic/ukai.ttc", 0),
]
SYMBOLA = "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"
_LATIN_CANDIDATES = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSerif-Bold.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Bold.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSerif-Bold.ttf",
]


def cjk_fonts() -> list[tuple[str, int]]:
    return [(p, i) for p, i in _CJK_CANDIDATES if os.path.exists(p)]


class MissingFonts(RuntimeError):
    """No CJK font is installed: the drawn faces letter their characters with one."""


def required_cjk_fonts() -> list[tuple[str, int]]:
    """The installed CJK fonts; raises :class:`MissingFonts`, naming the packages, when there are none
    (a machine set up by hand, not by ``make install``)."""
    found = cjk_fonts()
    if not found:
        raise MissingFonts("no CJK font found (looked for " + ", ".join(p for p, _ in _CJK_CANDIDATES)
                           + "): install fonts-noto-cjk, fonts-wqy-zenhei or fonts-arphic-ukai; `make install` does")
    return found


def latin_fonts() -> list[str]:
    found = [p for p in _LATIN_CANDIDATES if os.path.exists(p)]
    return found or [p for p, _ in cjk_fonts()]


@functools.lru_cache(maxsize=64)
def font(path: str, size: int, index: int = 0, raqm: bool = False):
    from PIL import ImageFont

    kw = {"layout_engine": ImageFont.Layout.RAQM} if raqm else {}
    return ImageFont.truetype(path, size, index=index, **kw)


def has_raqm() -> bool:
    from PIL import features

    return bool(features.check("raqm"))


def imahjong_available() -> bool:
    return has_raqm() and all((IMAHJONG_DIR / f"I.Mahjong{s.upper()}.otf").exists() for s in IMAHJONG_STYLES)


def symbola_available() -> bool:
    return os.path.exists(SYMBOLA)


# -- tile-font glyphs --------------------------------------------------------------------

def imahjong_text(code: str) -> str | None:
    n, s = code[0], code[1]
    if s in "mps":
        return code
    if s == "z":
        return code
    if s == "f":
        return f"{n}q"
    if code == "1j":
        return "9@"
    if code == "back":
        return "00"
    return None


_SYMBOLA_CP = {
    **{f"{n}z": 0x1F000 + i for i, n in enumerate("1234")},
    "7z": 0x1F004, "6z": 0x1F005, "5z": 0x1F006,
    **{f"{n}m": 0x1F007 + n - 1 for n in range(1, 10)},
    **{f"{n}s": 0x1F010 + n - 1 for n in range(1, 10)},
    **{f"{n}p": 0x1F019 + n - 1 for n in range(1, 10)},
    "5f": 0x1F022, "6f": 0x1F023, "8f": 0x1F024, "7f": 0x1F025,
    "1f": 0x1F026, "2f": 0x1F027, "3f": 0x1F028, "4f": 0x1F029,
    "back": 0x1F02B,
}


def symbola_text(code: str) -> str | None:
    cp = _SYMBOLA_CP.get(code)
    return chr(cp) if cp else None


@functools.lru_cache(maxsize=512)
def tile_glyph_mask(font_key: str, text: str, px: int = 320) -> np.ndarray:
    """Ink mask (uint8) of the face inside a tile-font glyph, frame removed, tight to the face."""
    if font_key == "symbola":
        f = font(SYMBOLA, px)
    else:
        f = font(str(IMAHJONG_DIR / f"I.Mahjong{font_key.upper()}.otf"), px, raqm=True)
    from PIL import Image, ImageDraw

    box = f.getbbox(text)
    w, h = box[2] - box[0] + 8, box[3] - box[1] + 8
    img = Image.new("L", (w, h), 0)
    ImageDraw.Draw(img).text((4 - box[0], 4 - box[1]), text, font=f, fill=255)
    m = crop_to_ink(np.asarray(img).copy(), 100)
    return strip_frame(m)


def strip_frame(m: np.ndarray) -> np.ndarray:
    """Remove the outer tile frame from a glyph mask and crop to the inside of the frame."""
    h, w = m.shape
    binary = (m > 100).astype(np.uint8)
    # frame thickness: run of ink from the left edge along the middle row
    row = binary[h // 2]
    t = int(np.argmax(row == 0)) if row[0] else 0
    t = max(t, 1)
    n, labels = cv2.connectedComponents(binary, connectivity=8)
    edge = set(np.unique(np.concatenate([labels[0], labels[-1], labels[:, 0], labels[:, -1]]))) - {0}
    out = m.copy()
    for lab in edge:
        out[labels == lab] = 0
    inset = t + max(1, t // 2)
    return out[inset: h - inset, inset: w - inset]


def tile_glyph_layer(font_key: str, code: str) -> np.ndarray | None:
    text = symbola_text(code) if font_key == "symbola" else imahjong_text(code)
    if text is None:
        return None
    return mask_to_layer(tile_glyph_mask(font_key, text))
