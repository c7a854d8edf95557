"""Philippine mahjong (document: philippine.ja.txt)."""
from __future__ import annotations

from .. import tiles as T
from ..forms import STANDARD, Pairs
from ..hand import Hand
from ..variant import Variant, standard_tile_set

SEVEN_FIRST = Pairs(name="seven_first", n_pairs=7, sets=1, distinct=False)


class Philippine(Variant):
    name = "philippine"
    title = "Philippine"
    document = "philippine.ja.txt"
    tile_set = standard_tile_set(flowers=True)
    sets_needed = 5
    set_aside = frozenset(T.HONORS + T.FLOWERS)  # every honor and flower is a "flores"
    uses_indicator = True
    wild_name = "joker"
    forms = (STANDARD, SEVEN_FIRST)

    def wild_kind(self, hand: Hand) -> str | None:
        return hand.indicator  # the indicator's 3 other copies are wild


VARIANT = Philippine()
