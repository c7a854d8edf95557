"""Invalid input: the documented error JSON, the one exception type, exit code 2."""
import json
import subprocess
import sys

import pytest

import engine
from engine.errors import EngineError

WIN = {"variant": "riichi", "concealed": "123m456m789m123p55s", "winning_tile": "5s", "winner": "S",
       "discarder": "E"}


def err(request) -> EngineError:
    with pytest.raises(EngineError) as e:
        engine.score(request)
    return e.value


@pytest.mark.parametrize("change,code,field", [
    ({"concealed": "123m456m789m123p5s8z"}, "unknown_tile", "concealed"),
    ({"concealed": "123m456m789m1234p55s"}, "wrong_tile_count", "concealed"),
    ({"concealed": "11111m456m789m55s", "winning_tile": "5s"}, "too_many_copies", "concealed"),
    ({"concealed": "123m456m789m123p5s", "winning_tile": "5s"}, "wrong_tile_count", "concealed"),
    ({"winning_tile": "9p"}, "winning_tile_not_in_hand", "winning_tile"),
    ({"variant": "zung-jung"}, "unknown_variant", "variant"),
    ({"discarder": None}, "missing_discarder", "discarder"),
    ({"discarder": "S"}, "bad_context", "discarder"),
    ({"winner": "X"}, "bad_seat", "winner"),
    ({"dealer_streak": -1}, "bad_value", "dealer_streak"),
    ({"self_drawn": "yes"}, "bad_type", "self_drawn"),
    ({"colour": "red"}, "unknown_field", "colour"),
    ({"options": {"nonsense": 1}}, "unknown_option", "options.nonsense"),
    ({"melds": [{"tiles": "124m"}]}, "bad_meld", "melds[0].tiles"),
    ({"flowers": "1f"}, "tile_not_in_set", "flowers"),
])
def test_riichi_errors(change, code, field):
    request = {**WIN, **change}
    request = {k: v for k, v in request.items() if v is not None}
    e = err(request)
    assert (e.code, e.field) == (code, field), e.message
    assert e.message


def test_tile_not_in_variant_set():
    e = err({"variant": "malaysian", "concealed": "123m456p789p11z", "winner": "E"})
    assert e.code == "tile_not_in_set"


def test_flower_in_hand_must_be_set_aside():
    e = err({"variant": "taiwan", "concealed": "123m456m789m123p456p1f", "winner": "E"})
    assert e.code == "set_aside_in_hand"


def test_seat_not_at_a_three_player_table():
    e = err({"variant": "malaysian", "concealed": "123p456p789p11z222z", "winning_tile": "1z", "winner": "N",
             "self_drawn": True})
    assert e.code == "bad_seat" and e.field == "winner"


def test_indicator_counts_as_a_visible_copy():
    e = err({"variant": "wenzhou", "concealed": "1111m", "indicator": "1m"})
    assert e.code == "too_many_copies"


def test_request_must_be_an_object():
    assert err(["not", "a", "dict"]).code == "bad_request"


def run_cli(payload: str):
    return subprocess.run([sys.executable, "-m", "engine", "score"], input=payload, capture_output=True, text=True,
                          timeout=60)


def test_cli_error_exit_code_and_json():
    p = run_cli(json.dumps({**WIN, "variant": "nope"}))
    assert p.returncode == 2
    assert json.loads(p.stdout) == {"error": {"code": "unknown_variant", "field": "variant",
                                              "message": json.loads(p.stdout)["error"]["message"]}}
    p = run_cli("{not json")
    assert p.returncode == 2 and json.loads(p.stdout)["error"]["code"] == "bad_json"


def test_cli_success_is_the_python_call():
    p = run_cli(json.dumps({"variant": "riichi", "concealed": "123m456m789m123p5s"}))
    assert p.returncode == 0
    assert json.loads(p.stdout) == engine.score({"variant": "riichi", "concealed": "123m456m789m123p5s"})
