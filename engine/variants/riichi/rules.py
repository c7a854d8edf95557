"""The rule options and per-hand flags of EMA riichi, with EMA's values as defaults.

Every place where the EMA 2016 rules differ from common Japanese rules is an
option named the way the riichi world names it (kuitan, kiriage, kazoe,
double_yakuman, renhou ...); the default is what the EMA document says.
"""
from __future__ import annotations

from ...variant import Option

DOC = "ema-riichi.ja.txt"

OPTIONS = (
    Option("kuitan", True, "open tanyao (喰断) counts", f"{DOC}: 喰断・先付・形式聴牌あり"),
    Option("kiriage", False, "round 4 han 30 fu and 3 han 60 fu up to mangan (切上げ満貫)",
           f"{DOC}: 切上げ満貫を廃止"),
    Option("kazoe", "sanbaiman", "what 13 han or more from ordinary yaku is worth (数え役満)",
           f"{DOC}: 数満貫の上限は三倍満貫(11翻以上)", ("sanbaiman", "yakuman")),
    Option("double_yakuman", False, "double yakuman exist and yakuman add up",
           f"{DOC}: ダブル役満は認められなくなりました", ),
    Option("renhou", "mangan", "what renhou (人和) is worth", f"{DOC}: 人和は散家の第一摸牌前の栄和で満貫",
           ("mangan", "yakuman")),
    Option("red_fives", False, "red fives (赤五牌) are dora; give red_five_count per hand",
           f"{DOC}: 現在では公式戦では使用しない"),
    Option("honba_points", 300, "points per honba counter on a win (積み棒)", f"{DOC}: 積み場あり"),
    Option("riichi_stick", 1000, "points in one riichi stick (立直料)", f"{DOC}: 立直料は千点"),
    Option("noten_total", 3000, "points exchanged in all for noten at an exhaustive draw (不聴罰符)",
           f"{DOC}: 不聴罰符は場に三千点"),
    Option("chombo", "tournament", "chombo penalty: 20,000 off the final score (tournament) or a "
           "mangan payment at the table (open)", f"{DOC}: 錯和の扱い", ("tournament", "open")),
    Option("chombo_points", 20000, "tournament chombo penalty, taken from the score after the game",
           f"{DOC}: 半荘終了後にスコアから 2万点を減点"),
    Option("uma", (15000, 5000), "uma for 1st/2nd (4th/3rd pay the same); ties split", f"{DOC}: ウマは一万五千・五千"),
    Option("multiple_ron_honba", "each", "on a multiple ron the discarder pays the honba to each winner "
           "(each) or only to the first winner from the discarder's right (first)",
           f"{DOC}: 両家和・三家和あり (the document does not say; each is our reading)", ("each", "first")),
)

FLAGS = (
    Option("riichi", False, "the winner declared riichi (立直)"),
    Option("double_riichi", False, "the winner declared riichi on the first turn (ダブル立直)"),
    Option("ippatsu", False, "won within one go-around of riichi, uninterrupted by a call (一発)"),
    Option("last_tile", False, "won on the last tile: the last drawable tile (海底摸月, self-drawn) or its "
           "discard (河底撈魚)"),
    Option("first_turn", False, "won on the first turn before any call: tenhou (dealer, self-drawn), chiihou "
           "(non-dealer, self-drawn) or renhou (non-dealer, before the first draw, ron)"),
    Option("robbed_concealed_kong", False, "with robbed_kong: the kong robbed was a concealed kong (only "
           "thirteen orphans may rob it)"),
    Option("dora_indicators", (), "dora indicators shown, kan dora included (mpsz)"),
    Option("ura_indicators", (), "ura dora indicators (count for a riichi winner only)"),
    Option("red_five_count", 0, "red fives among the winner's tiles (needs the red_fives option)"),
    Option("riichi_sticks", 0, "riichi sticks on the table when the hand ends, this hand's and earlier "
           "hands' (供託); they go to the winner (with riichi, at least the winner's own: 0 counts as 1)"),
    Option("declaration_dealt_in", False, "the winning tile was the discarder's riichi declaration tile: "
           "that riichi is void and its stick is not paid (counted in riichi_sticks, taken back)"),
    Option("pao", "", "the seat that let the last dragon or wind set be claimed (包): pays a daisangen or "
           "daisuushii in full on a self-draw, half on a discard", choices=("", "E", "S", "W", "N")),
)
