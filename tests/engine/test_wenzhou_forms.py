"""Wenzhou winning forms, caishen and White (document: wenzhou.ja.txt). Indicator 2m unless said:
the caishen are the other 2m, White stands for 2m."""
import pytest
from wenzhou_hands import wz

from engine import score
from engine.errors import EngineError


def test_five_sets_and_a_pair():
    out = wz("345m678m234p567s789s11p", "1p")
    assert out["winning"] and out["form"] == "standard"
    assert out["jokers"]["count"] == 0 and out["flowers"] == 0


def test_not_winning_names_the_forms():
    out = wz("345m678m234p567s789s19p", "1p")
    assert out["winning"] is False
    assert "8 pairs" in out["reason"]


def test_eight_pairs_and_any_tile():
    out = wz("11m33m44m55p66p77p99s11s7z", "7z")
    assert out["winning"] and out["form"] == "eight_pairs"
    assert out["reading"]["loose"] == "7z"


def test_eight_pairs_odd_tile_may_match_a_pair():
    # "任意の1枚が対子と同じでもよい"
    out = wz("11m33m44m55p66p77p99s111s", "1s")
    assert out["winning"] and out["form"] == "eight_pairs"


def test_four_of_a_kind_is_two_pairs_with_no_bonus():
    # "同じ牌4枚で対子2組を作っても,他の地域のようなボーナス点はない"
    four = wz("1111m33m55p66p77p99s11s7z", "7z")
    plain = wz("11m33m44m55p66p77p99s11s7z", "7z")
    assert four["form"] == "eight_pairs"
    assert four["payments"] == plain["payments"]


def test_three_caishen_and_anything():
    # "財神3枚であとはめちゃくちゃ"
    out = wz("159m258p147s12345z2m2m2m", "1m")
    assert out["winning"] and out["form"] == "three_caishen"
    assert out["jokers"]["count"] == 3


def test_two_caishen_and_anything_is_no_win():
    out = wz("159m258p147s123455z2m2m", "1m")
    assert out["winning"] is False


def test_caishen_single_wait_refused_on_a_discard():
    # "財神の単騎待ちは,ツモでしか上がれません"
    out = wz("345m678m234p567s789s7z2m", "7z")
    assert out["winning"] is False
    assert "self-draw" in out["reason"]
    assert set(out["payments"].values()) == {0}


def test_caishen_single_wait_wins_on_a_self_draw():
    out = wz("345m678m234p567s789s7z2m", "7z", discarder=None)
    assert out["winning"] and out["value"]["class"] == "hard"


def test_caishen_single_wait_with_another_wait_wins_on_a_discard():
    # 678s + caishen also reads as 6s+caishen pair and 78s waiting on 6s/9s: 9s from a discard wins
    out = wz("123m456m789m234p678s9s2m", "9s")
    assert out["winning"] and out["value"]["class"] == "soft"


def test_white_stands_for_the_indicator_in_a_concealed_chow():
    # "財神表示が2万なら,それ以外の2万3枚が財神,白は2万になります"
    out = wz("1m3m5z456m789m234p567s11p", "1p")
    assert out["winning"]
    assert out["jokers"]["stand_ins"] == [{"tile": "5z", "as": "2m"}]
    assert {"kind": "chow", "tiles": "123m", "concealed": True} in out["reading"]["groups"]


def test_white_in_declared_melds_is_the_indicator_not_a_caishen():
    # "白は化けるのではなく財神表示そのものなので,チー・ポン・カンできます"
    out = wz("456m789m234p567s11p", "1p", melds=[{"tiles": "13m5z"}])
    assert out["winning"] and out["value"]["class"] == "hard"
    kong = wz("456m789m234p567s11p", "1p", indicator="3p", melds=[{"tiles": "5555z"}])
    assert kong["winning"] and kong["reading"]["groups"][-1]["tiles"] == "3333p"


def test_white_indicator_makes_whites_the_caishen():
    out = wz("345m678m234p567s78s11p5z", "1p", indicator="5z")
    assert out["jokers"]["tile"] == "5z" and out["jokers"]["count"] == 1
    assert "stand_ins" not in out["jokers"]
    assert out["jokers"]["uses"][0]["as"] in ("6s", "9s")


def test_caishen_in_an_exposed_pung_is_an_error():
    # "財神入りのチー・ポン・カンはできません"
    with pytest.raises(EngineError) as err:
        wz("456m789m234p567s11p", "1p", melds=[{"tiles": "2m33m"}])
    assert err.value.code == "wild_in_meld"


def test_missing_indicator_is_an_error():
    with pytest.raises(EngineError) as err:
        score({"variant": "wenzhou", "concealed": "345m678m234p567s789s11p", "winning_tile": "1p",
               "winner": "S", "self_drawn": True})
    assert err.value.code == "missing_indicator"


def test_flowers_do_not_exist_in_wenzhou():
    with pytest.raises(EngineError) as err:
        wz("345m678m234p567s789s11p", "1p", flowers="1f")
    assert err.value.code == "tile_not_in_set"


def test_a_fifth_seat_is_an_error():
    with pytest.raises(EngineError) as err:
        wz("345m678m234p567s789s11p", "1p", winner="X")
    assert err.value.code == "bad_seat"


def test_waits_of_a_lone_caishen_hand_are_every_tile():
    out = score({"variant": "wenzhou", "concealed": "345m678m234p567s789s2m", "indicator": "2m"})
    assert "1m" in out["waits"] and "7z" in out["waits"] and "2m" not in out["waits"]


def test_three_caishen_hand_is_ready_on_anything():
    out = score({"variant": "wenzhou", "concealed": "159m258p147s1234z2m2m2m", "indicator": "2m"})
    assert out["shanten"] == 0 and len(out["waits"]) > 20


def test_two_caishen_and_anything_are_ready_on_the_third():
    """「財神3枚であとはめちゃくちゃ」: two caishen and no shape wait on the third, and say so."""
    out = score({"variant": "wenzhou", "concealed": "1m1m2p5p8p1s4s7s1z2z3z4z5z6z7z9m", "indicator": "1m"})
    assert out["shanten"] == 0 and out["waits"] == ["1m"]


def test_a_caishen_is_never_a_suggested_discard():
    # "手牌に財神しかない場合を除き,財神を捨てられません"
    out = score({"variant": "wenzhou", "concealed": "345m678m234p567s789s1p2m", "indicator": "2m"})
    assert "2m" not in out["discards"] and "1p" in out["discards"]


def test_no_win_on_a_discarded_caishen():
    # "手牌に財神しかない場合を除き,財神を捨てられません": no hand holds only the three caishen, so none is
    # discarded; drawn, the same caishen wins
    hand = "345m678m234p567s789s2m2m"  # caishen 2m (indicator 2m), as the pair
    with pytest.raises(EngineError) as exc:
        wz(hand, "2m")
    assert exc.value.code == "bad_context" and exc.value.field == "winning_tile"
    assert wz(hand, "2m", discarder=None)["winning"]


def test_a_lone_honor_goes_before_number_tiles():
    # "対子や刻子になっていない字牌があるときは,数牌より先に捨てなければなりません"
    out = score({"variant": "wenzhou", "concealed": "345m678m234p567s789s1p7z", "indicator": "2m"})
    assert list(out["discards"]) == ["7z"]
    free = score({"variant": "wenzhou", "concealed": "345m678m234p567s789s1p7z", "indicator": "7z"})
    assert "7z" not in free["discards"] and "1p" in free["discards"]


def test_a_white_won_as_the_indicator_tile_is_a_natural_win():
    # "財神表示が白でないときは,白は財神表示と同じ牌になります": with the indicator 2m a White is a natural
    # 2m, not a caishen, also when it is the winning tile. 345m 678m 234p 567s 789s + 白白 (= 2m 2m),
    # won on West's White: no caishen, so hard (「財神がないか … の上がり」, 2倍); the dealer E pays
    # 2 × 2 = 4 ("2468", first hand), W and N pay 1 × 2 = 2 (「子から子へは1枚」): South +8.
    out = wz("345m678m234p567s789s5z5z", "5z")
    assert out["winning"] and out["value"]["class"] == "hard"
    assert out["payments"] == {"E": -4, "S": 8, "W": -2, "N": -2}
    # the White as the 2m of a concealed chow 1m 2m 3m, won on it: the same figures
    chow = wz("1m3m5z345m678m234p567s99s", "5z")
    assert chow["winning"] and chow["payments"] == {"E": -4, "S": 8, "W": -2, "N": -2}
