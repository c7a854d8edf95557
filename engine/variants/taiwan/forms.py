"""The Taiwanese special forms: 嚦咕嚦咕 and 十六不搭 (section 6 of the document)."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from ... import tiles as T
from ...forms import STANDARD, Form, HandView, Pairs
from ...reading import PAIR, TANKI, Group, Reading

@dataclass(frozen=True)
class SevenPairsAndPung(Pairs):
    """嚦咕嚦咕 (八対半): seven pairs and one pung, all concealed; four equal tiles may be two pairs."""

    def shanten(self, view: HandView) -> int | None:
        """Tiles short of ready: the most tiles kept toward one pung and seven pairs, over every pung kind."""
        if view.melds or view.n_wild:
            return None
        kept = 0
        for kind, held in enumerate(view.counts):
            rest = list(view.counts)
            rest[kind] = max(0, held - 3)
            pairs = min(self.n_pairs, sum(c // 2 for c in rest))
            singles = sum(c % 2 for c in rest)
            kept = max(kept, min(held, 3) + 2 * pairs + min(self.n_pairs - pairs, singles))
        return self.size() - 1 - kept


LIGULIGU = SevenPairsAndPung(name="liguligu", n_pairs=7, pungs=1, distinct=False)


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
        """Tiles short of ready: 16 less the unrelated kinds held (honors, and per suit the largest set
        with no 塔子) less 1 for a pair among them."""
        if view.melds or view.n_wild:
            return None
        counts = view.counts
        kinds = sum(1 for i in range(27, 34) if counts[i])
        paired = any(counts[i] >= 2 for i in range(27, 34))
        for start in (0, 9, 18):
            held = [n for n in range(9) if counts[start + n]]
            best = max(((len(sub), any(counts[start + n] >= 2 for n in sub))
                        for r in range(len(held) + 1) for sub in combinations(held, r) if _no_taatsu(list(sub))))
            kinds += best[0]
            paired = paired or best[1]
        return 16 - kinds - (1 if paired else 0)


SIXTEEN_UNRELATED = SixteenUnrelated()
ALL_FORMS = (STANDARD, LIGULIGU, SIXTEEN_UNRELATED)


def enabled_forms(options) -> tuple:
    """The forms the table plays, from the options."""
    out = [STANDARD]
    if options.get("liguligu", True):
        out.append(LIGULIGU)
    if options.get("sixteen_unrelated", False):
        out.append(SIXTEEN_UNRELATED)
    return tuple(out)
