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
    # renhou (人和は散家の第一摸牌前の栄和): before S's first draw only the dealer, E, has discarded
    ({"round_wind": "W"}, "round_wind"),  # 東南半荘制: no West round
    ({"round_wind": "N"}, "round_wind"),
    ({"first_turn": True, "discarder": "W"}, "discarder"),
    ({"first_turn": True, "discarder": "N"}, "discarder"),
    # riichi needs four tiles left to draw: its player draws again before the last discard (no houtei ippatsu)
    ({"riichi": True, "ippatsu": True, "last_tile": True}, "ippatsu"),
    # the robbed kong holds the other three copies of the tile: a fifth and a sixth 2m
    ({"concealed": "222m456p678s234s55m", "robbed_kong": True}, "winning_tile"),
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


def test_a_replacement_win_needs_the_winners_kong():
    # 嶺上開花 is a win on the tile drawn for a kong; riichi has no flowers to draw for
    base = {"variant": "riichi", "concealed": "234m456p678s99m", "winning_tile": "2m", "winner": "S",
            "self_drawn": True, "replacement": True}
    with pytest.raises(EngineError) as exc:
        score({**base, "concealed": PINFU})
    assert exc.value.field == "replacement" and "kong" in exc.value.message
    out = score({**base, "melds": [{"tiles": "2222s", "concealed": True}]})
    assert out["winning"] and any("rinshan" in i["name"] for i in out["score"]["items"])


def test_renhou_from_each_player_before_the_winner_and_ippatsu_on_the_last_draw():
    # dealer S: the turn runs S, W, N, E, so E's renhou may come on S's, W's or N's first discard
    for discarder in ("S", "W", "N"):
        out = score(req(winner="E", dealer="S", discarder=discarder, first_turn=True))
        assert out["winning"] and out["score"]["limit"] == "mangan (renhou)"
    # haitei with ippatsu is possible: the riichi player's own next draw is the last tile
    out = score(req(discarder=None, self_drawn=True, riichi=True, ippatsu=True, last_tile=True))
    assert {"ippatsu", "haitei"} <= {i["name"].split("(")[-1].rstrip(")").split()[0] for i in out["score"]["items"]}


def test_thirteen_orphans_robbing_a_concealed_kong_holds_one_copy():
    # 暗槓搶槓は国士無双の場合のみ可: the concealed kong holds the other three
    base = {"variant": "riichi", "winning_tile": "7z", "winner": "S", "discarder": "W", "robbed_kong": True,
            "robbed_concealed_kong": True}
    with pytest.raises(EngineError) as exc:
        score({**base, "concealed": "19m19p19s12345677z"})
    assert exc.value.code == "too_many_copies"
    assert score({**base, "concealed": "19m19p19s11234567z"})["winning"]


def test_a_wait_on_tiles_all_held_is_no_wait():
    # 自分で四枚用いている牌しか待ち牌がない場合は形式聴牌としない: 1111m waits on 1m only, all four held
    out = score({"variant": "riichi", "concealed": "1111m234p567p789s"})
    assert out["waits"] == [] and out["shanten"] == 1 and out["explain"].startswith("not ready")
    out = score({"variant": "riichi", "concealed": "1112m234p567p789s"})  # waits on 2m and 3m: ready
    assert out["waits"] and out["shanten"] == 0


def test_a_riichi_winner_gets_their_own_stick_back_when_no_count_is_given():
    # 立直料については、和了した立直者には返還され: the winner's stick is on the table whatever the count says
    out = score(req(riichi=True))
    assert out["riichi_sticks"] == {"seat": "S", "sticks": 1, "points": 1000}
    assert score(req(riichi=True, riichi_sticks=3))["riichi_sticks"]["sticks"] == 3
    assert score(req())["riichi_sticks"]["sticks"] == 0
