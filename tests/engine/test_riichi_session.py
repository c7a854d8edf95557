"""Carried state between riichi hands: dealer, honba, riichi sticks, scores, game end, prefill."""
import pytest

from engine import event, score
from engine.errors import EngineError
from engine.variants import get_variant

V = get_variant("riichi")
PINFU = "234m456p678s234s99m"


def won(winner, state, declared=(), **kw):
    req = {"variant": "riichi", "concealed": PINFU, "winning_tile": "2m", "winner": winner, **V.prefill(state), **kw}
    if not req.get("self_drawn"):
        req.setdefault("discarder", next(s for s in "ESWN" if s != winner))
    return {"type": "win", "request": req, "result": score(req), "riichi": list(declared)}


def test_initial_state():
    s = V.initial_state()
    assert (s["dealer"], s["dealer_streak"], s["round_wind"], s["riichi_sticks"]) == ("E", 0, "E", 0)
    assert s["scores"] == {"E": 0, "S": 0, "W": 0, "N": 0}


def test_dealer_win_keeps_the_deal_and_adds_a_honba():
    s = V.advance(V.initial_state(), won("E", V.initial_state()))
    assert (s["dealer"], s["dealer_streak"]) == ("E", 1)
    assert s["scores"]["E"] == 1500


def test_non_dealer_win_passes_the_deal_and_clears_honba():
    s0 = {**V.initial_state(), "dealer_streak": 2}
    s = V.advance(s0, won("S", s0))
    assert (s["dealer"], s["dealer_streak"]) == ("S", 0)
    assert s["scores"]["S"] == 1600  # 1000 + 2 honba


def test_draw_dealer_tenpai_keeps_noten_passes_both_add_a_honba():
    s0 = V.initial_state()
    kept = V.advance(s0, {"type": "draw", "tenpai": ["E", "W"]})
    assert (kept["dealer"], kept["dealer_streak"]) == ("E", 1)
    assert kept["scores"] == {"E": 1500, "S": -1500, "W": 1500, "N": -1500}
    passed = V.advance(s0, {"type": "draw", "tenpai": ["S"]})
    assert (passed["dealer"], passed["dealer_streak"]) == ("S", 1)


def test_riichi_sticks_carry_over_a_draw_and_go_to_the_next_winner():
    s0 = V.initial_state()
    s1 = V.advance(s0, {"type": "draw", "tenpai": ["S", "W"], "riichi": ["S"]})
    assert s1["riichi_sticks"] == 1 and s1["scores"]["S"] == 1500 - 1000
    assert V.prefill(s1)["riichi_sticks"] == 1
    s2 = V.advance(s1, won("W", s1, riichi=True, riichi_sticks=2, declared=["W"]))
    assert s2["riichi_sticks"] == 0
    # W: +1500 noten, 2 han 30 fu ron 2000 + 300 honba, +2000 sticks, -1000 own stick
    assert s2["scores"]["W"] == 1500 + 2300 + 2000 - 1000
    assert sum(s2["scores"].values()) == 0


def test_riichi_dealt_in_on_its_declaration_tile_pays_no_stick():
    # 「宣言牌での放銃は立直は無効と見なして千点は払わない」: N declares riichi and S rons the declaration
    # tile. N pays the hand (pinfu 1 han 30 fu = 1000) but no stick; nothing is left on the table.
    s0 = V.initial_state()
    outcome = won("S", s0, declared=["N"], discarder="N", riichi_sticks=1, declaration_dealt_in=True)
    assert outcome["result"]["riichi_sticks"]["points"] == 0
    s = V.advance(s0, outcome)
    assert s["scores"] == {"E": 0, "S": 1000, "W": 0, "N": -1000}
    assert s["riichi_sticks"] == 0 and sum(s["scores"].values()) == 0


def test_multiple_ron_dealer_among_winners_keeps_the_deal():
    s0 = V.initial_state()
    hands = [{"concealed": PINFU, "winning_tile": "2m", "winner": w, "discarder": "N"} for w in ("E", "S")]
    result = event({"variant": "riichi", "event": "multiple_ron", "hands": hands})
    s = V.advance(s0, {"type": "multiple_ron", "requests": hands, "result": result})
    assert (s["dealer"], s["dealer_streak"]) == ("E", 1)
    assert s["scores"] == {"E": 1500, "S": 1000, "W": 0, "N": -2500}


def test_multiple_ron_on_a_riichi_declaration_tile_keeps_the_scores_zero_sum():
    # 「宣言牌での放銃は立直は無効と見なして千点は払わない」: N's declaration stick is neither charged nor paid
    s0 = V.initial_state()
    hands = [{"concealed": PINFU, "winning_tile": "2m", "winner": w, "discarder": "N"} for w in ("E", "S")]
    request = {"variant": "riichi", "event": "multiple_ron", "hands": hands, "riichi_sticks": 1,
               "declaration_dealt_in": True}
    result = event(request)
    s = V.advance(s0, {"type": "multiple_ron", "request": request, "requests": hands, "result": result,
                       "riichi": ["N"]})
    assert s["scores"] == {"E": 1500, "S": 1000, "W": 0, "N": -2500}
    assert s["riichi_sticks"] == 0


def test_chombo_replays_the_hand_and_the_penalty_waits_for_the_end():
    s0 = {**V.initial_state(), "dealer_streak": 1}
    result = event({"variant": "riichi", "event": "chombo", "offender": "W"})
    s = V.advance(s0, {"type": "chombo", "result": result})
    assert (s["dealer"], s["dealer_streak"], s["hand_number"]) == ("E", 1, 1)
    assert s["penalties"]["W"] == -20000 and s["scores"]["W"] == 0


def test_uma_takes_penalties_as_points_taken_off():
    # 「スコアから 2万点を減点します」: the state keeps the chombo as -20000; passed to uma() as it is, taking
    # off -20000 made it a +20000 bonus. uma() takes the points off (20000) and refuses a negative.
    from engine.variants.riichi.session import uma

    s0 = V.initial_state()
    s = V.advance(s0, {"type": "chombo", "result": event({"variant": "riichi", "event": "chombo", "offender": "W"})})
    with pytest.raises(EngineError):
        uma(s["scores"], penalties=s["penalties"])
    out = uma(s["scores"], penalties={k: -v for k, v in s["penalties"].items()})
    assert out["final"]["W"] == 0 - 20000  # all tied at 0: uma 0 each


def test_game_ends_after_south_4_passes():
    s = {**V.initial_state(), "dealer": "N", "round_wind": "S"}
    end = V.advance(s, {"type": "draw", "tenpai": []})  # dealer noten on the last hand: the game ends
    assert end["finished"]
    with pytest.raises(EngineError):
        V.advance(end, {"type": "draw", "tenpai": []})
    on = V.advance(s, won("N", s))  # a dealer win on the last hand continues
    assert not on["finished"] and on["dealer"] == "N"


def test_east_round_passes_to_south():
    s = {**V.initial_state(), "dealer": "N"}
    s2 = V.advance(s, won("E", s))
    assert (s2["dealer"], s2["round_wind"]) == ("E", "S")


def test_prefill_is_a_valid_request_part():
    s = {**V.initial_state(), "dealer": "W", "dealer_streak": 3, "round_wind": "S", "riichi_sticks": 2}
    p = V.prefill(s)
    assert p == {"dealer": "W", "dealer_streak": 3, "round_wind": "S", "riichi_sticks": 2}
    out = score({"variant": "riichi", "concealed": PINFU, "winning_tile": "2m", "winner": "W", "self_drawn": True,
                 **p})
    assert out["payments"]["W"] == 2100 + 900 and out["riichi_sticks"]["points"] == 2000


def test_bad_outcome():
    with pytest.raises(EngineError):
        V.advance(V.initial_state(), {"type": "nagashi"})
    with pytest.raises(EngineError):
        V.advance(V.initial_state(), {"type": "draw", "tenpai": [], "riichi": ["E"]})
