"""The 台 patterns of section 2, one small function each, and the "not added" rules.

Each pattern looks at a :class:`Context` (the hand, one reading, the options,
the waits before the winning tile) and returns the :class:`Tai` lines it earns.
:data:`NOT_ADDED` then drops the lines that a bigger pattern already includes
("門前は必然であるため加算しない" and the like).
"""
from __future__ import annotations

from dataclasses import dataclass

from ... import tiles as T
from ...hand import Hand, Settings
from ...reading import CHOW, KANCHAN, PENCHAN, RYANMEN, TANKI, Reading
from .forms import LIGULIGU, SIXTEEN_UNRELATED

STANDARD_FORM = "standard"
FLOWERS_ONLY = "flowers_only"  # 八仙過海 / 七搶一 declared on seventeen tiles that do not win by shape

# The flowers that count for each seat ("効き花"): the seat's season and its plant.
SEAT_FLOWERS = {"E": ("1f", "5f"), "S": ("2f", "6f"), "W": ("3f", "7f"), "N": ("4f", "8f")}


@dataclass(frozen=True)
class Tai:
    key: str  # the pattern, for the not-added rules
    name: str  # what the breakdown shows
    value: int

    def to_json(self) -> dict:
        return {"name": self.name, "value": self.value}


@dataclass(frozen=True)
class Context:
    hand: Hand
    reading: Reading
    options: Settings
    waits: tuple[str, ...]  # every tile the hand waited on before the winning tile
    self_draw_scored: bool  # the win scores as a self-draw (七搶一 ① scores as a discard)
    flowers: tuple[str, ...]  # the flowers that score for the winner

    @property
    def shaped(self) -> bool:
        return self.reading.form != FLOWERS_ONLY

    @property
    def standard(self) -> bool:
        return self.reading.form == STANDARD_FORM

    @property
    def triplets(self) -> list[str]:
        """The kind of every pung and kong of the reading."""
        return [g.key for g in self.reading.groups if g.is_triplet]

    @property
    def pair_kinds(self) -> list[str]:
        return [g.key for g in self.reading.pairs]

    @property
    def tiles(self) -> list[str]:
        return self.reading.counted_tiles()

    @property
    def concealed(self) -> bool:
        return not self.hand.is_open

    def concealed_triplets(self) -> int:
        """暗刻: pungs formed in hand (not by a discarded winning tile) and concealed kongs."""
        n = 0
        for i, g in enumerate(self.reading.groups):
            if not g.is_triplet or not g.concealed:
                continue
            if i == self.reading.win_group and not self.hand.self_drawn:
                continue
            n += 1
        return n


def _one(key: str, name: str, value: int, condition: bool) -> list[Tai]:
    return [Tai(key, name, value)] if condition else []


# ---- concealment and self-draw --------------------------------------------------------------
def menqian(c: Context) -> list[Tai]:
    return _one("menqian", "門前 (concealed hand)", 1, c.concealed)


def zimo(c: Context) -> list[Tai]:
    return _one("zimo", "自摸 (self-drawn)", 1, c.self_draw_scored)


def bu_qiu(c: Context) -> list[Tai]:
    """門前自摸 is 3: 門前 1, 自摸 1 and this bonus 1 (別名 不求)."""
    return _one("bu_qiu", "不求 (門前自摸 bonus)", 1, c.concealed and c.self_draw_scored)


def quan_qiu(c: Context) -> list[Tai]:
    """全求 / 半求: five exposed melds, the last tile a bare single wait."""
    five_open = len(c.hand.melds) == 5 and all(not m.concealed for m in c.hand.melds)
    if not five_open:
        return []
    return [Tai("ban_qiu", "半求 (five melds, self-drawn)", 1)] if c.self_draw_scored else \
        [Tai("quan_qiu", "全求 (five melds, won on a discard)", 2)]


def zhuang_jia(c: Context) -> list[Tai]:
    separate = c.hand.options.dealer_bonus == "separate"  # combined: 莊家 is inside the 2n+1 streak line
    return _one("zhuang_jia", "莊家 (dealer)", 1, separate and c.hand.winner == c.hand.dealer)


# ---- honors -----------------------------------------------------------------------------------
def feng_pai(c: Context) -> list[Tai]:
    """A pung or kong of the round wind, of the seat wind (both: 2)."""
    out = []
    for kind in c.triplets:
        char = T.CHARACTERS.get(kind, kind)
        if kind == c.hand.round_wind_tile:
            out.append(Tai("feng_pai", f"風牌 {char} (round wind)", 1))
        if kind == c.hand.seat_wind:
            out.append(Tai("feng_pai", f"風牌 {char} (seat wind)", 1))
    return out


def san_yuan_pai(c: Context) -> list[Tai]:
    return [Tai("san_yuan_pai", f"三元牌 {T.CHARACTERS[k]}", 1) for k in c.triplets if k in T.DRAGONS]


def xiao_san_yuan(c: Context) -> list[Tai]:
    dragons = [k for k in c.triplets if k in T.DRAGONS]
    return _one("xiao_san_yuan", "小三元 (little three dragons)", 4,
                len(dragons) == 2 and any(k in T.DRAGONS for k in c.pair_kinds))


def da_san_yuan(c: Context) -> list[Tai]:
    return _one("da_san_yuan", "大三元 (big three dragons)", 8,
                sum(1 for k in c.triplets if k in T.DRAGONS) == 3)


def xiao_si_xi(c: Context) -> list[Tai]:
    winds = [k for k in c.triplets if k in T.WINDS]
    return _one("xiao_si_xi", "小四喜 (little four winds)", 8,
                len(winds) == 3 and any(k in T.WINDS for k in c.pair_kinds))


def da_si_xi(c: Context) -> list[Tai]:
    return _one("da_si_xi", "大四喜 (big four winds)", 16, sum(1 for k in c.triplets if k in T.WINDS) == 4)


# ---- the wait and the moment of the win ------------------------------------------------------
SINGLE_WAIT_SHAPES = (TANKI, KANCHAN, PENCHAN)  # 「タンキ、カンチャン、ペンチャン待ちのいずれか」


def du_ting(c: Context) -> list[Tai]:
    """獨聽: the hand waited on one kind of tile only (純粹なひとつ待ち), in a single-tile shape: the
    reading completes a pair (tanki), the middle of a chow (kanchan) or its edge (penchan). A
    two-sided or two-pair wait whose other tile cannot come (every copy already in the hand, a
    kong of it declared) waits on one kind, but not in one of those shapes. The loose-tile forms
    (嚦咕嚦咕, 十六不搭) have no wait shape and count by the waits alone (写真㉒)."""
    single = list(c.waits) == [c.hand.winning_tile]
    return _one("du_ting", "獨聽 (single wait)", 1, single and c.reading.wait in (None, *SINGLE_WAIT_SHAPES))


def hai_di(c: Context) -> list[Tai]:
    if not c.hand.flags.last_tile:
        return []
    if c.hand.self_drawn:
        return [Tai("hai_di", "海底撈月 (last tile of the wall)", 1)]
    return _one("he_di", "河底撈魚 (last discard)", 1, c.options.he_di_lao_yu)


def gang_shang(c: Context) -> list[Tai]:
    return _one("gang_shang", "槓上開花 (replacement tile)", 1, c.hand.replacement)


def qiang_gang(c: Context) -> list[Tai]:
    return _one("qiang_gang", "搶槓 (robbing a kong)", 1, c.hand.robbed_kong)


# ---- flowers ------------------------------------------------------------------------------------
def hua(c: Context) -> list[Tai]:
    """The winner's own seat flowers, 1 each; 花槓, 1 for each full set of four."""
    own = SEAT_FLOWERS[c.hand.winner]
    out = [Tai("hua", f"花牌 {T.CHARACTERS[f]} (seat flower)", 1) for f in c.flowers if f in own]
    for name, group in (("四季", T.SEASONS), ("四君子", T.PLANTS)):
        if all(f in c.flowers for f in group):
            out.append(Tai("hua", f"花槓 {name} (a full set of flowers)", 1))
    return out


# ---- whole-hand patterns ------------------------------------------------------------------------
def ping_hu(c: Context) -> list[Tai]:
    """平胡: five chows, a number pair, a two-sided wait, won on a discard, no flowers."""
    r = c.reading
    ok = (c.standard and all(g.kind == CHOW for g in r.sets) and len(r.sets) == 5
          and all(T.is_number_tile(k) for k in c.pair_kinds) and r.wait == RYANMEN
          and not c.hand.self_drawn and not c.hand.flowers)
    return _one("ping_hu", "平胡 (all chows)", 2, ok)


def peng_peng_hu(c: Context) -> list[Tai]:
    return _one("peng_peng_hu", "碰碰胡 (all pungs)", 2, c.standard and len(c.triplets) == 5)


def an_ke(c: Context) -> list[Tai]:
    if not c.standard:
        return []
    n = c.concealed_triplets()
    if n >= 5:
        return [Tai("wu_an_ke", "五暗刻 (five concealed pungs)", c.options.wu_an_ke)]
    if n == 4:
        return [Tai("si_an_ke", "四暗刻 (four concealed pungs)", c.options.si_an_ke)]
    return _one("san_an_ke", "三暗刻 (three concealed pungs)", 2, n == 3)


def one_suit(c: Context) -> list[Tai]:
    """混一色 / 清一色 / 字一色."""
    tiles = c.tiles
    suits = {t[1] for t in tiles if T.is_number_tile(t)}
    honors = any(T.is_honor(t) for t in tiles)
    if not tiles:
        return []
    if not suits:
        return [Tai("zi_yi_se", "字一色 (all honors)", c.options.zi_yi_se)]
    if len(suits) == 1:
        return [Tai("hun_yi_se", "混一色 (one suit and honors)", 4)] if honors else \
            [Tai("qing_yi_se", "清一色 (one suit)", c.options.qing_yi_se)]
    return []


def special_form(c: Context) -> list[Tai]:
    if c.reading.form == LIGULIGU.name:
        return [Tai("liguligu", "嚦咕嚦咕 (seven pairs and a pung)", 8)]
    if c.reading.form == SIXTEEN_UNRELATED.name:
        return [Tai("sixteen_unrelated", "十六不搭 (sixteen unrelated tiles)", c.options.shi_liu_bu_da)]
    return []


# ---- declarations at the start ------------------------------------------------------------------
def ready_declarations(c: Context) -> list[Tai]:
    f, o = c.hand.flags, c.options
    if f.di_ting_yi_fa:
        return [Tai("di_ting_yi_fa", "地聽一發 (won within a go-around of 地聽)", o.di_ting_yi_fa)]
    if f.di_ting:
        return [Tai("di_ting", "地聽 (ready on the first discard)", o.di_ting)]
    if f.tian_ting:
        return [Tai("tian_ting", "天聽 (ready at the deal)", o.tian_ting)]
    return []


def first_turn_wins(c: Context) -> list[Tai]:
    h, o = c.hand, c.options
    if not h.flags.first_turn:
        return []
    if h.winner == h.dealer:
        return [Tai("tian_hu", "天胡 (dealer wins on the deal)", o.tian_hu)]
    if not h.flags.tian_ting:
        return []
    if h.self_drawn:
        return [Tai("di_hu", "地胡 (天聽, won on the first draw)", o.di_hu)]
    return [Tai("ren_hu", "人胡 (天聽, won on the first discard)", o.ren_hu)]


PATTERNS = (menqian, zimo, bu_qiu, quan_qiu, zhuang_jia, special_form, first_turn_wins, ready_declarations,
            feng_pai, san_yuan_pai, xiao_san_yuan, da_san_yuan, xiao_si_xi, da_si_xi, peng_peng_hu,
            ping_hu, an_ke, one_suit, du_ting, hai_di, gang_shang, qiang_gang, hua)

# pattern -> the lines it already includes, which are then not added.
NOT_ADDED: dict[str, frozenset[str]] = {
    "xiao_san_yuan": frozenset({"san_yuan_pai"}),  # 三元牌二組は加算しない
    "da_san_yuan": frozenset({"san_yuan_pai"}),  # 三元牌三組は加算しない
    "da_si_xi": frozenset({"feng_pai"}),  # 効きの風牌は必然なので加算しない
    "wu_an_ke": frozenset({"menqian", "peng_peng_hu"}),  # 門前と碰碰胡は必然であるため加算しない
    "zi_yi_se": frozenset({"hun_yi_se", "peng_peng_hu"}),
    "liguligu": frozenset({"menqian", "bu_qiu"}),  # 自摸（不求ボーナスは不可）
    "sixteen_unrelated": frozenset({"menqian", "bu_qiu"}),
    "tian_ting": frozenset({"menqian"}),  # 門前は必然なので加算されない
    "di_ting": frozenset({"menqian"}),  # 天聴と同様
    "di_ting_yi_fa": frozenset({"di_ting", "menqian"}),  # 地聴、門前は含んでいる
    "tian_hu": frozenset({"menqian", "zimo", "bu_qiu"}),  # 門前自摸3台は必然のため加算されない
    "di_hu": frozenset({"tian_ting", "menqian", "zimo", "bu_qiu"}),  # 天聴、門前自摸は加算しない
    "ren_hu": frozenset({"tian_ting", "menqian"}),  # 天聴、門前は加算しない
}

ZI_YI_SE_BIG = ("da_san_yuan", "xiao_si_xi", "da_si_xi")


def hand_tai(c: Context) -> list[Tai]:
    """Every 台 line of the hand's shape and situation (no flower-hand, no streak lines)."""
    if not c.shaped:
        return zhuang_jia(c)
    lines = [t for pattern in PATTERNS for t in pattern(c)]
    keys = {t.key for t in lines}
    dropped = set().union(*(NOT_ADDED.get(k, frozenset()) for k in keys))
    if "zi_yi_se" in keys and c.options.zi_yi_se_minus_four:
        dropped.add("xiao_san_yuan")  # 最低条件の小三元4台は加算せず
        if keys & set(ZI_YI_SE_BIG):
            lines.append(Tai("zi_yi_se", "字一色 (local rule: less the 4 台 of the 小三元 it needs)", -4))
    return merge_self_draw([t for t in lines if t.key not in dropped])


def merge_self_draw(lines: list[Tai]) -> list[Tai]:
    """Show 門前 + 自摸 + 不求 as the one line the document names: 門前自摸 3."""
    keys = [t.key for t in lines]
    if not {"menqian", "zimo", "bu_qiu"} <= set(keys):
        return lines
    out = [t for t in lines if t.key not in ("menqian", "zimo", "bu_qiu")]
    return [Tai("menqian_zimo", "門前自摸 (concealed self-draw)", 3)] + out
