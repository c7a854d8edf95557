"""Japanese riichi as the EMA plays it, 2016 rules (document: ema-riichi.ja.txt)."""
from __future__ import annotations

from ..forms import SEVEN_PAIRS, STANDARD, THIRTEEN_ORPHANS
from ..variant import Variant, standard_tile_set


class Riichi(Variant):
    name = "riichi"
    title = "Riichi (EMA 2016)"
    document = "ema-riichi.ja.txt"
    tile_set = standard_tile_set()
    sets_needed = 4
    set_aside = frozenset()
    forms = (STANDARD, SEVEN_PAIRS, THIRTEEN_ORPHANS)


VARIANT = Riichi()
