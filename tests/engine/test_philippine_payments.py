"""Philippine payments in pesos and chips: each rule, the best-of choice, hi-ala.

Defaults from the document: 10 from the discarder (1 chip) or 10 from each on a self-draw
(2 chips); Seven First / Escalera 10 from each (2 chips); no flores and single joker 15 from each
(2 chips); robbed added kong 10 from each; hi-ala at 5 chips, 5 more from each.
"""
import pytest
from philippine_hands import ph

from engine.errors import EngineError

PLAIN = "123m345m678m234p567s99s"
SINGLE_JOKER = "123m345m678m234p567s9s1p"  # 5 sets + a lone joker: any tile wins


def test_plain_win_on_a_discard():
    out = ph(PLAIN, "9s")
    assert out["payments"] == {"E": -10, "S": 10, "W": 0, "N": 0}
    assert out["score"] == {"unit": "pesos", "total": 10,
                            "items": [{"name": "win on a discard (振込み)", "value": 10}]}
    assert out["chips"]["earned"] == 1 and out["chips"]["after"]["S"] == 1


def test_plain_self_draw():
    out = ph(PLAIN, "9s", discarder=None)
    assert out["payments"] == {"E": -10, "S": 30, "W": -10, "N": -10}
    assert out["chips"]["earned"] == 2


def test_seven_first_on_a_discard_all_pay():
    out = ph("11m22m33m44p55p66p77s789s", "9s")
    assert out["payments"] == {"E": -10, "S": 30, "W": -10, "N": -10}
    assert out["chips"]["earned"] == 2


def test_escalera_on_a_discard_all_pay():
    out = ph("123m456m789m234p678s55s", "5s", discarder="W")
    assert out["payments"] == {"E": -10, "S": 30, "W": -10, "N": -10}
    assert out["chips"]["earned"] == 2


def test_no_flores_any_hand_fifteen_from_each():
    out = ph(PLAIN, "9s", flowers="")
    assert out["payments"] == {"E": -15, "S": 45, "W": -15, "N": -15}
    assert out["chips"]["earned"] == 2


def test_single_joker_fifteen_from_each():
    out = ph(SINGLE_JOKER, "9s")
    assert out["payments"] == {"E": -15, "S": 45, "W": -15, "N": -15}
    assert out["chips"]["earned"] == 2


def test_single_joker_won_on_the_second_joker():
    out = ph("123m345m678m234p567s1p1p", "1p", discarder=None)
    assert out["score"]["total"] == 45


def test_drawing_a_joker_onto_a_lone_tile_is_no_single_joker():
    out = ph(SINGLE_JOKER, "1p", discarder=None)
    assert out["payments"] == {"E": -10, "S": 30, "W": -10, "N": -10}


def test_robbed_added_kong_ten_from_each():
    # "上がった人が10ペソ通しで貰えます。この場合、振った人も10ペソだけ"
    out = ph(PLAIN, "1m", robbed_kong=True, discarder="N")  # the robbed kong holds the other three 1m
    assert out["payments"] == {"E": -10, "S": 30, "W": -10, "N": -10}
    assert out["chips"]["earned"] == 1


def test_best_payment_applies_not_the_sum():
    out = ph("11m22m33m44p55p66p77s789s", "9s", flowers="")
    assert out["payments"] == {"E": -15, "S": 45, "W": -15, "N": -15}
    names = [i["name"] for i in out["score"]["items"]]
    assert names[0] == "no flores (フローレス無し)"
    assert any(n.startswith("Seven First") and "not added" in n for n in names)
    assert sum(i["value"] for i in out["score"]["items"]) == out["score"]["total"]


def test_hi_ala_at_five_chips():
    # "チップを5枚溜めるとハイアライと言って、更に5ペソ通しで貰えます" and every chip goes back
    out = ph(PLAIN, "9s", discarder=None, chips_before=[2, 3, 1, 0])
    assert out["payments"] == {"E": -15, "S": 45, "W": -15, "N": -15}
    assert out["chips"]["hi_ala"] is True
    assert out["chips"]["after"] == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_no_hi_ala_below_five_chips():
    out = ph(PLAIN, "9s", chips_before=[4, 3, 0, 0])
    assert out["chips"]["hi_ala"] is False
    assert out["chips"]["after"] == {"E": 4, "S": 4, "W": 0, "N": 0}
    assert out["payments"]["S"] == 10


@pytest.mark.parametrize("chips", [[0, 5, 0, 0], [0, 0, 0], [0, -1, 0, 0], [0, True, 0, 0]])
def test_bad_chips_before(chips):
    with pytest.raises(EngineError) as err:
        ph(PLAIN, "9s", chips_before=chips)
    assert err.value.field == "chips_before"


def test_rates_are_options():
    out = ph(PLAIN, "9s", options={"discard_win": 20, "chips_plain_discard": 2})
    assert out["payments"]["E"] == -20 and out["chips"]["earned"] == 2


def test_unknown_option_is_an_error():
    with pytest.raises(EngineError) as err:
        ph(PLAIN, "9s", options={"dealer_bonus": 5})
    assert err.value.code == "unknown_option"


@pytest.mark.parametrize("options", [{"discard_win": -10}, {"hi_ala_chips": 0}, {"flores_bonus_min": 0},
                                     {"discard_win": "10"}, {"claim_priority": "dealer_first"}])
def test_bad_rates_are_errors(options):
    with pytest.raises(EngineError) as err:
        ph(PLAIN, "9s", options=options)
    assert err.value.field.startswith("options.")


def test_single_joker_in_seven_first_beside_a_joker_pair():
    # "ジョーカーの単騎待ち(シングルジョーカーと呼ばれる)で上がった場合も15ペソ通しでチップ2枚":
    # before the 9s the hand was 11m 22m 33m 44p 55p 9s+joker (6 pairs), 234s and a lone joker
    # (jokers 1p): a Seven First waiting on anything. Won on the 9s: 15 from each of the 3 others = 45,
    # better than Seven First's 10 from each (the best payment applies).
    out = ph("11m22m33m44p55p234s1p1p9s9s", "9s")
    assert out["form"] == "seven_first"
    assert out["payments"] == {"E": -15, "S": 45, "W": -15, "N": -15}
    assert out["chips"]["earned"] == 2
