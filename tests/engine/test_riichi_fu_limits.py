"""Every fu and limit rule of the EMA document, one test each (figures checked by hand)."""
import pytest

from engine import score


def win(concealed, tile, **kw):
    req = {"variant": "riichi", "concealed": concealed, "winning_tile": tile, "winner": kw.pop("winner", "S"), **kw}
    if not req.get("self_drawn") and "discarder" not in req:
        req["discarder"] = "W"
    return score(req)


def fu_items(out):
    return {i["name"]: i["value"] for i in out["score"]["fu_items"]}


PINFU = "234m456p678s234s99m"  # 234m completed by 2m (two-sided), 99m a plain pair


# ---- 副底 ------------------------------------------------------------------------------------------
def test_fu_base_20_for_an_open_or_self_drawn_hand():
    out = win(PINFU, "3m", self_drawn=True)  # 嵌張 + 摸和: 20 + 2 + 2 = 24 -> 30
    assert fu_items(out) == {"副底 (base)": 20, "嵌張待ち (closed wait)": 2, "摸和 (self-draw)": 2}
    assert out["score"]["fu"] == 30 and out["score"]["han"] == 1
    assert out["payments"] == {"E": -500, "S": 1100, "W": -300, "N": -300}


def test_fu_seven_pairs_25_with_nothing_added():
    # self-drawn, single wait, seat-wind pair (S) and dragon pair: still 25
    out = win("11m33m55p77p99s22z77z", "2z", self_drawn=True)
    assert out["form"] == "seven_pairs"
    assert fu_items(out) == {"七対子 副底 (seven pairs)": 25}
    assert (out["score"]["han"], out["score"]["fu"]) == (3, 25)  # 七対子 2 + 門前清自摸和 1
    assert out["payments"] == {"E": -1600, "S": 3200, "W": -800, "N": -800}


def test_fu_concealed_ron_30():
    out = win(PINFU, "2m")
    assert fu_items(out) == {"門前栄和 副底 (concealed ron)": 30}
    assert (out["score"]["han"], out["score"]["fu"]) == (1, 30)
    assert out["payments"]["S"] == 1000


# ---- 門子符 ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("melds,concealed,tile,name,value", [
    ([{"tiles": "222m"}], "456p678s345s99m", "3s", "明刻 2m", 2),  # open pung of simples
    ([], "222m456p678s345s99m", "3s", "暗刻 2m", 4),  # concealed pung of simples
    ([{"tiles": "111m"}], "456p678s345s99m", "3s", "明刻 1m", 4),  # terminal doubles
    ([], "111z456p678s345s99m", "3s", "暗刻 1z", 8),  # concealed honor
    ([{"tiles": "2222m"}], "456p678s345s99m", "3s", "明槓 2m", 8),  # open kong x4
    ([{"tiles": "2222m", "concealed": True}], "456p678s345s99m", "3s", "暗槓 2m", 16),
    ([{"tiles": "9999p"}], "456p678s345s22m", "3s", "明槓 9p", 16),
    ([{"tiles": "5555z", "concealed": True}], "456p678s345s22m", "3s", "暗槓 5z", 32),
])
def test_set_fu(melds, concealed, tile, name, value):
    out = win(concealed, tile, melds=melds, self_drawn=True, last_tile=True)  # 海底摸月 as the yaku
    assert fu_items(out)[name] == value


def test_a_pung_completed_by_a_discard_counts_open():
    out = win("222m456p678s345s99m", "2m", riichi=True)
    assert fu_items(out)["明刻 2m"] == 2
    tsumo = win("222m456p678s345s99m", "2m", riichi=True, self_drawn=True)
    assert fu_items(tsumo)["暗刻 2m"] == 4


# ---- その他の符 ------------------------------------------------------------------------------------
def test_dragon_pair_2_fu():
    out = win("234m456p678s234s77z", "2m", riichi=True)
    assert fu_items(out)["三元牌の雀頭 (dragon pair)"] == 2 and out["score"]["fu"] == 40


def test_seat_wind_pair_2_fu():
    out = win("234m456p678s234s22z", "2m", riichi=True)  # S's seat wind, East round
    assert fu_items(out) == {"門前栄和 副底 (concealed ron)": 30, "門風牌の雀頭 (seat-wind pair)": 2}


def test_round_wind_pair_2_fu():
    out = win("234m456p678s234s22z", "2m", riichi=True, winner="N", round_wind="S")
    assert fu_items(out) == {"門前栄和 副底 (concealed ron)": 30, "荘風牌の雀頭 (round-wind pair)": 2}


def test_double_wind_pair_gets_both():
    out = win("234m456p678s234s22z", "2m", riichi=True, round_wind="S")
    items = fu_items(out)
    assert items["門風牌の雀頭 (seat-wind pair)"] == 2 and items["荘風牌の雀頭 (round-wind pair)"] == 2
    assert out["score"]["fu"] == 40


@pytest.mark.parametrize("concealed,tile,name", [
    (PINFU, "9m", "単騎待ち (single wait)"),
    ("123m456p678s234s99m", "3m", "辺張待ち (edge wait)"),
    (PINFU, "3m", "嵌張待ち (closed wait)"),
])
def test_wait_fu(concealed, tile, name):
    out = win(concealed, tile, riichi=True)
    assert fu_items(out) == {"門前栄和 副底 (concealed ron)": 30, name: 2}
    assert (out["score"]["han"], out["score"]["fu"]) == (1, 40)
    assert out["payments"]["S"] == 1300


def test_self_draw_2_fu_except_with_pinfu():
    out = win(PINFU, "2m", self_drawn=True)
    assert [i["name"] for i in out["score"]["items"]] == ["門前清自摸和 (menzen tsumo)", "平和 (pinfu)"]
    assert fu_items(out) == {"副底 (base)": 20} and out["score"]["fu"] == 20
    assert out["payments"] == {"E": -700, "S": 1500, "W": -400, "N": -400}


def test_open_pinfu_shape_gets_2_fu_to_30():
    out = win("456p678s345s88m", "3s", melds=[{"tiles": "234m"}])
    assert fu_items(out) == {"副底 (base)": 20, "喰い平和 (open pinfu)": 2}
    assert (out["score"]["han"], out["score"]["fu"]) == (1, 30)  # 断幺九 (kuitan)
    assert out["payments"]["S"] == 1000


def test_fu_round_up_to_10():
    out = win("123m456p678s234s99m", "3m", riichi=True)  # 30 + 2 = 32 -> 40
    assert sum(fu_items(out).values()) == 32 and out["score"]["fu"] == 40


# ---- limits -----------------------------------------------------------------------------------------
FOUR_HAN = "234m234m456p678s55s"  # riichi + pinfu + tanyao + iipeikou on 2m: 4 han 30 fu


def test_4_han_30_fu_is_7700_without_kiriage():
    out = win(FOUR_HAN, "2m", riichi=True)
    assert (out["score"]["han"], out["score"]["fu"], out["score"]["limit"]) == (4, 30, None)
    assert out["payments"]["S"] == 7700
    dealer = win(FOUR_HAN, "2m", riichi=True, winner="E")
    assert dealer["payments"]["E"] == 11600


def test_kiriage_option_rounds_4_30_up_to_mangan():
    out = win(FOUR_HAN, "2m", riichi=True, options={"kiriage": True})
    assert out["payments"]["S"] == 8000 and out["score"]["limit"] == "mangan (kiriage)"


def test_mangan_by_points_4_han_40_fu():
    out = win(FOUR_HAN, "3m", riichi=True, dora_indicators="4p")  # 嵌張: 40 fu, 4 han: 2560 basic
    assert (out["score"]["han"], out["score"]["fu"], out["score"]["limit"]) == (4, 40, "mangan")
    assert out["payments"]["S"] == 8000


def test_mangan_5_han():
    out = win(FOUR_HAN, "2m", riichi=True, dora_indicators="4p")
    assert (out["score"]["han"], out["score"]["limit"]) == (5, "mangan") and out["payments"]["S"] == 8000


@pytest.mark.parametrize("dora,ura,han,limit,points", [
    ("1m", "", 6, "haneman", 12000),
    ("1m3m", "", 8, "baiman", 16000),
    ("1m2m3m", "", 10, "baiman", 16000),
    ("1m2m3m4p", "", 11, "sanbaiman", 24000),
    ("1m2m3m4p", "5p", 12, "sanbaiman", 24000),
])
def test_haneman_baiman_sanbaiman(dora, ura, han, limit, points):
    out = win(FOUR_HAN, "2m", riichi=True, dora_indicators=dora, ura_indicators=ura)
    assert (out["score"]["han"], out["score"]["limit"], out["payments"]["S"]) == (han, limit, points)


def test_13_han_is_sanbaiman_no_counted_yakuman():
    out = win(FOUR_HAN, "2m", riichi=True, dora_indicators="1m2m3m4p", ura_indicators="5p7s")
    assert (out["score"]["han"], out["score"]["limit"], out["payments"]["S"]) == (13, "sanbaiman", 24000)
    assert out["score"]["yakuman"] == 0


def test_kazoe_option_counts_13_han_as_yakuman():
    out = win(FOUR_HAN, "2m", riichi=True, dora_indicators="1m2m3m4p", ura_indicators="5p7s",
              options={"kazoe": "yakuman"})
    assert out["payments"]["S"] == 32000


def test_two_yakuman_score_one():
    out = win("666777z111z22z", "2z", melds=[{"tiles": "555z"}])  # 大三元 + 字一色
    names = [i["name"] for i in out["score"]["items"]]
    assert names == ["大三元 (daisangen)", "字一色 (tsuuiisou)"]
    assert out["score"]["yakuman"] == 1 and out["payments"]["S"] == 32000


def test_double_yakuman_option_adds_yakuman_up():
    out = win("666777z111z22z", "2z", melds=[{"tiles": "555z"}], options={"double_yakuman": True})
    assert out["score"]["yakuman"] == 2 and out["payments"]["S"] == 64000


@pytest.mark.parametrize("concealed,tile,kw", [
    ("19m19p19s12345677z", "7z", {}),  # 国士無双十三面
    ("111m333p555s777z22z", "2z", {}),  # 四暗刻単騎
    ("11123456789999m", "9m", {}),  # 純正九蓮宝燈: 1112345678999 waiting on nine tiles
    ("111z222z333z55m", "5m", {"melds": [{"tiles": "444z"}]}),  # 大四喜
])
def test_no_double_yakuman(concealed, tile, kw):
    out = win(concealed, tile, **kw)
    assert out["score"]["yakuman"] == 1
    assert out["score"]["basic_points"] == 8000
    double = win(concealed, tile, options={"double_yakuman": True}, **kw)
    assert double["score"]["yakuman"] == 2


def test_dora_are_not_yaku():
    out = win("456p678s345s99m", "3s", melds=[{"tiles": "123m"}], dora_indicators="8m")
    assert not out["winning"] and "no yaku" in out["reason"]


def test_dora_do_not_add_to_yakuman():
    out = win("666777z111z22z", "2z", melds=[{"tiles": "555z"}], dora_indicators="1z")
    assert [i["name"] for i in out["score"]["items"]] == ["大三元 (daisangen)", "字一色 (tsuuiisou)"]
