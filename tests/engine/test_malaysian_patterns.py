"""Malaysian fan patterns, honors and flowers (malaysian-3p.ja.txt, 「字牌と花牌の扱い」「役の番数」).

Hands are concealed and hold a Cat (1a, always 1 fan) unless the test says otherwise, so that
面前無花 (a concealed hand without flowers, 10 fan) stays out of the way.
"""
import pytest

import engine

from malaysian_hands import items, score, total

BASE = "123p456p789p555z11z"  # 吃胡 1 + 白 pung 1, for any seat


# ---- 字牌: pungs of the own seat wind, North, dragons ---------------------------------------------
@pytest.mark.parametrize("winner,dealer,wind,counts", [
    ("E", "E", "1z", True), ("S", "E", "1z", False), ("S", "E", "2z", True), ("W", "E", "3z", True),
    ("W", "E", "2z", False), ("S", "S", "1z", True), ("E", "S", "3z", True), ("E", "S", "1z", False),
])
def test_wind_pung_counts_for_its_seat_only(winner, dealer, wind, counts):
    # 東 …東風のみ1番 / 南 …南風のみ1番 / 西 …西風のみ1番; the dealer is East
    r = score(wind[0] * 3 + "z123p456p789p99p", "9p", winner=winner, dealer=dealer, flowers="1a")
    name = {"1z": "字牌 東", "2z": "字牌 南", "3z": "字牌 西"}[wind]
    assert (items(r).get(name) == 1) is counts


@pytest.mark.parametrize("honor,name", [("4z", "字牌 北"), ("5z", "字牌 白"), ("6z", "字牌 發"), ("7z", "字牌 中")])
@pytest.mark.parametrize("winner", ["E", "S", "W"])
def test_north_and_dragons_count_for_every_seat(honor, name, winner):
    # 北 …1番 / 中發白…1番
    r = score(honor[0] * 3 + "z123p456p789p99p", "9p", winner=winner, flowers="1a")
    assert items(r)[name] == 1


def test_an_honor_pair_adds_nothing():
    r = score("123p456p789p111p55z", "5z", flowers="1a")
    assert items(r) == {"吃胡/鶏胡": 1, "花牌 貓": 1}


# ---- 花牌 ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("flower,winner,counts", [
    ("1f", "E", True), ("1f", "S", False), ("5f", "E", True), ("5f", "W", False),  # 春/梅 …東風のみ
    ("2f", "S", True), ("2f", "W", False), ("6f", "S", True), ("6f", "E", False),  # 夏/蘭 …南風のみ
    ("3f", "W", True), ("3f", "E", False), ("7f", "W", True), ("7f", "S", False),  # 秋/菊 …西風のみ
    ("4f", "E", True), ("4f", "S", True), ("8f", "W", True), ("8f", "E", True),  # 冬/竹 …1番
    ("1a", "S", True), ("4a", "W", True), ("1h", "E", True), ("4h", "S", True),  # animals, faces
])
def test_flower_fan_by_seat(flower, winner, counts):
    r = score(BASE, "1z", winner=winner, flowers=flower)
    assert (sum(v for k, v in items(r).items() if k.startswith("花牌")) == 1) is counts


@pytest.mark.parametrize("flower,winner,counts", [("7f", "S", True), ("8f", "S", False), ("8f", "W", True)])
def test_bamboo_chrysanthemum_swapped_option(flower, winner, counts):
    # ※地域や遊ぶ人により、竹を西風のみ1番、菊を1番とする場合もある
    r = score(BASE, "1z", winner=winner, flowers=flower, options={"bamboo_chrysanthemum_swapped": True})
    assert (sum(v for k, v in items(r).items() if k.startswith("花牌")) == 1) is counts


def test_laid_fei_is_a_flower_worth_one_fan():
    # 下飛: 手牌にある飛を晒して、花牌扱いとする
    r = score(BASE, "1z", flowers="1j")
    assert items(r) == {"吃胡/鶏胡": 1, "字牌 白": 1, "下飛": 1}
    assert r["flowers"] == 1
    r = score(BASE, "1z", flowers="1j", options={"laid_fei_fan": 0})
    assert items(r) == {"吃胡/鶏胡": 1, "字牌 白": 1}


# ---- 十番 (爆) ------------------------------------------------------------------------------------
def test_concealed_no_flowers_is_ten():
    # ●面前無花
    r = score(BASE, "1z")
    assert items(r)["面前無花"] == 10 and total(r) == 10 and r["score"]["paid_as"] == 20


def test_concealed_no_flowers_allows_a_concealed_kong_but_not_an_exposed_meld_or_a_laid_fei():
    r = score("123p456p789p11z", "1z", melds=[{"tiles": "5555z", "concealed": True}])
    assert items(r)["面前無花"] == 10
    r = score("123p456p789p11z", "1z", melds=[{"tiles": "555z"}])
    assert "面前無花" not in items(r)
    assert "面前無花" not in items(score(BASE, "1z", flowers="1j"))


@pytest.mark.parametrize("concealed,win,name", [
    ("111z222z333z444z99p", "9p", "大四喜"),
    ("111z222z333z44z123p", "3p", "小四喜"),
    ("555z666z777z123p99p", "9p", "大三元"),
    ("111z222z555z666z77z", "7z", "全大炮"),
])
def test_ten_fan_hands(concealed, win, name):
    r = score(concealed, win, flowers="1a")
    assert items(r)[name] == 10 and total(r) == 10 and r["score"]["bao"]


def test_four_kongs():
    # ●十八羅漢(四槓子)
    melds = [{"tiles": "1111p"}, {"tiles": "2222p"}, {"tiles": "3333p"}, {"tiles": "5555z", "concealed": True}]
    r = score("99p", "9p", melds=melds, flowers="1a")
    assert items(r)["十八羅漢"] == 10


def test_heavenly_and_earthly_wins():
    assert items(score(BASE, "1z", flowers="1a", heavenly=True))["天胡"] == 10
    assert items(score(BASE, "1z", winner="S", flowers="1a", earthly=True))["地胡"] == 10


def test_four_concealed_pungs_is_a_regional_option():
    # ※地域により四暗刻も採用
    hand = "111p333p555z777z99p"
    assert "四暗刻" not in items(score(hand, "9p", flowers="1a"))
    on = {"four_concealed_pungs": True}
    assert items(score(hand, "9p", flowers="1a", options=on))["四暗刻"] == 10
    # a discard completing a pung leaves it exposed; a discard completing the pair does not
    assert "四暗刻" not in items(score(hand, "7z", winner="S", discarder="E", flowers="1a", options=on))
    assert items(score(hand, "9p", winner="S", discarder="E", flowers="1a", options=on))["四暗刻"] == 10


# ---- 5, 4, 3 番 -----------------------------------------------------------------------------------
def test_all_circles():
    # ◆3番 ●全筒子; 吃胡 is not added (全筒子や對對碰が有る場合には付かない)
    r = score("123p456p789p222p99p", "9p", flowers="1a")
    assert items(r) == {"全筒子": 3, "花牌 貓": 1} and total(r) == 4


def test_all_circles_one_fan_where_qing_yi_se_is_one():
    # ※清一色を1番とする地域もある
    r = score("123p456p789p222p99p", "9p", flowers="1a", options={"all_circles_fan": 1})
    assert items(r)["全筒子"] == 1


def test_all_circles_all_chows_concealed_and_open():
    # ◆4番 ●全筒子平糊(※鳴いても成立)
    r = score("123p456p789p123p99p", "9p", flowers="1a")
    assert items(r) == {"全筒子平糊": 4, "花牌 貓": 1}
    r = score("456p789p123p99p", "9p", melds=[{"tiles": "123p"}])
    assert items(r) == {"全筒子平糊": 4}


def test_all_circles_all_pungs():
    # ◆5番 ●全筒子對對碰: replaces 全筒子 and 碰碰胡
    r = score("111p333p555p777p99p", "9p", flowers="1a")
    assert items(r) == {"全筒子對對碰": 5, "花牌 貓": 1} and total(r) == 6


def test_all_pungs_three_or_two():
    # ● 碰碰胡(対対和) 3番; ※ 碰碰胡を2番とする地域もある
    r = score("111p333p555p222z99p", "9p", flowers="1a")
    assert items(r) == {"碰碰胡": 3, "花牌 貓": 1}
    r = score("111p333p555p222z99p", "9p", flowers="1a", options={"all_pungs_fan": 2})
    assert items(r)["碰碰胡"] == 2


def test_little_three_dragons_adds_to_the_dragon_pungs():
    # ●小三元 3番, and each dragon pung its own 1番
    r = score("123p456p555z666z77z", "7z", flowers="1a")
    assert items(r) == {"小三元": 3, "吃胡/鶏胡": 1, "字牌 白": 1, "字牌 發": 1, "花牌 貓": 1}
    assert total(r) == 7


# ---- 1 番 ----------------------------------------------------------------------------------------
def test_yaojiu_every_group_holds_a_terminal_or_honor():
    r = score("123p789p111z555z99p", "9p", flowers="1a")
    assert items(r) == {"幺九": 1, "吃胡/鶏胡": 1, "字牌 東": 1, "字牌 白": 1, "花牌 貓": 1}
    assert "幺九" not in items(score("123p789p111z555z99p", "9p", flowers="1a",
                                   options={"yaojiu_rule": "all_tiles"}))


def test_yaojiu_all_tiles_rule():
    hand = "111p999p111z555z22z"
    for rule in ("every_group", "all_tiles"):
        assert items(score(hand, "2z", flowers="1a", options={"yaojiu_rule": rule}))["幺九"] == 1


def test_yaojiu_circles():
    # ●幺九筒: every group holds 1p or 9p, no honors
    r = score("123p123p789p789p99p", "9p", flowers="1a")
    assert items(r) == {"全筒子平糊": 4, "幺九筒": 1, "花牌 貓": 1}
    assert "幺九" not in items(r)


def test_robbing_a_kong():
    # ●槍槓
    r = score(BASE, "3p", winner="S", discarder="W", robbed_kong=True, flowers="1a")
    assert items(r)["槍槓"] == 1


def test_kong_and_flower_replacement():
    # ●槓上 ●花上(補花した牌で上がる): the tile drawn for the winner's own kong, or for a flower set aside
    kong = items(score("123p456p789p11z", "1z", replacement=True, flowers="1a",
                       melds=[{"tiles": "5555z", "concealed": True}]))
    assert kong["槓上"] == 1 and "花上" not in kong
    flower = items(score(BASE, "1z", replacement=True, flower_replacement=True, flowers="1a"))
    assert flower["花上"] == 1 and "槓上" not in flower


@pytest.mark.parametrize("kw", [
    {"replacement": True, "flowers": "1a"},  # 槓上 with no kong
    {"replacement": True},  # a replacement with neither a kong nor a flower
    {"replacement": True, "flower_replacement": True},  # 花上 with nothing set aside
])
def test_a_replacement_win_needs_the_kong_or_flower_it_replaced(kw):
    # 補花とは、手にある花牌を場に晒し、嶺上牌から晒した数だけ牌を補充: no flower and no kong, no replacement
    # tile (and 面前無花 cannot be paid with one)
    with pytest.raises(engine.EngineError) as e:
        score(BASE, "1z", **kw)
    assert e.value.code == "bad_context" and e.value.field in ("replacement", "flower_replacement")


def test_chicken_win_only_without_all_circles_or_all_pungs():
    # ●吃胡/鶏胡(上がりに付く点数だが、全筒子や對對碰が有る場合には付かない)
    assert items(score(BASE, "1z", flowers="1a"))["吃胡/鶏胡"] == 1
    assert "吃胡/鶏胡" not in items(score("123p456p789p222p99p", "9p", flowers="1a"))
    assert "吃胡/鶏胡" not in items(score("111p333p555p222z99p", "9p", flowers="1a"))
