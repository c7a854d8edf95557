"""A whole recorded Wenzhou session (document wenzhou.ja.txt, "2468" dealer units).

Worked by hand from the document ("子から子へは1枚 … “2468”なら,親になってすぐの手は2枚,
2連荘は4枚,3連荘は6枚,4連荘は8枚 … 軟牌なら1倍,硬牌なら2倍"; a self-draw and a hand
without caishen are hard, ×2). No hand below holds a caishen (indicator 9p):

* Hand 1, dealer E (first hand, unit 2): E self-draws: S, W, N pay 2×2 = 4 each, E +12.
  The dealer won: 連荘, streak 1.
* Hand 2, dealer E (streak 1, unit 4): S wins on W's discard: E pays 4×2 = 8, W and N
  1×2 = 2 each, S +12. A non-dealer won: the deal passes to S (親の右隣), streak 0.
* Draw with a kong (誰かがカンしたら親の右隣が次の親): the deal passes to W. Caishen money
  (財神銭) with it: W holds 1 caishen, +1 from each other player.
* Hand 3 is recorded by mistake and undone.
* Draw without a kong: the dealer W stays, the streak unchanged (親の倍数を変えないで連荘).
* Hands 4-7, dealer W: N's discard (unit 2: E, S, N pay 4 each), then three self-draws at
  streaks 1, 2, 3 (units 4, 6, 8: 8, 12, 16 from each). The win in the 4th hand as dealer
  (4連荘) passes the deal to N, streak 0.

Totals: E +12-8-1-4-36 = -37; S -4+12-1-4-36 = -33; W -4-2+3+12+108 = +117;
N -4-2-1-4-36 = -47. Sum 0.
"""
from __future__ import annotations

import csv
import io

PLAYERS = ["Wu", "Xu", "Yang", "Zhao"]
HAND = {"concealed": "123m456m789m123p456p77s", "winning_tile": "7s", "indicator": "9p"}


def test_a_wenzhou_session_with_2468_and_the_deal_passing(service, need_variant):
    need_variant("wenzhou")
    s = service.create("wenzhou", PLAYERS, options={"dealer_units": "2468"})
    sid = s["id"]
    assert s["next_context"] == {"dealer": "E", "dealer_streak": 0}

    r = service.record_hand(sid, s["version"], {**HAND, "winner": "E", "self_drawn": True})
    assert r["recorded"]["payments"] == {"E": 12, "S": -4, "W": -4, "N": -4}
    assert r["next_context"] == {"dealer": "E", "dealer_streak": 1}

    r = service.record_hand(sid, r["version"], {**HAND, "winner": "S", "discarder": "W",
                                                "dealer": "W", "dealer_streak": 3})  # typed-in state is ignored
    assert r["recorded"]["context"] == {"dealer": "E", "dealer_streak": 1}
    assert r["recorded"]["payments"] == {"E": -8, "S": 12, "W": -2, "N": -2}
    assert r["next_context"] == {"dealer": "S", "dealer_streak": 0}

    r = service.record_draw(sid, r["version"], {"kong": True}, "caishen_money", {"caishen_held": [0, 0, 1, 0]})
    assert r["recorded"]["payments"] == {"E": -1, "S": -1, "W": 3, "N": -1}
    assert r["next_context"] == {"dealer": "W", "dealer_streak": 0}

    r = service.record_hand(sid, r["version"], {**HAND, "winner": "N", "self_drawn": True})
    assert r["next_context"] == {"dealer": "N", "dealer_streak": 0}
    r = service.undo(sid, r["version"])
    assert r["next_context"] == {"dealer": "W", "dealer_streak": 0}

    r = service.record_draw(sid, r["version"], {})
    assert r["recorded"]["payments"] == {"E": 0, "S": 0, "W": 0, "N": 0}
    assert r["next_context"] == {"dealer": "W", "dealer_streak": 0}

    r = service.record_hand(sid, r["version"], {**HAND, "winner": "W", "discarder": "N"})
    assert r["recorded"]["payments"] == {"E": -4, "S": -4, "W": 12, "N": -4}
    streaks = []
    for _ in range(3):
        streaks.append(r["next_context"]["dealer_streak"])
        r = service.record_hand(sid, r["version"], {**HAND, "winner": "W", "self_drawn": True})
        each = -r["recorded"]["payments"]["E"]
        assert r["recorded"]["payments"] == {"E": -each, "S": -each, "W": 3 * each, "N": -each}
        streaks.append(each)
    assert streaks == [1, 8, 2, 12, 3, 16]
    assert r["next_context"] == {"dealer": "N", "dealer_streak": 0}

    assert r["totals"] == {"E": -37, "S": -33, "W": 117, "N": -47}
    assert r["totals_by_player"] == {"Wu": -37, "Xu": -33, "Yang": 117, "Zhao": -47}
    rows = list(csv.reader(io.StringIO(service.export_csv(sid))))
    assert [row[1] for row in rows[1:]] == ["hand", "hand", "draw", "draw", "hand", "hand", "hand", "hand"]
    assert [row[5] for row in rows[1:]] == ["E", "E", "S", "W", "W", "W", "W", "W"]  # the dealer column
    assert rows[-1][-4:] == ["-37", "-33", "117", "-47"]
    exported = service.export_json(sid)
    assert exported["state"]["dealer"] == "N"
    assert service.import_json(exported)["totals"] == r["totals"]
