"""Malaysian payments: the 5-fan minimum, 爆, the per-fan rates and the kong bonuses (「点数計算」「槓と得点」)."""
import pytest

import engine
from malaysian_hands import score

BASE = "123p456p789p555z11z"  # 吃胡 1 + 白 1


def test_below_five_fan_is_not_a_win():
    # 上がるには5番以上の役が必要
    r = score(BASE, "1z", flowers="1a")  # 3 fan
    assert r["winning"] is False and r["score"]["total"] == 3
    assert "5" in r["reason"] and r["payments"] == {"E": 0, "S": 0, "W": 0}


def test_exactly_five_fan_wins():
    r = score(BASE, "1z", flowers="1a2a3a")
    assert r["winning"] and r["score"]["total"] == 5
    assert r["payments"] == {"E": 2000, "S": -1000, "W": -1000}


def test_min_fan_option():
    r = score(BASE, "1z", flowers="1a", options={"min_fan": 3})
    assert r["winning"] and r["payments"]["E"] == 1200


def test_discard_payments_for_each_discarder():
    # ロンの場合は、放銃した人が番数×200、もう一人が番数×100
    hand = dict(flowers="1a2a3a")  # 5 fan
    assert score(BASE, "1z", winner="E", discarder="S", **hand)["payments"] == {"E": 1500, "S": -1000, "W": -500}
    assert score(BASE, "1z", winner="E", discarder="W", **hand)["payments"] == {"E": 1500, "S": -500, "W": -1000}
    assert score(BASE, "1z", winner="W", discarder="S", **hand)["payments"] == {"E": -500, "S": -1000, "W": 1500}


def test_robbed_kong_is_paid_by_the_robbed_player():
    r = score(BASE, "3p", winner="S", discarder="W", robbed_kong=True, flowers="1a2a")  # 5 fan with 槍槓
    assert r["score"]["total"] == 5
    assert r["payments"] == {"E": -500, "S": 1500, "W": -1000}


def test_rate_options():
    r = score(BASE, "1z", winner="E", discarder="S", flowers="1a2a3a", options={"rate": 100, "other_rate": 50})
    assert r["payments"] == {"E": 750, "S": -500, "W": -250}


def test_bao_units_option():
    r = score(BASE, "1z", options={"bao_units": 10})  # 面前無花: 10 fan
    assert r["score"]["paid_as"] == 10 and r["payments"] == {"E": 4000, "S": -2000, "W": -2000}


def test_nine_fan_is_not_bao():
    r = score("123p456p555z666z77z", "7z", flowers="1a2a3a")  # 小三元 3 + 白 1 + 發 1 + 吃胡 1 + 3 = 9
    assert r["score"]["total"] == 9 and not r["score"]["bao"]
    assert r["payments"] == {"E": 3600, "S": -1800, "W": -1800}


def _kong(**kw):
    return engine.event({"variant": "malaysian", "event": "kong", **kw})


def test_kong_owner_may_be_given_as_player():
    assert _kong(kong="added", player="S")["payments"] == _kong(kong="added", seat="S")["payments"]


def test_kong_rate_options():
    r = _kong(kong="concealed", seat="W", options={"concealed_kong_each": 500})
    assert r["payments"] == {"E": -500, "S": -500, "W": 1000}
    r = _kong(kong="exposed", seat="S", discarder="E", options={"exposed_kong": 2000})
    assert r["payments"] == {"E": -2000, "S": 2000, "W": 0}


@pytest.mark.parametrize("fields,code,field", [
    ({"kong": "big", "seat": "E"}, "bad_value", "kong"),
    ({"kong": "concealed"}, "missing_field", "seat"),
    ({"kong": "concealed", "seat": "N"}, "bad_seat", "seat"),
    ({"kong": "exposed", "seat": "E"}, "missing_field", "discarder"),
    ({"kong": "exposed", "seat": "E", "discarder": "E"}, "bad_context", "discarder"),
    ({"kong": "added", "seat": "E", "discarder": "S"}, "bad_context", "discarder"),
    ({"kong": "added", "seat": "E", "tiles": "1111p"}, "unknown_field", "tiles"),
    ({"kong": "added", "seat": "E", "player": "S"}, "bad_context", "player"),
    ({"kong": "added", "seat": "E", "options": {"rate": "x"}}, "bad_type", "options.rate"),
])
def test_kong_event_errors(fields, code, field):
    with pytest.raises(engine.EngineError) as e:
        _kong(**fields)
    assert (e.value.code, e.value.field) == (code, field)


def test_unknown_event():
    with pytest.raises(engine.EngineError) as e:
        engine.event({"variant": "malaysian", "event": "false_win"})
    assert e.value.code == "unknown_event"
