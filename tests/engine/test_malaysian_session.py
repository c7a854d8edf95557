"""State carried between Malaysian hands: 上がった人が次局の東風となり (the winner deals next)."""
from engine.variants import get_variant
from malaysian_hands import req, score

V = get_variant("malaysian")
BASE = "123p456p789p555z11z"


def win(winner: str, winning: bool = True) -> dict:
    return {"type": "win", "request": req(BASE, "1z", winner=winner), "result": {"winning": winning}}


def test_initial_state():
    assert V.initial_state() == {"dealer": "E", "dealer_streak": 0, "round_wind": "E", "hand_number": 1}


def test_the_winner_becomes_east():
    s = V.advance(V.initial_state(), win("W"))
    assert (s["dealer"], s["dealer_streak"], s["hand_number"]) == ("W", 0, 2)
    s = V.advance(s, win("S"))
    assert (s["dealer"], s["dealer_streak"]) == ("S", 0)


def test_the_dealer_keeps_the_deal_on_a_win_or_a_draw():
    s = V.advance(V.initial_state(), win("E"))
    assert (s["dealer"], s["dealer_streak"]) == ("E", 1)
    s = V.advance(s, {"type": "draw"})
    assert (s["dealer"], s["dealer_streak"], s["hand_number"]) == ("E", 2, 3)


def test_a_claim_below_the_minimum_does_not_move_the_deal():
    s = V.advance(V.initial_state(), win("S", winning=False))
    assert s["dealer"] == "E"


def test_prefill_gives_the_next_dealer_and_seat_winds_follow():
    s = V.advance(V.initial_state(), win("W"))
    fields = V.prefill(s)
    assert fields == {"dealer": "W", "dealer_streak": 0}
    # W is now East: 春 (1f) and a 東 pung score for W, no longer for E
    r = score("111z123p456p789p99p", "9p", winner="W", flowers="1f", **fields)
    assert r["seat_wind"] == "1z"
    names = [i["name"] for i in r["score"]["items"]]
    assert any(n.startswith("字牌 東") for n in names) and any(n.startswith("花牌 春") for n in names)
