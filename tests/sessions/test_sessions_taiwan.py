"""A whole recorded Taiwanese 16-tile session (document taiwan-16.ja.txt, 底50/台20).

Every payer pays 台 × 20 + 50; 連莊/拉莊 add 2n+1 台 to the payments that involve
the dealer (section 4). The hand: 123m 456m 789p 234s 白白白 + 9s pair, won on 9s:
門前 1 (or 門前自摸 3 when self-drawn), 三元牌 白 1, 獨聽 1; 莊家 1 when the dealer
wins; the summer flower 夏 is S's seat flower, 1. Worked by hand:

* Hand 1, dealer E, streak 0: E self-draws: 3+1+1+1 = 6 台, 170 from each; E +510.
  The dealer won: 連1.
* Exhaustive draw: 連荘 on a draw too: 連2.
* Hand 2, dealer E, 連2: E self-draws: 6 + 5 = 11 台, 270 from each; E +810. 連3.
* Hand 3 is recorded by mistake and undone.
* Hand 4, dealer E, 連3: N wins on E's discard: 門前 1 + 白 1 + 獨聽 1 + 拉3 7 = 10 台 =
  250 from E. The deal passes to S (下家), streak 0.
* Hand 5, dealer S: S wins on W's discard with 夏: 1+1+1+1 + 莊家 1 = 5 台 = 150 from W.

Totals: E +510+810-250 = 1070; S -170-270+150 = -290; W -170-270-150 = -590;
N -170-270+250 = -190. Sum 0.
"""
from __future__ import annotations

import csv
import io

PLAYERS = ["Lin", "Chen", "Wang", "Huang"]
HAND = {"concealed": "123m456m789p234s555z99s", "winning_tile": "9s"}


def test_a_taiwanese_session_with_lian_and_la_zhuang(service, need_variant):
    need_variant("taiwan")
    s = service.create("taiwan", PLAYERS, options={"base": 50, "tai_value": 20})
    sid = s["id"]
    assert s["next_context"] == {"dealer": "E", "dealer_streak": 0, "round_wind": "E"}

    r = service.record_hand(sid, s["version"], {**HAND, "winner": "E", "self_drawn": True})
    assert r["recorded"]["payments"] == {"E": 510, "S": -170, "W": -170, "N": -170}
    r = service.record_draw(sid, r["version"])
    assert r["next_context"] == {"dealer": "E", "dealer_streak": 2, "round_wind": "E"}

    r = service.record_hand(sid, r["version"], {**HAND, "winner": "E", "self_drawn": True})
    assert r["recorded"]["payments"] == {"E": 810, "S": -270, "W": -270, "N": -270}
    wrong = service.record_hand(sid, r["version"], {**HAND, "winner": "W", "self_drawn": True})
    assert wrong["next_context"]["dealer"] == "S"
    r = service.undo(sid, wrong["version"])
    assert r["next_context"] == {"dealer": "E", "dealer_streak": 3, "round_wind": "E"}

    r = service.record_hand(sid, r["version"], {**HAND, "winner": "N", "discarder": "E"})
    assert r["recorded"]["payments"] == {"E": -250, "S": 0, "W": 0, "N": 250}
    assert r["next_context"] == {"dealer": "S", "dealer_streak": 0, "round_wind": "E"}

    r = service.record_hand(sid, r["version"], {**HAND, "flowers": "2f", "winner": "S", "discarder": "W"})
    assert r["recorded"]["payments"] == {"E": 0, "S": 150, "W": -150, "N": 0}
    assert r["next_context"] == {"dealer": "S", "dealer_streak": 1, "round_wind": "E"}

    assert r["totals"] == {"E": 1070, "S": -290, "W": -590, "N": -190}
    rows = list(csv.reader(io.StringIO(service.export_csv(sid))))
    assert [row[1] for row in rows[1:]] == ["hand", "draw", "hand", "hand", "hand"]
    assert [row[-4:] for row in rows[1:3]] == [["510", "-170", "-170", "-170"], ["510", "-170", "-170", "-170"]]
    assert rows[-1][-4:] == ["1070", "-290", "-590", "-190"]
    assert service.import_json(service.export_json(sid))["next_context"] == r["next_context"]
