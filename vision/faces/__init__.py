"""Face sources: independent ways to draw the face of each tile kind.

Each source turns a tile code into an *ink layer* (BGRA, transparent background). Which sources
exist depends on the machine: the art in ``../shared/art`` and the I.Mahjong fonts appear only
when present; ``drawn`` (procedural drawing + Debian CJK fonts) is always there.
"""
from __future__ import annotations

import numpy as np

from engine.tiles import KINDS, STANDARD_KINDS, FLOWERS

from . import art, fonts
from .drawn import drawn_layer
from .ink import recolour

_IMAHJONG = tuple(f"imahjong_{s}" for s in fonts.IMAHJONG_STYLES)


def _available() -> dict[str, tuple[str, ...]]:
    """Source name -> the tile codes it can draw."""
    out: dict[str, tuple[str, ...]] = {}
    if art.hk_available():
        out["hk_art"] = art.hk_codes()
    if art.riichi_available():
        out["riichi_art"] = art.riichi_codes()
    if fonts.imahjong_available():
        for name in _IMAHJONG:
            out[name] = STANDARD_KINDS + FLOWERS + ("1j",)
    if fonts.symbola_available():
        out["symbola"] = STANDARD_KINDS + FLOWERS
    out["drawn"] = KINDS
    return out


SOURCE_CODES: dict[str, tuple[str, ...]] = _available()
FACE_SOURCES: tuple[str, ...] = tuple(SOURCE_CODES)
# sources whose flowers carry no number of their own get a corner digit and character added
FLOWERS_NEED_INDEX = {"riichi_art": (0.92, 0.9), "symbola": (0.9, 0.0)}


WHITE_INK = 200  # an ink pixel whose every channel is above this is white: it does not show on an ivory face


def on_light_face(layer: np.ndarray, code: str, rng: np.random.Generator) -> np.ndarray:
    """A dark-faced set's drawing made to show on an ivory face.

    The riichi art's ``Black`` scheme is drawn for a dark tile face: its winds and dragons are
    white, its numerals and circles partly white. On the rendered ivory face those strokes
    vanish, and the tile would be labelled North while showing a blank face. Its white
    strokes take the tile's usual inks (as :func:`recolour` paints them); its coloured strokes
    (the orange characters, the red circles) keep their colour.
    """
    white = (layer[..., :3].min(axis=2) > WHITE_INK) & (layer[..., 3] > 0)
    if not white.any():
        return layer.copy()
    out = layer.copy()
    out[white, :3] = recolour(layer, code, rng)[white, :3]
    return out


def sources_for(code: str, exclude: tuple[str, ...] = ()) -> list[str]:
    return [s for s, codes in SOURCE_CODES.items() if code in codes and s not in exclude]


def ink_layer(code: str, source: str, rng: np.random.Generator, size: tuple[int, int] = (240, 180)) -> np.ndarray:
    """The ink layer of ``code`` from ``source``, with ink colours randomised (``size`` is a hint)."""
    if source == "drawn":
        return drawn_layer(code, rng, size)
    if source == "hk_art":
        layer = art.hk_layer(code)
        return layer.copy() if rng.random() < 0.45 else recolour(layer, code, rng, keep_dark=rng.random() < 0.5)
    if source == "riichi_art":
        scheme = "Black" if rng.random() < 0.2 else "Regular"
        variants = art.riichi_variants(code)
        variant = variants[-1] if len(variants) > 1 and rng.random() < 0.25 else None
        layer = art.riichi_layer(code, scheme, variant)
        if rng.random() < 0.45:
            # a child generator, so that the draws after this tile stay those they were
            return layer.copy() if scheme == "Regular" else on_light_face(layer, code, rng.spawn(1)[0])
        return recolour(layer, code, rng, keep_dark=rng.random() < 0.5)
    if source in _IMAHJONG or source == "symbola":
        key = "symbola" if source == "symbola" else source.split("_", 1)[1]
        layer = fonts.tile_glyph_layer(key, code)
        if layer is None:
            raise ValueError(f"{source} cannot draw {code}")
        return recolour(layer, code, rng) if rng.random() < 0.9 else layer.copy()
    raise ValueError(f"unknown face source {source!r}; known: {', '.join(FACE_SOURCES)}")
