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


def fu_items(f: Facts, pinfu: bool) -> list[tuple[str, int]]:
    """The fu of one reading, item by item (before rounding)."""
    if f.form == "seven_pairs":
        return [("七対子 副底 (seven pairs)", 25)]
    if f.form == "thirteen_orphans":  # a limit hand: fu do not matter; report the base
        return [("副底 (base)", 30 if not f.tsumo else 20)]
    closed_ron = not f.is_open and not f.tsumo
    items = [("門前栄和 副底 (concealed ron)", 30) if closed_ron else ("副底 (base)", 20)]
    groups = f.reading.groups
    for i, g in enumerate(groups):
        if not g.is_set or g.kind == "chow":
            continue
        concealed = g.concealed and not (not f.tsumo and f.reading.win_group == i)
        value = 2 * (2 if g.key in ORPHANS else 1) * (2 if concealed else 1) * (4 if g.kind == KONG else 1)
        label = ("暗" if concealed else "明") + ("槓" if g.kind == KONG else "刻")
        items.append((f"{label} {g.key}", value))
    pair = f.pairs[0].key
    if pair in DRAGONS:
        items.append(("三元牌の雀頭 (dragon pair)", 2))
    if pair == f.seat_wind:
        items.append(("門風牌の雀頭 (seat-wind pair)", 2))
    if pair == f.round_wind:
        items.append(("荘風牌の雀頭 (round-wind pair)", 2))
    wait = f.reading.wait
    if wait in ("tanki", "penchan", "kanchan"):
        names = {"tanki": "単騎待ち (single wait)", "penchan": "辺張待ち (edge wait)",
                 "kanchan": "嵌張待ち (closed wait)"}
        items.append((names[wait], 2))
    if f.tsumo and not pinfu:
        items.append(("摸和 (self-draw)", 2))
    if f.is_open and sum(v for _, v in items) == 20:
        items.append(("喰い平和 (open pinfu)", 2))
    return items


def fu_value(f: Facts, pinfu: bool) -> int:
    """The rounded fu of one reading, without building the item list (the scorer ranks every reading)."""
    if f.form == "seven_pairs":
        return 25
    if f.form == "thirteen_orphans":
        return 20 if f.tsumo else 30
    total = 20 if f.is_open or f.tsumo else 30
    win_group, tsumo = f.reading.win_group, f.tsumo
    for i, g in enumerate(f.reading.groups):
        kind = g.kind
        if kind == "chow" or kind == "pair":
            continue
        v = 4 if g.tiles[0] in ORPHANS else 2
        if g.concealed and (tsumo or win_group != i):
            v *= 2
        total += v * 4 if kind == KONG else v
    pair = f.pair_key
    total += 2 * ((pair in DRAGONS) + (pair == f.seat_wind) + (pair == f.round_wind))
    if f.reading.wait in ("tanki", "penchan", "kanchan"):
        total += 2
    if tsumo and not pinfu:
        total += 2
    if f.is_open and total == 20:
        total = 22
    return -(-total // 10) * 10


def round_fu(items: list[tuple[str, int]]) -> int:
    total = sum(v for _, v in items)
    return total if total == 25 else -(-total // 10) * 10
