"""Section 4's formula table: 台 × tai_value + 底 per payer, (2n+1) on payments involving the dealer.

The hand: 123m 456m 789p 234s 白白白 + 9s pair won on 9s: 門前 1, 三元牌 白 1, 獨聽 1 = 3 台
on a discard; self-drawn 門前自摸 3 + 白 1 + 獨聽 1 = 5 台.
"""
import random

import engine
from taiwan_hands import items, req, score

HAND = dict(concealed="123m456m789p234s555z99s", win="9s")


def _pay(tai: int, base: int = 50, rate: int = 20) -> int:
    return tai * rate + base


def test_dealer_self_draw_fresh_deal():
    """オヤのツモアガリ at streak 0: 莊家 1 in the 台 of every payer: (5 + 1) × 20 + 50 = 170 each."""
    r = score(**HAND, winner="E", dealer="E", self_drawn=True)
    assert items(r)["莊家"] == 1
    assert r["payments"] == {"E": 510, "S": -170, "W": -170, "N": -170}


def test_dealer_self_draw_streak_two():
    """{台 + 底 + (2n+1)} × 3 at 連二: (6 + 5) × 20 + 50 = 270 each."""
    r = score(**HAND, winner="E", dealer="E", dealer_streak=2, self_drawn=True)
    assert items(r)["連莊 連2"] == 5
    assert r["payments"] == {"E": 810, "S": -270, "W": -270, "N": -270}


def test_dealer_discard_win_streak_one():
    """オヤの出アガリ: 台 + 底 + (2n+1) from the discarder: (3 + 1 + 3) × 20 + 50 = 190."""
    r = score(**HAND, winner="E", dealer="E", dealer_streak=1, discarder="S")
    assert r["payments"] == {"E": 190, "S": -190, "W": 0, "N": 0}


def test_non_dealer_self_draw_streak_one():
    """子のツモアガリ: (台 + 底) × 3 + (2n+1); only the dealer's payment carries 拉一's 3 台."""
    r = score(**HAND, winner="S", dealer="E", dealer_streak=1, self_drawn=True)
    assert r["payments"] == {"E": -_pay(8), "S": _pay(5) * 2 + _pay(8), "W": -_pay(5), "N": -_pay(5)}
    line = next(i for i in r["score"]["items"] if i["name"].startswith("拉莊"))
    assert line == {"name": "拉莊 拉1 (2n+1)", "value": 3, "payers": ["E"]}
    assert r["score"]["total"] == 5 and r["score"]["per_payer"] == {"E": 8, "W": 5, "N": 5}
    assert "拉莊 拉1 3 [E]" in r["explain"]


def test_non_dealer_discard_from_the_dealer_streak_two():
    """子のオヤからの出アガリ: 台 + 底 + (2n+1): (3 + 5) × 20 + 50 = 210."""
    r = score(**HAND, winner="S", dealer="E", dealer_streak=2, discarder="E")
    assert r["payments"] == {"E": -210, "S": 210, "W": 0, "N": 0}


def test_non_dealer_discard_from_a_non_dealer_streak_two():
    """子の子からの出アガリ: 台 + 底 only: 3 × 20 + 50 = 110."""
    r = score(**HAND, winner="S", dealer="E", dealer_streak=2, discarder="W")
    assert r["payments"] == {"E": 0, "S": 110, "W": -110, "N": 0}
    assert not any(i["name"].startswith("拉莊") for i in r["score"]["items"])


def test_non_dealer_self_draw_fresh_deal_has_no_dealer_line():
    """平場でなにもない: at streak 0 a non-dealer's win involves no dealer bonus."""
    r = score(**HAND, winner="S", dealer="E", self_drawn=True)
    assert r["payments"] == {"E": -150, "S": 450, "W": -150, "N": -150}


def test_rates_are_options():
    """The university rate 底20/台10 from the document."""
    r = score(**HAND, options={"base": 20, "tai_value": 10})
    assert r["payments"]["S"] == 3 * 10 + 20


def test_three_equal_dice_double_tai_and_base():
    r = score(**HAND, triple_dice=True, options={"triple_dice_doubles": True})
    assert r["payments"]["S"] == 2 * _pay(3)


# ---- flower hands ------------------------------------------------------------------------------
EIGHT = dict(melds=("666z", "789s"), flowers="12345678f", self_drawn=True, replacement=True)


def test_eight_immortals_by_the_dealer_on_a_streak():
    """八仙過海: 庄家、連拉荘は加算する: (8 + 1 + 3) × 20 + 50 from each."""
    r = score("23s456s555s99s1p", "1p", **EIGHT, winner="E", dealer="E", dealer_streak=1)
    assert r["payments"] == {"E": 870, "S": -290, "W": -290, "N": -290}


def test_eight_flowers_dealt_is_twelve():
    """配牌花胡: 12 台, here the dealer's dealt hand without a shape."""
    r = score("23s456s555s99s1p", "1p", **EIGHT, winner="E", dealer="E", dealt_flowers=True)
    assert items(r) == {"配牌花胡": 12, "莊家": 1}
    assert r["payments"]["E"] == 3 * _pay(13)


def test_eight_flowers_later_win_on_a_discard():
    """After a premature claim the hand may win later, on a discard too, with 満花 8 added."""
    r = score("23s456s555s99s1s", "1s", melds=("666z", "789s"), flowers="12345678f")
    assert items(r) == {"滿花": 8, "三元牌 發": 1, "混一色": 4}
    assert r["payments"] == {"E": 0, "S": _pay(13), "W": -_pay(13), "N": 0}


SEVEN = dict(winner="E", dealer="N", round_wind="S", flowers="12345678f", self_drawn=True, replacement=True,
             robbed_flower_from="W", robbed_flower="4f")


def test_seven_rob_one_robbed_dealer_on_a_streak():
    """搶花された者 pays 8 台 and 底, with 莊連拉 when the robbed player is the dealer: (8 + 5) × 20 + 50."""
    r = score("111z222p555s999m34m77p3z", "3z", **{**SEVEN, "dealer": "W", "dealer_streak": 2})
    assert r["payments"] == {"E": 310, "S": 0, "W": -310, "N": 0}


def test_seven_rob_one_while_extracting_scores_as_a_discard():
    """七搶一 ①, with a shape: the robbed player's 放銃: the hand's 台 and 槓上開花, no 自摸 or 門前自摸
    (門前 1 instead), plus 8: 門前1 + 槓上開花1 + 東1 + 四暗刻5 + 七搶一8 = 16 from West alone."""
    r = score("111z222p555s999m34m77p2m", "2m", **SEVEN, robbed_while_extracting=True)
    assert items(r) == {"門前": 1, "槓上開花": 1, "風牌 東": 1, "四暗刻": 5, "七搶一": 8}
    assert r["payments"] == {"E": _pay(16), "S": 0, "W": -_pay(16), "N": 0}


def test_payments_always_sum_to_zero():
    """Random seats, streaks and win types on the same hands: the core asserts the zero sum too."""
    rng = random.Random(7)
    seats = "ESWN"
    for _ in range(60):
        winner, dealer = rng.choice(seats), rng.choice(seats)
        kw = dict(winner=winner, dealer=dealer, dealer_streak=rng.randrange(4))
        if rng.random() < 0.5:
            kw["self_drawn"] = True
        else:
            kw["discarder"] = rng.choice([s for s in seats if s != winner])
        r = engine.score(req(**HAND, **kw))
        assert sum(r["payments"].values()) == 0
        assert r["payments"][winner] == sum(_pay(t) for t in r["score"]["per_payer"].values())


# ---- option dealer_bonus: "separate" (default) vs "combined" (莊家 inside the 2n+1 line) ----------
def _dealer_case(**changes):
    import engine

    request = {"variant": "taiwan", "concealed": "123m456m789m234p567s99p", "winning_tile": "9p",
               "winner": "S", "dealer": "E", "discarder": "E", "dealer_streak": 0}
    request.update(changes)
    return engine.score(request)


def test_combined_dealer_bonus_charges_a_fresh_dealer_one_tai():
    # 門前 1 (discard win, concealed) ... the dealer discarded at streak 0
    separate = _dealer_case()
    combined = _dealer_case(options={"dealer_bonus": "combined"})
    assert combined["payments"]["E"] == separate["payments"]["E"] - 20  # +1 台 at 20 per 台
    assert any(i["name"].startswith("莊家") for i in combined["score"]["items"])


def test_combined_dealer_bonus_has_no_separate_dealer_line_on_a_dealer_win():
    sep = _dealer_case(winner="E", discarder="S", dealer_streak=2)
    com = _dealer_case(winner="E", discarder="S", dealer_streak=2, options={"dealer_bonus": "combined"})
    # separate: 莊家 1 + 連2 5 = 6 extra; combined: 連2 5 only
    assert sep["payments"]["E"] - com["payments"]["E"] == 20
    assert not any(i["name"].startswith("莊家 (dealer)") for i in com["score"]["items"])
