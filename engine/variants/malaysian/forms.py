"""Malaysian forms: 四飛 (four fei, an instant win in any shape), and fei-only groups made concrete.

The core's standard form leaves a group made only of fei as a ``wild_set`` or
``wild_pair`` ("any set", "any pair"). What such a group stands for changes the
fan (three fei beside two dragon pungs are 大三元), so :func:`concrete_readings`
expands every reading into one reading per thing its fei-only groups can be:
a pung or a chow of circles, a pung of an honor, or a pair of either. Readings
that count more than four copies of a kind are dropped.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import replace
from itertools import product

from ... import tiles as T
from ...forms import WildsPlusAnything
from ...reading import CHOW, PAIR, PUNG, WILD_PAIR, WILD_SET, Group, Reading

CIRCLES = tuple(f"{n}p" for n in range(1, 10))
KINDS = CIRCLES + T.HONORS  # the kinds a Malaysian hand's sets are made of


# 四飛: "開始時に飛が4枚あると即勝利 ... 手に3枚飛があり、残り1枚の飛をツモると最大役で上がり"
FOUR_FEI = WildsPlusAnything(name="four_fei", n_wilds=4, full_hand=False)


def _choices(group: Group) -> list[Group]:
    """Every concrete group a fei-only group can stand for."""
    real, wild = group.real, group.wild
    if group.kind == WILD_PAIR:
        return [Group(PAIR, (k, k), real, wild, group.concealed) for k in KINDS]
    pungs = [Group(PUNG, (k, k, k), real, wild, group.concealed) for k in KINDS]
    chows = [Group(CHOW, (f"{n}p", f"{n + 1}p", f"{n + 2}p"), real, wild, group.concealed) for n in range(1, 8)]
    return pungs + chows


def _declared_choices(group: Group) -> list[Group]:
    """Every set a declared chow or pung holding fei can be: the contract only gives its tiles, so
    ``5p 1j 1j`` may have been claimed as 555p, 345p, 456p or 567p and ``7p 8p 1j`` as 678p or 789p."""
    naturals = [t for t, w in zip(group.tiles, group.wild) if not w]
    wilds = len(group.tiles) - len(naturals)
    real = tuple(naturals) + (T.FEI,) * wilds
    out = []
    if len(set(naturals)) == 1:
        k = naturals[0]
        out.append(Group(PUNG, (k,) * 3, real, (False,) * len(naturals) + (True,) * wilds, group.concealed, True))
    nums = sorted(T.number(t) for t in naturals) if all(t[1] == "p" for t in naturals) else []
    if nums and len(set(nums)) == len(nums) and nums[-1] - nums[0] <= 2:
        for low in range(max(1, nums[-1] - 2), min(nums[0], 7) + 1):
            codes = tuple(f"{low + k}p" for k in range(3))
            wild = tuple(c not in naturals for c in codes)
            out.append(Group(CHOW, codes, tuple(T.FEI if w else c for c, w in zip(codes, wild)), wild,
                             group.concealed, True))
    return out


def _open_slot(group: Group) -> bool:
    return group.kind in (WILD_SET, WILD_PAIR) or (group.declared and group.kind in (CHOW, PUNG) and any(group.wild))


def concrete_readings(reading: Reading) -> list[Reading]:
    """The reading with each fei-only group, and each declared chow or pung holding fei, replaced
    by each thing it can stand for."""
    open_slots = [i for i, g in enumerate(reading.groups) if _open_slot(g)]
    if not open_slots:
        return [reading] if possible(reading) else []
    out = []
    for picks in product(*((_declared_choices if reading.groups[i].declared else _choices)(reading.groups[i])
                           for i in open_slots)):
        groups = list(reading.groups)
        for i, g in zip(open_slots, picks):
            groups[i] = g
        win_as = reading.win_as
        if reading.win_group in open_slots:
            win_as = groups[reading.win_group].tiles[0]
        concrete = replace(reading, groups=tuple(groups), win_as=win_as)
        if possible(concrete):
            out.append(concrete)
    return out


def possible(reading: Reading) -> bool:
    """No kind counts more than its 4 copies: a fei never stands for a fifth White dragon."""
    if reading.form != "standard":
        return True
    return all(n <= 4 for n in Counter(reading.counted_tiles()).values())
