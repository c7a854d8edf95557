"""Scoring one riichi win: readings -> yaku, dora, fu, limit, payments."""
from __future__ import annotations

from functools import lru_cache
from types import SimpleNamespace

from ... import tiles as T
from ...errors import EngineError
from ...hand import Hand
from ...reading import Reading
from .fu import fu_items, fu_value
from .payments import MANGAN, basic_points, win_payments
from .yaku import DOUBLE_WHEN_ALLOWED, Facts, find_yaku, find_yakuman, seat_wind_of, situational_yaku

NEXT_DORA = {}
for _suit in "mps":
    for _n in range(1, 10):
        NEXT_DORA[f"{_n}{_suit}"] = f"{_n % 9 + 1}{_suit}"
for _i, _w in enumerate(T.WINDS):
    NEXT_DORA[_w] = T.WINDS[(_i + 1) % 4]
for _i, _d in enumerate(T.DRAGONS):
    NEXT_DORA[_d] = T.DRAGONS[(_i + 1) % 3]


@lru_cache(maxsize=4096)
def _parse(text: str, name: str) -> tuple[str, ...]:
    return tuple(T.parse(text, name))


def indicator_tiles(hand: Hand, name: str, flags=None) -> tuple[str, ...]:
    value = (hand.flags.get(name) if flags is None else getattr(flags, name)) or ()
    if isinstance(value, str):
        return _parse(value, name)
    if not all(isinstance(v, str) for v in value):
        raise EngineError("bad_type", f"{name} is a string of tiles such as '3m7z' or a list of them", name)
    return _parse("".join(value), name)


def count_dora(tiles: list[str], indicators) -> int:
    return sum(tiles.count(NEXT_DORA[i]) for i in indicators)


class Outcome:
    """The value of one reading; the printed items are built for the best one only."""

    __slots__ = ("facts", "yaku", "yakuman", "han", "fu", "pinfu", "count", "base", "limit", "renhou", "dora",
                 "rank")

    def __init__(self, facts, yaku, yakuman, han, fu, pinfu, count, base, limit, renhou, dora):
        self.facts, self.yaku, self.yakuman, self.han, self.fu, self.pinfu = facts, yaku, yakuman, han, fu, pinfu
        self.count, self.base, self.limit, self.renhou, self.dora = count, base, limit, renhou, dora
        self.rank = (base, count > 0, han, fu)

    @property
    def reading(self) -> Reading:
        return self.facts.reading

    @property
    def yaku_keys(self) -> list[str]:
        return [y.key for y in (self.yakuman or self.yaku)]

    def items(self) -> list[dict]:
        if self.yakuman:
            return [{"name": y.name, "value": "yakuman"} for y in self.yakuman]
        f = self.facts
        items = [{"name": y.name, "value": y.han(f)} for y in self.yaku]
        if self.yaku:
            items += [{"name": n, "value": v} for n, v in dora_items(self.dora)]
        if self.renhou:
            items.insert(0, {"name": "人和 (renhou)", "value": "mangan"})
        return items


def evaluate(f: Facts, dora: tuple[int, int, int], situational: dict) -> Outcome | None:
    """Score one reading; None when it has no yaku. ``situational``: form -> yaku of how the hand was won."""
    opts = f.opts
    yakuman = find_yakuman(f)
    renhou = bool(f.flags.first_turn) and not f.tsumo
    pinfu = not f.is_open and f.is_pinfu_shape()
    fu = fu_value(f, pinfu)
    if renhou and opts.renhou == "yakuman":
        yakuman = yakuman + [_RENHOU_YAKUMAN]
    if yakuman:
        if opts.double_yakuman:
            count = sum(2 if y.key in DOUBLE_WHEN_ALLOWED and DOUBLE_WHEN_ALLOWED[y.key](f) else 1 for y in yakuman)
        else:
            count = 1
        base, limit = basic_points(0, fu, count, opts)
        return Outcome(f, [], yakuman, 13 * count, fu, pinfu, count, base, limit, False, dora)
    if f.form not in situational:
        situational[f.form] = situational_yaku(f)
    yaku = find_yaku(f, situational[f.form])
    han = sum(y.opened if f.is_open else y.closed for y in yaku)
    if han == 0 and not renhou:
        return None
    if han:
        han += sum(dora)
    base, limit = basic_points(han, fu, 0, opts)
    by_renhou = renhou and base < MANGAN  # 人和: a mangan, unless the hand is worth more without it
    if by_renhou:
        base, limit = MANGAN, "mangan (renhou)"
    return Outcome(f, yaku, [], han, fu, pinfu, 0, base, limit, by_renhou, dora)


class _Renhou:
    key, name = "renhou", "人和 (renhou)"


_RENHOU_YAKUMAN = _Renhou()


def dora_items(counts: tuple[int, int, int]) -> list[tuple[str, int]]:
    names = ("ドラ (dora)", "裏ドラ (ura dora)", "赤ドラ (red fives)")
    return [(n, c) for n, c in zip(names, counts) if c]


def dora_counts(hand: Hand, flags: SimpleNamespace, opts: SimpleNamespace) -> tuple[int, int, int]:
    dora_ind = indicator_tiles(hand, "dora_indicators", flags)
    ura_ind = indicator_tiles(hand, "ura_indicators", flags) if flags.riichi or flags.double_riichi else ()
    red = flags.red_five_count if opts.red_fives else 0
    if not dora_ind and not ura_ind:
        return 0, 0, red
    tiles = list(hand.concealed)
    for m in hand.melds:
        tiles.extend(m.tiles)
    return count_dora(tiles, dora_ind), count_dora(tiles, ura_ind), red


def score_hand(hand: Hand, readings: list[Reading], seats: tuple[str, ...]) -> dict:
    flags, opts = SimpleNamespace(**hand.flags.as_dict()), SimpleNamespace(**hand.options.as_dict())
    if flags.robbed_concealed_kong:
        readings = [r for r in readings if r.form == "thirteen_orphans"]
        if not readings:
            return {"winning": False, "reading": None, "form": None,
                    "reason": "a concealed kong can be robbed only for thirteen orphans (暗槓搶槓は国士無双の場合のみ可)",
                    "explain": "not a win: only thirteen orphans may rob a concealed kong"}
    dora = dora_counts(hand, flags, opts)
    seat_wind = seat_wind_of(hand)
    situational: dict = {}
    is_open, round_wind = hand.is_open, hand.round_wind_tile
    outcomes = [o for o in (evaluate(Facts(hand, r, seat_wind, is_open, round_wind, flags, opts), dora, situational)
                            for r in readings) if o is not None]
    if not outcomes:
        return {"winning": False, "reading": readings[0], "form": readings[0].form,
                "reason": "no yaku (役なし): a riichi hand needs at least one yaku; dora do not count",
                "explain": "not a win: the hand has no yaku (dora are not yaku)"}
    best = max(outcomes, key=lambda o: o.rank)
    pao = flags.pao or None
    if pao is not None:
        if pao == hand.winner:
            raise EngineError("bad_pao", "the winner cannot be liable (pao) for their own hand", "pao")
        liable = [k for k in ("daisangen", "daisuushii") if k in best.yaku_keys]
        if not liable:
            raise EngineError("bad_pao", "pao (包) applies only to daisangen and daisuushii", "pao")
        honors = T.DRAGONS if liable[0] == "daisangen" else T.WINDS
        if not any(not m.concealed and m.key in honors for m in hand.melds):
            raise EngineError("bad_pao", "pao (包) is for the player who let the last dragon or wind set be claimed "
                              "(ポンまたは明槓): this hand has no claimed one", "pao")
    payments = win_payments(best.base, seats, hand.winner, hand.dealer, hand.discarder, hand.dealer_streak,
                            opts.honba_points, pao)
    # the winner's own riichi stick is on the table whatever riichi_sticks says: at least 1 with riichi
    on_table = max(flags.riichi_sticks, 1 if (flags.riichi or flags.double_riichi) else 0)
    sticks = on_table - (1 if flags.declaration_dealt_in else 0)
    stick_points = sticks * opts.riichi_stick
    totals = dict(payments)
    totals[hand.winner] += stick_points
    received = payments[hand.winner]
    score = {"unit": "points", "total": received, "items": best.items(), "han": best.han, "fu": best.fu,
             "fu_items": [{"name": n, "value": v} for n, v in fu_items(best.facts, best.pinfu)],
             "limit": best.limit or None, "yakuman": best.count, "basic_points": best.base}
    how = "tsumo" if hand.self_drawn else f"ron from {hand.discarder}"
    value = best.limit if best.limit and best.count else (
        f"{best.han} han {best.fu} fu" + (f" ({best.limit})" if best.limit else ""))
    explain = f"{value}, {how}: {hand.winner} receives {received}"
    if stick_points:
        explain += f" + {stick_points} in riichi sticks"
    return {"winning": True, "reading": best.reading, "form": best.reading.form, "score": score,
            "payments": payments, "riichi_sticks": {"seat": hand.winner, "sticks": sticks, "points": stick_points},
            "totals": totals, "explain": explain}
