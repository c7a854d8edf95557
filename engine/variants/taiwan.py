"""Taiwanese 16-tile mahjong (document: taiwan-16.ja.txt)."""
from __future__ import annotations

from .. import tiles as T
from ..forms import STANDARD, Pairs
from ..variant import Variant, standard_tile_set

LIGULIGU = Pairs(name="liguligu", n_pairs=7, pungs=1, distinct=False)  # 嚦咕嚦咕: 7 pairs + 1 concealed pung


class Taiwan(Variant):
    name = "taiwan"
    title = "Taiwanese 16-tile"
    document = "taiwan-16.ja.txt"
    tile_set = standard_tile_set(flowers=True)
    sets_needed = 5
    set_aside = frozenset(T.FLOWERS)
    forms = (STANDARD, LIGULIGU)


VARIANT = Taiwan()
