"""Inputs that the 1,000,000-input engine fuzzing run (bench/engine_fuzz.py) found
escaping ``engine.score`` with something other than EngineError."""
from __future__ import annotations

import pytest

import engine
from engine.errors import EngineError

# Found 2026-11-22 (run at 1b0b730): an explicit null dealer reached riichi's seat
# wind as None and escaped as ValueError (tuple.index). Null now means the default, E.
NULL_DEALER = [
    {"variant": "riichi", "concealed": "123m456m789m123p55s", "winning_tile": "5s", "winner": "S",
     "discarder": "E", "riichi": True, "dora_indicators": "4s", "dealer": None},
    {"variant": "riichi", "concealed": "1133557799m1199p", "winning_tile": "1p", "winner": "E",
     "self_drawn": True, "dealer_streak": 506, "dealer": None},
]


@pytest.mark.parametrize("request_", NULL_DEALER, ids=["riichi-ron", "riichi-chiitoitsu-tsumo"])
def test_null_dealer_scores_as_the_default_dealer(request_):
    without = {k: v for k, v in request_.items() if k != "dealer"}
    assert engine.score(request_) == engine.score(without)


@pytest.mark.parametrize("variant", ["riichi", "taiwan", "malaysian", "philippine", "wenzhou"])
def test_null_dealer_never_escapes_in_any_variant(variant):
    req = {"variant": variant, "concealed": "123m456m789m123p55s", "winning_tile": "5s", "winner": "S",
           "self_drawn": True, "dealer": None}
    try:
        out = engine.score(req)
    except EngineError as exc:
        assert exc.code and exc.message
    else:
        assert isinstance(out, dict)
