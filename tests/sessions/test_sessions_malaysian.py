"""A whole recorded Malaysian 3-player session (document malaysian-3p.ja.txt).

"ツモの場合、他家の二人が番数×200 … ロンの場合は、放銃した人が番数×200、もう一人が番数×100";
爆 (10 fan) is paid as 20; kongs are paid on the spot ("暗槓…各自から千点、明槓…鳴かれた
人から千点"); the winner deals the next hand ("上がった人が次局の東風"). Worked by hand:

* Hand 1, dealer E: S self-draws 111p 333p 555p 777p 99p with 冬: 全筒子對對碰 5 + 冬 1
  = 6 fan: E and W pay 1200 each, S +2400. S deals next.
* Event: W's concealed kong: E and S pay 1000 each.
* Hand 2: W wins on E's discard with the same hand: E 1200, S 600, W +1800. W deals.
* Hand 3 is recorded by mistake and undone.
* Event: S's exposed kong on E's discard: E pays S 1000.
* Draw: the dealer W keeps the deal (streak 1).
* Hand 4: W self-draws 123p 456p 789p 234p 99p with no flowers and no melds: 面前無花,
  爆: 20 × 200 from each, W +8000 ("爆で自分がツモ 自分 +8000"). W keeps the deal.

Totals: E -1200-1000-1200-1000-4000 = -8400; S +2400-1000-600+1000-4000 = -2200;
W -1200+2000+1800+8000 = +10600. Sum 0.
"""
from __future__ import annotations

PLAYERS = ["Ali", "Bee Lian", "Chandra"]
PUNGS = {"concealed": "111p333p555p777p99p", "winning_tile": "9p", "flowers": "4f"}
BAO = {"concealed": "123p456p789p234p99p", "winning_tile": "9p"}


def test_a_malaysian_session_with_kongs_and_bao(service, need_variant):
    need_variant("malaysian")
    s = service.create("malaysian", PLAYERS)
    sid = s["id"]
    assert [p["seat"] for p in s["players"]] == ["E", "S", "W"]

    r = service.record_hand(sid, s["version"], {**PUNGS, "winner": "S", "self_drawn": True})
    assert r["recorded"]["payments"] == {"E": -1200, "S": 2400, "W": -1200}
    assert r["next_context"]["dealer"] == "S"
    r = service.record_event(sid, r["version"], "kong", {"kong": "concealed", "player": "W"})
    assert r["recorded"]["payments"] == {"E": -1000, "S": -1000, "W": 2000}
    r = service.record_hand(sid, r["version"], {**PUNGS, "winner": "W", "discarder": "E"})
    assert r["recorded"]["payments"] == {"E": -1200, "S": -600, "W": 1800}
    wrong = service.record_hand(sid, r["version"], {**PUNGS, "winner": "E", "self_drawn": True})
    r = service.undo(sid, wrong["version"], seq=wrong["recorded"]["seq"])
    assert r["next_context"]["dealer"] == "W"
    r = service.record_event(sid, r["version"], "kong", {"kong": "exposed", "player": "S", "discarder": "E"})
    assert r["recorded"]["payments"] == {"E": -1000, "S": 1000, "W": 0}
    r = service.record_draw(sid, r["version"])
    assert (r["next_context"]["dealer"], r["next_context"]["dealer_streak"]) == ("W", 1)
    r = service.record_hand(sid, r["version"], {**BAO, "winner": "W", "self_drawn": True})
    assert r["recorded"]["payments"] == {"E": -4000, "S": -4000, "W": 8000}
    assert (r["next_context"]["dealer"], r["next_context"]["dealer_streak"]) == ("W", 2)

    assert r["totals"] == {"E": -8400, "S": -2200, "W": 10600}
    assert r["totals_by_player"] == {"Ali": -8400, "Bee Lian": -2200, "Chandra": 10600}
    csv_text = service.export_csv(sid)
    assert csv_text.splitlines()[0].startswith("seq,kind,name,winner,discarder,dealer,points,Ali (E)")
    assert csv_text.splitlines()[-1].endswith(",-8400,-2200,10600")
    assert service.import_json(service.export_json(sid))["totals"] == r["totals"]
