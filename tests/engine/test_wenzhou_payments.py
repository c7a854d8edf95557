"""Wenzhou payments: the dealer unit by streak, caishen money, head-bump, session hooks, errors."""
import pytest
from wenzhou_hands import wz

from engine import event
from engine.errors import EngineError
from engine.variants import get_variant
from engine.variants.wenzhou import head_bump

SOFT_HAND = "345m678m234p567s78s11p2m"
PURE_HAND = "345m678m234p567s789s11p"


@pytest.mark.parametrize("streak,unit", [(0, 2), (1, 4), (2, 6), (3, 8)])
def test_dealer_unit_2468(streak, unit):
    # "親になってすぐの手は2枚,2連荘は4枚,3連荘は6枚,4連荘は8枚です" (soft hand, no caishen money here)
    out = wz(SOFT_HAND, "1p", dealer_streak=streak, options={"caishen_money": 0})
    assert out["payments"] == {"E": -unit, "S": unit + 2, "W": -1, "N": -1}


@pytest.mark.parametrize("streak,unit", [(0, 3), (1, 5), (2, 7), (3, 9)])
def test_dealer_unit_3579(streak, unit):
    out = wz(SOFT_HAND, "1p", dealer_streak=streak, options={"caishen_money": 0, "dealer_units": "3579"})
    assert out["payments"]["E"] == -unit


def test_dealer_wins_every_payer_pays_the_dealer_unit():
    # "子から親と親から子は" the unit: dealer E in its 3rd hand (unit 6), hard x2 = 12 from each
    out = wz(PURE_HAND, "1p", winner="E", discarder="S", dealer_streak=2)
    assert out["payments"] == {"E": 36, "S": -12, "W": -12, "N": -12}


def test_between_non_dealers_one_unit():
    # "子から子へは1枚": dealer N; W and E pay S 1 x 2, the dealer N pays 2 x 2
    out = wz(PURE_HAND, "1p", dealer="N")
    assert out["payments"] == {"E": -2, "S": 8, "W": -2, "N": -4}


def test_caishen_money_of_other_players():
    # "上がっても上がらなくても … 財神を持っている人は,1つにつき1枚 … 他の3人からもらいます"
    out = wz(PURE_HAND, "1p", caishen_held=[0, 0, 0, 2])
    assert out["caishen_money"] == {"E": -2, "S": -2, "W": -2, "N": 6}
    assert out["payments"] == {"E": -6, "S": 6, "W": -4, "N": 4}


def test_caishen_money_rate_option():
    out = wz(SOFT_HAND, "1p", options={"caishen_money": 2})
    assert out["caishen_money"]["S"] == 6


def test_caishen_held_must_match_the_winner_hand():
    with pytest.raises(EngineError) as err:
        wz(SOFT_HAND, "1p", caishen_held=[0, 2, 0, 0])
    assert err.value.field == "caishen_held"
    assert wz(SOFT_HAND, "1p", caishen_held=[0, 1, 0, 0])["payments"]["S"] == 7


@pytest.mark.parametrize("held", [[0, 0, 2, 2], [0, 0, 4], [0, 0, -1, 0], "0100"])
def test_bad_caishen_held(held):
    with pytest.raises(EngineError):
        wz(SOFT_HAND, "1p", caishen_held=held)


def test_streak_past_the_fourth_hand_is_an_error():
    # "4連荘で親が上がったら,次の手は,下家に親を交代します"
    with pytest.raises(EngineError) as err:
        wz(PURE_HAND, "1p", dealer_streak=4)
    assert err.value.field == "dealer_streak"


def test_heavenly_only_for_the_dealer_self_drawn():
    with pytest.raises(EngineError) as err:
        wz(PURE_HAND, "1p", heavenly=True)
    assert err.value.field == "heavenly"


def test_earthly_only_on_the_dealer_discard():
    with pytest.raises(EngineError) as err:
        wz(PURE_HAND, "1p", discarder="W", earthly=True)
    assert err.value.field == "earthly"


def test_caishen_money_event_after_a_draw():
    out = event({"variant": "wenzhou", "event": "caishen_money", "caishen_held": [1, 0, 2, 0]})
    assert out["payments"] == {"E": 1, "S": -3, "W": 5, "N": -3}
    with pytest.raises(EngineError):
        event({"variant": "wenzhou", "event": "caishen_money", "caishen_held": [2, 0, 2, 0]})


def test_head_bump_nearest_to_the_discarder():
    # "上がり牌を捨てた人から一番順番の近い人の上がり"
    assert head_bump("E", ["W", "N"]) == "W"
    assert head_bump("W", ["E", "S"]) == "E"


def test_head_bump_double_beats_it_and_doubles_bump_each_other():
    # "双翻はこのルールに打ち勝ちます.双翻どうしは,頭ハネになります"
    assert head_bump("E", ["S", "N"], doubles=["N"]) == "N"
    assert head_bump("E", ["S", "W", "N"], doubles=["W", "N"]) == "W"
    out = event({"variant": "wenzhou", "event": "head_bump", "discarder": "S", "claimants": ["E", "N"],
                 "doubles": ["E"]})
    assert out["winner"] == "E" and set(out["payments"].values()) == {0}


@pytest.mark.parametrize("discarder,claimants,doubles", [("E", ["E"], []), ("X", ["S"], []), ("E", [], []),
                                                         ("E", ["S"], ["W"]), ("E", [["S"]], [])])
def test_head_bump_errors(discarder, claimants, doubles):
    with pytest.raises(EngineError):
        head_bump(discarder, claimants, doubles)


def test_session_dealer_rotation():
    v = get_variant("wenzhou")
    s = v.initial_state()
    assert (s["dealer"], s["dealer_streak"]) == ("E", 0)
    win = lambda seat: {"type": "win", "request": {"winner": seat}}  # noqa: E731
    s = v.advance(s, win("E"))
    assert (s["dealer"], s["dealer_streak"]) == ("E", 1)
    s = v.advance(s, {"type": "draw"})  # "親の倍数を変えないで連荘"
    assert (s["dealer"], s["dealer_streak"]) == ("E", 1)
    s = v.advance(v.advance(s, win("E")), win("E"))
    assert (s["dealer"], s["dealer_streak"]) == ("E", 3)
    s = v.advance(s, {"type": "draw"})  # "(4連荘のときも)"
    assert (s["dealer"], s["dealer_streak"]) == ("E", 3)
    s = v.advance(s, win("E"))  # a win in the 4th hand passes the deal
    assert (s["dealer"], s["dealer_streak"]) == ("S", 0)
    s = v.advance(s, win("N"))  # "子が上がれば親の右隣が次の親"
    assert (s["dealer"], s["dealer_streak"]) == ("W", 0)
    s = v.advance(s, {"type": "draw", "kong": True})  # "誰かがカンしたら,親の右隣が次の親"
    assert (s["dealer"], s["dealer_streak"]) == ("N", 0)
    assert v.prefill(s) == {"dealer": "N", "dealer_streak": 0}


@pytest.mark.parametrize("options", [{"caishen_money": -1}, {"dealer_units": "1234"}, {"white_counts_hard": 1}])
def test_bad_options_are_errors(options):
    with pytest.raises(EngineError) as err:
        wz(PURE_HAND, "1p", options=options)
    assert err.value.field.startswith("options.")
