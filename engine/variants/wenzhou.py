"""Wenzhou mahjong (document: wenzhou.ja.txt)."""
from __future__ import annotations

from ..forms import STANDARD, Pairs
from ..hand import Hand
from ..variant import Variant, standard_tile_set

EIGHT_PAIRS = Pairs(name="eight_pairs", n_pairs=8, loose=1, distinct=False)


class Wenzhou(Variant):
    name = "wenzhou"
    title = "Wenzhou"
    document = "wenzhou.ja.txt"
    tile_set = standard_tile_set()
    sets_needed = 5
    set_aside = frozenset()
    uses_indicator = True
    wild_name = "caishen"
    forms = (STANDARD, EIGHT_PAIRS)

    def wild_kind(self, hand: Hand) -> str | None:
        return hand.indicator  # the 3 other copies of the indicator are caishen

    def stand_ins(self, hand: Hand) -> dict[str, str]:
        # "財神表示が白でないときは,白は財神表示と同じ牌になります"
        if hand.indicator and hand.indicator != "5z":
            return {"5z": hand.indicator}
        return {}


VARIANT = Wenzhou()
