"""The yaku of EMA riichi: values closed and open, EMA's open-hand rule, absent yaku, win situations."""
import pytest

from engine import score


def win(concealed, tile, **kw):
    req = {"variant": "riichi", "concealed": concealed, "winning_tile": tile, "winner": kw.pop("winner", "S"), **kw}
    if not req.get("self_drawn") and "discarder" not in req:
        req["discarder"] = "W"
    return score(req)


def yaku(out):
    return {i["name"].split("(")[-1].rstrip(")"): i["value"] for i in out["score"]["items"]}


# closed hand, its yaku on a ron; open version with the first set called
@pytest.mark.parametrize("concealed,tile,expected", [
    ("234m456p678s234s99m", "2m", {"pinfu": 1}),
    ("234m234m456p678s88s", "8s", {"iipeikou": 1, "tanyao": 1, "pinfu": 1}),  # 678+88s: two-sided
    ("234m234m456p456p88s", "8s", {"ryanpeikou": 3, "tanyao": 1}),
    ("123m123p123s789m11z", "1z", {"sanshoku doujun": 2, "chanta": 2}),
    ("123456789m234p11z", "1z", {"ittsu": 2}),
    ("123m789m123p789s99p", "9p", {"junchan": 3}),
    ("123m789m123p789s11z", "1z", {"chanta": 2}),
    ("123456789m555z11z", "1z", {"ittsu": 2, "honitsu": 3, "haku": 1}),
    ("123456789m345m22m", "2m", {"chinitsu": 6, "ittsu": 2}),
    ("222m333p444s234m55m", "5m", {"sanankou": 2, "tanyao": 1}),
    ("222m222p222s456m55m", "5m", {"sanshoku doukou": 2, "sanankou": 2, "tanyao": 1}),
    ("11m99p11s99s11z22z33z", "3z", {"chiitoitsu": 2, "honroutou": 2}),
    ("555z666z77z234m456m", "2m", {"shousangen": 2, "haku": 1, "hatsu": 1, "honitsu": 3}),
])
def test_closed_yaku(concealed, tile, expected):
    out = win(concealed, tile)
    got = yaku(out)
    assert got == {k: v for k, v in expected.items() if v}, got


@pytest.mark.parametrize("melds,concealed,tile,expected", [
    # EMA: 三色同順, 一気通貫, 混全帯幺九 are 1-han yaku with +1 han when closed
    ([{"tiles": "123m"}], "123p123s789m11z", "1z", {"sanshoku doujun": 1, "chanta": 1}),
    ([{"tiles": "123m"}], "456789m234p11z", "1z", {"ittsu": 1}),
    ([{"tiles": "123m"}], "789m123p789s99p", "9p", {"junchan": 2}),
    ([{"tiles": "123m"}], "456789m555z11z", "1z", {"ittsu": 1, "honitsu": 2, "haku": 1}),
    ([{"tiles": "111m"}], "234567m789m99m", "2m", {"chinitsu": 5}),
    ([{"tiles": "222m"}], "333p444s555m66m", "6m", {"toitoi": 2, "sanankou": 2, "tanyao": 1}),
    ([{"tiles": "3333m"}, {"tiles": "4444p"}, {"tiles": "5555s"}], "666m88m", "8m",
     {"sankantsu": 2, "toitoi": 2, "tanyao": 1}),
    ([{"tiles": "111m"}], "999p111s999s11z", "1z", {"toitoi": 2, "honroutou": 2, "sanankou": 2}),
])
def test_open_yaku(melds, concealed, tile, expected):
    out = win(concealed, tile, melds=melds)
    assert yaku(out) == expected


def test_closed_only_yaku_do_not_count_open():
    # 一盃口 and 平和 need a concealed hand; the open hand below has only tanyao
    out = win("234m456p678s88s", "2m", melds=[{"tiles": "234m"}])
    assert yaku(out) == {"tanyao": 1}


def test_kuitan_option():
    assert yaku(win("456p678s345s88m", "3s", melds=[{"tiles": "234m"}])) == {"tanyao": 1}
    out = win("456p678s345s88m", "3s", melds=[{"tiles": "234m"}], options={"kuitan": False})
    assert not out["winning"]


@pytest.mark.parametrize("concealed,tile,seat,round_wind,expected", [
    ("111z234m456p678s99m", "2m", "E", "E", {"seat wind": 1, "round wind": 1}),  # double East
    ("222z234m456p678s99m", "2m", "S", "E", {"seat wind": 1}),
    ("222z234m456p678s99m", "2m", "W", "S", {"round wind": 1}),
    ("444z234m456p678s99m", "2m", "S", "E", {}),
    ("777z234m456p678s99m", "2m", "S", "E", {"chun": 1}),
])
def test_yakuhai(concealed, tile, seat, round_wind, expected):
    out = win(concealed, tile, winner=seat, discarder="N", round_wind=round_wind, self_drawn=False, riichi=True)
    got = {k: v for k, v in yaku(out).items() if k != "riichi"}
    assert got == expected


def test_yakuman_hands():
    assert yaku(win("19m19p19s12345677z", "1m"))["kokushi musou"] == "yakuman"
    assert "suuankou" in yaku(win("111m333p555s777z22m", "7z", self_drawn=True))
    assert "suuankou" not in yaku(win("111m333p555s777z22m", "7z"))  # shanpon ron: one pung open
    assert "daisangen" in yaku(win("555z666z777z234m22p", "2p"))
    assert "shousuushii" in yaku(win("111z222z333z44z234m", "2m"))
    assert "daisuushii" in yaku(win("111z222z333z444z22m", "2m"))
    assert "tsuuiisou" in yaku(win("11z22z33z44z55z66z77z", "7z"))  # seven pairs of honors
    assert "chinroutou" in yaku(win("111m999m111p999s11s", "1s"))
    assert "ryuuiisou" in yaku(win("234s234s666s888s66z", "6z"))
    assert "chuuren poutou" in yaku(win("11112345678999p", "5p"))
    assert "suukantsu" in yaku(win("22m", "2m", melds=[{"tiles": "3333m"}, {"tiles": "4444p"}, {"tiles": "5555s"},
                                                        {"tiles": "7777z"}]))


def test_absent_yaku_sanrenkou_daisharin_shiisanpuutaa():
    # 三連刻: three successive pungs are no yaku of their own (toitoi + honitsu... only what the hand has)
    out = win("444m55z", "5z", melds=[{"tiles": "111m"}, {"tiles": "222m"}, {"tiles": "333m"}])
    assert yaku(out) == {"toitoi": 2, "honitsu": 2}
    # 大車輪: just the ordinary yaku of 22334455667788p (pinfu + tanyao + ryanpeikou + chinitsu), not a yakuman
    out = win("22334455667788p", "8p", self_drawn=True)
    assert out["score"]["yakuman"] == 0 and "ryanpeikou" in yaku(out) and "chinitsu" in yaku(out)
    # 十三不搭: no winning form
    out = win("147m258p369s1234z5z", "5z", self_drawn=True)
    assert not out["winning"]


# ---- win situations ---------------------------------------------------------------------------------
BASE = "234m456p678s234s99m"  # pinfu on 2m


@pytest.mark.parametrize("flags,expected", [
    ({"riichi": True}, {"riichi": 1, "pinfu": 1}),
    ({"riichi": True, "double_riichi": True}, {"double riichi": 2, "pinfu": 1}),
    ({"riichi": True, "ippatsu": True}, {"riichi": 1, "ippatsu": 1, "pinfu": 1}),
    ({"last_tile": True}, {"houtei": 1, "pinfu": 1}),
    ({"last_tile": True, "self_drawn": True}, {"haitei": 1, "menzen tsumo": 1, "pinfu": 1}),
    ({"robbed_kong": True}, {"chankan": 1, "pinfu": 1}),
])
def test_win_situations(flags, expected):
    assert yaku(win(BASE, "2m", **flags)) == expected


def test_rinshan_is_a_self_draw():
    out = win("234p678s234s99m", "2p", melds=[{"tiles": "4444z", "concealed": True}], self_drawn=True,
              replacement=True)
    assert yaku(out) == {"rinshan kaihou": 1, "menzen tsumo": 1}
    assert any(i["name"] == "摸和 (self-draw)" for i in out["score"]["fu_items"])


def test_chankan_of_a_concealed_kong_only_for_thirteen_orphans():
    out = win(BASE, "2m", robbed_kong=True, robbed_concealed_kong=True)
    assert not out["winning"] and "国士無双" in out["reason"]
    ok = win("19m19p19s12345677z", "1m", robbed_kong=True, robbed_concealed_kong=True)
    assert ok["winning"] and ok["payments"]["S"] == 32000


def test_tenhou_and_chiihou():
    out = win(BASE, "2m", winner="E", self_drawn=True, first_turn=True)
    assert yaku(out) == {"tenhou": "yakuman"} and out["payments"] == {"E": 48000, "S": -16000, "W": -16000,
                                                                     "N": -16000}
    out = win(BASE, "2m", winner="S", self_drawn=True, first_turn=True)
    assert yaku(out) == {"chiihou": "yakuman"} and out["payments"] == {"E": -16000, "S": 32000, "W": -8000,
                                                                      "N": -8000}


def test_renhou_is_a_mangan():
    out = win("123m456p678s234s99m", "3m", first_turn=True, discarder="E")  # no other yaku at all
    assert out["winning"] and out["score"]["limit"] == "mangan (renhou)" and out["payments"]["S"] == 8000
    out = win(BASE, "2m", first_turn=True, discarder="E", dora_indicators="1m3s")  # 3 han: still the mangan
    assert out["payments"]["S"] == 8000


def test_renhou_worth_more_without_it_scores_normally():
    four = "234m234m456p678s55s"
    out = win(four, "2m", first_turn=True, discarder="E", dora_indicators="1m")  # pinfu tanyao iipeikou + 2 dora: 5 = mangan
    assert out["score"]["han"] == 5 and out["payments"]["S"] == 8000
    out = win(four, "2m", first_turn=True, discarder="E", dora_indicators="1m3m")  # pinfu tanyao iipeikou + 4 dora = 7
    assert out["score"]["limit"] == "haneman" and out["payments"]["S"] == 12000


def test_renhou_option_yakuman():
    out = win(BASE, "2m", first_turn=True, discarder="E", options={"renhou": "yakuman"})
    assert out["payments"]["S"] == 32000


def test_best_reading_is_chosen():
    # 222333444m: three pungs (sanankou) or three chows (iipeikou-like sanshoku? no): the pungs score more
    out = win("222333444m567p88s", "5p", riichi=True)
    assert "sanankou" in yaku(out)


def test_dora_ura_and_red_fives():
    out = win(BASE, "2m", riichi=True, dora_indicators="1m", ura_indicators="8m")
    assert yaku(out) == {"riichi": 1, "pinfu": 1, "dora": 1, "ura dora": 2}
    out = win(BASE, "2m", dora_indicators="1m", ura_indicators="8m")  # no riichi: no ura
    assert yaku(out) == {"pinfu": 1, "dora": 1}
    out = win("234m456p567s234s99m", "2m", options={"red_fives": True}, red_five_count=2)
    assert yaku(out) == {"pinfu": 1, "red fives": 2}


def test_kan_dora_counts_on_the_replacement_tile():
    # 「槓ドラ標識牌をめくった後で嶺上牌を取る」: the kong's indicator (3z: the 4z kong is dora, 4 tiles) is
    # shown before the replacement draw. 嶺上開花 1 + 門前清自摸和 1 + dora 4 = 6 han: haneman, 3000 basic;
    # S self-draws as a non-dealer: 6000 from the dealer E, 3000 from W and N.
    out = win("234p678s234s99m", "2p", melds=[{"tiles": "4444z", "concealed": True}], self_drawn=True,
              replacement=True, dora_indicators="1z3z")
    assert yaku(out) == {"rinshan kaihou": 1, "menzen tsumo": 1, "dora": 4}
    assert out["score"]["limit"] == "haneman"
    assert out["payments"] == {"E": -6000, "S": 12000, "W": -3000, "N": -3000}
