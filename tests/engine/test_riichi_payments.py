"""Riichi payments: ron/tsumo for dealer and non-dealer, honba, sticks, pao, multiple ron, draws, chombo, uma."""
import pytest

from engine import event, score
from engine.errors import EngineError

PINFU = "234m456p678s234s99m"  # 1 han 30 fu on a ron (pinfu), 2 han 20 fu on a self-draw


def win(**kw):
    req = {"variant": "riichi", "concealed": PINFU, "winning_tile": "2m", "winner": "S", **kw}
    return score(req)


def test_non_dealer_ron_and_tsumo():
    assert win(discarder="W")["payments"] == {"E": 0, "S": 1000, "W": -1000, "N": 0}
    assert win(self_drawn=True)["payments"] == {"E": -700, "S": 1500, "W": -400, "N": -400}


def test_dealer_ron_and_tsumo():
    assert win(winner="E", discarder="W")["payments"] == {"E": 1500, "S": 0, "W": -1500, "N": 0}
    assert win(winner="E", self_drawn=True)["payments"] == {"E": 2100, "S": -700, "W": -700, "N": -700}


def test_dealer_seat_follows_the_dealer_field():
    # with S dealing, S is East: S's self-draw is a dealer's, and E pays as a non-dealer
    out = win(dealer="S", self_drawn=True)
    assert out["payments"] == {"E": -700, "S": 2100, "W": -700, "N": -700}


def test_honba_300_per_counter():
    assert win(discarder="W", dealer_streak=2)["payments"] == {"E": 0, "S": 1600, "W": -1600, "N": 0}
    assert win(self_drawn=True, dealer_streak=2)["payments"] == {"E": -900, "S": 2100, "W": -600, "N": -600}


def test_riichi_sticks_go_to_the_winner():
    out = win(discarder="W", riichi=True, riichi_sticks=3)
    assert out["payments"] == {"E": 0, "S": 2000, "W": -2000, "N": 0}  # zero-sum hand payments
    assert out["riichi_sticks"] == {"seat": "S", "sticks": 3, "points": 3000}
    assert out["totals"] == {"E": 0, "S": 5000, "W": -2000, "N": 0}


def test_riichi_declaration_dealt_in_is_not_paid():
    # 宣言牌での放銃は立直は無効と見なして千点は払わない
    out = win(discarder="W", riichi=True, riichi_sticks=3, declaration_dealt_in=True)
    assert out["riichi_sticks"]["points"] == 2000


DAISANGEN = {"variant": "riichi", "concealed": "777z234m22p", "winning_tile": "2p", "winner": "S",
             "melds": [{"tiles": "555z"}, {"tiles": "666z"}]}


def test_pao_self_draw_full_payment():
    out = score({**DAISANGEN, "self_drawn": True, "pao": "N", "dealer_streak": 1})
    assert out["payments"] == {"E": 0, "S": 32300, "W": 0, "N": -32300}


def test_pao_ron_split_with_the_discarder_who_alone_pays_honba():
    out = score({**DAISANGEN, "discarder": "W", "pao": "N", "dealer_streak": 1})
    assert out["payments"] == {"E": 0, "S": 32300, "W": -16300, "N": -16000}
    same = score({**DAISANGEN, "discarder": "N", "pao": "N"})
    assert same["payments"] == {"E": 0, "S": 32000, "W": 0, "N": -32000}


def test_pao_daisuushii():
    out = score({"variant": "riichi", "concealed": "22p", "winning_tile": "2p", "winner": "S", "self_drawn": True,
                 "melds": [{"tiles": "111z"}, {"tiles": "222z"}, {"tiles": "333z"}, {"tiles": "444z"}], "pao": "E"})
    assert out["payments"] == {"E": -32000, "S": 32000, "W": 0, "N": 0}


def test_no_pao_for_other_yakuman():
    with pytest.raises(EngineError) as exc:
        score({"variant": "riichi", "concealed": "777z234m22p", "winning_tile": "2p", "winner": "S",
               "melds": [{"tiles": "555z"}, {"tiles": "111z"}], "self_drawn": True, "pao": "N"})
    assert exc.value.code == "bad_pao"
    # 「四槓子については包則は適用されません」
    with pytest.raises(EngineError) as exc:
        score({"variant": "riichi", "concealed": "22p", "winning_tile": "2p", "winner": "S", "self_drawn": True,
               "melds": [{"tiles": "1111m"}, {"tiles": "3333s"}, {"tiles": "5555p"}, {"tiles": "7777z"}], "pao": "N"})
    assert exc.value.code == "bad_pao"


def test_no_pao_without_a_claimed_dragon_or_wind_set():
    # 「最後の一組をポンまたは明槓させた者に対し」: with every dragon set concealed (a concealed kong
    # included) no set was claimed, so nobody can be liable
    with pytest.raises(EngineError) as exc:
        score({"variant": "riichi", "concealed": "555z666z234m22p", "winning_tile": "2p", "winner": "S",
               "self_drawn": True, "melds": [{"tiles": "7777z", "concealed": True}], "pao": "N"})
    assert exc.value.code == "bad_pao"
    with pytest.raises(EngineError) as exc:  # a concealed daisuushii: no wind set claimed
        score({"variant": "riichi", "concealed": "111z222z333z444z22p", "winning_tile": "2p", "winner": "S",
               "self_drawn": True, "pao": "N"})
    assert exc.value.code == "bad_pao"


def test_multiple_ron_each_winner_paid_sticks_by_seat_order():
    # N discards; S (riichi) and E win. From N's right: E first. S takes its own stick, E the other two.
    out = event({"variant": "riichi", "event": "multiple_ron", "riichi_sticks": 3, "hands": [
        {"concealed": PINFU, "winning_tile": "2m", "winner": "S", "discarder": "N", "riichi": True},
        {"concealed": PINFU, "winning_tile": "2m", "winner": "E", "discarder": "N"}]})
    assert out["winners"] == ["E", "S"]
    assert out["payments"] == {"E": 1500, "S": 2000, "W": 0, "N": -3500}
    assert out["riichi_sticks"] == {"S": 1000, "E": 2000}
    assert out["totals"] == {"E": 3500, "S": 3000, "W": 0, "N": -3500}


def test_multiple_ron_on_a_riichi_declaration_tile_pays_no_stick():
    # 「宣言牌での放銃は立直は無効と見なして千点は払わない」: N declares riichi with the tile E and S
    # win on (pinfu 1 han 30 fu: dealer E 1500, S 1000). One earlier stick and N's stick are on the
    # table: N's is not paid, so E (first from N's right) takes only the earlier one.
    hands = [{"concealed": PINFU, "winning_tile": "2m", "winner": w, "discarder": "N"} for w in ("S", "E")]
    out = event({"variant": "riichi", "event": "multiple_ron", "riichi_sticks": 2, "declaration_dealt_in": True,
                 "hands": hands})
    assert out["payments"] == {"E": 1500, "S": 1000, "W": 0, "N": -2500}
    assert out["riichi_sticks"] == {"E": 1000}
    assert out["totals"] == {"E": 2500, "S": 1000, "W": 0, "N": -2500}
    with pytest.raises(EngineError):  # N's stick must be among the sticks counted
        event({"variant": "riichi", "event": "multiple_ron", "riichi_sticks": 0, "declaration_dealt_in": True,
               "hands": hands})


def test_multiple_ron_honba_to_each_winner_by_default():
    hands = [{"concealed": PINFU, "winning_tile": "2m", "winner": w, "discarder": "E", "dealer_streak": 1}
             for w in ("W", "S")]
    out = event({"variant": "riichi", "event": "multiple_ron", "hands": hands})
    assert out["payments"] == {"E": -2600, "S": 1300, "W": 1300, "N": 0}
    first = event({"variant": "riichi", "event": "multiple_ron", "hands": hands,
                   "options": {"multiple_ron_honba": "first"}})
    assert first["payments"] == {"E": -2300, "S": 1300, "W": 1000, "N": 0}


@pytest.mark.parametrize("field,value", [("dealer", "S"), ("dealer_streak", 2), ("round_wind", "S")])
def test_multiple_ron_rejects_hands_of_different_deals(field, value):
    # 「放銃した場合は、それぞれの点数を支払う」: one discard, one deal: the second winner scored with
    # another dealer, honba count or round wind would be paid a different amount
    with pytest.raises(EngineError) as exc:
        event({"variant": "riichi", "event": "multiple_ron", "hands": [
            {"concealed": PINFU, "winning_tile": "2m", "winner": "S", "discarder": "N"},
            {"concealed": PINFU, "winning_tile": "2m", "winner": "E", "discarder": "N", field: value}]})
    assert exc.value.field == f"hands[1].{field}"


def test_multiple_ron_rejects_mixed_discarders():
    with pytest.raises(EngineError):
        event({"variant": "riichi", "event": "multiple_ron", "hands": [
            {"concealed": PINFU, "winning_tile": "2m", "winner": "S", "discarder": "N"},
            {"concealed": PINFU, "winning_tile": "2m", "winner": "E", "discarder": "W"}]})


@pytest.mark.parametrize("tenpai,expected", [
    ([], {"E": 0, "S": 0, "W": 0, "N": 0}),
    (["E"], {"E": 3000, "S": -1000, "W": -1000, "N": -1000}),
    (["E", "S"], {"E": 1500, "S": 1500, "W": -1500, "N": -1500}),
    (["E", "S", "W"], {"E": 1000, "S": 1000, "W": 1000, "N": -3000}),
    (["E", "S", "W", "N"], {"E": 0, "S": 0, "W": 0, "N": 0}),
])
def test_noten_payments_3000_in_all(tenpai, expected):
    assert event({"variant": "riichi", "event": "exhaustive_draw", "tenpai": tenpai})["payments"] == expected


@pytest.mark.parametrize("total", [1000, -3000])
def test_noten_total_that_cannot_be_shared_evenly_is_refused(total):
    # 「やり取りされる点数の合計が三千点となるように収受する」: the payments are zero-sum; 1000 cannot be
    # split among 3 noten players (it paid 1000 and took 1002), and a negative total is no payment
    with pytest.raises(EngineError) as exc:
        event({"variant": "riichi", "event": "exhaustive_draw", "tenpai": ["E"], "options": {"noten_total": total}})
    assert exc.value.field == "options.noten_total"


def test_chombo_tournament_20000_from_the_final_score():
    out = event({"variant": "riichi", "event": "chombo", "offender": "S"})
    assert out["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert out["penalty"] == {"seat": "S", "points": -20000, "when": "after the game"}


def test_chombo_negative_penalty_is_refused():
    # 「スコアから 2万点を減点します」: a penalty is taken off; -5 gave the offender +5 after the game
    with pytest.raises(EngineError) as exc:
        event({"variant": "riichi", "event": "chombo", "offender": "S", "options": {"chombo_points": -5}})
    assert exc.value.field == "options.chombo_points"


def test_chombo_open_game_mangan_payment():
    opts = {"chombo": "open"}
    assert event({"variant": "riichi", "event": "chombo", "offender": "S", "options": opts})["payments"] == \
        {"E": 4000, "S": -8000, "W": 2000, "N": 2000}
    assert event({"variant": "riichi", "event": "chombo", "offender": "E", "options": opts})["payments"] == \
        {"E": -12000, "S": 4000, "W": 4000, "N": 4000}


def test_uma_15000_5000():
    out = event({"variant": "riichi", "event": "uma", "scores": {"E": 12000, "S": 3000, "W": -5000, "N": -10000}})
    assert out["uma"] == {"E": 15000, "S": 5000, "W": -5000, "N": -15000}
    assert out["final"] == {"E": 27000, "S": 8000, "W": -10000, "N": -25000}


def test_uma_ties_split():
    out = event({"variant": "riichi", "event": "uma", "scores": {"E": 30000, "S": 30000, "W": -20000, "N": -40000}})
    assert out["uma"] == {"E": 10000, "S": 10000, "W": -5000, "N": -15000}
    assert out["places"] == {"E": 1, "S": 1, "W": 3, "N": 4}


def test_uma_after_chombo_penalty():
    # 「その場での罰符の収受を行わず、半荘終了後にスコアから 2万点を減点します」: the penalty is taken
    # from E's score after the game; the places and uma are the game's (E first: +15000), so the
    # chombo moves no points to or from the other players.
    out = event({"variant": "riichi", "event": "uma", "scores": {"E": 10000, "S": 5000, "W": -5000, "N": -10000},
                 "penalties": {"E": 20000}})
    assert out["places"] == {"E": 1, "S": 2, "W": 3, "N": 4}
    assert out["uma"] == {"E": 15000, "S": 5000, "W": -5000, "N": -15000}
    assert out["final"] == {"E": 10000 + 15000 - 20000, "S": 10000, "W": -10000, "N": -25000}
