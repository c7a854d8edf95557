"""Philippine forms, the joker and the flores (document: philippine.ja.txt). Joker 1p unless said."""
import pytest
from philippine_hands import ph

from engine import score
from engine.errors import EngineError

PLAIN = "123m345m678m234p567s99s"


def test_five_sets_and_a_pair_of_seventeen_tiles():
    # "5面子+頭ができれば上がりです"
    out = ph(PLAIN, "9s")
    assert out["winning"] and out["form"] == "standard"


def test_sixteen_tiles_cannot_win():
    with pytest.raises(EngineError) as err:
        ph("123m345m678m234p567s9s", "9s")
    assert err.value.code == "wrong_tile_count"


def test_not_winning_shape():
    out = ph("123m345m678m234p567s19s", "9s")
    assert out["winning"] is False and out["reason"]


def test_seven_first():
    # "セブンファースト:チートイツ+1面子"
    out = ph("11m22m33m44p55p66p77s789s", "9s")
    assert out["winning"] and out["form"] == "seven_first"


def test_a_self_drawn_special_hand_is_named_as_itself():
    # Seven First and Escalera pay 10 from each and 2 chips, as a plain self-drawn win does: the
    # special hand is the one named, the self-draw listed as not added
    out = ph("11m22m33m44p55p66p77s789s", "9s", discarder=None)
    assert out["form"] == "seven_first" and out["score"]["items"][0]["name"].startswith("Seven First")
    assert out["explain"].startswith("Seven First")
    assert any(i["name"].startswith("self-drawn win") and i["value"] == 0 for i in out["score"]["items"])


def test_seven_first_with_a_joker():
    out = ph("11m22m33m44p55p66p7s789s1p", "9s")
    assert out["form"] == "seven_first"
    assert out["jokers"]["uses"] == [{"tile": "1p", "as": "7s"}]


def test_seven_first_with_a_claimed_set():
    out = ph("11m22m33m44p55p66p77s", "7s", melds=[{"tiles": "789s"}])
    assert out["winning"] and out["form"] == "seven_first"
    assert out["reading"]["groups"][-1] == {"kind": "chow", "tiles": "789s", "concealed": False, "declared": True}
    assert ph("11m22m33m44p55p66p7s1p", "7s", melds=[{"tiles": "789s"}])["form"] == "seven_first"


def test_escalera():
    # "エスカラーダ:一気通かん+1面子"
    out = ph("123m456m789m234p678s55s", "5s")
    assert out["winning"] and out["form"] == "escalera"


def test_escalera_with_a_declared_chow_and_the_concealed_option():
    hand = dict(concealed="456m789m234p678s55s", win="5s", melds=[{"tiles": "123m"}])
    assert ph(**hand)["form"] == "escalera"
    assert ph(**hand, options={"escalera_concealed": True})["form"] == "standard"


def test_the_indicator_itself_is_the_joker_with_three_copies_left():
    # "その牌自体がジョーカーですので、実際に使用可能なジョーカーの枚数は3枚だけ"
    out = ph("123m345m678m234p57s99s1p", "9s")
    j = out["jokers"]
    assert (j["name"], j["tile"], j["indicator"], j["count"]) == ("joker", "1p", "1p", 1)
    assert j["uses"] == [{"tile": "1p", "as": "6s"}]
    with pytest.raises(EngineError) as err:
        ph("123m345m678m57s99s1p1p1p1p", "9s")
    assert err.value.code == "too_many_copies"


def test_every_honor_and_flower_is_a_flores():
    # "字牌、花牌はフローレス"; "フローレスは手の中には入れないで手元に出す"
    out = ph(PLAIN, "9s", flowers="1z5z7z1f8f")
    assert out["flowers"] == 5
    with pytest.raises(EngineError) as err:
        ph("123m345m678m234p567s9s1z", "1z")
    assert err.value.code == "set_aside_in_hand"


def test_the_joker_is_a_number_tile():
    # a flores turned up is taken and the next tile turned ("数牌がでるまで繰り返します")
    with pytest.raises(EngineError) as err:
        ph(PLAIN, "9s", indicator="5z")
    assert err.value.code == "bad_indicator"


def test_missing_joker_indicator_is_an_error():
    with pytest.raises(EngineError) as err:
        score({"variant": "philippine", "concealed": PLAIN, "winning_tile": "9s", "winner": "S",
               "discarder": "E"})
    assert err.value.code == "missing_indicator"


def test_joker_in_a_declared_meld_is_an_error():
    with pytest.raises(EngineError) as err:
        ph("456m789m234p678s55s", "5s", melds=[{"tiles": "1p23m"}])
    assert err.value.code == "wild_in_meld"


def test_waits_with_a_lone_joker_are_every_number_tile():
    out = score({"variant": "philippine", "concealed": "123m345m678m234p567s1p", "indicator": "1p"})
    assert "9s" in out["waits"] and "1p" not in out["waits"] and "1z" not in out["waits"]
    assert len(out["waits"]) == 26


def test_a_fifth_seat_is_an_error():
    with pytest.raises(EngineError) as err:
        ph(PLAIN, "9s", winner="X")
    assert err.value.code == "bad_seat"


def test_escalera_with_three_jokers_as_one_run():
    # "エスカラーダ:一気通かん+1面子 (つもでも誰から上がっても、10ペソ通しでチップ2枚)" and the joker is
    # "トランプのジョーカーのようにオールマイティー": 1p 1p 1p (joker 1p) are the missing 7-8-9m, so
    # 123m 456m [789m] 234p 678s 55s is an Escalera, 10 from each of the three others = 30, 2 chips.
    # With a table's single-joker rate of 5 (the rates are only an example, 「レートはあくまでも一例」)
    # the Escalera is the best payment.
    out = ph("123m456m1p1p1p234p678s55s", "5s", options={"single_joker": 5})
    assert out["form"] == "escalera"
    assert out["payments"] == {"E": -10, "S": 30, "W": -10, "N": -10}
    assert out["chips"]["earned"] == 2
