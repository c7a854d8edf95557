"""Invalid riichi situations are clear EngineErrors naming the field, never crashes."""
import json

import pytest

from engine import event, score
from engine.__main__ import main
from engine.errors import EngineError

PINFU = "234m456p678s234s99m"


def req(**kw):
    return {"variant": "riichi", "concealed": PINFU, "winning_tile": "2m", "winner": "S", "discarder": "W", **kw}


@pytest.mark.parametrize("extra,field", [
    ({"riichi": True, "concealed": "456p678s234s99m", "winning_tile": "2s", "melds": [{"tiles": "234m"}]},
     "riichi"),
    ({"ippatsu": True}, "ippatsu"),
    ({"last_tile": True, "robbed_kong": True}, "last_tile"),
    ({"robbed_concealed_kong": True}, "robbed_concealed_kong"),
    ({"first_turn": True, "winner": "E"}, "first_turn"),
    ({"first_turn": True, "riichi": True}, "first_turn"),
    ({"first_turn": True, "concealed": "456p678s234s99m", "winning_tile": "2s", "melds": [{"tiles": "234m"}]},
     "first_turn"),
    ({"dora_indicators": "1m2m3m4m5m6m"}, "dora_indicators"),
    ({"dora_indicators": "9m9m9m"}, "dora_indicators"),  # 99m in hand + 3 indicators = 5 copies
    ({"dora_indicators": "1m", "ura_indicators": "1p2p", "riichi": True}, "ura_indicators"),
    ({"dora_indicators": "1f"}, "dora_indicators"),
    ({"dora_indicators": [1, 2]}, "dora_indicators"),
    ({"red_five_count": 1}, "red_five_count"),
    ({"red_five_count": 1, "options": {"red_fives": True}, "concealed": "234m678p678s234s99m"},
     "red_five_count"),  # no five in the hand
    ({"red_five_count": 4, "options": {"red_fives": True}}, "red_five_count"),
    ({"riichi_sticks": -1}, "riichi_sticks"),
    ({"declaration_dealt_in": True}, "declaration_dealt_in"),
    ({"pao": "S"}, "pao"),
    ({"pao": "X"}, "pao"),
    ({"options": {"kazoe": "double"}}, "options.kazoe"),
    ({"options": {"honba_points": -300}}, "options.honba_points"),
    ({"options": {"nagashi": True}}, "options.nagashi"),
])
def test_bad_situations(extra, field):
    with pytest.raises(EngineError) as exc:
        score(req(**extra))
    assert exc.value.field == field, exc.value.message


def test_replacement_on_the_last_tile_is_refused():
    with pytest.raises(EngineError) as exc:
        score({"variant": "riichi", "concealed": "234p678s234s99m", "winning_tile": "2p", "winner": "S",
               "melds": [{"tiles": "4444z", "concealed": True}], "self_drawn": True, "replacement": True,
               "last_tile": True})
    assert exc.value.field == "last_tile"


def test_ippatsu_with_a_replacement_tile_is_refused():
    # 「立直後に吃・ポン・槓があれば失効するのは日本と同じです」: the riichi player's own concealed kong ends
    # ippatsu as well, so a win on the replacement tile can never be ippatsu (it would add 1 han).
    with pytest.raises(EngineError) as exc:
        score({"variant": "riichi", "concealed": "234p678s234s99m", "winning_tile": "2p", "winner": "S",
               "melds": [{"tiles": "4444z", "concealed": True}], "self_drawn": True, "replacement": True,
               "riichi": True, "ippatsu": True})
    assert exc.value.field == "ippatsu"


def test_no_yaku_is_a_clear_non_win():
    out = score({"variant": "riichi", "concealed": "456p678s345s99m", "winning_tile": "3s", "winner": "S",
                 "discarder": "W", "melds": [{"tiles": "123m"}]})
    assert out["winning"] is False and "yaku" in out["reason"]


def test_bad_events():
    for bad in ({"event": "chombo"}, {"event": "chombo", "offender": "X"},
                {"event": "exhaustive_draw", "tenpai": ["E", "E"]}, {"event": "uma", "scores": {"E": 1}},
                {"event": "uma", "scores": {"E": 1, "S": 2, "W": 3, "N": "x"}},
                {"event": "multiple_ron", "hands": []}, {"event": "multiple_ron", "hands": [1, 2]},
                {"event": "multiple_ron", "hands": [req(), req(self_drawn=True)]},
                {"event": "multiple_ron", "hands": [req(), req(winner="E", pao="N")]},
                {"event": "multiple_ron", "hands": [req(), req()]},  # the same winner twice
                {"event": "nagashi_mangan"}, {"event": "chombo", "offender": "S", "extra": 1}):
        with pytest.raises(EngineError):
            event({"variant": "riichi", **bad})


def test_cli_reports_errors_as_json(capsys, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(req(ippatsu=True))))
    assert main(["score"]) == 2
    out = json.loads(capsys.readouterr().out)
    assert out["error"]["field"] == "ippatsu"
