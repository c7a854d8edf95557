"""The Taiwanese special forms: 嚦咕嚦咕 and 十六不搭 (section 6 of the document)."""
from __future__ import annotations

from dataclasses import dataclass

from ... import tiles as T
from ...forms import STANDARD, Form, HandView, Pairs
from ...reading import PAIR, TANKI, Group, Reading

# 嚦咕嚦咕 (八対半): seven pairs and one pung, all concealed; four equal tiles may be two pairs.
LIGULIGU = Pairs(name="liguligu", n_pairs=7, pungs=1, distinct=False)


def _no_taatsu(numbers: list[int]) -> bool:
    """No two of these numbers (of one suit) are within two of each other."""
    numbers = sorted(numbers)
    return all(b - a >= 3 for a, b in zip(numbers, numbers[1:]))


@dataclass(frozen=True)
class SixteenUnrelated(Form):
    """十六不搭: sixteen different tiles with no 塔子 among them, and one pair.

    Sixteen kinds without a 塔子 are exactly the seven honors and three number
    tiles per suit, each two at least three apart; the seventeenth tile pairs one.
    """

    name: str = "sixteen_unrelated"

    def _pair_index(self, view: HandView) -> int | None:
        if view.melds or view.n_wild or view.n_concealed != 17:
            return None
        counts = view.counts
        if max(counts) > 2 or sum(1 for c in counts if c == 2) != 1:
            return None
        if sum(1 for c in counts if c) != 16 or any(counts[i] == 0 for i in range(27, 34)):
            return None
        for start in (0, 9, 18):
            if not _no_taatsu([i - start for i in range(start, start + 9) if counts[i]]):
                return None
        return counts.index(2)

    def readings(self, view: HandView) -> list[Reading]:
        pair = self._pair_index(view)
        if pair is None:
            return []
        kind = T.STANDARD_KINDS[pair]
        group = Group(PAIR, (kind, kind), (kind, kind), (False, False))
        loose = tuple(T.STANDARD_KINDS[i] for i, c in enumerate(view.counts) if c == 1)
        on_pair = view.winning_tile == kind
        return [Reading(self.name, (group,), loose, 0 if on_pair else None, TANKI if on_pair else None,
                        False, view.winning_tile)]

    def complete(self, view: HandView) -> bool:
        return self._pair_index(view) is not None

    def shanten(self, view: HandView) -> int | None:
        return None


SIXTEEN_UNRELATED = SixteenUnrelated()
ALL_FORMS = (STANDARD, LIGULIGU, SIXTEEN_UNRELATED)


def enabled_forms(options) -> tuple:
    """The forms the table plays, from the options."""
    out = [STANDARD]
    if options.get("liguligu", True):
        out.append(LIGULIGU)
    if options.get("sixteen_unrelated", True):
        out.append(SIXTEEN_UNRELATED)
    return tuple(out)
