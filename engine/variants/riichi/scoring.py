"""Scoring one riichi win: readings -> yaku, dora, fu, limit, payments."""
from __future__ import annotations

from ... import tiles as T
from ...errors import EngineError
from ...hand import Hand
from ...reading import Reading
from .fu import fu_items, round_fu
from .payments import MANGAN, basic_points, win_payments
from .yaku import DOUBLE_WHEN_ALLOWED, Facts, find_yaku, find_yakuman, seat_wind_of

NEXT_DORA = {}
for _suit in "mps":
    for _n in range(1, 10):
        NEXT_DORA[f"{_n}{_suit}"] = f"{_n % 9 + 1}{_suit}"
for _i, _w in enumerate(T.WINDS):
    NEXT_DORA[_w] = T.WINDS[(_i + 1) % 4]
for _i, _d in enumerate(T.DRAGONS):
    NEXT_DORA[_d] = T.DRAGONS[(_i + 1) % 3]


def indicator_tiles(hand: Hand, name: str) -> list[str]:
    value = hand.flags.get(name) or ()
    if isinstance(value, str):
        return T.parse(value, name)
    if not all(isinstance(v, str) for v in value):
        raise EngineError("bad_type", f"{name} is a string of tiles such as '3m7z' or a list of them", name)
    return T.parse("".join(value), name)


def count_dora(tiles: list[str], indicators: list[str]) -> int:
    return sum(tiles.count(NEXT_DORA[i]) for i in indicators)


class Outcome:
    """The value of one reading: what is printed and what is paid."""

    __slots__ = ("reading", "items", "han", "fu", "fu_items", "yakuman", "base", "limit", "payments", "rank",
                 "yaku_keys")

    def __init__(self, reading, items, han, fu, fu_list, yakuman, base, limit, payments, yaku_keys):
        self.reading, self.items, self.han, self.fu, self.fu_items = reading, items, han, fu, fu_list
        self.yakuman, self.base, self.limit, self.payments, self.yaku_keys = yakuman, base, limit, payments, yaku_keys
        self.rank = (base, yakuman > 0, han, fu)


def evaluate(hand: Hand, reading: Reading, dora: int) -> Outcome | None:
    """Score one reading; None when it has no yaku."""
    opts = hand.options
    f = Facts(hand, reading, seat_wind_of(hand))
    yakuman = find_yakuman(f)
    renhou = bool(hand.flags.first_turn) and not hand.self_drawn
    pinfu = not f.is_open and f.is_pinfu_shape()
    fu_list = fu_items(f, pinfu)
    fu = round_fu(fu_list)
    if renhou and opts.renhou == "yakuman":
        yakuman = yakuman + [_RENHOU_YAKUMAN]
    if yakuman:
        if opts.double_yakuman:
            count = sum(2 if y.key in DOUBLE_WHEN_ALLOWED and DOUBLE_WHEN_ALLOWED[y.key](f) else 1 for y in yakuman)
        else:
            count = 1
        items = [{"name": y.name, "value": "yakuman"} for y in yakuman]
        base, limit = basic_points(0, fu, count, opts)
        return Outcome(reading, items, 13 * count, fu, fu_list, count, base, limit, None, [y.key for y in yakuman])
    yaku = find_yaku(f)
    items = [{"name": y.name, "value": y.han(f)} for y in yaku]
    han = sum(i["value"] for i in items)
    if han == 0 and not renhou:
        return None
    if han:
        for name, value in dora_items(hand, dora):
            items.append({"name": name, "value": value})
            han += value
    base, limit = basic_points(han, fu, 0, opts)
    if renhou and base < MANGAN:  # 人和: a mangan, unless the hand is worth more without it
        items.insert(0, {"name": "人和 (renhou)", "value": "mangan"})
        base, limit = MANGAN, "mangan (renhou)"
    return Outcome(reading, items, han, fu, fu_list, 0, base, limit, None, [y.key for y in yaku])


class _Renhou:
    key, name = "renhou", "人和 (renhou)"


_RENHOU_YAKUMAN = _Renhou()


def dora_items(hand: Hand, counts: tuple[int, int, int]) -> list[tuple[str, int]]:
    names = ("ドラ (dora)", "裏ドラ (ura dora)", "赤ドラ (red fives)")
    return [(n, c) for n, c in zip(names, counts) if c]


def dora_counts(hand: Hand) -> tuple[int, int, int]:
    tiles = list(hand.concealed) + [t for m in hand.melds for t in m.tiles]
    dora = count_dora(tiles, indicator_tiles(hand, "dora_indicators"))
    riichi = hand.flags.riichi or hand.flags.double_riichi
    ura = count_dora(tiles, indicator_tiles(hand, "ura_indicators")) if riichi else 0
    red = hand.flags.red_five_count if hand.options.red_fives else 0
    return dora, ura, red


def score_hand(hand: Hand, readings: list[Reading], seats: tuple[str, ...]) -> dict:
    if hand.flags.robbed_concealed_kong:
        readings = [r for r in readings if r.form == "thirteen_orphans"]
        if not readings:
            return {"winning": False, "reading": None, "form": None,
                    "reason": "a concealed kong can be robbed only for thirteen orphans (暗槓搶槓は国士無双の場合のみ可)",
                    "explain": "not a win: only thirteen orphans may rob a concealed kong"}
    dora = dora_counts(hand)
    outcomes = [o for o in (evaluate(hand, r, dora) for r in readings) if o is not None]
    if not outcomes:
        return {"winning": False, "reading": readings[0], "form": readings[0].form,
                "reason": "no yaku (役なし): a riichi hand needs at least one yaku; dora do not count",
                "explain": "not a win: the hand has no yaku (dora are not yaku)"}
    best = max(outcomes, key=lambda o: o.rank)
    pao = hand.flags.pao or None
    if pao is not None:
        if pao == hand.winner:
            raise EngineError("bad_pao", "the winner cannot be liable (pao) for their own hand", "pao")
        if not {"daisangen", "daisuushii"} & set(best.yaku_keys):
            raise EngineError("bad_pao", "pao (包) applies only to daisangen and daisuushii", "pao")
    opts = hand.options
    payments = win_payments(best.base, seats, hand.winner, hand.dealer, hand.discarder, hand.dealer_streak,
                            opts.honba_points, pao)
    sticks = hand.flags.riichi_sticks - (1 if hand.flags.declaration_dealt_in else 0)
    stick_points = sticks * opts.riichi_stick
    totals = dict(payments)
    totals[hand.winner] += stick_points
    received = payments[hand.winner]
    score = {"unit": "points", "total": received, "items": best.items, "han": best.han, "fu": best.fu,
             "fu_items": [{"name": n, "value": v} for n, v in best.fu_items], "limit": best.limit or None,
             "yakuman": best.yakuman, "basic_points": best.base}
    how = "tsumo" if hand.self_drawn else f"ron from {hand.discarder}"
    value = best.limit if best.limit and best.yakuman else (
        f"{best.han} han {best.fu} fu" + (f" ({best.limit})" if best.limit else ""))
    explain = f"{value}, {how}: {hand.winner} receives {received}"
    if stick_points:
        explain += f" + {stick_points} in riichi sticks"
    return {"winning": True, "reading": best.reading, "form": best.reading.form, "score": score,
            "payments": payments, "riichi_sticks": {"seat": hand.winner, "sticks": sticks, "points": stick_points},
            "totals": totals, "explain": explain}
