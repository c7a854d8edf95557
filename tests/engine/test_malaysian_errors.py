"""Invalid Malaysian situations get the contract's errors, naming the field."""
import pytest

import engine
from malaysian_hands import req

BASE = "123p456p789p555z11z"


@pytest.mark.parametrize("request_,code,field", [
    # 飛は槓子以外: a fei in a kong
    (req("123p456p789p11z", "1z", melds=[{"tiles": "5z5z5z1j"}]), "wild_in_kong", "melds[0].tiles"),
    # a three-player table has no North seat
    (req(BASE, "1z", winner="N"), "bad_seat", "winner"),
    (req(BASE, "1z", winner="S", discarder="N"), "bad_seat", "discarder"),
    (req(BASE, "1z", dealer="N"), "bad_seat", "dealer"),
    # 84 tiles: no characters, no bamboo
    (req("123m456p789p555z11z", "1z"), "tile_not_in_set", "concealed"),
    (req(BASE, "1z", flowers="1s"), "tile_not_in_set", "flowers"),
    # flowers are set aside, the fei may be (下飛), honors may not
    (req("123p456p789p55z1a11z", "1z"), "set_aside_in_hand", "concealed"),
    (req(BASE, "1z", flowers="1z"), "not_a_flower", "flowers"),
    (req(BASE, "1z", flowers="1f1f"), "too_many_copies", "flowers"),
    # 13 tiles win only with four fei
    (req("123p456p789p555z1z", "1z"), "wrong_tile_count", "concealed"),
    (req("1j1j1j1j1p5p9p1z3z5z6z7z7z", "1z", winner="S", discarder="E"), "bad_context", "self_drawn"),
    # four fei win at the deal, on the non-dealer's 13 dealt tiles (the dealer is dealt 14), or on the
    # fourth fei drawn: never with a meld laid, nor on a discard (開始時に飛が4枚あると即勝利)
    (req("1j1j1j1j123p456p5z7z4z", "5z", winner="E", self_drawn=True), "wrong_tile_count", "concealed"),
    (req("1j1j1j1j5z7z4z9p1p6p", "5z", winner="S", self_drawn=True, melds=[{"tiles": "234p"}]),
     "wrong_tile_count", "concealed"),
    (req("1j1j1j1j123p456p5z7z4z9p", "5z", winner="S", discarder="E"), "bad_context", "self_drawn"),
    # a fei cannot be discarded
    (req("123p456p789p555z1z1j", "1j", winner="S", discarder="E"), "bad_context", "winning_tile"),
    # flags that do not fit the hand
    (req(BASE, "1z", winner="S", heavenly=True), "bad_context", "heavenly"),
    (req(BASE, "1z", winner="S", discarder="E", heavenly=True, dealer="S"), "bad_context", "heavenly"),
    (req(BASE, "1z", earthly=True), "bad_context", "earthly"),
    (req(BASE, "1z", winner="S", heavenly=True, earthly=True), "bad_context", "earthly"),
    (req(BASE, "1z", flower_replacement=True), "bad_context", "flower_replacement"),
    (req(BASE, "1z", heavenly="yes"), "bad_type", "heavenly"),
    # options
    (req(BASE, "1z", options={"all_pungs_fan": 4}), "bad_value", "options.all_pungs_fan"),
    (req(BASE, "1z", options={"yaojiu_rule": "some"}), "bad_value", "options.yaojiu_rule"),
    (req(BASE, "1z", options={"north_fan": 1}), "unknown_option", "options.north_fan"),
    (req(BASE, "1z", options={"rate": -200}), "bad_value", "options.rate"),
    (req(BASE, "1z", options={"min_fan": 11}), "bad_value", "options.min_fan"),
])
def test_errors(request_, code, field):
    with pytest.raises(engine.EngineError) as e:
        engine.score(request_)
    assert (e.value.code, e.value.field) == (code, field), e.value.message
    assert e.value.message
