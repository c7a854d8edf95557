"""Every worked example of malaysian-3p.ja.txt, with its exact figures.

Seats: play goes E -> S -> W, so for the winner South, 上家 (the player before) is East
and 下家 (the player after) is West. The 7-fan hand below, for South with East dealing:
吃胡/鶏胡 1 + 白 pung 1 + 夏 1 + 蘭 1 + 冬 1 + 貓 1 + 人1 1 = 7 fan.
"""
import engine
from malaysian_hands import items, score, total

SEVEN = "123p456p789p555z11z"
SEVEN_FLOWERS = "2f6f4f1a1h"


def test_the_seven_fan_hand_is_seven_fan():
    r = score(SEVEN, "1z", winner="S", flowers=SEVEN_FLOWERS)
    assert items(r) == {"吃胡/鶏胡": 1, "字牌 白": 1, "花牌 夏": 1, "花牌 蘭": 1, "花牌 冬": 1, "花牌 貓": 1,
                        "花牌 人1": 1}
    assert total(r) == 7 and r["winning"] and r["score"]["unit"] == "fan"


def test_doc_seven_fan_self_draw():
    # ●自分が7番ツモ 自分 +2800 上家 7番×200=-1400 下家 7番×200=-1400
    r = score(SEVEN, "1z", winner="S", flowers=SEVEN_FLOWERS)
    assert r["payments"] == {"S": 2800, "E": -1400, "W": -1400}


def test_doc_seven_fan_discard():
    # ●自分が7番ロン上がり 自分 +2100 上家(放銃) 7番×200=-1400 下家 7番×100=-700
    r = score(SEVEN, "1z", winner="S", discarder="E", flowers=SEVEN_FLOWERS)
    assert total(r) == 7
    assert r["payments"] == {"S": 2100, "E": -1400, "W": -700}


def test_doc_bao_self_draw():
    # ●爆で自分がツモ 自分 +8000 他家 20×200=4000 他家 20×200=4000
    r = score("555z666z777z123p99p", "9p", winner="S", flowers="1a")
    assert items(r)["大三元"] == 10 and total(r) == 10
    assert r["score"]["bao"] and r["score"]["paid_as"] == 20
    assert r["payments"] == {"S": 8000, "E": -4000, "W": -4000}


def test_doc_bao_discard():
    # ●爆で自分がロン(上家が放銃) 自分 +6000 上家(放銃) 20×200=4000 下家 20×100=2000
    r = score("555z666z777z123p99p", "9p", winner="S", discarder="E", flowers="1a")
    assert r["payments"] == {"S": 6000, "E": -4000, "W": -2000}


def test_doc_ten_fan_is_the_most():
    # 最大役数は10番まで: 大三元 10 + 幺九 1 (every group holds 1p, 9p or an honor) + 字牌 3
    # + 吃胡 1 + 貓 1 = 16 is still 10, paid as 20
    r = score("555z666z777z123p99p", "9p", winner="S", flowers="1a")
    assert r["score"]["uncapped"] == 16 and total(r) == 10 and r["score"]["paid_as"] == 20


def _kong(**kw):
    return engine.event({"variant": "malaysian", "event": "kong", **kw})


def test_doc_concealed_kong():
    # 暗槓の場合は「2千点(各自から千点ずつ)」
    assert _kong(kong="concealed", seat="E")["payments"] == {"E": 2000, "S": -1000, "W": -1000}


def test_doc_exposed_kong():
    # 明槓の場合は鳴かれた人から千点
    assert _kong(kong="exposed", seat="E", discarder="W")["payments"] == {"E": 1000, "S": 0, "W": -1000}


def test_doc_added_kong():
    # 加槓の場合は「千点(他家から500点ずつ)」
    assert _kong(kong="added", seat="S")["payments"] == {"E": -500, "S": 1000, "W": -500}
