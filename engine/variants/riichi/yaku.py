"""The yaku of EMA riichi: one small definition per yaku, each with a clear condition.

A yaku is worth ``closed`` han in a concealed hand and ``opened`` han in an open
one (0: not allowed open). EMA's open-hand rule is written the other way round
from Japanese custom (三色同順 is "a 1-han yaku with +1 han when closed", not "2
han, 1 less when open") but the figures are the same. Yakuman are worth one
limit each; whether they add up is the scorer's business (option double_yakuman).
"""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Callable

from ... import tiles as T
from ...hand import Hand
from ...reading import CHOW, KONG, RYANMEN, TANKI, Reading

DRAGONS = frozenset(T.DRAGONS)
WINDS = frozenset(T.WINDS)
ORPHANS = frozenset(T.ORPHANS)
HONORS = frozenset(T.HONORS)
TERMINALS = frozenset(T.TERMINALS)
GREENS = frozenset(("2s", "3s", "4s", "6s", "8s", "6z"))


def seat_wind_of(hand: Hand) -> str:
    """The winner's seat wind: East is the dealer, then S, W, N in turn order."""
    seats = hand.seats
    return T.WINDS[(seats.index(hand.winner) - seats.index(hand.dealer)) % len(seats)]


class Facts:
    """What the yaku look at for one reading of one hand (computed once, then set look-ups)."""

    __slots__ = ("hand", "reading", "is_open", "tsumo", "sets", "pairs", "tiles", "kinds", "seat_wind",
                 "round_wind", "form", "concealed_triplets", "kongs", "chow_keys", "triplet_keys", "suits",
                 "honors", "pair_key", "flags", "opts")

    def __init__(self, hand: Hand, reading: Reading, seat_wind: str, is_open: bool | None = None,
                 round_wind: str | None = None, flags: SimpleNamespace | None = None,
                 opts: SimpleNamespace | None = None):
        self.hand = hand
        # plain namespaces: Settings look-ups are slow and the yaku read flags for every reading
        self.flags = flags if flags is not None else SimpleNamespace(**hand.flags.as_dict())
        self.opts = opts if opts is not None else SimpleNamespace(**hand.options.as_dict())
        self.reading = reading
        self.form = reading.form
        self.is_open = hand.is_open if is_open is None else is_open
        self.tsumo = tsumo = hand.self_drawn
        self.seat_wind = seat_wind
        self.round_wind = hand.round_wind_tile if round_wind is None else round_wind
        sets, pairs, chow_keys, triplet_keys = [], [], [], set()
        tiles: list[str] = []
        kongs = concealed = 0
        win_group = reading.win_group
        for i, g in enumerate(reading.groups):
            tiles.extend(g.tiles)
            kind = g.kind
            if kind == CHOW:
                sets.append(g)
                chow_keys.append(g.tiles[0])
            elif kind == "pair":
                pairs.append(g)
            else:
                sets.append(g)
                triplet_keys.add(g.tiles[0])
                if kind == KONG:
                    kongs += 1
                # a pung completed by a discard counts as open (明刻)
                if g.concealed and (tsumo or win_group != i):
                    concealed += 1
        tiles.extend(reading.loose)
        self.sets, self.pairs, self.tiles = sets, pairs, tiles
        self.kinds = kinds = frozenset(tiles)
        self.chow_keys, self.triplet_keys = chow_keys, triplet_keys
        self.kongs, self.concealed_triplets = kongs, concealed
        self.suits = {t[1] for t in kinds} - {"z"}
        self.honors = not kinds.isdisjoint(HONORS)
        self.pair_key = pairs[0].tiles[0] if len(pairs) == 1 else None

    def has_triplet(self, tile: str) -> bool:
        return tile in self.triplet_keys

    def is_pinfu_shape(self) -> bool:
        """Four chows, a pair worth no fu, a two-sided wait."""
        if self.form != "standard" or self.triplet_keys or self.reading.wait != RYANMEN:
            return False
        p = self.pair_key
        return p not in DRAGONS and p != self.seat_wind and p != self.round_wind


@dataclass(frozen=True)
class Yaku:
    key: str
    name: str  # shown: "平和 (pinfu)"
    closed: int
    opened: int
    test: Callable[[Facts], bool]
    yakuman: bool = False
    forms: tuple[str, ...] = ("standard", "seven_pairs")  # forms the yaku can appear with
    situational: bool = False  # depends on how the hand was won, not on its tiles (checked once per hand)

    def han(self, f: Facts) -> int:
        return self.opened if f.is_open else self.closed


# ---- conditions -----------------------------------------------------------------------------------
def _flag(name: str) -> Callable[[Facts], bool]:
    return lambda f: bool(getattr(f.flags, name))


def _riichi(f): return f.flags.riichi and not f.flags.double_riichi
def _menzen_tsumo(f): return f.tsumo and not f.is_open
def _pinfu(f): return not f.is_open and f.is_pinfu_shape()
def _tanyao(f): return f.kinds.isdisjoint(ORPHANS) and (not f.is_open or f.opts.kuitan)
def _haitei(f): return f.flags.last_tile and f.tsumo
def _houtei(f): return f.flags.last_tile and not f.tsumo
def _rinshan(f): return f.hand.replacement
def _chankan(f): return f.hand.robbed_kong


def _peikou_count(f: Facts) -> int:
    """Pairs of identical chows (一盃口 = 1, 二盃口 = 2), closed hands only."""
    keys = sorted(f.chow_keys)
    n, i = 0, 0
    while i + 1 < len(keys):
        if keys[i] == keys[i + 1]:
            n, i = n + 1, i + 2
        else:
            i += 1
    return n


def _iipeikou(f): return _peikou_count(f) == 1
def _ryanpeikou(f): return _peikou_count(f) == 2


def _sanshoku(f):
    keys = f.chow_keys
    return len(keys) >= 3 and any(f"{k[0]}m" in keys and f"{k[0]}p" in keys and f"{k[0]}s" in keys for k in keys)


def _doukou(f):
    keys = f.triplet_keys
    return len(keys) >= 3 and any(f"{k[0]}m" in keys and f"{k[0]}p" in keys and f"{k[0]}s" in keys for k in keys)


def _ittsu(f):
    keys = f.chow_keys
    return len(keys) >= 3 and any(f"1{s}" in keys and f"4{s}" in keys and f"7{s}" in keys for s in f.suits)


def _outside(f: Facts) -> bool:
    """Every set and the pair holds a terminal or honor, and there is a chow."""
    return bool(f.chow_keys) and f.form == "standard" and all(
        not ORPHANS.isdisjoint(g.tiles) for g in f.sets + f.pairs)


def _chanta(f): return _outside(f) and f.honors
def _junchan(f): return _outside(f) and not f.honors
def _toitoi(f): return f.form == "standard" and not f.chow_keys
def _sanankou(f): return f.concealed_triplets == 3
def _sankantsu(f): return f.kongs == 3
def _shousangen(f): return f.pair_key in DRAGONS and len(f.triplet_keys & DRAGONS) == 2
def _honroutou(f): return f.kinds <= ORPHANS and f.honors and bool(f.suits)
def _honitsu(f): return len(f.suits) == 1 and f.honors
def _chinitsu(f): return len(f.suits) == 1 and not f.honors
def _daisangen(f): return DRAGONS <= f.triplet_keys
def _shousuushii(f): return f.pair_key in WINDS and len(f.triplet_keys & WINDS) == 3
def _daisuushii(f): return WINDS <= f.triplet_keys
def _tsuuiisou(f): return not f.suits
def _chinroutou(f): return f.kinds <= TERMINALS
def _ryuuiisou(f): return f.kinds <= GREENS
def _suuankou(f): return f.concealed_triplets == 4
def _suukantsu(f): return f.kongs == 4
def _kokushi(f): return f.form == "thirteen_orphans"
def _tenhou(f): return f.flags.first_turn and f.tsumo and f.seat_wind == "1z"
def _chiihou(f): return f.flags.first_turn and f.tsumo and f.seat_wind != "1z"


def _chuuren(f: Facts) -> bool:
    """九蓮宝燈: concealed, no kong, one suit 1112345678999 plus any tile of it."""
    if f.hand.melds or len(f.suits) != 1 or f.honors:
        return False
    counts = [0] * 10
    for t in f.tiles:
        counts[int(t[0])] += 1
    return counts[1] >= 3 and counts[9] >= 3 and all(counts[n] >= 1 for n in range(2, 9))


def _yakuhai(tile_of: Callable[[Facts], str]) -> Callable[[Facts], bool]:
    return lambda f: tile_of(f) in f.triplet_keys


STD = ("standard",)
ALL = ("standard", "seven_pairs", "thirteen_orphans")

YAKU: tuple[Yaku, ...] = (
    Yaku("riichi", "立直 (riichi)", 1, 0, _riichi, forms=ALL, situational=True),
    Yaku("double_riichi", "ダブル立直 (double riichi)", 2, 0, _flag("double_riichi"), forms=ALL, situational=True),
    Yaku("ippatsu", "一発 (ippatsu)", 1, 0, _flag("ippatsu"), forms=ALL, situational=True),
    Yaku("menzen_tsumo", "門前清自摸和 (menzen tsumo)", 1, 0, _menzen_tsumo, forms=ALL, situational=True),
    Yaku("pinfu", "平和 (pinfu)", 1, 0, _pinfu, forms=STD),
    Yaku("tanyao", "断幺九 (tanyao)", 1, 1, _tanyao),
    Yaku("iipeikou", "一盃口 (iipeikou)", 1, 0, _iipeikou, forms=STD),
    Yaku("haku", "役牌 白 (haku)", 1, 1, _yakuhai(lambda f: "5z"), forms=STD),
    Yaku("hatsu", "役牌 發 (hatsu)", 1, 1, _yakuhai(lambda f: "6z"), forms=STD),
    Yaku("chun", "役牌 中 (chun)", 1, 1, _yakuhai(lambda f: "7z"), forms=STD),
    Yaku("seat_wind", "門風牌 (seat wind)", 1, 1, _yakuhai(lambda f: f.seat_wind), forms=STD),
    Yaku("round_wind", "荘風牌 (round wind)", 1, 1, _yakuhai(lambda f: f.round_wind), forms=STD),
    Yaku("haitei", "海底摸月 (haitei)", 1, 1, _haitei, forms=ALL, situational=True),
    Yaku("houtei", "河底撈魚 (houtei)", 1, 1, _houtei, forms=ALL, situational=True),
    Yaku("rinshan", "嶺上開花 (rinshan kaihou)", 1, 1, _rinshan, forms=ALL, situational=True),
    Yaku("chankan", "搶槓 (chankan)", 1, 1, _chankan, forms=ALL, situational=True),
    Yaku("chiitoitsu", "七対子 (chiitoitsu)", 2, 0, lambda f: True, forms=("seven_pairs",)),
    Yaku("sanshoku", "三色同順 (sanshoku doujun)", 2, 1, _sanshoku, forms=STD),
    Yaku("ittsu", "一気通貫 (ittsu)", 2, 1, _ittsu, forms=STD),
    Yaku("chanta", "混全帯幺九 (chanta)", 2, 1, _chanta, forms=STD),
    Yaku("toitoi", "対々和 (toitoi)", 2, 2, _toitoi, forms=STD),
    Yaku("sanankou", "三暗刻 (sanankou)", 2, 2, _sanankou, forms=STD),
    Yaku("sanshoku_doukou", "三色同刻 (sanshoku doukou)", 2, 2, _doukou, forms=STD),
    Yaku("sankantsu", "三槓子 (sankantsu)", 2, 2, _sankantsu, forms=STD),
    Yaku("shousangen", "小三元 (shousangen)", 2, 2, _shousangen, forms=STD),
    Yaku("honroutou", "混老頭 (honroutou)", 2, 2, _honroutou),
    Yaku("honitsu", "混一色 (honitsu)", 3, 2, _honitsu),
    Yaku("junchan", "純全帯幺九 (junchan)", 3, 2, _junchan, forms=STD),
    Yaku("ryanpeikou", "二盃口 (ryanpeikou)", 3, 0, _ryanpeikou, forms=STD),
    Yaku("chinitsu", "清一色 (chinitsu)", 6, 5, _chinitsu),
)

YAKUMAN: tuple[Yaku, ...] = (
    Yaku("kokushi", "国士無双 (kokushi musou)", 1, 0, _kokushi, True, ("thirteen_orphans",)),
    Yaku("suuankou", "四暗刻 (suuankou)", 1, 0, _suuankou, True, STD),
    Yaku("daisangen", "大三元 (daisangen)", 1, 1, _daisangen, True, STD),
    Yaku("shousuushii", "小四喜 (shousuushii)", 1, 1, _shousuushii, True, STD),
    Yaku("daisuushii", "大四喜 (daisuushii)", 1, 1, _daisuushii, True, STD),
    Yaku("tsuuiisou", "字一色 (tsuuiisou)", 1, 1, _tsuuiisou, True),
    Yaku("chinroutou", "清老頭 (chinroutou)", 1, 1, _chinroutou, True, STD),
    Yaku("ryuuiisou", "緑一色 (ryuuiisou)", 1, 1, _ryuuiisou, True, STD),
    Yaku("chuuren", "九蓮宝燈 (chuuren poutou)", 1, 0, _chuuren, True, STD),
    Yaku("suukantsu", "四槓子 (suukantsu)", 1, 1, _suukantsu, True, STD),
    Yaku("tenhou", "天和 (tenhou)", 1, 0, _tenhou, True, ALL),
    Yaku("chiihou", "地和 (chiihou)", 1, 0, _chiihou, True, ALL),
)

# Superseded yaku: when the key is present, the listed yaku do not count.
SUPERSEDES = {"ryanpeikou": ("iipeikou",), "junchan": ("chanta",), "chinitsu": ("honitsu",)}

# Yakuman that are double where double_yakuman is on (the EMA document lists them for the old rules).
DOUBLE_WHEN_ALLOWED = {
    "suuankou": lambda f: f.reading.wait == TANKI,
    "kokushi": lambda f: f.reading.wait == TANKI,
    "chuuren": lambda f: _pure_chuuren(f),
    "daisuushii": lambda f: True,
}


def _pure_chuuren(f: Facts) -> bool:
    """純正九蓮宝燈: without the winning tile the hand is exactly 1112345678999."""
    counts = [0] * 10
    for t in f.tiles:
        counts[int(t[0])] += 1
    counts[int(f.hand.winning_tile[0])] -= 1
    return counts == [0, 3, 1, 1, 1, 1, 1, 1, 1, 3]


FORMS = ("standard", "seven_pairs", "thirteen_orphans")
SITUATIONAL = {is_open: tuple(y for y in YAKU if y.situational and (y.opened if is_open else y.closed))
               for is_open in (False, True)}
# What each pattern yaku needs of a reading's shape: (chows, triplets, one suit, terminals/honors
# present, an honor triplet). Checked once per shape, so a reading only runs the tests it could pass.
_NEEDS = {
    "pinfu": lambda c, t, one, orph, ht: c == 4,
    "iipeikou": lambda c, t, one, orph, ht: c >= 2,
    "ryanpeikou": lambda c, t, one, orph, ht: c == 4,
    "sanshoku": lambda c, t, one, orph, ht: c >= 3,
    "ittsu": lambda c, t, one, orph, ht: c >= 3,
    "chanta": lambda c, t, one, orph, ht: c >= 1 and orph,
    "junchan": lambda c, t, one, orph, ht: c >= 1 and orph,
    "tanyao": lambda c, t, one, orph, ht: not orph,
    "honroutou": lambda c, t, one, orph, ht: c == 0 and orph,
    "honitsu": lambda c, t, one, orph, ht: one,
    "chinitsu": lambda c, t, one, orph, ht: one,
    "haku": lambda c, t, one, orph, ht: ht,
    "hatsu": lambda c, t, one, orph, ht: ht,
    "chun": lambda c, t, one, orph, ht: ht,
    "seat_wind": lambda c, t, one, orph, ht: ht,
    "round_wind": lambda c, t, one, orph, ht: ht,
    "toitoi": lambda c, t, one, orph, ht: t == 4,
    "sanankou": lambda c, t, one, orph, ht: t >= 3,
    "sanshoku_doukou": lambda c, t, one, orph, ht: t >= 3,
    "sankantsu": lambda c, t, one, orph, ht: t >= 3,
    "shousangen": lambda c, t, one, orph, ht: t >= 2 and ht,
}
_CANDIDATES: dict[tuple, tuple[Yaku, ...]] = {}


def _candidates(key: tuple) -> tuple[Yaku, ...]:
    """The pattern yaku a reading of this shape could have (form, open/closed and _NEEDS applied)."""
    form, is_open, *shape = key
    return tuple(y for y in YAKU if not y.situational and form in y.forms and (y.opened if is_open else y.closed)
                 and _NEEDS.get(y.key, lambda *a: True)(*shape))


_YAKUMAN_CANDIDATES = {(form, is_open): tuple(y for y in YAKUMAN if form in y.forms and (y.opened or not is_open))
                       for form in FORMS for is_open in (False, True)}


def situational_yaku(f: Facts) -> list[Yaku]:
    """The yaku of how the hand was won (riichi, tsumo, haitei...): the same for every reading."""
    return [y for y in SITUATIONAL[f.is_open] if f.form in y.forms and y.test(f)]


def find_yaku(f: Facts, situational: list[Yaku]) -> list[Yaku]:
    """The ordinary yaku of a reading (no yakuman, no dora)."""
    trip = f.triplet_keys
    key = (f.form, f.is_open, len(f.chow_keys), len(trip), len(f.suits) == 1, not f.kinds.isdisjoint(ORPHANS),
           not trip.isdisjoint(HONORS))
    candidates = _CANDIDATES.get(key)
    if candidates is None:
        candidates = _CANDIDATES[key] = _candidates(key)
    found = [y for y in candidates if y.test(f)]
    if found:
        dropped = {k for y in found for k in SUPERSEDES.get(y.key, ())}
        if dropped:
            found = [y for y in found if y.key not in dropped]
    return situational + found if situational else found


def may_be_yakuman(f: Facts) -> bool:
    """A cheap necessary condition for any yakuman (most hands have none)."""
    return (f.form == "thirteen_orphans" or len(f.triplet_keys) >= 3 or len(f.suits) <= 1
            or bool(f.flags.first_turn))


def find_yakuman(f: Facts) -> list[Yaku]:
    if not may_be_yakuman(f):
        return []
    return [y for y in _YAKUMAN_CANDIDATES[f.form, f.is_open] if y.test(f)]
