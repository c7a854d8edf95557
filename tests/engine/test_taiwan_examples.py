"""Every worked example of taiwan-16.ja.txt, with the document's exact figures (底50／台20).

The photos are missing from the text, so each hand is built to match what the
text says about it. Unless stated, the dealer is North at streak 0 and is not
involved (winner South, discarder West): the examples leave the dealer out.
"""
import engine
from engine.variants import get_variant
from engine.contract import parse_request
from engine.waits import waits

from taiwan_hands import items, score, total

WINDS_SEAT_S = dict(winner="S", dealer="N")


def _waits(concealed: str, **options) -> list[str]:
    v = get_variant("taiwan")
    return waits(v, parse_request({"variant": "taiwan", "concealed": concealed, "options": options}, v))


SIXTEEN = {"sixteen_unrelated": True}  # a table that plays 十六不搭 (off by default: few rules do)


# ---- 3. アガリ点計算 ----------------------------------------------------------------------------
RED_SINGLE = dict(concealed="456m789p345s44z", win="4z", melds=("777z", "123m"), flowers="1f")


def test_red_dragon_single_wait_discard_90():
    """写真㊦: (中)1台、獨聽1台, an invalid flower: 20 × 2 + 50 = 90 from the discarder."""
    r = score(**RED_SINGLE)
    assert items(r) == {"三元牌 中": 1, "獨聽": 1}
    assert total(r) == 2
    assert r["payments"] == {"E": 0, "S": 90, "W": -90, "N": 0}


def test_red_dragon_single_wait_self_drawn_330():
    """Self-drawn adds 自摸 1: (20 × 3 + 50) × 3 = 110 × 3 = 330."""
    r = score(**RED_SINGLE, self_drawn=True)
    assert items(r) == {"三元牌 中": 1, "獨聽": 1, "自摸": 1}
    assert r["payments"] == {"E": -110, "S": 330, "W": -110, "N": -110}


CHICKEN = dict(concealed="456m789s23s66p1s", win="1s", melds=("123m", "555p"), flowers="3f")


def test_chicken_hand_discard_50():
    """写真㊧: no 台 with an invalid flower: 屁胡, the 底 of 50 only."""
    r = score(**CHICKEN)
    assert r["winning"] and items(r) == {} and total(r) == 0
    assert r["payments"]["S"] == 50 and r["payments"]["W"] == -50
    assert r["explain"].startswith("屁胡")


def test_chicken_hand_self_drawn_210():
    """The same hand self-drawn: 自摸 1: (20 + 50) × 3 = 210."""
    r = score(**CHICKEN, self_drawn=True)
    assert items(r) == {"自摸": 1}
    assert r["payments"] == {"E": -70, "S": 210, "W": -70, "N": -70}


PINGHU = dict(concealed="123m456m789p678s23s55p4s", win="4s")


def test_concealed_pinghu_discard_110():
    """写真⑩: 門前1台、平胡2台: 20 × 3 + 50 = 110."""
    r = score(**PINGHU)
    assert items(r) == {"門前": 1, "平胡": 2}
    assert r["payments"]["S"] == 110 and r["payments"]["W"] == -110


def test_concealed_pinghu_self_drawn_330():
    """Self-drawn: 平胡 is lost, 門前自摸 3 instead: (60 + 50) × 3 = 330."""
    r = score(**PINGHU, self_drawn=True)
    assert items(r) == {"門前自摸": 3}
    assert r["payments"]["S"] == 330 and r["payments"]["N"] == -110


def test_open_five_melds_both_three_tai():
    """全求 3 台 with 獨聽 on a discard, 半求 3 台 with 獨聽 and 自摸 self-drawn."""
    hand = dict(concealed="9p9p", win="9p", melds=("123m", "456m", "789s", "555p", "234p"))
    discard = score(**hand)
    drawn = score(**hand, self_drawn=True)
    assert items(discard) == {"全求": 2, "獨聽": 1}
    assert items(drawn) == {"半求": 1, "獨聽": 1, "自摸": 1}
    assert discard["payments"]["S"] == 110 and drawn["payments"]["S"] == 330


# ---- 5. 花胡 -----------------------------------------------------------------------------------
EIGHT = dict(melds=("666z", "789s"), flowers="12345678f", self_drawn=True, replacement=True)


def test_eight_immortals_without_shape():
    """写真①: the replacement (一筒) leaves no winning shape: 八仙過海 8 台 and 底 from all three."""
    r = score("23s456s555s99s1p", "1p", **EIGHT)
    assert r["form"] == "flowers_only"
    assert items(r) == {"八仙過海": 8}
    assert r["payments"] == {"E": -210, "S": 630, "W": -210, "N": -210}


def test_eight_immortals_with_shape_15_tai():
    """The replacement is (一索): 自摸1、槓上開花1、（発）1、混一色4、満花8 = 15 台, × 3."""
    r = score("23s456s555s99s1s", "1s", **EIGHT)
    assert items(r) == {"自摸": 1, "槓上開花": 1, "三元牌 發": 1, "混一色": 4, "滿花": 8}
    assert total(r) == 15
    assert r["payments"]["S"] == (15 * 20 + 50) * 3


# 写真⑩: the South round, the winner's own wind is 東 (春 and 梅 count for it); six flowers
# 春秋梅蘭菊竹 set aside, another player (West here) holds 冬; the winner draws 夏 and robs 冬.
SEVEN = dict(winner="E", dealer="N", round_wind="S", flowers="12345678f", self_drawn=True, replacement=True,
             robbed_flower_from="W", robbed_flower="4f")


def test_seven_rob_one_without_shape():
    """The replacement is (西): 搶花された者が8台と底を支払う: 8 × 20 + 50 = 210 from West alone."""
    r = score("111z222p555s999m34m77p3z", "3z", **SEVEN)
    assert r["form"] == "flowers_only"
    assert items(r) == {"七搶一": 8}
    assert r["payments"] == {"E": 210, "S": 0, "W": -210, "N": 0}


def test_seven_rob_one_with_shape_10_tai():
    """The replacement is (二万): 門前自摸3、槓上開花1、（東）1、四暗刻5 = 10 台 from everyone; West adds
    七搶一 8, the other two add the seven flowers' 3 台 (春1, 梅蘭菊竹 花槓 with 梅: 2)."""
    r = score("111z222p555s999m34m77p2m", "2m", **SEVEN)
    assert total(r) == 10
    assert r["score"]["per_payer"] == {"S": 13, "W": 18, "N": 13}
    assert r["payments"] == {"E": 310 + 410 + 310, "S": -310, "W": -410, "N": -310}
    names = items(r)
    assert names["門前自摸"] == 3 and names["槓上開花"] == 1 and names["風牌 東"] == 1 and names["四暗刻"] == 5
    assert names["花牌 春"] == 1 and names["花牌 梅"] == 1 and names["花槓 四君子"] == 1 and names["七搶一"] == 8


# ---- 2. 字一色 local rule ------------------------------------------------------------------------
ALL_HONORS = dict(concealed="55z666z", win="6z", melds=("111z", "222z", "333z", "444z"))


def test_all_honors_big_four_winds_local_rule_29():
    """写真㉕ (字一色): 字一色16台 + 大四喜16台 + (發) 1台 - 4台 = 29台."""
    r = score(**ALL_HONORS, options={"zi_yi_se": 16, "zi_yi_se_minus_four": True})
    assert total(r) == 29
    assert items(r) == {"字一色": 12, "大四喜": 16, "三元牌 發": 1}
    assert [i["value"] for i in r["score"]["items"] if i["name"].startswith("字一色")] == [16, -4]
    assert r["payments"]["W"] == -(29 * 20 + 50)


def test_all_honors_big_four_winds_default_rule():
    """By default 字一色 is 8 and nothing is taken off: 8 + 16 + 1 = 25."""
    assert total(score(**ALL_HONORS)) == 25


def test_all_honors_little_dragons_local_rule_drops_little_dragons():
    """写真㉔ (字一色): with the local rule, 小三元の4台は加算しない."""
    r = score("111z555z666z77z", "1z", melds=("222z", "444z"),
              options={"zi_yi_se": 16, "zi_yi_se_minus_four": True})
    assert "小三元" not in items(r) and items(r)["字一色"] == 16
    default = score("111z555z666z77z", "1z", melds=("222z", "444z"))
    assert items(default)["小三元"] == 4 and "三元牌 白" not in items(default)


# ---- 6. 変則アガリ型 -----------------------------------------------------------------------------
def test_liguligu_nine_circles_single_wait():
    """写真㉓: 嚦咕嚦咕 on (九筒): 獨聽1 and (白)1 added: 8 + 1 + 1 = 10."""
    r = score("555z11m44m77m22s55s88s9p9p", "9p")
    assert r["form"] == "liguligu"
    assert items(r) == {"嚦咕嚦咕": 8, "獨聽": 1, "三元牌 白": 1}


def test_liguligu_two_sided_half_flush():
    """写真㉔: 嚦咕嚦咕 waiting on (一万)(六万); 混一色4 added."""
    assert _waits("111m666m33m44m99m22z44z") == ["1m", "6m"]
    for win in ("1m", "6m"):
        r = score("111m666m33m44m99m22z44z" + win, win)
        assert items(r) == {"嚦咕嚦咕": 8, "混一色": 4}


def test_liguligu_eight_sided_wait():
    """写真㉕: (東)(白)(三万)(四索)(五筒)(六万)(七索)(八筒) 8メン待ち."""
    assert _waits("11z55z33m44s55p66m77s88p") == ["3m", "6m", "5p", "8p", "4s", "7s", "1z", "5z"]


def test_full_flush_nine_sided_wait():
    """写真⑯: カン二万, 四万五万 and 七万八万 shanpon, 三六九万, and 一万 or 三万 as 嚦咕嚦咕: 1-9 万."""
    hand = "1113334455667788m"
    assert _waits(hand) == [f"{n}m" for n in range(1, 10)]
    assert _waits(hand, liguligu=False) == [f"{n}m" for n in range(2, 10)]
    r = score(hand + "1m", "1m")
    assert r["form"] == "liguligu" and items(r) == {"嚦咕嚦咕": 8, "清一色": 8}


def test_sixteen_unrelated_three_sided_wait():
    """写真㉑: 十六不搭 ready on (一索)(二索)(三索), at a table that plays it."""
    assert _waits("147m258p69s11234567z", **SIXTEEN) == ["1s", "2s", "3s"]
    r = score("147m258p69s11234567z2s", "2s", options=SIXTEEN)
    assert r["form"] == "sixteen_unrelated" and items(r) == {"十六不搭": 10}


def test_sixteen_unrelated_single_wait():
    """写真㉒: 十六不搭 on (四万) only: 獨聽."""
    assert _waits("17m258p369s12345677z", **SIXTEEN) == ["4m"]
    assert items(score("17m258p369s12345677z4m", "4m", options=SIXTEEN)) == {"十六不搭": 10, "獨聽": 1}


def test_sixteen_unrelated_is_not_played_unless_asked():
    """「この十六不塔という手段を採用しているルールは少ない」: few rules play 十六不搭, so by default its
    shape is no win (the reason names the option) and no wait."""
    r = score("147m147p147s1234567z1z", "1z")
    assert not r["winning"] and "sixteen_unrelated" in r["explain"]
    assert _waits("17m258p369s12345677z") == []
    assert score("147m147p147s1234567z1z", "1z", options=SIXTEEN)["winning"]


def test_single_wait_is_only_a_pure_single_wait():
    """写真©: (二筒) tanki or (三筒) penchan on the same hand is not 獨聽."""
    assert _waits("123m456m789m456s111p2p") == ["2p", "3p"]
    assert "獨聽" not in items(score("123m456m789m456s111p2p2p", "2p"))
    assert "獨聽" not in items(score("123m456m789m456s111p2p3p", "3p"))


def test_ready_hand_lists_its_waits():
    """Without a winning tile the contract reports the waits of the 16 tiles (写真⑯ again)."""
    r = engine.score({"variant": "taiwan", "concealed": "1113334455667788m"})
    assert r["waits"] == [f"{n}m" for n in range(1, 10)] and r["shanten"] == 0


def _shanten(concealed: str, **options) -> int:
    return engine.score({"variant": "taiwan", "concealed": concealed, "options": options})["shanten"]


def test_ready_special_forms_are_zero_from_ready():
    """A 16-tile hand ready only as 嚦咕嚦咕 (写真㉓, 写真㉕) or 十六不搭 (写真㉑, 写真㉒) is 0 from ready,
    like any ready hand; one tile short of ready is 1; the complete 17 tiles are -1."""
    for hand in ("555z11m44m77m22s55s88s9p", "11z55z33m44s55p66m77s88p"):
        assert _shanten(hand) == 0, hand
    for hand in ("147m258p69s11234567z", "17m258p369s12345677z"):
        assert _shanten(hand, **SIXTEEN) == 0, hand
    assert _shanten("555z11m44m77m22s55s8s3p9p") == 1  # a pung, five pairs: one more pair to be ready
    assert _shanten("147m258p56s11234567z", **SIXTEEN) == 1  # 5索6索 is a 塔子: one of them must go
    assert _shanten("147m258p69s11234567z2s", **SIXTEEN) == -1
    assert _shanten("555z11m44m77m22s55s88s9p9p") == -1
    assert _shanten("147m258p69s11234567z", sixteen_unrelated=False) > 1

