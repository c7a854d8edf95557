"""Philippine events outside a win (kong, flores bonus, false win, claim priority) and session hooks."""
import pytest
from philippine_hands import ph

from engine import event
from engine.errors import EngineError
from engine.variants import get_variant


def ev(name, **fields):
    return event({"variant": "philippine", "event": name, **fields})


def test_kong_five_from_each():
    # "カン … はその場で5ペソ通し貰えます"
    assert ev("kong", seat="W")["payments"] == {"E": -5, "S": -5, "W": 15, "N": -5}


@pytest.mark.parametrize("flores,at_deal,paid", [(0, True, True), (13, True, True), (14, False, True),
                                                 (13, False, True), (12, True, False), (0, False, False)])
def test_flores_bonus(flores, at_deal, paid):
    # "手元に出したフローレスの枚数が0枚か13枚以上あると、その人はその場で5ペソ通しで貰えます";
    # during play: "これまたここで13枚以上揃えば5ペソ通しで貰えます"
    out = ev("flores_bonus", seat="N", flores=flores, at_deal=at_deal)
    expected = {"E": -5, "S": -5, "W": -5, "N": 15} if paid else {"E": 0, "S": 0, "W": 0, "N": 0}
    assert out["payments"] == expected


def test_false_win_ten_to_each():
    # "上がりを宣言して牌を倒したのに実は間違いだった場合はP10通しのペナルティを払います"
    assert ev("false_win", seat="S")["payments"] == {"E": 10, "S": -30, "W": 10, "N": 10}


def test_event_rates_are_options():
    out = ev("kong", seat="E", options={"kong_bonus": 20})
    assert out["payments"]["E"] == 60


def test_claim_priority():
    # "複数の人が同じ捨牌で上がる場合は、捨てた人の上席が優先権を持ちます"
    assert ev("claim_priority", discarder="E", claimants=["S", "N"])["winner"] == "N"
    assert ev("claim_priority", discarder="E", claimants=["S", "W"])["winner"] == "W"
    nxt = ev("claim_priority", discarder="E", claimants=["S", "N"], options={"claim_priority": "next_first"})
    assert nxt["winner"] == "S"


@pytest.mark.parametrize("name,fields", [("kong", {}), ("kong", {"seat": "X"}), ("kong", {"seat": "E", "x": 1}),
                                         ("flores_bonus", {"seat": "E"}), ("flores_bonus", {"seat": "E", "flores": 40}),
                                         ("claim_priority", {"discarder": "E", "claimants": ["E"]}),
                                         ("claim_priority", {"discarder": "E", "claimants": []}),
                                         ("mahjong", {"seat": "E"})])
def test_event_errors(name, fields):
    with pytest.raises(EngineError):
        ev(name, **fields)


def test_session_chips_carry_and_reset_on_hi_ala():
    v = get_variant("philippine")
    state = v.initial_state()
    assert state["chips"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    for _ in range(2):  # two self-draws by S: 2 + 2 chips
        req = {"winner": "S"}
        out = ph("123m345m678m234p567s99s", "9s", discarder=None, **v.prefill(state))
        state = v.advance(state, {"type": "win", "request": req, "result": out})
    assert state["chips"]["S"] == 4 and state["dice_roller"] == "S"
    state = v.advance(state, {"type": "draw"})
    assert state["chips"]["S"] == 4
    out = ph("123m345m678m234p567s99s", "9s", **v.prefill(state))  # +1 chip: hi-ala
    assert out["chips"]["hi_ala"] and out["payments"]["S"] == 25
    state = v.advance(state, {"type": "win", "request": {"winner": "S"}, "result": out})
    assert state["chips"] == {"E": 0, "S": 0, "W": 0, "N": 0}
