"""A whole recorded Philippine session (document philippine.ja.txt).

The mano (dealer) is chosen by dice each hand in this game, so the dealer is
given with each hand; the chips carry between hands and come from the engine's
``advance``. Worked by hand from the document:

* Hand 1: S wins on W's discard, plain (flores set aside): "振込みの場合は振った人が
  10ペソでチップ1枚": W -10, S +10; chips S 1.
* Event: N makes a kong: "カン…はその場で5ペソ通し": N +15, the others -5 each.
* Hand 2: S self-draws, plain: "積もの場合はみんなから10ペソでチップ2枚": S +30, the others
  -10 each; chips S 3.
* Hand 3: recorded by mistake (E self-draws), undone: E's chips are not counted.
* Hand 4: S self-draws again: +2 chips make 5, "チップを5枚溜めるとハイアライ…更に5ペソ通し":
  S +30 +15, the others -15 each; every chip goes back (all 0).
* Event: E's false win: "P10通しのペナルティ": E -30, the others +10 each.

Totals: E -5-10-15-30 = -60; S +10-5+30+45+10 = +90; W -10-5-10-15+10 = -30;
N +15-10-15+10 = 0. Sum 0.
"""
from __future__ import annotations

import csv
import io

PLAYERS = ["Ana", "Berto", "Carlo", "Dina"]
PLAIN = {"concealed": "123m456m789p234s567s99s", "winning_tile": "9s", "flowers": "1f", "indicator": "1p"}


def test_a_philippine_session_with_chips_and_hi_ala(service, need_variant):
    need_variant("philippine")
    s = service.create("philippine", PLAYERS)
    sid = s["id"]
    assert s["next_context"] == {"chips_before": [0, 0, 0, 0]}

    r = service.record_hand(sid, s["version"], {**PLAIN, "winner": "S", "discarder": "W", "dealer": "E"})
    assert r["recorded"]["payments"] == {"E": 0, "S": 10, "W": -10, "N": 0}
    assert r["state"]["chips"] == {"E": 0, "S": 1, "W": 0, "N": 0}

    r = service.record_event(sid, r["version"], "kong", {"seat": "N"})
    assert r["recorded"]["payments"] == {"E": -5, "S": -5, "W": -5, "N": 15}
    assert r["state"]["chips"] == {"E": 0, "S": 1, "W": 0, "N": 0}  # an event moves money only

    r = service.record_hand(sid, r["version"], {**PLAIN, "winner": "S", "self_drawn": True, "dealer": "S"})
    assert r["recorded"]["context"] == {"chips_before": [0, 1, 0, 0]}
    assert r["recorded"]["payments"] == {"E": -10, "S": 30, "W": -10, "N": -10}
    assert r["next_context"] == {"chips_before": [0, 3, 0, 0]}

    r = service.record_hand(sid, r["version"], {**PLAIN, "winner": "E", "self_drawn": True, "dealer": "S"})
    assert r["state"]["chips"]["E"] == 2
    r = service.undo(sid, r["version"], reason="Ana had not won")
    assert r["state"]["chips"] == {"E": 0, "S": 3, "W": 0, "N": 0}

    r = service.record_hand(sid, r["version"], {**PLAIN, "winner": "S", "self_drawn": True, "dealer": "N",
                                                "chips_before": [4, 4, 4, 4]})  # typed-in chips are ignored
    assert r["recorded"]["context"] == {"chips_before": [0, 3, 0, 0]}
    assert r["recorded"]["payments"] == {"E": -15, "S": 45, "W": -15, "N": -15}
    assert r["state"]["chips"] == {"E": 0, "S": 0, "W": 0, "N": 0}

    r = service.record_event(sid, r["version"], "false_win", {"seat": "E"})
    assert r["recorded"]["payments"] == {"E": -30, "S": 10, "W": 10, "N": 10}

    assert r["totals"] == {"E": -60, "S": 90, "W": -30, "N": 0}
    assert r["totals_by_player"] == {"Ana": -60, "Berto": 90, "Carlo": -30, "Dina": 0}
    assert r["hands"] == 3 and r["entries"] == 5

    rows = list(csv.reader(io.StringIO(service.export_csv(sid))))
    assert [row[1:3] for row in rows[1:]] == [["hand", "win"], ["event", "kong"], ["hand", "win"], ["hand", "win"],
                                              ["event", "false_win"]]
    assert [row[-4:] for row in rows[1:]] == [["0", "10", "-10", "0"], ["-5", "5", "-15", "15"],
                                              ["-15", "35", "-25", "5"], ["-30", "80", "-40", "-10"],
                                              ["-60", "90", "-30", "0"]]
    moved = service.import_json(service.export_json(sid))
    assert moved["totals"] == r["totals"] and moved["state"]["chips"] == r["state"]["chips"]
    assert [e["status"] for e in moved["history"]] == ["active", "active", "active", "undone", "active", "active"]
