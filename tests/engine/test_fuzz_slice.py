"""CI slice of the engine fuzzing: random and mutated requests, fixed seed.

Only EngineError may escape. The full run (1,000,000 inputs, with timings) is
bench/engine_fuzz.py; crashes it finds become regression tests below.
"""
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engine
from engine.errors import EngineError

from fuzzgen import BASES, request

N = 4000


def _call(req):
    try:
        out = engine.score(req)
    except EngineError as e:
        assert e.code and e.message
        return None
    assert isinstance(out, dict) and isinstance(out.get("winning"), bool)
    if isinstance(out.get("payments"), dict):
        assert sum(out["payments"].values()) == 0
    return out


def test_fixed_seed_slice_only_raises_engine_error():
    rng = random.Random(20261122)
    ok = 0
    for _ in range(N):
        ok += _call(request(rng)) is not None
    assert ok > 50  # the mutations keep some requests valid, so scoring is exercised too


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
                           lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=12), kids,
                                                                                     max_size=4), max_leaves=12)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(st.sampled_from(BASES), st.dictionaries(st.sampled_from(
    ["concealed", "melds", "flowers", "winning_tile", "winner", "discarder", "dealer", "dealer_streak",
     "indicator", "options", "self_drawn", "round_wind"]), json_values, max_size=3))
def test_hypothesis_mutations_only_raise_engine_error(base, changes):
    _call({**base, **changes})


@pytest.mark.parametrize("req", [
    {"variant": "riichi", "concealed": "123m", "melds": [{"tiles": "1j1j1j"}]},
    {"variant": ["riichi"]},
    {"variant": "riichi", "concealed": "123m456m789m123p55s", "winning_tile": ["5s"], "winner": "S"},
])
def test_regressions(req):
    with pytest.raises(EngineError):
        engine.score(req)
