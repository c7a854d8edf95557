"""Fu (符) as the EMA document defines it.

* 副底: 20, except seven pairs (25, nothing added) and a concealed ron (門前栄和, 30).
* 門子符: pungs and kongs, as in Japan: 2 for an open pung of simples, doubled for
  terminals/honors, doubled when concealed, four times for a kong. A pung completed
  by a discard counts as open.
* 2 each for a dragon pair, a seat-wind pair, a round-wind pair (a double-wind
  pair gets both), a single (単騎), edge (辺張) or closed (嵌張) wait, a self-draw
  (except with pinfu) and an open pinfu shape (喰い平和).
* Rounded up to the next 10.
"""
from __future__ import annotations

from ...reading import KONG
from .yaku import DRAGONS, ORPHANS, Facts


WAIT_NAMES = {"tanki": "単騎待ち (single wait)", "penchan": "辺張待ち (edge wait)",
              "kanchan": "嵌張待ち (closed wait)"}


def fu_breakdown(f: Facts, pinfu: bool, labels: bool = True) -> tuple[int, list[tuple[str, int]]]:
    """(rounded fu, items) of one reading. ``labels=False`` skips the item list (the scorer ranks every
    reading but prints only the best)."""
    items: list[tuple[str, int]] = []
    if f.form == "seven_pairs":
        return 25, [("七対子 副底 (seven pairs)", 25)] if labels else items
    if f.form == "thirteen_orphans":  # a limit hand: fu do not matter; report the base
        base = 20 if f.tsumo else 30
        return base, [("副底 (base)", base)] if labels else items
    tsumo, win_group = f.tsumo, f.reading.win_group
    total = 20 if f.is_open or tsumo else 30
    if labels:
        items.append(("門前栄和 副底 (concealed ron)", 30) if total == 30 else ("副底 (base)", 20))
    for i, g in enumerate(f.reading.groups):
        kind = g.kind
        if kind == "chow" or kind == "pair":
            continue
        concealed = g.concealed and (tsumo or win_group != i)  # a pung completed by a discard is open
        v = (4 if g.tiles[0] in ORPHANS else 2) * (2 if concealed else 1) * (4 if kind == KONG else 1)
        total += v
        if labels:
            items.append((("暗" if concealed else "明") + ("槓" if kind == KONG else "刻") + " " + g.tiles[0], v))
    pair, wait = f.pair_key, f.reading.wait
    for has, name in ((pair in DRAGONS, "三元牌の雀頭 (dragon pair)"),
                      (pair == f.seat_wind, "門風牌の雀頭 (seat-wind pair)"),
                      (pair == f.round_wind, "荘風牌の雀頭 (round-wind pair)"),
                      (wait in WAIT_NAMES, WAIT_NAMES.get(wait)),
                      (tsumo and not pinfu, "摸和 (self-draw)")):
        if has:
            total += 2
            if labels:
                items.append((name, 2))
    if f.is_open and total == 20:
        total = 22
        if labels:
            items.append(("喰い平和 (open pinfu)", 2))
    return -(-total // 10) * 10, items


def fu_items(f: Facts, pinfu: bool) -> list[tuple[str, int]]:
    """The fu of one reading, item by item (before rounding)."""
    return fu_breakdown(f, pinfu)[1]


def fu_value(f: Facts, pinfu: bool) -> int:
    """The rounded fu of one reading."""
    return fu_breakdown(f, pinfu, False)[0]
