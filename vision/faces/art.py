"""Tile face artwork read from ``../shared/art`` when it is present (never copied into the repo).

- ``hk_art``: the CC0 Hong Kong faces (PNG, transparent background), 34 standard kinds + 8 flowers.
- ``riichi_art``: the CC BY 4.0 riichi faces by FluffyStuff, bonus tiles by xhokir (SVG).
"""
from __future__ import annotations

import functools

import cv2
import numpy as np

from .fonts import SHARED

HK_DIR = SHARED / "art" / "hongkong-cc0" / "png"
RIICHI_DIR = SHARED / "art" / "riichi-bonus-ccby4"

_HK_NAMES = {
    "5z": "01-white-dragon", "6z": "02-green-dragon", "7z": "03-red-dragon",
    "1z": "04-east-wind", "2z": "05-south-wind", "3z": "06-west-wind", "4z": "07-north-wind",
    **{f"{n}m": f"{7 + n:02d}-characters-{n}" for n in range(1, 10)},
    **{f"{n}p": f"{16 + n:02d}-circles-{n}" for n in range(1, 10)},
    **{f"{n}s": f"{25 + n:02d}-bamboos-{n}" for n in range(1, 10)},
    "1f": "35-spring", "2f": "36-summer", "3f": "37-autumn", "4f": "38-winter",
    "5f": "39-plum", "6f": "40-orchid", "7f": "41-chrysanthemum", "8f": "42-bamboo",
}

_RIICHI_NAMES = {
    "1z": "Ton", "2z": "Nan", "3z": "Shaa", "4z": "Pei", "5z": "Haku", "6z": "Hatsu", "7z": "Chun",
    **{f"{n}m": f"Man{n}" for n in range(1, 10)},
    **{f"{n}p": f"Pin{n}" for n in range(1, 10)},
    **{f"{n}s": f"Sou{n}" for n in range(1, 10)},
    **{f"{n}f": f"Season{n}" for n in range(1, 5)},
    **{f"{n + 4}f": f"Flower{n}" for n in range(1, 5)},
}


def hk_available() -> bool:
    return HK_DIR.is_dir() and all((HK_DIR / f"{v}.png").exists() for v in _HK_NAMES.values())


def riichi_available() -> bool:
    if not (RIICHI_DIR / "Regular").is_dir():
        return False
    try:
        import cairosvg  # noqa: F401
    except Exception:  # pragma: no cover - depends on the machine
        return False
    return True


def hk_codes() -> tuple[str, ...]:
    return tuple(_HK_NAMES)


def riichi_codes() -> tuple[str, ...]:
    return tuple(_RIICHI_NAMES)


def riichi_variants(code: str) -> list[str | None]:
    """Alternative drawings of ``code`` (the red fives)."""
    name = _RIICHI_NAMES[code]
    extra = RIICHI_DIR / "Regular" / f"{name}-Dora.svg"
    return [None, f"{name}-Dora"] if extra.exists() else [None]


@functools.lru_cache(maxsize=64)
def hk_layer(code: str, px: int = 320) -> np.ndarray:
    img = cv2.imread(str(HK_DIR / f"{_HK_NAMES[code]}.png"), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        raise FileNotFoundError(f"cannot read Hong Kong art for {code}")
    w = int(round(px * img.shape[1] / img.shape[0]))
    return cv2.resize(img, (w, px), interpolation=cv2.INTER_AREA)


@functools.lru_cache(maxsize=128)
def riichi_layer(code: str, scheme: str = "Regular", variant: str | None = None, px: int = 320) -> np.ndarray:
    import cairosvg

    path = RIICHI_DIR / scheme / f"{variant or _RIICHI_NAMES[code]}.svg"
    if not path.exists():  # the Black scheme has no bonus tiles
        path = RIICHI_DIR / "Regular" / f"{variant or _RIICHI_NAMES[code]}.svg"
    png = cairosvg.svg2png(url=str(path), output_height=px)
    img = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    if img.ndim == 2:
        img = cv2.cvtColor(img, cv2.COLOR_GRAY2BGRA)
    return img
