"""Winning forms: the standard n-sets-and-a-pair form and every special form.

A form turns a :class:`HandView` (the concealed tiles split into naturals and
wilds, plus the declared melds) into :class:`~engine.reading.Reading` objects.
Each variant lists the forms it accepts (``Variant.forms``).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from . import tiles as T
from .decompose import decompositions, is_complete
from .reading import (CHOW, KANCHAN, KONG, PAIR, PENCHAN, PUNG, RYANMEN, SHANPON, TANKI, WILD_PAIR,
                      WILD_SET, Group, Reading)

STD = T.STANDARD_KINDS


@dataclass
class HandView:
    """What the forms look at: natural counts, wilds and declared melds."""

    counts: list[int]  # natural concealed tiles by standard kind index (34)
    n_wild: int  # wild tiles among the concealed tiles
    wild_kind: str | None  # the physical code of the wild tiles
    melds: tuple[Group, ...]  # declared melds as groups
    n_sets: int  # sets a standard hand needs in all (4 or 5)
    winning_tile: str | None = None  # physical code
    concealed: tuple[str, ...] = ()  # physical concealed tiles
    extra: dict = field(default_factory=dict)
    win_is_natural: bool = False  # the winning tile has the wild's code but is no wild (Wenzhou's White)

    @property
    def concealed_sets(self) -> int:
        return self.n_sets - len(self.melds)

    @property
    def n_concealed(self) -> int:
        return sum(self.counts) + self.n_wild


def _group(kind: str, idx: int, mask: int, wild_kind: str | None) -> Group:
    if kind == "C":
        codes = (STD[idx], STD[idx + 1], STD[idx + 2])
        size, gkind = 3, CHOW
    elif kind == "P":
        codes, size, gkind = (STD[idx],) * 3, 3, PUNG
    elif kind == "D":
        codes, size, gkind = (STD[idx],) * 2, 2, PAIR
    elif kind == "S":
        codes, size, gkind = ("?",) * 3, 3, WILD_SET
    else:
        codes, size, gkind = ("?",) * 2, 2, WILD_PAIR
    wild = tuple(bool(mask >> k & 1) for k in range(size))
    real = tuple(wild_kind if w else c for c, w in zip(codes, wild))
    return Group(gkind, codes, real, wild)


def wait_shape(group: Group, pos: int) -> str:
    """The wait that the winning tile at ``pos`` of ``group`` completed."""
    if group.kind in (PAIR, WILD_PAIR):
        return TANKI
    if group.kind != CHOW:
        return SHANPON
    if pos == 1:
        return KANCHAN
    low = T.number(group.tiles[0])
    if (pos == 2 and low == 1) or (pos == 0 and low == 7):
        return PENCHAN
    return RYANMEN


def place_win(form: str, groups: list[Group], view: HandView, loose: tuple[str, ...] = ()) -> list[Reading]:
    """Expand one grouping into readings, one per place the winning tile can sit."""
    win = view.winning_tile
    melds = list(view.melds)
    if win is None:
        return [Reading(form, tuple(groups + melds), loose)]
    is_wild = win == view.wild_kind and not view.win_is_natural
    out: list[Reading] = []
    seen: set = set()
    for gi, g in enumerate(groups):
        for pos in range(len(g.tiles)):
            if g.wild[pos] != is_wild or (not is_wild and g.tiles[pos] != win):
                continue
            key = (g, pos if g.kind == CHOW else 0)
            if key in seen:
                continue
            seen.add(key)
            out.append(Reading(form, tuple(groups + melds), loose, gi, wait_shape(g, pos), is_wild, g.tiles[pos]))
    if not out and (win in loose or (is_wild and loose)):
        out.append(Reading(form, tuple(groups + melds), loose, None, None, is_wild, win))
    return out


@dataclass(frozen=True)
class Form:
    """Base for winning forms. ``name`` is what the contract's ``form`` reports."""

    name: str = "standard"

    def readings(self, view: HandView) -> list[Reading]:
        raise NotImplementedError

    def complete(self, view: HandView) -> bool:
        return bool(self.readings(view))

    def shanten(self, view: HandView) -> int | None:
        """Distance to ready (-1 = complete); None where the form doesn't define one."""
        return None


@dataclass(frozen=True)
class Standard(Form):
    """n sets and a pair (4 sets for 13-tile variants, 5 for 16-tile ones)."""

    name: str = "standard"

    def readings(self, view: HandView) -> list[Reading]:
        out: list[Reading] = []
        for decomp in decompositions(view.counts, view.n_wild, view.concealed_sets):
            groups = [_group(k, i, m, view.wild_kind) for k, i, m in decomp]
            out.extend(place_win(self.name, groups, view))
        return out

    def complete(self, view: HandView) -> bool:
        return is_complete(view.counts, view.n_wild, view.concealed_sets)

    def shanten(self, view: HandView) -> int | None:
        from .shanten import standard_shanten

        return standard_shanten(view.counts, view.n_wild, view.concealed_sets)


@dataclass(frozen=True)
class Pairs(Form):
    """``n_pairs`` pairs, plus optional extra sets and loose tiles, all concealed.

    Covers seven pairs (7), Wenzhou eight pairs + any tile (8, loose=1),
    Philippine seven pairs + a set (7, sets=1) and Taiwanese 嚦咕嚦咕 (7 pairs +
    a concealed pung: 7, pungs=1). ``distinct`` forbids two pairs of one kind
    (riichi counts four of a kind as no seven pairs).
    """

    name: str = "seven_pairs"
    n_pairs: int = 7
    sets: int = 0  # any sets (chow or pung)
    pungs: int = 0  # sets that must be pungs
    loose: int = 0
    distinct: bool = True

    def size(self) -> int:
        return 2 * self.n_pairs + 3 * (self.sets + self.pungs) + self.loose

    def readings(self, view: HandView) -> list[Reading]:
        if view.melds or view.n_concealed != self.size():
            return []
        found: dict = {}
        for sets, counts, w in self._set_choices(view.counts, view.n_wild):
            for pairs, loose in self._pair_splits(counts, w, view.wild_kind):
                found.setdefault((tuple(sorted(sets + pairs)), loose), None)
        out: list[Reading] = []
        for groups, loose in found:
            out.extend(place_win(self.name, [_group(k, i, m, view.wild_kind) for k, i, m in groups], view, loose))
        return out

    def complete(self, view: HandView) -> bool:
        if view.melds or view.n_concealed != self.size():
            return False
        # quick bound: each set can absorb at most 3 odd tiles, wilds and loose tiles the rest
        odd = sum(c & 1 for c in view.counts)
        if odd > view.n_wild + self.loose + 3 * (self.sets + self.pungs):
            return False
        return any(self._pairs_possible(c, w) for _, c, w in self._set_choices(view.counts, view.n_wild))

    def _set_options(self, counts: list[int], w: int) -> list[tuple]:
        """Every single set that can be taken: (group, naturals used, wilds used)."""
        opts = []
        for i in range(34):
            for k in range(min(counts[i], 3), 0, -1):
                if 3 - k <= w:
                    opts.append((("P", i, ((1 << (3 - k)) - 1) << k), [i] * k, 3 - k))
        if self.sets:
            for start in range(27):
                if start % 9 > 6:
                    continue
                for mask in range(7):  # bit k: position k is wild; at least one natural
                    pos = [start + k for k in range(3) if not mask >> k & 1]
                    if 3 - len(pos) <= w and all(counts[p] for p in pos):
                        opts.append((("C", start, mask), pos, 3 - len(pos)))
        if w >= 3:
            opts.append((("S", -1, 0b111), [], 3))
        return opts

    def _set_choices(self, counts: list[int], w: int):
        """Yield (sets, counts left, wilds left) for every way to take the form's sets."""
        n_set = self.sets + self.pungs

        def rec(c: list[int], w: int, left: int, low: tuple | None, acc: list):
            if left == 0:
                if sum(1 for g in acc if g[0] in ("P", "S")) >= self.pungs:
                    yield list(acc), c, w
                return
            opts = self._set_options(c, w)
            for group, used, wused in opts:
                if low is not None and group < low:
                    continue
                for p in used:
                    c[p] -= 1
                acc.append(group)
                yield from rec(c, w - wused, left - 1, group, acc)
                acc.pop()
                for p in used:
                    c[p] += 1

        if n_set == 0:
            yield [], list(counts), w
        else:
            for sets, c, wl in rec(list(counts), w, n_set, None, []):
                yield sets, list(c), wl

    def _pair_counts(self, c: list[int]):
        pairs, singles = [], []
        for i in range(34):
            p, s = divmod(c[i], 2)
            if self.distinct and p > 1:
                return None
            pairs.extend([i] * p)
            singles.extend([i] * s)
        return pairs, singles

    def _pair_plans(self, c: list[int], w: int):
        """Yield (pairs, singles, free singles, how many singles a wild pairs, wild-only pairs,
        wilds used) for every way the remaining tiles fill the form's pairs and loose tiles."""
        split = self._pair_counts(c)
        if split is None:
            return
        pairs, singles = split
        need = self.n_pairs - len(pairs)
        if need < 0:
            return
        free = [x for x in singles if x not in pairs] if self.distinct else singles
        for from_single in range(min(need, len(free), w), -1, -1):
            wild_pairs = need - from_single
            used = from_single + 2 * wild_pairs
            if used <= w and len(singles) - from_single + (w - used) == self.loose:
                yield pairs, singles, free, from_single, wild_pairs, used

    def _pairs_possible(self, c: list[int], w: int) -> bool:
        return any(True for _ in self._pair_plans(c, w))

    def _pair_splits(self, c: list[int], w: int, wild_kind: str | None):
        """Yield (pair groups, loose tiles): natural pairs, wild-completed pairs, the rest loose."""
        for pairs, singles, free, from_single, wild_pairs, used in self._pair_plans(c, w):
            for chosen in set(combinations(free, from_single)):
                if self.distinct and len(set(chosen)) < len(chosen):
                    continue
                rest = list(singles)
                for x in chosen:
                    rest.remove(x)
                groups = [("D", x, 0) for x in pairs] + [("D", x, 0b10) for x in chosen] + \
                    [("W", -1, 0b11)] * wild_pairs
                loose = tuple(STD[x] for x in rest) + (wild_kind,) * (w - used)
                yield groups, tuple(sorted(loose, key=lambda t: T.INDEX.get(t, 99)))

    def shanten(self, view: HandView) -> int | None:
        if view.melds or self.sets or self.pungs or self.loose:
            return None
        if self.distinct:
            pairs = sum(1 for c in view.counts if c >= 2)
            kinds = sum(1 for c in view.counts if c)
            s = self.n_pairs - 1 - pairs + max(0, self.n_pairs - kinds)
        else:
            s = self.n_pairs - 1 - sum(c // 2 for c in view.counts)
        return max(-1, s - view.n_wild)


@dataclass(frozen=True)
class ThirteenOrphans(Form):
    name: str = "thirteen_orphans"

    def readings(self, view: HandView) -> list[Reading]:
        if view.melds or view.n_concealed != 14 or view.n_wild:
            return []
        idx = [T.INDEX[t] for t in T.ORPHANS]
        if sum(view.counts[i] for i in idx) != 14 or any(view.counts[i] == 0 for i in idx):
            return []
        pair = next(i for i in idx if view.counts[i] == 2)
        groups = [Group(PAIR, (STD[pair],) * 2, (STD[pair],) * 2, (False, False))]
        loose = tuple(STD[i] for i in idx if i != pair)
        win = view.winning_tile
        r = Reading(self.name, tuple(groups), loose, 0 if win == STD[pair] else None,
                    TANKI if win == STD[pair] else None, False, win)
        return [r]

    def shanten(self, view: HandView) -> int | None:
        if view.melds:
            return None
        idx = [T.INDEX[t] for t in T.ORPHANS]
        kinds = sum(1 for i in idx if view.counts[i])
        has_pair = any(view.counts[i] >= 2 for i in idx)
        return 13 - kinds - (1 if has_pair else 0)


@dataclass(frozen=True)
class WildsPlusAnything(Form):
    """``n_wilds`` wild tiles in hand win whatever the other tiles are.

    Wenzhou 財神3枚であとはめちゃくちゃ (3, full hand) and Malaysian 四飛 (4, any
    time). The reading has no concealed groups: every concealed tile is loose.
    ``full_hand``: the hand must hold its full winning count of tiles.
    """

    name: str = "wilds_plus_anything"
    n_wilds: int = 3
    full_hand: bool = True

    def complete(self, view: HandView) -> bool:
        return view.n_wild >= self.n_wilds and (
            not self.full_hand or view.n_concealed == 3 * view.concealed_sets + 2)

    def readings(self, view: HandView) -> list[Reading]:
        if not self.complete(view):
            return []
        loose = tuple(sorted(view.concealed, key=T.sort_key))
        win = view.winning_tile
        return [Reading(self.name, tuple(view.melds), loose, None, None,
                        win is not None and win == view.wild_kind and not view.win_is_natural, win)]

    def shanten(self, view: HandView) -> int | None:
        """Complete (-1), else how many more wilds short of ready: with ``n_wilds - 1`` wilds the
        hand is ready on the last (Malaysian "手に3枚飛があり、残り1枚の飛をツモると最大役で上がり")."""
        if self.complete(view):
            return -1
        return max(0, self.n_wilds - 1 - view.n_wild)


STANDARD = Standard()
SEVEN_PAIRS = Pairs()
THIRTEEN_ORPHANS = ThirteenOrphans()


def meld_group(meld_tiles: tuple[str, ...], kind: str, concealed: bool, wild_kind: str | None) -> Group:
    """A declared meld as a group; wild tiles in it stand for the meld's natural kind."""
    naturals = [t for t in meld_tiles if t != wild_kind]
    if kind == CHOW:
        nums = sorted(T.number(t) for t in naturals)
        suit = naturals[0][1]
        low = nums[0] if len(naturals) == 3 else _chow_low(nums)
        codes = tuple(f"{low + k}{suit}" for k in range(3))
        wild = tuple(c not in naturals for c in codes)
        real = tuple(wild_kind if w else c for c, w in zip(codes, wild))
        return Group(CHOW, codes, real, wild, concealed, True)
    key = naturals[0] if naturals else "?"
    size = len(meld_tiles)
    wild = tuple(k >= len(naturals) for k in range(size))
    real = tuple(wild_kind if w else key for w in wild)
    return Group(KONG if size == 4 else PUNG, (key,) * size, real, wild, concealed, True)


def _chow_low(nums: list[int]) -> int:
    """The lowest tile of a chow given its natural numbers (one or two); prefer the lowest."""
    lo, hi = nums[0], nums[-1]
    return max(1, min(lo, hi - 2)) if hi - lo <= 2 else lo
