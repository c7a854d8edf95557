"""Options (table rates, regional tai values) and per-hand flags of Taiwanese 16-tile.

Where the document writes "16台(8台)", the first value is the default and the
second is a choice. Every option names its passage in ``source``.
"""
from __future__ import annotations

from ... import tiles as T
from ...variant import Option

SEAT_CHOICES = (None,) + T.SEATS
FLOWER_CHOICES = (None,) + T.FLOWERS


def _tai(name: str, values: tuple[int, ...], doc: str, source: str) -> Option:
    return Option(name, values[0], doc, source, values)


OPTIONS: tuple[Option, ...] = (
    Option("base", 50, "底: the base paid on every win, in points", "3. 底50／台20のレートとして計算"),
    Option("tai_value", 20, "the value of one 台 in points", "3. 底50／台20のレートとして計算"),
    Option("dealer_bonus", "separate",
           "separate (the document's lists read literally): 莊家 1 台 on the dealer's own win, and from streak "
           "n >= 1 the 2n+1 台 of 連莊/拉莊 on every payment involving the dealer. combined (the common table "
           "reading of the same formula, 連n拉n): 2n+1 台 on every payment involving the dealer from streak 0, "
           "莊家 included, so a fresh dealer's payments carry 1 台 and there is no separate 莊家 line",
           "ボーナスの値段は 2n + 1 台 / 子のオヤからの出アガリ 台 + 底 + (2n + 1)", ("separate", "combined")),
    _tai("qing_yi_se", (8, 12), "清一色 full flush", "清一色 8台（12台）"),
    _tai("si_an_ke", (5, 6), "四暗刻 four concealed pungs", "四暗刻 5台（6台）"),
    _tai("wu_an_ke", (8, 16), "五暗刻 five concealed pungs", "五暗刻 8台 (16台)"),
    _tai("zi_yi_se", (8, 16), "字一色 all honors", "字一色 8台 (16台)"),
    Option("zi_yi_se_minus_four", False,
           "字一色 local rule: 小三元 is not added, and 4 台 is taken off when 大三元, 小四喜 or 大四喜 is added "
           "(use with zi_yi_se=16 for the document's 29-台 example)",
           "最低条件の小三元4台は加算せず…4台を引くというローカルルール"),
    _tai("tian_ting", (16, 8), "天聽 ready at the deal (non-dealer)", "天聴 16台 (8台)"),
    _tai("di_ting", (8, 4), "地聽 ready declared with the first discard", "地聴 8台 (4台)"),
    _tai("tian_hu", (24, 16), "天胡 dealer wins on the dealt hand", "天胡 24台(16台)"),
    _tai("di_hu", (24, 16), "地胡 non-dealer in 天聽 wins on the first draw", "地胡 24台(16台)"),
    _tai("ren_hu", (24, 16), "人胡 non-dealer in 天聽 wins on another's first discard", "人胡 24台(16台)"),
    _tai("di_ting_yi_fa", (12, 8), "地聽一發 win within one go-around of declaring 地聽", "地聴一發 12台(8台)"),
    _tai("shi_liu_bu_da", (10, 6), "十六不搭 sixteen unrelated tiles and a pair", "十六不塔 10台(6台)"),
    Option("liguligu", True, "嚦咕嚦咕 (seven pairs and a concealed pung) is played",
           "嘸咕嘸咕は採用していない処もあるらしい"),
    Option("sixteen_unrelated", False, "十六不搭 is played; few rules do", "この十六不塔という手段を採用しているルールは少ない"),
    Option("seven_rob_one", True, "七搶一 is played (one association abolished it in 2012)",
           "とある台湾麻将愛好者団体は…七捨一ルールを廃止した"),
    Option("he_di_lao_yu", False, "河底撈魚 (win on the last discard) scores 1 台; most rules do not",
           "ほとんどの台湾ルールで採用されていない"),
    Option("flowers", True, "the eight flowers are played (the Kaohsiung local rule plays without)",
           "高雄市を中心とするあたりでは花牌を使用しないローカルルール"),
    Option("triple_dice_doubles", False, "three equal dice at the opening double 台 and 底 for the hand",
           "三ゾロ…その局は台も底も倍にするというオプション"),
)

FLAGS: tuple[Option, ...] = (
    Option("last_tile", False, "won on the last tile of the wall (海底撈月 when self-drawn)", "海底撈月 1台"),
    Option("tian_ting", False, "the winner (a non-dealer) declared 天聽 at the deal", "天聴"),
    Option("di_ting", False, "the winner declared 地聽 with the first discard", "地聴"),
    Option("di_ting_yi_fa", False, "the win came within one go-around of the 地聽 declaration", "地聴一發"),
    Option("first_turn", False, "the win came before the winner's first discard: the dealer's dealt hand "
           "(天胡), a 天聽 non-dealer's first draw (地胡) or a discard before it (人胡)", "天胡 地胡 人胡"),
    Option("robbed_flower_from", None, "七搶一: the seat whose flower the winner robbed", "七搶一",
           SEAT_CHOICES),
    Option("robbed_flower", None, "七搶一: the flower that was robbed (one of the winner's eight)", "七搶一",
           FLOWER_CHOICES),
    Option("robbed_while_extracting", False, "七搶一 method ①: the flower was robbed as its owner set it "
           "aside, so the robbed player pays alone, as for a discard", "七搶一 ①"),
    Option("dealt_flowers", False, "配牌花胡: the eight flowers came with the deal and its replacements",
           "配牌花胡 12台"),
    Option("passed_win", False, "過水: the winner passed a win and has not discarded a non-winning tile or "
           "added a kong since", "8. 過水"),
    Option("dead_hand", False, "相公: the winner's hand is dead (a flower not set aside, or a forbidden act)",
           "5. ⑤-⑧ 相公; 7. 明相"),
    Option("open_kong_replacement", False, "the winning tile came from the replacements after a kong made on a "
           "discard (大明槓), possibly through flowers or a concealed kong", "7. 大ミンカンの補牌でツモアガリすることはできない"),
    Option("triple_dice", False, "the dice at the opening showed three equal faces", "三ゾロ"),
)
