"""Wenzhou hand value: soft 1x, hard 2x, double 4x, each condition of the document.

Dealer E with streak 0 (dealer unit 2 under "2468"), winner S, indicator 2m (caishen 2m, White = 2m)
unless said. Payments per payer = base (1 between non-dealers, 2 with the dealer) x multiplier,
plus caishen money: 1 unit from each other player per caishen the winner holds.
"""
from wenzhou_hands import wz

SOFT_HAND = "345m678m234p567s78s11p2m"  # the caishen must be 6s or 9s
PURE_HAND = "345m678m234p567s789s11p"  # no caishen


def value(out):
    return out["value"]["class"], out["value"]["multiplier"]


def test_soft_caishen_changed_won_on_a_discard():
    # "軟牌 … 財神を化けさせての振り込み上がりです": E 2, W 1, N 1; caishen money 1 from each
    out = wz(SOFT_HAND, "1p")
    assert value(out) == ("soft", 1)
    assert out["score"]["total"] == 4
    assert out["caishen_money"] == {"E": -1, "S": 3, "W": -1, "N": -1}
    assert out["payments"] == {"E": -3, "S": 7, "W": -2, "N": -2}


def test_hard_self_drawn():
    # "ツモ上がり": x2
    out = wz(SOFT_HAND, "1p", discarder=None)
    assert value(out) == ("hard", 2)
    assert out["payments"] == {"E": -5, "S": 11, "W": -3, "N": -3}


def test_hard_kong_replacement_is_a_self_draw():
    # "カンの補充牌での上がりは常にツモ扱い"
    out = wz("345m678m234p78s11p2m", "1p", discarder=None, replacement=True,  # drawn for the 5555s kong
             melds=[{"tiles": "5555s", "concealed": True}])
    assert value(out) == ("hard", 2)
    assert any("replacement" in c for c in out["value"]["conditions"])


def test_hard_no_caishen():
    # "財神がないか … の上がり": x2, E 4, W 2, N 2
    out = wz(PURE_HAND, "1p")
    assert value(out) == ("hard", 2)
    assert out["payments"] == {"E": -4, "S": 8, "W": -2, "N": -2}


def test_hard_caishen_and_white_as_the_pair():
    # "白は財神表示の代わりなので,財神と白で頭か暗刻を作ってもよい"
    out = wz("345m678m234p567s789s2m5z", "9s")
    assert value(out) == ("hard", 2)
    assert out["payments"] == {"E": -5, "S": 11, "W": -3, "N": -3}


def test_option_white_must_not_replace_the_indicator():
    # "白を財神表示の代わりに使わないことを要求する人もいる"
    out = wz("345m678m234p567s789s2m5z", "9s", options={"white_counts_hard": False})
    assert value(out) == ("soft", 1)


def test_hard_robbed_kong():
    # "チャンカン"
    out = wz(SOFT_HAND, "3m", robbed_kong=True)  # held once: the robbed kong holds the other three
    assert value(out) == ("hard", 2)


def test_soft_eight_pairs_is_hard():
    # "軟八対.財神を化けさせた八対"
    out = wz("11m33m44m55p66p77p99s1s7z2m", "9s")
    assert out["form"] == "eight_pairs" and value(out) == ("hard", 2)
    assert out["payments"] == {"E": -5, "S": 11, "W": -3, "N": -3}


def test_hard_eight_pairs_is_double():
    # "硬八対.財神がない八対": x4, E 8, W 4, N 4
    out = wz("11m33m44m55p66p77p99s11s7z", "9s")
    assert value(out) == ("double", 4)
    assert out["payments"] == {"E": -8, "S": 16, "W": -4, "N": -4}


def test_eight_pairs_with_a_pair_of_caishen_is_double():
    # "財神2枚をペアにした八対 … も含む"; two caishen: 2 units of caishen money from each
    out = wz("11m33m44m55p66p77p99s7z2m2m", "9s")
    assert value(out) == ("double", 4)
    assert out["payments"] == {"E": -10, "S": 22, "W": -6, "N": -6}


def test_eight_pairs_with_a_caishen_as_the_odd_tile_is_double():
    # "ペアでない1枚に財神を使った八対も含む"
    out = wz("11m33m44m55p66p77p99s11s2m", "1s")
    assert value(out) == ("double", 4)


def test_three_caishen_in_a_complete_shape_is_double():
    # "三財神.財神が3枚あり,頭と5面子 … の形をしている手": 16 + caishen money 3 x 3
    out = wz("345m678m234p567s78s2m2m2m", "8s")
    assert out["form"] == "standard" and value(out) == ("double", 4)
    assert out["payments"] == {"E": -11, "S": 25, "W": -7, "N": -7}


def test_three_caishen_and_anything_is_hard():
    # "財神3枚残りめちゃくちゃ": x2 = 8, caishen money 9
    out = wz("159m258p147s12345z2m2m2m", "1m")
    assert out["form"] == "three_caishen" and value(out) == ("hard", 2)
    assert out["payments"] == {"E": -7, "S": 17, "W": -5, "N": -5}


def test_heavenly_hand_is_double():
    # "天胡.親の配牌での上がり": the dealer; every payer pays the dealer unit 2 x 4
    out = wz(PURE_HAND, "1p", winner="E", discarder=None, heavenly=True)
    assert value(out) == ("double", 4)
    assert out["payments"] == {"E": 24, "S": -8, "W": -8, "N": -8}


def test_no_heavenly_hand_with_three_caishen_and_anything():
    # "この形で天胡・地胡はできない"
    out = wz("159m258p147s12345z2m2m2m", "1m", winner="E", discarder=None, heavenly=True)
    assert value(out) == ("hard", 2)
    assert out["payments"] == {"E": 21, "S": -7, "W": -7, "N": -7}


def test_earthly_hand_is_double():
    # "地胡.親の第1打牌での子の上がり"
    out = wz(PURE_HAND, "1p", discarder="E", earthly=True)
    assert value(out) == ("double", 4)
    assert out["payments"] == {"E": -8, "S": 16, "W": -4, "N": -4}


FIVE_MELDS = [{"tiles": t} for t in ("345m", "678m", "234p", "567s", "789s")]


def test_naked_single_wait_is_double():
    # "単吊.裸単騎"
    out = wz("11p", "1p", melds=FIVE_MELDS)
    assert value(out) == ("double", 4)
    assert out["payments"] == {"E": -8, "S": 16, "W": -4, "N": -4}


def test_naked_single_wait_on_a_caishen_self_drawn():
    # "財神の裸単騎は,“全求神”とも呼ばれる"; only on a self-draw
    out = wz("1p2m", "1p", discarder=None, melds=FIVE_MELDS)
    assert value(out) == ("double", 4)
    assert out["payments"] == {"E": -9, "S": 19, "W": -5, "N": -5}
    assert wz("1p2m", "1p", melds=FIVE_MELDS)["winning"] is False


def test_option_all_pungs_double():
    # "双翻に対対胡を含める人がいます"
    hand = "111m333m555p777s999s11p"
    assert value(wz(hand, "1p")) == ("hard", 2)
    assert value(wz(hand, "1p", options={"all_pungs_double": True})) == ("double", 4)


def test_conditions_do_not_stack_past_double():
    # three levels only: a heavenly hard eight pairs is still x4
    out = wz("11m33m44m55p66p77p99s11s7z", "7z", winner="E", discarder=None, heavenly=True)
    assert value(out) == ("double", 4)
    assert out["score"]["total"] == 24


def test_option_white_rule_leaves_a_hand_without_caishen_hard():
    # 「財神がないか,財神を額面どおりに使った上がり」: with no caishen in the hand the first clause holds,
    # whatever 「白を財神表示の代わりに使わないことを要求する人もいる」 says of White beside a caishen.
    # White as the 2m of 1m 2m 3m, won on West's discard, no caishen: hard 2×, E 2 × 2 = 4, W, N 1 × 2.
    out = wz("1m3m5z345m678m234p567s99s", "9s", options={"white_counts_hard": False})
    assert value(out) == ("hard", 2)
    assert out["payments"] == {"E": -4, "S": 8, "W": -2, "N": -2}
    # 「硬八対.財神がない八対」 with a pair of Whites (= 2m 2m): double 4×, E 2 × 4 = 8, W, N 1 × 4
    pairs = wz("11m33m44m55p66p77p99s1s5z5z", "9s", options={"white_counts_hard": False})
    assert pairs["form"] == "eight_pairs" and value(pairs) == ("double", 4)
    assert pairs["payments"] == {"E": -8, "S": 16, "W": -4, "N": -4}
