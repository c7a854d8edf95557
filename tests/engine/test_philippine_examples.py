"""Every figure the document gives, one row each: the passage, a hand or event, the exact pesos and chips.

The table is the document's rate card; the other test files check each rule's conditions."""
import pytest
from philippine_hands import ph

from engine import event

PLAIN = "123m345m678m234p567s99s"
RATE_CARD = [
    # passage, hand keywords, payments, chips earned
    ("振込みの場合は振った人が10ペソでチップ1枚", dict(concealed=PLAIN, win="9s", discarder="W"),
     {"E": 0, "S": 10, "W": -10, "N": 0}, 1),
    ("積もの場合はみんなから10ペソでチップ2枚", dict(concealed=PLAIN, win="9s", discarder=None),
     {"E": -10, "S": 30, "W": -10, "N": -10}, 2),
    ("セブンファースト … 10ペソ通しでチップ2枚", dict(concealed="11m22m33m44p55p66p77s789s", win="9s"),
     {"E": -10, "S": 30, "W": -10, "N": -10}, 2),
    ("エスカラーダ … 10ペソ通しでチップ2枚", dict(concealed="123m456m789m234p678s55s", win="5s", discarder=None),
     {"E": -10, "S": 30, "W": -10, "N": -10}, 2),
    ("フローレスを一枚も … 15ペソ通しでチップ2枚", dict(concealed=PLAIN, win="9s", flowers=""),
     {"E": -15, "S": 45, "W": -15, "N": -15}, 2),
    ("シングルジョーカー … 15ペソ通しでチップ2枚", dict(concealed="123m345m678m234p567s9s1p", win="9s"),
     {"E": -15, "S": 45, "W": -15, "N": -15}, 2),
    ("上がった人が10ペソ通し … 振った人も10ペソだけ", dict(concealed=PLAIN, win="1m", robbed_kong=True),
     {"E": -10, "S": 30, "W": -10, "N": -10}, 1),
    ("ハイアライ … 更に5ペソ通し", dict(concealed=PLAIN, win="9s", chips_before=[0, 4, 0, 0]),
     {"E": -15, "S": 25, "W": -5, "N": -5}, 1),
]


@pytest.mark.parametrize("passage,hand,payments,chips", RATE_CARD, ids=[r[0][:12] for r in RATE_CARD])
def test_rate_card(passage, hand, payments, chips):
    out = ph(hand.pop("concealed"), hand.pop("win"), **hand)
    assert out["payments"] == payments
    assert out["chips"]["earned"] == chips


@pytest.mark.parametrize("name,fields,payments", [
    ("kong", {"seat": "S"}, {"E": -5, "S": 15, "W": -5, "N": -5}),  # "5ペソ通し貰えます"
    ("flores_bonus", {"seat": "S", "flores": 13}, {"E": -5, "S": 15, "W": -5, "N": -5}),  # "13枚以上 … 5ペソ通し"
    ("false_win", {"seat": "S"}, {"E": 10, "S": -30, "W": 10, "N": 10}),  # "P10通しのペナルティ"
])
def test_event_rate_card(name, fields, payments):
    assert event({"variant": "philippine", "event": name, **fields})["payments"] == payments
