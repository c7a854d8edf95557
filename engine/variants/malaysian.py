"""Malaysian 3-player mahjong (document: malaysian-3p.ja.txt)."""
from __future__ import annotations

from .. import tiles as T
from ..forms import STANDARD
from ..hand import Hand
from ..variant import Variant


def _tile_set() -> dict[str, int]:
    kinds = {f"{n}p": 4 for n in range(1, 10)}
    kinds.update({h: 4 for h in T.HONORS})
    kinds.update({f: 1 for f in T.FLOWERS + T.ANIMALS + T.FACES})
    kinds[T.FEI] = 4
    return kinds


class Malaysian(Variant):
    name = "malaysian"
    title = "Malaysian 3-player"
    document = "malaysian-3p.ja.txt"
    seats = ("E", "S", "W")
    tile_set = _tile_set()
    sets_needed = 4
    set_aside = frozenset(T.FLOWERS + T.ANIMALS + T.FACES)
    wild_name = "fei"
    wilds_in_melds = True  # fei may stand in a chow or pung, never in a kong
    forms = (STANDARD,)

    def wild_kind(self, hand: Hand) -> str | None:
        return T.FEI

    def drawable(self) -> tuple[str, ...]:
        return tuple(k for k in self.tile_set if k not in self.set_aside)


VARIANT = Malaysian()
