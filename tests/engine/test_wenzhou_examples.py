"""The worked examples of wenzhou.ja.txt, with their exact figures."""
from wenzhou_hands import wz

from engine import event
from engine.variants.wenzhou import caishen_position


def test_dice_example_caishen_and_deal_start():
    # "親が8,(親から8数えた席である)親の左隣が6を出したら,財神は,親の左隣の人の列の右から8枚目,
    #  牌を取り始めるのは,8+6=14の次なので,右から15枚目(左から3枚目)です"
    where = caishen_position("E", 8, 6)
    assert where == {"wall": "N", "indicator_from_right": 8, "deal_wall": "N", "deal_from_right": 15,
                     "deal_from_left": 3}
    out = event({"variant": "wenzhou", "event": "caishen_position", "dealer": "E", "dice": [8, 6]})
    assert out["wall"] == "N" and out["deal_from_right"] == 15


def test_dice_past_seventeen_go_on_into_the_left_neighbour():
    # "目の合計が17より大きいときは,左隣の人の牌を続けて数えます": 12 + 9 = 21, the deal starts at the
    # 22nd stack, 5th of the next wall
    where = caishen_position("S", 12, 9)
    assert where["wall"] == "E" and where["deal_wall"] == "N" and where["deal_from_right"] == 5


def test_indicator_2m_example():
    # "財神表示が2万なら,それ以外の2万3枚が財神,白は2万になります": 2m x2 are caishen, White is a 2m
    out = wz("1m3m5z456m789m234p567s1p2m", "1p", discarder=None)
    assert out["winning"]
    assert out["jokers"]["count"] == 1 and out["jokers"]["stand_ins"] == [{"tile": "5z", "as": "2m"}]
    assert {"kind": "chow", "tiles": "123m", "concealed": True} in out["reading"]["groups"]


def test_2468_example():
    # "よく使う“2468”なら,親になってすぐの手は2枚,2連荘は4枚,3連荘は6枚,4連荘は8枚です":
    # a soft win (1x) by a non-dealer on the dealer's discard, caishen money off
    paid = [-wz("345m678m234p567s78s11p2m", "1p", discarder="E", dealer_streak=k,
                options={"caishen_money": 0})["payments"]["E"] for k in range(4)]
    assert paid == [2, 4, 6, 8]


def test_multipliers_example():
    # "これらの点を軟牌なら1倍(そのまま),硬牌なら2倍,双翻なら4倍します": between non-dealers W pays S
    soft = wz("345m678m234p567s78s11p2m", "1p", options={"caishen_money": 0})
    hard = wz("345m678m234p567s789s11p", "1p")
    double = wz("11m33m44m55p66p77p99s11s7z", "7z")
    assert [soft["payments"]["W"], hard["payments"]["W"], double["payments"]["W"]] == [-1, -2, -4]
