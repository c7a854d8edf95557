"""Malaysian forms and fei: 4 sets and a pair with fei filling in, 四飛, 下飛 (malaysian-3p.ja.txt 「特殊牌・飛」)."""
import pytest

import engine
from malaysian_hands import items, req, score, total


def uses(result) -> list[str]:
    return sorted(u["as"] for u in result["jokers"]["uses"])


def test_fei_is_wild_in_a_chow_and_a_pung():
    # 飛は槓子以外の全ての組合せ(対子、刻子、順子)に使うことができる
    r = score("13p1j456p789p55z1j99p", "9p", flowers="1a")
    assert r["winning"] is False  # 吃胡 1 + 白 1 + 貓 1 = 3 < 5
    assert uses(r) == ["2p", "5z"] and items(r)["字牌 白"] == 1
    assert r["jokers"] == {**r["jokers"], "name": "fei", "tile": "1j", "count": 2}


def test_fei_as_a_pair():
    r = score("123p456p789p555z7z1j", "7z", flowers="1a2a")
    assert uses(r) == ["7z"] and r["form"] == "standard"


def test_fei_in_declared_pung_and_chow():
    r = score("123p456p11z", "1z", melds=[{"tiles": "5z5z1j"}, {"tiles": "5p6p1j"}], flowers="1a")
    assert items(r)["字牌 白"] == 1
    groups = [g for g in r["reading"]["groups"] if g.get("declared")]
    assert {g["tiles"] for g in groups} == {"555z", "456p"}


def test_fei_only_set_stands_for_what_scores_best():
    # three fei beside two dragon pungs complete 大三元
    r = score("555z666z1j1j1j123p99p", "9p", flowers="1a")
    assert items(r)["大三元"] == 10 and uses(r) == ["7z", "7z", "7z"]


def test_a_fei_never_stands_for_a_fifth_copy():
    # three natural White dragons: the fei set is another honor pung, never a second 白 pung
    r = score("555z1j1j1j123p456p99p", "9p", flowers="1a")
    assert "5z" not in uses(r)
    assert total(r) == 4  # 吃胡 1 + 白 1 + the fei pung of 東 (East's own wind), 北, 發 or 中 1 + 貓 1
    r = score("5z5z5z5z1j123p456p999p", "9p", flowers="1a")
    assert r["winning"] is False and "fifth copy" in r["reason"]


def test_four_fei_at_the_deal_wins_with_thirteen_tiles():
    # 開始時に飛が4枚あると即勝利となり、四飛という最大役(10番)になる
    r = score("1j1j1j1j1p5p9p1z3z5z6z7z7z", "1j", winner="S", flowers="1a")
    assert r["winning"] and r["form"] == "four_fei" and items(r)["四飛"] == 10
    assert r["payments"] == {"S": 8000, "E": -4000, "W": -4000}


def test_four_fei_when_the_fourth_is_drawn():
    # 手に3枚飛があり、残り1枚の飛をツモると最大役で上がりになる
    r = score("1j1j1j1p5p9p1z3z5z6z7z7z2p1j", "1j", winner="W", flowers="1a")
    assert r["winning"] and r["form"] == "four_fei" and total(r) == 10
    assert r["reading"]["loose"] == "1259p135677z1111j"


def test_three_fei_in_hand_are_ready_on_the_fourth():
    # 手に3枚飛があり、残り1枚の飛をツモると最大役で上がりになる: three fei and no shape are ready,
    # the fourth fei their only wait; any discard but a fei (never discarded) keeps them so
    r = engine.score({"variant": "malaysian", "concealed": "1j1j1j2p4p6p8p1z2z3z4z5z6z"})
    assert r["waits"] == ["1j"] and r["shanten"] == 0
    r = engine.score({"variant": "malaysian", "concealed": "1j1j1j2p4p6p8p1z2z3z4z5z6z7z"})
    assert set(r["discards"]) == {"2p", "4p", "6p", "8p", "1z", "2z", "3z", "4z", "5z", "6z", "7z"}
    assert all(w == ["1j"] for w in r["discards"].values())


def test_a_ready_hand_does_not_list_the_fei_beside_its_waits():
    # drawing a fei completes any ready hand: listed only where nothing else does
    r = engine.score({"variant": "malaysian", "concealed": "123p456p789p555z7z"})
    assert r["waits"] == ["7z"]


def test_three_fei_and_no_shape_does_not_win():
    r = score("1j1j1j1p5p9p1z3z5z6z7z7z2p4p", "4p", flowers="1a")
    assert r["winning"] is False and "reason" in r and "fewer than 4 fei" in r["reason"]


def test_a_fei_is_never_discarded():
    # 手にある飛は捨てることはできない: no fei among the discards, no win on a discarded fei
    r = engine.score({"variant": "malaysian", "concealed": "123p456p789p555z1z1j", "winner": "E"})
    assert r["complete"] and "1j" not in r["discards"] and r["discards"]
    e = _error(req("123p456p789p555z1z1j", "1j", winner="S", discarder="E"))
    assert (e.code, e.field) == ("bad_context", "winning_tile")


def test_laid_fei_counts_toward_the_four_copies():
    e = _error(req("1j1j1j1j1p5p9p1z3z5z6z7z7z", "1j", flowers="1j"))
    assert e.code == "too_many_copies"


def test_waiting_hand_reports_waits():
    r = engine.score({"variant": "malaysian", "concealed": "123p456p789p555z1z", "winner": "E"})
    assert r["waits"] == ["1z"]


def _error(request):
    with pytest.raises(engine.EngineError) as e:
        engine.score(request)
    return e.value


def test_eighty_four_tiles_thirteen_in_hand():
    # 麻雀の筒子と16枚の花牌、4枚の飛という特殊牌の合計84枚; 東家が14枚、南家と西家が13枚
    d = engine.describe_variants()["malaysian"]
    assert sum(d["tiles"].values()) == 84 and d["hand_tiles"] == 13 and d["seats"] == ["E", "S", "W"]
    assert d["tiles"]["1j"] == 4 and d["tiles"]["4z"] == 4 and "1s" not in d["tiles"] and d["tiles"]["4h"] == 1


def test_declared_chow_with_a_fei_is_read_as_the_chow_that_scores_best():
    # 「飛は槓子以外の全ての組合せ(対子、刻子、順子)に使うことができる」: a claimed 7p 8p + fei may be
    # 678p or 789p; read as 789p every set and the pair hold 1p, 9p or an honor, so 「●幺九」 (1番) counts.
    # East (the dealer, seat wind East) wins on South's discard: 幺九 1 + 吃胡/鶏胡 1 + 字牌 東 pung 1
    # + 冬 1 + 竹 1 (「冬/竹 …1番」) = 5 fan, the minimum (「上がるには5番以上」), paid
    # 「放銃した人が番数×200、もう一人が番数×100」: S 5 × 200 = 1000, W 5 × 100 = 500.
    r = score("123p999p111z55z", "5z", discarder="S", melds=[{"tiles": "78p1j"}], flowers="4f8f")
    assert items(r)["幺九"] == 1 and total(r) == 5 and r["winning"]
    assert r["payments"] == {"E": 1500, "S": -1000, "W": -500}


def test_declared_meld_of_one_circle_and_two_fei_may_be_a_chow():
    # 5p + 1j 1j claimed: 555p or 345p/456p/567p. As a chow the hand is all circles and all chows,
    # 「◆4番 ●全筒子平糊(※鳴いても成立)」 4 + 冬 1 = 5 fan (a pung would be 全筒子 3 + 冬 1 = 4, no win).
    r = score("123p456p789p11p", "1p", discarder="S", melds=[{"tiles": "5p1j1j"}], flowers="4f")
    assert items(r) == {"全筒子平糊": 4, "花牌 冬": 1} and r["winning"]
    assert r["payments"] == {"E": 1500, "S": -1000, "W": -500}
