"""Bad input gets a clear EngineError; wins the table does not allow (過水, 相公, 大明槓 replacement)
are refused with the reason (sections 5, 7 and 8)."""
import pytest

import engine
from engine.errors import EngineError
from taiwan_hands import req, score

HAND = dict(concealed="123m456m789p234s555z99s", win="9s")
READY = dict(concealed="123m456m789p678s23s55p4s", win="4s")


def _error(**kw) -> EngineError:
    with pytest.raises(EngineError) as exc:
        engine.score(req(**kw))
    return exc.value


# ---- refused wins -------------------------------------------------------------------------------
def test_passed_win_is_refused():
    """過水: after passing a win, no win until a non-winning discard (or an added kong)."""
    r = score(**HAND, passed_win=True)
    assert not r["winning"] and r["reason"].startswith("過水")
    assert set(r["payments"].values()) == {0}


def test_dead_hand_is_refused():
    """相公 (暗相 / 明相): a flower kept in hand, or a forbidden act of section 7."""
    r = score(**HAND, self_drawn=True, dead_hand=True)
    assert not r["winning"] and r["reason"].startswith("相公")


def test_no_self_draw_on_an_open_kong_replacement():
    """大ミンカンの補牌でツモアガリすることはできない."""
    r = score(concealed="123m456m789p555z99s", win="9s", melds=("2222s",), self_drawn=True, replacement=True,
              open_kong_replacement=True)
    assert not r["winning"] and "大ミンカン" in r["reason"]


def test_eight_flowers_without_a_shape_on_a_discard_is_not_a_win():
    r = score("23s456s555s99s1p", "1p", melds=("666z", "789s"), flowers="12345678f")
    assert not r["winning"] and "八仙過海" in r["reason"]


def test_eight_flowers_without_a_shape_on_a_later_draw_is_not_a_win():
    """「八枚めの花牌の補牌を完了してからアガリを宣言しなくてはならない」, and after a premature claim
    「その後に手牌がアガリの形になったらアガれる」: without a shape, eight flowers win only on the
    replacement for the eighth flower (or the first draw of 配牌花胡), not on a later ordinary draw."""
    hand = dict(concealed="23s456s555s99s1p", win="1p", melds=("666z", "789s"), flowers="12345678f",
                self_drawn=True)
    r = score(**hand)
    assert not r["winning"] and "八仙過海" in r["reason"]
    assert score(**hand, replacement=True)["form"] == "flowers_only"
    assert score(**hand, dealt_flowers=True)["form"] == "flowers_only"


def test_not_a_winning_shape():
    r = score("123m456m789p234s555z98s", "8s")
    assert not r["winning"] and r["waits"] == ["9s"]


# ---- invalid contexts --------------------------------------------------------------------------
def test_dealer_cannot_declare_heavenly_ready():
    assert _error(**READY, winner="N", dealer="N", tian_ting=True).field == "tian_ting"


def test_ready_declarations_need_a_concealed_hand():
    e = _error(concealed="789p678s23s55p4s", win="4s", melds=("123m", "456m"), di_ting=True)
    assert e.field == "di_ting" and e.code == "bad_context"


def test_two_declarations_at_once():
    assert _error(**READY, tian_ting=True, di_ting=True).field == "di_ting"


def test_a_first_turn_win_comes_before_any_earthly_ready_declaration():
    # 第1打牌と同時にテンパイを宣言すると地聴状態: 天胡, 地胡 and 人胡 are won before that first discard
    assert _error(**READY, self_drawn=True, discarder=None, first_turn=True, di_ting=True).field == "di_ting"
    assert _error(**READY, self_drawn=True, discarder=None, first_turn=True, di_ting=True,
                  di_ting_yi_fa=True).field == "di_ting"


def test_dealt_flowers_win_at_the_first_draw_only():
    # 順番が回ってくるのを待って一枚めのツモをしたとき、すなわち手牌が17枚になったとき: a self-draw, and not
    # the last tile of the wall
    hand = dict(concealed="111z444m555p777s789p22m", win="2m", flowers="12345678f", dealt_flowers=True)
    assert _error(**hand).field == "dealt_flowers"  # on West's discard
    assert _error(**hand, self_drawn=True, discarder=None, last_tile=True).field == "dealt_flowers"
    assert engine.score(req(**hand, self_drawn=True, discarder=None))["winning"]


def test_first_go_around_needs_the_declaration():
    assert _error(**READY, di_ting_yi_fa=True).field == "di_ting_yi_fa"


def test_dealer_first_turn_win_is_self_drawn():
    assert _error(**READY, winner="N", dealer="N", first_turn=True).field == "first_turn"


def test_seven_rob_one_needs_eight_flowers_and_the_flower():
    base = dict(concealed="111z222p555s999m34m77p2m", win="2m", winner="E", self_drawn=True, replacement=True)
    assert _error(**base, flowers="1235678f", robbed_flower_from="W", robbed_flower="4f").field == \
        "robbed_flower_from"
    assert _error(**base, flowers="12345678f", robbed_flower_from="W").field == "robbed_flower"
    assert _error(**base, flowers="12345678f", robbed_flower_from="E", robbed_flower="4f").field == \
        "robbed_flower_from"
    assert _error(**base, flowers="12345678f", robbed_flower="4f").field == "robbed_flower_from"
    e = _error(**base, flowers="12345678f", robbed_flower_from="W", robbed_flower="4f",
               options={"seven_rob_one": False})
    assert "seven_rob_one" in e.message


def test_seven_rob_one_is_won_on_the_replacement():
    """「搶花による補牌を完了して手牌を17枚にしてからアガリを宣言する」: 七搶一 is declared on the replacement
    for the robbed flower (or, in 配牌花胡, on the first draw), so a 七搶一 without either is an error rather
    than a score without its 槓上開花."""
    base = dict(concealed="111z222p555s999m34m77p2m", win="2m", winner="E", self_drawn=True,
                flowers="12345678f", robbed_flower_from="W", robbed_flower="4f")
    assert _error(**base).field == "replacement"
    assert score(**base, dealt_flowers=True)["winning"]


def test_flag_values_are_checked():
    assert _error(**HAND, robbed_flower_from="X").code == "bad_value"
    assert _error(**HAND, tian_ting="yes").code == "bad_type"
    assert _error(**HAND, options={"qing_yi_se": 10}).code == "bad_value"
    assert _error(**HAND, options={"no_such_rule": 1}).code == "unknown_option"


def test_rates_cannot_be_negative():
    """底 and 台 are what the loser pays (「放銃した者が90点を支払う」): a negative rate would turn the
    payments round, so it is a bad value, as in the other variants."""
    for name in ("base", "tai_value"):
        e = _error(**HAND, options={name: -5})
        assert (e.code, e.field) == ("bad_value", f"options.{name}")
    assert score(**HAND, options={"base": 0, "tai_value": 0})["payments"]["S"] == 0


def test_flowers_not_played():
    assert _error(**HAND, flowers="1f", options={"flowers": False}).code == "no_flowers"


def test_triple_dice_needs_the_option():
    assert _error(**HAND, triple_dice=True).field == "triple_dice"


def test_last_tile_is_never_a_replacement():
    assert _error(**HAND, self_drawn=True, replacement=True, last_tile=True, flowers="1f").field == "last_tile"


def test_sixteen_tiles_do_not_win():
    assert _error(concealed="123m456m789p234s555z9s", win="9s").code == "wrong_tile_count"


def test_a_flower_in_hand_is_rejected():
    """A flower among the concealed tiles (暗相) must be set aside; the core says so."""
    assert _error(concealed="123m456m789p234s55z1f99s", win="9s").code == "set_aside_in_hand"
